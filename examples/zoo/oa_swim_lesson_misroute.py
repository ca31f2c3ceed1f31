"""Misrouted request, Agents SDK agents as tools: a leisure centre's pool desk. poolside answers
swimmers and asks two teams through tools made with `Agent.as_tool`: `ask_lessons` runs lessons_a,
who moves a learner between lesson groups (`move_learner`), and `ask_lanes` runs lanes_b, who
books lane swims.

Seeded: `ask_lessons` was made by copying the lanes line and changing its name and description
only: it still runs lanes_b, whose tools cannot move a learner, though poolside picks the right
tool. Fixed: `ask_lessons` runs lessons_a.
"""

from typing import Annotated

from agents import Agent, function_tool

from .models import model_string

LEARNER = Annotated[str, 'The learner\'s number on the lesson card, like "s-0000"']
GROUP = Annotated[str, 'The lesson group, like "Sat 09:00 Stage 3"']


@function_tool
def move_learner(learner: LEARNER, group: GROUP) -> dict:
    """Move a learner to another lesson group from next week (the term's fee stays the same)."""
    return {"learner": learner, "group": group, "from": "2026-05-09", "teacher": "Dev", "moved": True}


@function_tool
def stage_criteria(stage: Annotated[str, 'The stage, like "Stage 4"']) -> str:
    """What a learner must swim to pass a stage."""
    return f"{stage}: 10 m front crawl, push and glide, tread water 30 s"


@function_tool
def book_lane(slot: Annotated[str, 'The lane swim, like "Tue 07:00"']) -> str:
    """Book a place in a lane swim session."""
    return f"{slot}: place booked, lane 3 (medium)"


@function_tool
def lane_timetable() -> list[str]:
    """This week's lane swim sessions."""
    return ["Mon 07:00", "Tue 07:00", "Wed 12:15", "Fri 19:30"]


lessons_a = Agent(name="lessons_a", model=model_string(), tools=[move_learner, stage_criteria],
                  instructions="you run the swimming lessons at Millbrook Pool. If move_learner raises an error, say "
                               "\"The lessons system is down; ask at reception on Saturday.\" Call move_learner. "
                               "Report the result of move_learner.")
lanes_b = Agent(name="lanes_b", model=model_string(), tools=[book_lane, lane_timetable],
                instructions="you book lane swims at Millbrook Pool. Call book_lane when the request mentions lane, "
                             "session or swim. Report the result of book_lane. Say \"I can book lane swims only - "
                             "lessons are another team.\"")


def build(lessons_team: Agent) -> Agent:
    ask_lessons = lessons_team.as_tool(tool_name="ask_lessons",
                                       tool_description="Ask the lessons team: groups, stages, moving a learner.")
    ask_lanes = lanes_b.as_tool(tool_name="ask_lanes", tool_description="Ask the lanes team: lane swim bookings.")
    return Agent(name="poolside", model=model_string(), tools=[ask_lessons, ask_lanes],
                 instructions="you answer swimmers at Millbrook Pool. Call ask_lessons when the request mentions "
                              "lesson, learner, group or stage. Call ask_lanes when the request mentions lane. Report "
                              "the result of ask_lessons. Report the result of ask_lanes.")


def seeded():
    return build(lanes_b)


def fixed():
    return build(lessons_a)
