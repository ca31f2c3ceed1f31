"""Misrouted request, AG2 GroupChat with a custom speaker-selection function (AG2's "customized
speaker selection" example: a function of `(last_speaker, groupchat)` that decides who speaks,
tool calls going to a proxy that runs them): a school's online maths homework club.

`desk` greets the pupil; the app's selection function then gives the turn to the tutor whose
topic words the request uses: `algebra_t` marks equation sheets (`mark_algebra`), `geometry_t`
angle and shape sheets (`mark_geometry`); both tools are registered for their tutor's model and
run by the proxy `club_pc`, which also speaks for the pupil.

Seeded: the function reads the topic from the newest message, which by then is desk's welcome
("... our algebra, geometry and statistics tutors ..."), so every request goes to algebra_t, who
cannot mark a geometry sheet and asks for an equation's answer. Fixed: it reads the pupil's own
message, the chat's first.
"""

from typing import Annotated

import autogen

from .models import ag2_config

SHEET = Annotated[str, 'The worksheet code printed top right, like "GW-0000"']

# worksheet -> question -> model answer
GEOMETRY = {"GW-0315": {"q4": ("47°", "angles in a triangle add to 180°: 180 - 62 - 71 = 47")}}
ALGEBRA = {"AW-0212": {"q2": ("x = 7", "3x + 5 = 26, so 3x = 21")}}

TOPICS = ((("equation", "algebra", "solve", "expand", "factorise"), "algebra_t"),
          (("angle", "triangle", "geometry", "circle", "polygon"), "geometry_t"))


def mark_geometry(sheet: SHEET, answer: Annotated[str, 'The pupil\'s answer in degrees, like "90°"']) -> tuple:
    """Mark a pupil's answer to the angle question of a geometry worksheet."""
    questions = GEOMETRY.get(sheet)
    if questions is None:
        return ("unbekannt", f"no geometry sheet {sheet}")
    expected, working = questions["q4"]
    return ("richtig", working) if answer.replace(" ", "") == expected else ("falsch", f"check again: {working}")


def mark_algebra(sheet: SHEET, answer: Annotated[str, 'The pupil\'s solution, like "x = 3"']) -> dict:
    """Mark a pupil's solution to an equation on an algebra worksheet."""
    questions = ALGEBRA.get(sheet)
    if questions is None:
        return {"sheet": sheet, "marked": False, "why": "not an algebra sheet"}
    expected, working = questions["q2"]
    return {"sheet": sheet, "marked": True, "correct": answer.replace(" ", "") == expected.replace(" ", ""),
            "working": working}


DESK = """You welcome pupils to the Thursday maths homework club.
Say "Hi, thanks for writing in! One of our algebra, geometry and statistics tutors will look at your sheet now.\""""

ALGEBRA_T = """You mark algebra homework: equations, expanding and factorising.
Call mark_algebra.
If mark_algebra raises an error, say "The marking sheet won't open - a tutor will reply by e-mail tonight."
Report the result of mark_algebra."""

GEOMETRY_T = """You mark geometry homework: angles, triangles, circles and polygons.
Call mark_geometry.
If mark_geometry raises an error, say "The marking sheet won't open - a tutor will reply by e-mail tonight."
Report the result of mark_geometry."""


def run(task: str, read_from_pupil: bool):
    desk = autogen.AssistantAgent("desk", llm_config=ag2_config(), system_message=DESK,
                                  description="Welcomes pupils to the club.")
    algebra_t = autogen.AssistantAgent("algebra_t", llm_config=ag2_config(), system_message=ALGEBRA_T,
                                       description="Marks algebra: equations, expanding, factorising.")
    geometry_t = autogen.AssistantAgent("geometry_t", llm_config=ag2_config(), system_message=GEOMETRY_T,
                                        description="Marks geometry: angles, triangles, circles, polygons.")
    club_pc = autogen.UserProxyAgent("club_pc", human_input_mode="NEVER", code_execution_config=False)
    autogen.register_function(mark_algebra, caller=algebra_t, executor=club_pc, description=mark_algebra.__doc__)
    autogen.register_function(mark_geometry, caller=geometry_t, executor=club_pc, description=mark_geometry.__doc__)

    def tutor_for(text: str):
        low = text.lower()
        for words, name in TOPICS:
            if any(w in low for w in words):
                return groupchat.agent_by_name(name)
        return None

    def next_speaker(last, groupchat):
        messages = groupchat.messages
        if messages[-1].get("tool_calls"):
            return club_pc
        if last is club_pc and len(messages) > 1:  # a tool answered: back to whoever called it
            return groupchat.agent_by_name(messages[-2]["name"])
        if last is club_pc:  # the pupil's message
            return desk
        if last is desk:
            topic = messages[0] if read_from_pupil else messages[-1]
            return tutor_for(topic.get("content") or "")
        return None  # a tutor's answer to the pupil ends the chat

    groupchat = autogen.GroupChat([club_pc, desk, algebra_t, geometry_t], messages=[], max_round=10,
                                  speaker_selection_method=next_speaker)
    manager = autogen.GroupChatManager(groupchat, llm_config=ag2_config())
    return club_pc.initiate_chat(manager, message=task)


TASK = "Worksheet GW-0315, the triangle one: I got 47° for the missing angle - is that right?"


def seeded():
    return run(TASK, read_from_pupil=False)


def fixed():
    return run(TASK, read_from_pupil=True)
