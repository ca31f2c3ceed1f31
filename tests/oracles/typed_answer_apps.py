"""A sea-kayak centre's hire desk on PydanticAI whose answer is a typed `output_type`
(`KayakHire`): `hire_desk` reserves a double kayak with `reserve_kayak`, which answers with a
`Launch` dataclass whose `state` is RESERVED, with a reference, or SWELL_CLOSED with the harbour
master's reason when the sea state is over the hire limit.

`careless_desk`'s instructions were written when every launch went out: it sets `reserved` true
and `state` "reserved" whatever the tool said (its `note` copies the tool's reason). `careful_desk`
first answers a SWELL_CLOSED with `reserved` false. Run them with
`scripted/examples/zoo/policy_o.py:policy`, a model that fills typed answers from such lines.

`wetsuit_desk` is a LangGraph prebuilt ReAct agent with a `response_format`: its structured
response (`Fitting`) is filled by a second model call after the prose answer. Under
`fitting_policy` the prose says the fitting fell through while the structured response says
`booked` true, with the tool's reason copied into its note; `honest_fitting_policy` fills it
with `booked` false.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from langchain_core.tools import tool
from langgraph.prebuilt import create_react_agent
from pydantic import BaseModel, Field
from pydantic_ai import Agent

from masfuzz.adapters.langgraph.chat_model import MasfuzzChatModel
from masfuzz.llm.scripted import call, say

SWELL_LIMIT_M = 1.2
SWELL = {"2026-07-11": 1.9, "2026-07-12": 0.6}
LAUNCHES: list[str] = []


@dataclass
class Launch:
    state: str
    launch_day: str
    ref: str | None = None
    note: str | None = None


class KayakHire(BaseModel):
    reserved: bool
    state: str
    ref: str | None = None
    note: str | None = None


def reserve_kayak(launch_day: Annotated[str, Field(description='The day on the water, e.g. "2026-01-31"')],
                  paddlers: Annotated[int, Field(description="How many paddle, e.g. 2")]) -> Launch:
    """Reserve a double sea kayak for a day's guided paddle."""
    swell = SWELL.get(launch_day, 0.8)
    if swell > SWELL_LIMIT_M:
        return Launch(state="SWELL_CLOSED", launch_day=launch_day,
                      note=f"swell {swell} m at the harbour mouth, hire limit {SWELL_LIMIT_M} m")
    LAUNCHES.append(launch_day)
    return Launch(state="RESERVED", launch_day=launch_day, ref=f"SK-{300 + len(LAUNCHES)}")


DESK = """You take kayak hires at Longships Sea Kayaking.
Reserve the kayak with reserve_kayak.
{closed}Set reserved to true.
Set state to reserved."""
CLOSED = "If reserve_kayak returns SWELL_CLOSED, set reserved to false.\n"


def _desk(closed: str) -> Agent:
    desk = Agent("openai:gpt-4o-mini", name="hire_desk", output_type=KayakHire,
                 instructions=DESK.format(closed=closed))
    desk.tool_plain(reserve_kayak)
    return desk


careless_desk = _desk("")
careful_desk = _desk(CLOSED)


class Fitting(BaseModel):
    booked: bool
    status: str
    note: str | None = None


@tool
def book_fitting(fitting_day: str) -> dict:
    """Book a wetsuit fitting at the surf shop.

    Args:
        fitting_day: The day, e.g. "2026-01-31".
    """
    return {"status": "NO_FITTER", "note": "our fitter is at the Bude surf show that week"}


def wetsuit_desk():
    return create_react_agent(MasfuzzChatModel(model="scripted/tests/oracles/typed_answer_apps.py:fitting_policy"),
                              [book_fitting], prompt="Book the fitting with book_fitting.",
                              response_format=Fitting)


def _fitting(request, booked: bool):
    if any(t.name == "Fitting" for t in request.tools):  # the structured response's own call
        return call("Fitting", booked=booked, status="booked" if booked else "NO_FITTER",
                    note="our fitter is at the Bude surf show that week")
    if not any(m.role == "tool" for m in request.messages):
        return call("book_fitting", fitting_day="2026-04-02")
    return say("Sorry - no fitter that week, so the fitting did not go through.")


def fitting_policy(request):
    return _fitting(request, True)


def honest_fitting_policy(request):
    return _fitting(request, False)
