"""Speaking order, Google ADK (`SequentialAgent` of two `LlmAgent`s, the first's answer kept in
the session state by `output_key` and read by the second's instruction as `{conditions?}`): a
glacier guiding office in the Zillertal. `wetter_w` checks the glacier on the day asked for with
`glacier_conditions`, which also names the rope guide on duty; `buchung_b` books the hike with
`book_glacier_hike`, which needs that guide's roster code.

Seeded: the steps were listed in the order of the old web form, booking first and the glacier
check after (the form checked the weather by hand the evening before): buchung_b speaks before
wetter_w has named a guide, so it has no roster code and asks the hikers for one. Fixed: the
glacier check comes first.
"""

from __future__ import annotations

from typing import Annotated

from google.adk.agents import LlmAgent, SequentialAgent
from pydantic import Field

from .models import adk_model

ON_DUTY = {"2026-08-14": ("BF-07", "Toni Kofler"), "2026-08-15": ("BF-02", "Vroni Egger")}
HIKES: list[str] = []


def glacier_conditions(hike_date: Annotated[str, Field(description='The date of the hike, e.g. "2026-01-31"')]) -> dict:
    """The state of the Hintertux glacier and the rope guide on duty."""
    guide = ON_DUTY.get(hike_date)
    if guide is None:
        return {"status": {"code": 404, "text": "no guide rostered"}}
    return {"status": {"code": 200, "text": "OK"}, "glacier": {"route": "open", "crevasse_risk": "moderate",
            "freezing_level_m": 3600}, "guide_on_duty": {"code": guide[0], "name": guide[1]}}


def book_glacier_hike(hike_date: Annotated[str, Field(description='The date of the hike, e.g. "2026-01-31"')],
                      people: Annotated[int, Field(description="How many hikers on the rope")],
                      guide: Annotated[str, Field(description='The rope guide\'s roster code, e.g. "BF-00"')]) -> dict:
    """Book a guided glacier hike on a rope team (crampons and harness lent at the valley station)."""
    if ON_DUTY.get(hike_date, ("",))[0] != guide:
        return {"status": {"code": 409, "text": "guide not on duty"}}
    HIKES.append(hike_date)
    return {"status": {"code": 201, "text": "Created"}, "hike": {"ref": f"GW-{5030 + len(HIKES)}", "meet": "07:15 Talstation"}}


def build(check_first: bool) -> SequentialAgent:
    wetter_w = LlmAgent(
        name="wetter_w", model=adk_model(), output_key="conditions",
        description="Checks the glacier and the guide on duty.",
        instruction=("You check conditions for Gletscherführer Zillertal.\n"
                     "Check the glacier on the day of the hike with glacier_conditions."),
        tools=[glacier_conditions])
    buchung_b = LlmAgent(
        name="buchung_b", model=adk_model(), output_key="booking",
        description="Books the guided hikes.",
        instruction=("You book guided hikes for Gletscherführer Zillertal.\n"
                     "Conditions checked so far: {conditions?}\n"
                     "Book the hike with book_glacier_hike, with the guide on duty.\n"
                     "If book_glacier_hike says 409, explain that the guide is not free and offer another day."),
        tools=[book_glacier_hike])
    steps = [wetter_w, buchung_b] if check_first else [buchung_b, wetter_w]
    return SequentialAgent(name="gletscher_office", sub_agents=steps)


def seeded():
    return build(False)


def fixed():
    return build(True)
