"""Incorrect verification, AG2 (an assistant whose tool the customer's proxy runs, registered
with `register_for_llm` / `register_for_execution`): a clock repairer's workshop desk. `tick_desk`
arranges to collect a clock for repair with `schedule_collection`; the van rota answers a tuple
of an HTTP-like code and a dict whose `state` is SCHEDULED, or FULLY_BOOKED when the two-person
crew a longcase clock needs is already out that day.

Seeded: the desk's lines were written when every collection went in the small van, which always
had room, so they go from `schedule_collection` straight to confirming it, whatever the state.
Fixed: a line first answers FULLY_BOOKED with what the rota said.
"""

from typing import Annotated, Literal

import autogen

from .models import ag2_config

CREW_OUT = {"2026-06-12"}  # days the two-person crew is already out
BOOKED: list[str] = []


def schedule_collection(
        postcode: Annotated[str, 'Where the clock is collected from, a postcode, e.g. "HG1 2AB"'],
        day: Annotated[str, 'The day of the collection, e.g. "2026-01-31"'],
        clock: Annotated[Literal["mantel", "wall", "longcase", "carriage"], "The kind of clock"]) -> tuple:
    """Put a clock collection on the van rota; it comes back to the workshop for repair."""
    if clock == "longcase" and day in CREW_OUT:
        return (200, {"state": "FULLY_BOOKED", "day": day,
                      "nota": "Zweimannteam ausgebucht - two-person crew already out that day"})
    BOOKED.append(postcode)
    return (201, {"state": "SCHEDULED", "ref": f"TK-{3300 + len(BOOKED)}", "day": day, "window": "09:00-13:00"})


SYSTEM = """You are the workshop desk of Harrogate Clock Restoration.
Book the collection with schedule_collection.
{full}Confirm the collection to the customer."""

FULL = "If schedule_collection says FULLY_BOOKED, explain what the system said and offer another day.\n"


def run(task: str, full: str):
    tick_desk = autogen.AssistantAgent("tick_desk", llm_config=ag2_config(), system_message=SYSTEM.format(full=full))
    customer = autogen.UserProxyAgent("customer", human_input_mode="NEVER", code_execution_config=False,
                                      max_consecutive_auto_reply=3)
    tick_desk.register_for_llm(name="schedule_collection", description=schedule_collection.__doc__)(schedule_collection)
    customer.register_for_execution(name="schedule_collection")(schedule_collection)
    return customer.initiate_chat(tick_desk, message=task, max_turns=2)


TASK = ("Good morning! My late father's longcase clock has stopped again, it's been in the family since 1870 and "
        "the pendulum just won't keep going, I think something's worn. It's far too heavy for me to bring in. "
        "Could you collect it from HG2 8QT on 2026-06-12? I'm in all morning, there's parking on the drive.")


def seeded():
    return run(TASK, "")


def fixed():
    return run(TASK, FULL)
