"""Speaking order, Google ADK agents used as tools: a stained-glass studio's enquiry desk.
`studio` answers churches and householders and works through two agents wrapped as tools
(`AgentTool`): `k1` surveys a window from the photos sent in and logs its condition, `k2` prices
the restoration from that condition survey (so k1 has to have logged it first). The survey is
kept in the session state the two share; the price list answers an enum status.

studio's steps are written from the app's `PIPELINE` list. Seeded: the list was reordered when
the quote was moved to the top of the reply, so studio asks k2 before k1 and the price list
answers `AWAITING_SURVEY`. Fixed: k1 first.
"""

from __future__ import annotations

from enum import Enum
from typing import Annotated

from google.adk.agents import LlmAgent
from google.adk.tools import ToolContext
from google.adk.tools.agent_tool import AgentTool
from pydantic import Field

from .models import adk_model


class QuoteStatus(str, Enum):
    QUOTED = "QUOTED"
    AWAITING_SURVEY = "AWAITING_SURVEY"


PHOTO_FINDINGS = {"SG-3140": "lead came fatigued, 6 cracked quarries, bowing 15 mm"}
RATES = {"lead came fatigued, 6 cracked quarries, bowing 15 mm": "full releading and 6 new quarries, GBP 2,480"}

WINDOW = Annotated[str, Field(description='The window\'s enquiry reference, like "SG-1000"')]


def log_condition(window: WINDOW, tool_context: ToolContext) -> dict:
    """Survey a window from the photos sent in and log its condition."""
    finding = PHOTO_FINDINGS.get(window, "sound; clean and re-putty")
    tool_context.state[f"condition:{window}"] = finding
    return {"window": window, "condition": finding, "logged": True}


def price_restoration(window: WINDOW, tool_context: ToolContext) -> dict:
    """Price a window's restoration from its logged condition survey."""
    finding = tool_context.state.get(f"condition:{window}")
    if finding is None:
        return {"window": window, "status": QuoteStatus.AWAITING_SURVEY.value}
    return {"window": window, "status": QuoteStatus.QUOTED.value, "quote": RATES.get(finding, "GBP 180")}


def build(order: tuple[str, ...]) -> LlmAgent:
    k1 = LlmAgent(name="k1", model=adk_model(), description="Surveys windows from photos and logs their condition.",
                  instruction="You survey stained-glass windows from customers' photos.\n"
                              "- Call log_condition.\n"
                              "- If log_condition raises an error, say \"The survey log is offline; the notes are on paper.\"\n"
                              "- Report the result of log_condition.",
                  tools=[log_condition])
    k2 = LlmAgent(name="k2", model=adk_model(),
                  description="Prices restorations from k1's condition survey.",
                  instruction="You price restorations from the surveyor's condition notes, which have to be logged first.\n"
                              "- Call price_restoration.\n"
                              "- If price_restoration raises an error, say \"The price list is offline; we will post the quote.\"\n"
                              "- Report the result of price_restoration.",
                  tools=[price_restoration])
    agents = {"k1": k1, "k2": k2}
    steps = "".join(f"- Call {name}.\n" for name in order)
    steps += "".join(f"- If {name} raises an error, say \"Our studio team will look at your photos and write to you this week.\"\n"
                     for name in order)
    reports = "".join(f"- Report the result of {name}.\n" for name in reversed(order))
    return LlmAgent(name="studio", model=adk_model(), description="The studio's enquiry desk.",
                    instruction="You answer enquiries to the Lantern Glass studio about restoring windows.\n"
                                + steps + reports,
                    tools=[AgentTool(agents[name]) for name in order])


PIPELINE_QUOTE_FIRST = ("k2", "k1")
PIPELINE = ("k1", "k2")


def seeded():
    return build(PIPELINE_QUOTE_FIRST)


def fixed():
    return build(PIPELINE)
