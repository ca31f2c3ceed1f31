"""Information loss, Google ADK (`SequentialAgent`, `output_key` state passing): a llama trekking
farm's booking line. `intake` writes the walker's message up as a JSON brief, which ADK stores in
the session state under `trek_brief`; `trail_boss` books the trek with `book_trek` from that brief
alone (`include_contents="none"`: its instruction carries `{trek_brief}`, so it never rereads the
customer's chatty message). `book_trek` needs the walker's membership number, which pays the
member rate and carries the signed safety waiver.

Seeded: intake's instruction lists the brief's keys as the date and party size only (the web form
it was copied from took members' numbers at login): the membership number never reaches
trail_boss, who has to ask for it. Fixed: the brief has a member_no key too.
"""

from typing import Annotated

from google.adk.agents import LlmAgent, SequentialAgent
from pydantic import Field

from .models import adk_model

MEMBERS = {"LT-3390": "waiver signed 2025-11-02", "LT-1204": "waiver missing"}
TREKS: list[tuple] = []


def book_trek(
        member_no: Annotated[str, Field(description='The walker\'s membership number, like "LT-0000"')],
        trek_date: Annotated[str, Field(description='The day of the trek, like "2026-01-31"')],
        walkers: Annotated[int, Field(description="How many people walk, one llama each")],
) -> dict:
    """Book a half-day llama trek over Pen-y-Garn for a member's party."""
    if member_no not in MEMBERS:
        return {"ok": False, "grund": f"no member {member_no}"}
    TREKS.append((member_no, trek_date, walkers))
    return {"ok": True, "trek": {"ref": f"LL-{720 + len(TREKS)}", "llamas": walkers, "meet": "the top yard, 09:30"}}


def build(keys: str) -> SequentialAgent:
    intake = LlmAgent(
        name="intake", model=adk_model(), description="Reads the trekking line's messages.",
        instruction=f"You read messages to Pen-y-Garn Llama Treks.\nSummarise the request as JSON with the keys {keys}.",
        output_key="trek_brief")
    trail_boss = LlmAgent(
        name="trail_boss", model=adk_model(), description="Books treks and llamas.",
        instruction="You book the llamas at Pen-y-Garn Llama Treks.\n"
                    "The brief: {trek_brief}\n"
                    "Book the trek with book_trek.\n"
                    "If book_trek returns false, say \"We could not find that membership.\"\n"
                    "Report the booking.",
        tools=[book_trek], include_contents="none")
    return SequentialAgent(name="trek_line", sub_agents=[intake, trail_boss])


def seeded():
    return build("trek_date and party_size")


def fixed():
    return build("trek_date, party_size and member_no")
