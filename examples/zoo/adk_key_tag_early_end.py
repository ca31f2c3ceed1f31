"""Premature termination, Google ADK (an agent with a tool and a sub-agent it transfers to): a
key-cutting kiosk's message line. `kiosk` cuts a key from the customer's blank code with
`cut_key`, then passes the engraving of a key tag to `engrave_e`, who books it with `engrave_tag`.

Seeded: `cut_key` was written from the receipt printer's tool, which speaks for itself, and keeps
its `tool_context.actions.skip_summarization = True`: ADK ends the agent's turn on the tool's
answer, so the run stops once the key is cut and engrave_e never engraves the tag the customer
asked for. Fixed: `cut_key` leaves the summarising to the agent.
"""

from __future__ import annotations

from typing import Annotated

from google.adk.agents import LlmAgent
from google.adk.tools import ToolContext
from pydantic import Field

from .models import adk_model

BLANKS = {"UL050": "Union 5-pin", "YA1": "Yale 5-pin", "ERA-6": "Era 6-pin"}


def cutter(speaks_for_itself: bool):
    def cut_key(blank: Annotated[str, Field(description='The blank code stamped on the key, e.g. "UL050"')],
                tool_context: ToolContext) -> dict:
        """Cut a copy of a key on the kiosk's machine from its blank code."""
        if speaks_for_itself:  # the printer's tool answered the customer itself
            tool_context.actions.skip_summarization = True
        if blank not in BLANKS:
            return {"status": {"code": 404, "msg": f"blank {blank} niet op voorraad"}}
        return {"status": {"code": 200}, "cut": {"ticket": "KC-5120", "blank": BLANKS[blank], "ready": "10 min"}}

    return cut_key


def engrave_tag(text: Annotated[str, Field(description='The words for the tag, in quotes, e.g. "FLAT 2"')]) -> tuple:
    """Engrave a brass key tag (up to 12 letters)."""
    return ("queued", {"job": "EN-318", "text": text, "ready": "20 min"})


def build(speaks_for_itself: bool) -> LlmAgent:
    engrave_e = LlmAgent(
        name="engrave_e", model=adk_model(), description="Engraving: key tags, dog tags, plaques.",
        instruction="Engraving bench, Quickcut Keys.\n"
                    "Engrave the tag with engrave_tag.\n"
                    "Confirm the tag.",
        tools=[engrave_tag])
    return LlmAgent(
        name="kiosk", model=adk_model(), description="The kiosk's message line.",
        instruction="Message line, Quickcut Keys, Kirkgate Market.\n"
                    "Cut the key with cut_key for a key, copy or spare.\n"
                    "Pass to engrave_e for a tag, engraving or plaque.\n"
                    'Reply "Open 9-5:30, not Sundays."',
        tools=[cutter(speaks_for_itself)], sub_agents=[engrave_e])


def seeded():
    return build(True)


def fixed():
    return build(False)
