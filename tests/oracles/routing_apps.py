"""A system whose app code routes a request, with a seeded routing defect and its fixed twin, run
by the zoo's scripted policy (each agent does as its instructions say).

`ag2_swim_desk_*`: an AG2 group chat whose next speaker a function of the app picks by reading
the request: "lesson" sends it to the lessons desk, anything else to the pool's info desk. The
seeded function looks for "Lesson" with a capital, so a request written in lower case falls
through to the info desk, which cannot book.

`ag2_bike_workshop_*`: a greeter speaks first, then the function picks the mechanic (below).
"""

from typing import Annotated

import autogen

DAY = Annotated[str, 'The day, like "2026-01-31"']
CONFIG = {"config_list": [{"model": "gpt-4o-mini", "api_key": "not-set"}], "cache_seed": None}


def book_lesson(day: DAY, swimmer: Annotated[str, "The swimmer's name"]) -> dict:
    """Book a swimmer into a beginners' swimming lesson."""
    return {"day": day, "swimmer": swimmer, "lane": 2, "ref": "sw-3310"}


def opening_hours(day: DAY) -> str:
    """When the pool is open to the public on a day."""
    return f"{day}: 07:00-21:00, adults only 19:00-21:00"


def _swim_desk(keyword: str, *, any_case: bool) -> autogen.GroupChatManager:
    pc = autogen.UserProxyAgent("desk_pc", human_input_mode="NEVER", code_execution_config=False,
                                default_auto_reply="")
    lessons = autogen.AssistantAgent(
        "lessons", llm_config=CONFIG,
        system_message="You book swimming lessons. Call book_lesson. Report the result of book_lesson.")
    info = autogen.AssistantAgent(
        "info", llm_config=CONFIG,
        system_message="You answer questions about the pool. Call opening_hours. Report the result of opening_hours.")
    for fn, caller in ((book_lesson, lessons), (opening_hours, info)):
        autogen.register_function(fn, caller=caller, executor=pc, description=fn.__doc__)

    def next_speaker(last, chat):
        message = chat.messages[-1]
        if message.get("tool_calls"):
            return pc  # it runs the tool ...
        if last is pc and len(chat.messages) > 1 and chat.messages[-2].get("tool_calls"):
            return chat.agent_by_name(chat.messages[-2]["name"])  # ... and the answer goes back
        if last is pc:  # the request: routed by what it asks for
            text = str(message.get("content") or "")
            return lessons if keyword in (text.lower() if any_case else text) else info
        return None  # an answer ends the chat

    group = autogen.GroupChat(agents=[pc, lessons, info], messages=[], max_round=8,
                              speaker_selection_method=next_speaker)
    return autogen.GroupChatManager(groupchat=group, llm_config=CONFIG)


def ag2_swim_desk_seeded():
    return _swim_desk("Lesson", any_case=False)


def ag2_swim_desk_fixed():
    return _swim_desk("lesson", any_case=True)


# `ag2_bike_workshop_*`: an AG2 group in which a greeter speaks first and the app's function then
# gives the turn to the mechanic whose job words a message uses, looked up by a helper in a table.
# The seeded function reads the newest message, the greeter's welcome, which names brakes first:
# a tyre job goes to the brakes mechanic. The fixed one reads the customer's own message.
JOBS = {"brake": "brakes_m", "tyre": "tyres_m", "puncture": "tyres_m"}


def fit_tyre(ticket: Annotated[str, 'The repair ticket, like "BK-0000"'],
             size: Annotated[str, 'The tyre size, like "700x28c"']) -> dict:
    """Fit a new tyre to a customer's bike."""
    return {"ticket": ticket, "fitted": size, "ready": "17:00"}


def bleed_brakes(ticket: Annotated[str, 'The repair ticket, like "BK-0000"'],
                 fluid: Annotated[str, 'The brake fluid, like "DOT 4"']) -> dict:
    """Bleed the hydraulic brakes of a customer's bike."""
    return {"ticket": ticket, "fluid": fluid, "bled": True, "ready": "17:00"}


def mechanic_for(message: dict) -> str | None:
    low = str(message.get("content") or "").lower()
    return next((name for word, name in JOBS.items() if word in low), None)


def _bike_workshop(read_customer: bool) -> autogen.GroupChatManager:
    pc = autogen.UserProxyAgent("till", human_input_mode="NEVER", code_execution_config=False,
                                default_auto_reply="")
    counter = autogen.AssistantAgent(
        "counter", llm_config=CONFIG, description="Greets customers at the workshop.",
        system_message='Say "Welcome to the workshop! Our brake, gear and tyre mechanics will look at your bike now."')
    brakes = autogen.AssistantAgent(
        "brakes_m", llm_config=CONFIG, description="Services brakes.",
        system_message="You service brakes. Call bleed_brakes. Report the result of bleed_brakes.")
    tyres = autogen.AssistantAgent(
        "tyres_m", llm_config=CONFIG, description="Fits tyres and mends punctures.",
        system_message="You fit tyres. Call fit_tyre. Report the result of fit_tyre.")
    for fn, caller in ((bleed_brakes, brakes), (fit_tyre, tyres)):
        autogen.register_function(fn, caller=caller, executor=pc, description=fn.__doc__)

    def next_speaker(last, chat):
        messages = chat.messages
        if messages[-1].get("tool_calls"):
            return pc
        if last is pc and len(messages) > 1:  # a tool answered: back to its caller
            return chat.agent_by_name(messages[-2]["name"])
        if last is pc:
            return counter
        if last is counter:
            name = mechanic_for(messages[0] if read_customer else messages[-1])
            return chat.agent_by_name(name) if name else None
        return None

    group = autogen.GroupChat(agents=[pc, counter, brakes, tyres], messages=[], max_round=10,
                              speaker_selection_method=next_speaker)
    return autogen.GroupChatManager(groupchat=group, llm_config=CONFIG)


def ag2_bike_workshop_seeded():
    return _bike_workshop(read_customer=False)


def ag2_bike_workshop_fixed():
    return _bike_workshop(read_customer=True)
