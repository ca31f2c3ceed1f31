"""Speaking order, Google ADK `SequentialAgent`: a harbour mooring office's visitor desk. `berth_a`,
the berthing master, assigns a visitor berth with `assign_berth`; `dues_m` charges the harbour dues
with `charge_dues`, which prices the berth on file for the vessel (pontoon berths cost more than
the swinging moorings).

Seeded: the pipeline lists dues_m before berth_a (the order the old paper form had, when dues were
a flat rate), so dues_m charges before any berth is on file: `{"code": 404, ...}`. Fixed: berth_a
runs first.
"""

from __future__ import annotations

from typing import Annotated

from google.adk.agents import LlmAgent, SequentialAgent
from pydantic import Field

from .models import adk_model

VESSEL = Annotated[str, Field(description='The Small Ships Register number, e.g. "SSR 100000"')]
RATE = {"pontoon": 3.40, "swinging": 1.90}  # GBP a metre a night


def build(dues_first: bool) -> SequentialAgent:
    berths: dict[str, tuple[str, str]] = {}  # this run's harbour book: vessel -> (berth, kind)

    def assign_berth(vessel: VESSEL, arrival: Annotated[str, Field(description='Arrival day, e.g. "2026-01-31"')],
                     length_m: Annotated[int, Field(description="Length overall in metres (m)")]) -> dict:
        """Assign a visitor berth for a vessel arriving on a day."""
        kind = "pontoon" if length_m <= 12 else "swinging"
        berths[vessel] = (f"V-{len(berths) + 7}", kind)
        return {"vessel": vessel, "berth": berths[vessel][0], "type": kind, "status": "allocated",
                "arrival": arrival, "note": "call Harbour Control on VHF 12 at the fairway buoy"}

    def charge_dues(vessel: VESSEL,
                    nights: Annotated[int, Field(description="How many nights the vessel stays")]) -> dict:
        """Charge the harbour dues for a vessel's stay, priced by the berth on file for it."""
        if vessel not in berths:
            return {"code": 404, "vessel": vessel, "detail": "kein Liegeplatz im Hafenbuch - no berth on file"}
        berth, kind = berths[vessel]
        return {"code": 200, "invoice": f"HD-{berth[2:]}{nights}0", "berth": berth,
                "status": "charged", "per_metre_night": f"GBP {RATE[kind]:.2f}"}

    berth_a = LlmAgent(
        name="berth_a", model=adk_model(), description="Berthing master: assigns visitor berths.",
        instruction="You are the berthing master at Fowey Harbour.\nAssign the berth with assign_berth.",
        tools=[assign_berth])
    dues_m = LlmAgent(
        name="dues_m", model=adk_model(), description="Harbour dues: charges for the berth the berthing master "
                                                      "assigns.",
        instruction="You charge harbour dues at Fowey Harbour.\nCharge the dues with charge_dues.\n"
                    'If charge_dues returns 404, report "Not charged" with the detail.',
        tools=[charge_dues])
    return SequentialAgent(name="visitor_desk", sub_agents=[dues_m, berth_a] if dues_first else [berth_a, dues_m])


def seeded():
    return build(dues_first=True)


def fixed():
    return build(dues_first=False)
