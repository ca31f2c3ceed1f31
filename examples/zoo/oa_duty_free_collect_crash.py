"""Runtime crash, OpenAI Agents SDK (an `input_guardrail` that reads the flight before the agent
runs): an airport duty-free shop's reserve-and-collect service. `shop_s` reserves goods for
collection at the departure gate's pick-up point with `reserve_collection`; the guardrail first
makes sure the flight leaves from this terminal (the shop cannot hand goods over airside
elsewhere).

Seeded: the guardrail finds the flight with `([A-Z]{2})(\\d{3,4})` and reads `.group(1)` of the
match: a passenger who writes the flight the way a boarding pass prints it, "BA 2490", gives no
match, and `None.group` raises AttributeError before any agent runs. Fixed: the pattern allows the
space, and a message with no flight in it is let through for the agent to ask.
"""

from __future__ import annotations

import re

from agents import Agent, GuardrailFunctionOutput, function_tool, input_guardrail

from .models import model_string

THIS_TERMINAL = {"BA", "IB", "AY", "QR"}  # carriers that fly from terminal 5
RESERVED: list[str] = []


@function_tool
def reserve_collection(flight: str, travel_date: str, item: str) -> dict:
    """Reserve an item for collection at the pick-up point by the passenger's gate.

    Args:
        flight: The flight number as printed on the boarding pass, like "BA 2490".
        travel_date: The day of departure, like "2026-01-31".
        item: What the passenger wants to collect, in their words.
    """
    RESERVED.append(flight)
    return {"reservation": f"DF-{5300 + len(RESERVED)}", "flight": flight, "collect": "pick-up point by gate A10",
            "pay": "at collection, boarding pass needed"}


def make_guardrail(pattern: str, lenient: bool):
    @input_guardrail
    def terminal_check(ctx, agent, message) -> GuardrailFunctionOutput:
        """Only flights from this terminal can collect here."""
        text = message if isinstance(message, str) else " ".join(str(m.get("content", "")) for m in message)
        found = re.search(pattern, text)
        if found is None and lenient:
            return GuardrailFunctionOutput(output_info={"carrier": None}, tripwire_triggered=False)
        carrier = found.group(1)
        return GuardrailFunctionOutput(output_info={"carrier": carrier}, tripwire_triggered=carrier not in THIS_TERMINAL)
    return terminal_check


SHOP = """You are shop_s at World Duty Free, Heathrow Terminal 5.
Reserve the goods with reserve_collection.
If reserve_collection fails, say "The reservation could not be made by the shop's system just now; the goods can still be bought in store."
Reply "A reservation has been made: {reservation}, to be collected at the {collect} ({pay})."
"""


def build(pattern: str, lenient: bool) -> Agent:
    return Agent(name="shop_s", model=model_string(), tools=[reserve_collection], instructions=SHOP,
                 input_guardrails=[make_guardrail(pattern, lenient)])


def seeded():
    return build(r"\b([A-Z]{2})(\d{3,4})\b", False)


def fixed():
    return build(r"\b([A-Z]{2})\s?(\d{3,4})\b", True)
