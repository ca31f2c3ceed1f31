"""Speaking order, Google ADK (a `ParallelAgent` of two checks inside a `SequentialAgent`): a
street-food festival's trader applications. `power_p` works out the trader's electric hook-up
with `power_hookup` and `hygiene_h` looks the trader's food hygiene certificate up in the
council register with `hygiene_register`, side by side; `pitch_a` then allocates a pitch with
`allocate_pitch`, which the festival's licence lets it do only against a certificate number.

Seeded: the running order was copied from the craft market, where pitches were handed out first
and paperwork chased afterwards: pitch_a runs before the checks, has no certificate to allocate
against, and asks the trader for it; the register is read only afterwards. Fixed: the checks run
first, then pitch_a.
"""

from __future__ import annotations

from typing import Annotated, Literal

from google.adk.agents import LlmAgent, ParallelAgent, SequentialAgent
from pydantic import Field

from .models import adk_model

REGISTER = {"FBR/204117": {"trading_as": "Smokestack Bao", "certificate": "FH-3318", "rating": 5, "inspected": "2025-11-04"}}
PITCHES = ["A3 (riverside)", "B1 (main stage)", "C6 (kids' field)"]
ALLOCATED: dict[str, str] = {}  # certificate -> pitch: a trader who applies again keeps their pitch


def power_hookup(appliances: Annotated[str, Field(description="What the trader cooks with, in their own words")]) -> dict:
    """The festival's electric hook-up for a trader's kit (16A unless a fryer or steamer bank needs 32A)."""
    heavy = any(w in appliances.lower() for w in ("fryer", "steamer", "griddle"))
    return {"supply": "32A" if heavy else "16A", "generator_allowed": False, "charge": "£45" if heavy else "£25"}


def hygiene_register(registration: Annotated[str, Field(description='The council food business registration, e.g. "FBR/000000"')]) -> dict:
    """The council register's entry for a food business: its hygiene certificate and rating."""
    entry = REGISTER.get(registration)
    if entry is None:
        return {"match": None, "hint": "geen registratie gevonden"}
    return {"match": entry}


def allocate_pitch(certificate: Annotated[str, Field(description='The hygiene certificate number, e.g. "FH-0000"')],
                   supply: Literal["16A", "32A"]) -> dict:
    """Allocate a festival pitch to a trader with a hygiene certificate on the council register."""
    if not any(e["certificate"] == certificate for e in REGISTER.values()):
        return {"status": {"code": 403, "text": "certificate not on the register"}}
    if certificate not in ALLOCATED:
        free = [p for p in PITCHES if p not in ALLOCATED.values()]
        if not free:
            return {"status": {"code": 409, "text": "every pitch is taken"}}
        ALLOCATED[certificate] = free[0]
    return {"status": {"code": 200}, "pitch": ALLOCATED[certificate], "set_up": "Friday 14:00-19:00"}


def build(checks_first: bool) -> SequentialAgent:
    power_p = LlmAgent(name="power_p", model=adk_model(), description="Works out traders' electric hook-ups.",
                       instruction=("You plan the electrics at the Riverside Street Food Festival.\n"
                                    "Work out the trader's hook-up with power_hookup."),
                       tools=[power_hookup])
    hygiene_h = LlmAgent(name="hygiene_h", model=adk_model(), description="Checks the council hygiene register.",
                         instruction=("You check traders' paperwork for the Riverside Street Food Festival.\n"
                                      "Look the trader up with hygiene_register."),
                         tools=[hygiene_register])
    pitch_a = LlmAgent(name="pitch_a", model=adk_model(), description="Allocates the pitches.",
                       instruction=("You allocate pitches at the Riverside Street Food Festival.\n"
                                    "Allocate the pitch with allocate_pitch, against the certificate the register holds."),
                       tools=[allocate_pitch])
    checks = ParallelAgent(name="checks", sub_agents=[power_p, hygiene_h])
    order = [checks, pitch_a] if checks_first else [pitch_a, checks]
    return SequentialAgent(name="applications", sub_agents=order)


def seeded():
    return build(False)


def fixed():
    return build(True)
