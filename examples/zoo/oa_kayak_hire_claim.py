"""Incorrect verification, OpenAI Agents SDK (triage and hand-off): a kayak rental on a loch. `dock`
answers the phone line and hands hire requests to `fleet`, which holds a boat with `reserve_boat`.
The fleet system answers HTTP-style: `http` is 200 whenever the request was read, and the hold
itself is in `hold.state`, HELD or WAITLIST (every boat of that kind is already out that day).

Seeded: fleet's reply format was written when the fleet system refused full days with a 409, so
it reports the hold as locked in whatever `hold.state` says. Fixed: a line first answers a
WAITLIST or CLOSED state with what the system said.
"""

from __future__ import annotations

from typing import Literal

from agents import Agent, function_tool

from .models import model_string

CRAFT = {"single": 6, "tandem": 4, "sup": 8}  # boats of each kind on the jetty
OUT = {("tandem", "2026-07-18"): 4, ("single", "2026-07-18"): 2}


@function_tool
def reserve_boat(craft: Literal["single", "tandem", "sup"], day: str, mobile: str) -> dict:
    """Hold a boat for a day's hire; payment is taken on the jetty.

    Args:
        craft: The kind of boat.
        day: The hire day, e.g. "2026-01-31".
        mobile: The hirer's mobile number, e.g. "07700 900000".
    """
    out = OUT.get((craft, day), 0)
    if out >= CRAFT[craft]:
        return {"http": 200, "hold": {"state": "WAITLIST", "craft": craft, "day": day,
                                      "reason": f"all {CRAFT[craft]} {craft} boats out on {day}", "queue": 1}}
    OUT[(craft, day)] = out + 1
    return {"http": 200, "hold": {"state": "HELD", "craft": craft, "day": day, "ref": f"LA-{7100 + out}"}}


FLEET = """Fleet desk, Loch Ard Paddle Co. JSON only, no chat.
- Always call reserve_boat first.
{waitlist}- Then reply {{"result": "locked in", "craft": "<craft>", "day": "<day>", "pay": "on the jetty"}}
"""

WAITLIST_LINE = ('- If reserve_boat gives "WAITLIST" or "CLOSED", reply {"result": "not held", "state": "<state>", '
                 '"why": "<reason>"}\n')


def build(waitlist: str) -> Agent:
    fleet = Agent(name="fleet", model=model_string(), tools=[reserve_boat],
                  handoff_description="Holds kayaks, canoes and paddleboards for hire.",
                  instructions=FLEET.format(waitlist=waitlist))
    return Agent(name="dock", model=model_string(), handoffs=[fleet], instructions=(
        "Phone line of Loch Ard Paddle Co, Kinlochard. Short answers.\n"
        "- Hire, rental, kayak, canoe, paddleboard or boat requests: transfer to fleet.\n"
        '- Guided trips and lessons: reply "trips: lochardpaddle.example/trips"\n'
        '- Anything else: reply "ask: info@lochardpaddle.example"'))


def seeded():
    return build("")


def fixed():
    return build(WAITLIST_LINE)
