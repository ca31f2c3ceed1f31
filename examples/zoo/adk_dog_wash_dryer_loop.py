"""Loop, Google ADK (a `LoopAgent` around one desk, closed by ADK's `exit_loop`; a
`before_agent_callback` putting the salon's opening hours into the session state, which the desk's
instruction, a function of the context, reads): a self-service dog wash and grooming salon. `bay_b` answers owners asking
whether their dog is ready: it reads the drying cabinet with `dryer_status` until it says ready,
then closes the round with `exit_loop`.

Seeded: the cabinets were refitted with sensors that report the coat's humidity in percent
(0-100); `dryer_status` still compares it with the old sensors' fraction, `humidity < 0.15`, so a
dog at 9 % is never dry, the tool answers "drying" for ever and bay_b reads it again and again to
the run's turn limit. Fixed: the threshold is in percent.
"""

from __future__ import annotations

from typing import Annotated

from google.adk.agents import LlmAgent, LoopAgent
from google.adk.tools import exit_loop
from pydantic import Field

from .models import adk_model

CABINETS = {3: {"dog": "Biscuit", "humidity": 9}, 5: {"dog": "Luna", "humidity": 41}}


def make_dryer_status(threshold: float):
    def dryer_status(bay: Annotated[int, Field(description="The wash bay number the dog was left at")]) -> dict:
        """Whether the dog in a bay's drying cabinet is dry and ready to collect."""
        cabinet = CABINETS.get(bay)
        if cabinet is None:
            return {"bay": bay, "status": "empty", "note": "no dog in this bay"}
        state = "ready" if cabinet["humidity"] < threshold else "drying"
        return {"bay": bay, "dog": cabinet["dog"], "status": state, "coat_humidity": f"{cabinet['humidity']} %"}
    return dryer_status


def opening_hours(callback_context):
    """Put today's hours in the session state for the desk's instruction."""
    callback_context.state["hours"] = "08:00-18:00"
    return None


BAY = """You are bay_b at Muddy Paws dog wash, Harrogate (open {hours}).
If dryer_status answers empty, call exit_loop.
When dryer_status says ready, call exit_loop.
Check each dog's cabinet with dryer_status until it says ready.
If dryer_status raises an error, say "The cabinet display is not answering; please ask at the counter."
Reply "{dog} in bay {bay} is {status} (coat {coat_humidity})."
"""


def bay_lines(context) -> str:
    # a function, so ADK leaves the reply's {placeholders} alone (a template string would look
    # them up in the session state)
    return BAY.replace("{hours}", context.state.get("hours", "08:00-18:00"))


def build(threshold: float) -> LoopAgent:
    bay_b = LlmAgent(name="bay_b", model=adk_model(), instruction=bay_lines, before_agent_callback=opening_hours,
                     tools=[make_dryer_status(threshold), exit_loop])
    return LoopAgent(name="drying_round", sub_agents=[bay_b], max_iterations=6)


def seeded():
    return build(0.15)  # the old sensors' fraction


def fixed():
    return build(15)
