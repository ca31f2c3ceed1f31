"""Incorrect verification, OpenAI Agents SDK: a canal trust's lock-passage line. Boaters ask
`lockline` for an assisted passage down a staffed flight; it hands off to `a1`, which reserves a
slot with `reserve_passage`. The flight's booking service is an old one: it answers a plain
English sentence, "Could not reserve: ..." when a passage is full, never an error.

a1's instructions are one template filled per flight. Seeded: its last line, a summary list the
boaters liked, follows the reservation whatever the sentence said. Fixed: a line before it
answers a full passage.
"""

from __future__ import annotations

from agents import Agent, function_tool

from .models import model_string

BOATS_PER_PASSAGE = 8
PASSAGES = {"2026-05-02 14:30": 8, "2026-05-02 16:00": 3}  # passage -> boats already booked


@function_tool
def reserve_passage(licence: str, passage: str) -> str:
    """Reserve an assisted passage down the flight for a boat.

    Args:
        licence: The boat's licence number as on its windows, like "CRT 500000".
        passage: The passage's date and start time, like "2026-01-31 09:00".
    """
    booked = PASSAGES.get(passage, 0)
    if booked >= BOATS_PER_PASSAGE:
        return f"Could not reserve: the {passage} passage is full ({booked} of {BOATS_PER_PASSAGE} boats)."
    PASSAGES[passage] = booked + 1
    return f"Reserved: {licence} in the {passage} passage, place {booked + 1} of {BOATS_PER_PASSAGE}."


TEMPLATE = """You book assisted passages down the {flight} for boaters.
Call reserve_passage.
If reserve_passage raises an error, say "The passage diary is offline; the lock keeper at the top lock will fit you in on the day if there is room."
{full_line}Say "Summary: passage booked, licence checked, lock keeper told. Moor on the lock landing 15 minutes before your time."
"""

FULL_LINE = ('If reserve_passage answers full, say "Sorry, that passage is full, so I could not reserve it. The lock '
             'keeper runs another passage later in the afternoon; tell me if you would like that one."\n')


def build(full_line: str) -> Agent:
    a1 = Agent(name="a1", model=model_string(), tools=[reserve_passage],
               instructions=TEMPLATE.format(flight="Tardebigge flight", full_line=full_line))
    return Agent(name="lockline", model=model_string(), handoffs=[a1], instructions=(
        "You answer boaters on the canal trust's lock line.\n"
        "Hand off to a1 when the request mentions passage, lock, flight or book.\n"
        'Say "For stoppages and water levels see the notices page."'))


def seeded():
    return build("")


def fixed():
    return build(FULL_LINE)
