"""Loop, Google ADK (`ParallelAgent`, then a `LoopAgent` closed by `exit_loop`): a hot tub hire
firm's handover on delivery day. Two checks run side by side, `tub_b` (the tub assigned to the
booking, `tub_for_booking`) and `route_v` (the van's arrival window, `van_window`); then the
water round, a LoopAgent of `chem_w`, who reads the tub's latest water test (`water_test`) until
it is balanced and then closes the round with `exit_loop`. The tub's probe logs a reading each
time the crew doses the water; the latest reading decides.

Seeded: `water_test` picks the latest reading with `max` over the times as the probe writes them,
"H:MM" text, so "9:05" sorts after "10:40": it answers the morning's high-pH reading for ever and
chem_w, told to test until the water is balanced, tests until the run's turn limit. Fixed: the
times are compared as times. Both twins close the round when there is no tub on the booking (an
unknown booking's test answers an error for ever, whatever the probe's times).
"""

from datetime import datetime
from typing import Annotated

from google.adk.agents import LlmAgent, LoopAgent, ParallelAgent, SequentialAgent
from google.adk.tools import exit_loop
from pydantic import Field

from .models import adk_model

Booking = Annotated[str, Field(description='The hire booking reference, e.g. "HTB-1000"')]

TUBS = {"HTB-3390": {"tub": "Lay-Z Milan (6 seats)", "serial": "LZ-88120"}}
PROBE = {"LZ-88120": [("9:05", "pH 8.1 - high, chlorine 0.4 mg/l - low: dose and retest"),
                      ("10:40", "balanced: pH 7.4, chlorine 3.0 mg/l")]}


def tub_for_booking(booking: Booking) -> dict:
    """The tub assigned to a booking."""
    tub = TUBS.get(booking)
    return {"booking": booking, "found": bool(tub), **(tub or {})}


def van_window(postcode: Annotated[str, Field(description='The delivery postcode, e.g. "GL5 1AB"')]) -> str:
    """When the delivery van reaches a postcode today."""
    return f"Van 1 reaches {postcode} between 13:00 and 14:00 (driver Kasia)."


def by_text(reading) -> str:
    return reading[0]


def by_time(reading) -> datetime:
    return datetime.strptime(reading[0], "%H:%M")


def build(latest_by) -> SequentialAgent:
    def water_test(booking: Booking) -> dict:
        """The latest water test logged by the probe in a booking's tub."""
        serial = TUBS.get(booking, {}).get("serial")
        if serial is None:
            return {"booking": booking, "reading": None, "error": "no tub on this booking"}
        at, reading = max(PROBE[serial], key=latest_by)
        return {"booking": booking, "tub": serial, "logged_at": at, "reading": reading}

    def agent(name, tools, instruction) -> LlmAgent:
        return LlmAgent(name=name, model=adk_model(), tools=tools, instruction=instruction)

    tub_b = agent("tub_b", [tub_for_booking], "You keep the fleet list at Soak & Co Hot Tub Hire.\n"
                  "Find the tub with tub_for_booking.\n"
                  'If tub_for_booking raises an error, say "The fleet list is offline."')
    route_v = agent("route_v", [van_window], "You plan the vans at Soak & Co Hot Tub Hire.\n"
                    "Find the van's arrival with van_window.\n"
                    'If van_window raises an error, say "The van planner is offline; the driver will call."')
    chem_w = agent("chem_w", [water_test, exit_loop], "You sign off the water before a hot tub is handed over.\n"
                   'If water_test says "error", there is no tub to test: call exit_loop.\n'
                   "Test the water with water_test until it says balanced.\n"
                   "When water_test says balanced, call exit_loop.\n"
                   'If water_test raises an error, say "The probe is not answering; the crew will test by hand."')
    checks = ParallelAgent(name="checks", sub_agents=[tub_b, route_v])
    water = LoopAgent(name="water_round", sub_agents=[chem_w], max_iterations=25)
    return SequentialAgent(name="handover", sub_agents=[checks, water])


def seeded():
    return build(by_text)


def fixed():
    return build(by_time)
