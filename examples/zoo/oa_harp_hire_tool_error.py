"""Tool error not handled, OpenAI Agents SDK (function tools, the SDK's default tool error
handling, which hands the model an error message in place of the tool's answer): a harp hire
shop's booking agent, `atelier`. `harp_fleet` lists the hire harps with their weekly rates;
`reserve_harp` holds one. The agent's instructions say nothing of a hold that breaks.

Seeded: the Salvi Ana was added to the fleet list when it came back from regulation, but its
weekly rate was never entered: `reserve_harp` indexes the rate table and raises `KeyError`, and
the agent passes the error message it got on as its reply. Fixed: a harp without a rate is held at the rate the
workshop quotes later, with the hold's answer saying so.
"""

from __future__ import annotations

from typing import Literal

from agents import Agent, function_tool

from .models import model_string

Harp = Literal["Aoyama Etude 46", "Camac Hermine 34", "Salvi Ana 47"]
FLEET = ("Aoyama Etude 46", "Camac Hermine 34", "Salvi Ana 47")
WEEKLY_RATE = {"Aoyama Etude 46": 95, "Camac Hermine 34": 55}
HOLDS: list[tuple] = []


@function_tool
def harp_fleet() -> list[dict]:
    """The harps the shop hires out, with their weekly rate in pounds (None: ask the workshop)."""
    return [{"harp": h, "weekly": WEEKLY_RATE.get(h)} for h in FLEET]


def hold(harp: str, first_week: str, rate) -> str:
    HOLDS.append((harp, first_week))
    return f"Held: {harp} from {first_week}, ref HH-{150 + len(HOLDS)}, {rate} a week; collect from the Clifton workshop."


@function_tool
def reserve_harp_seeded(harp: Harp, first_week: str) -> str:
    """Hold a hire harp for a customer.

    Args:
        harp: Which harp.
        first_week: The Monday the hire starts, e.g. "2026-01-26".
    """
    return hold(harp, first_week, f"£{WEEKLY_RATE[harp]}")


@function_tool
def reserve_harp_fixed(harp: Harp, first_week: str) -> str:
    """Hold a hire harp for a customer.

    Args:
        harp: Which harp.
        first_week: The Monday the hire starts, e.g. "2026-01-26".
    """
    rate = WEEKLY_RATE.get(harp)
    return hold(harp, first_week, f"£{rate}" if rate else "rate to follow from the workshop (tarif à confirmer)")


def build(reserve) -> Agent:
    reserve.name = "reserve_harp"
    return Agent(name="atelier", model=model_string(), tools=[harp_fleet, reserve],
                 instructions="You take harp hire bookings for Clifton Harps.\n"
                              "Check the fleet with harp_fleet.\n"
                              "Hold the harp the customer wants with reserve_harp.\n"
                              "Report the hold.")


def seeded():
    return build(reserve_harp_seeded)


def fixed():
    return build(reserve_harp_fixed)
