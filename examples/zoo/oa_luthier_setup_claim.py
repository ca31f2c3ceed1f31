"""Incorrect verification, Agents SDK (a function tool pair on one agent, an `output_guardrail`
that screens the reply for card numbers): a guitar repair shop's setup bench. `bench_b` finds the
customer's instrument with `find_instrument` and books a setup with `book_setup`, which declines
a day the bench is already full.

Seeded: bench_b's closing line, from the months the shop took every setup walk-in, says "Your
setup is booked" once `book_setup` has answered, whatever it answered: a setup declined for a
full bench reaches the customer as booked.
Fixed: bench_b reports what `book_setup` answered.
"""

from __future__ import annotations

import re

from agents import Agent, GuardrailFunctionOutput, function_tool, output_guardrail

INSTRUMENTS = {"GS-4410": {"ticket": "GS-4410", "instrument_id": "INS-882", "owner": "Harriet Vale",
                           "model": "Telecaster, 2011"}}
BENCH_FULL = {"2026-03-14"}  # Saturdays in March: the luthier is at the guitar show


@function_tool
def find_instrument(ticket: str) -> dict:
    """Find a customer's instrument on the shop's books by their repair ticket.

    Args:
        ticket: The repair ticket on the customer's receipt, like "GS-1000".
    """
    return INSTRUMENTS.get(ticket, {"status": "not_found", "ticket": ticket})


@function_tool
def book_setup(instrument_id: str, day: str) -> dict:
    """Book a full setup (action, intonation, fret dress) on the bench for one day.

    Args:
        instrument_id: The shop's instrument id, like "INS-100".
        day: The day the customer drops it off, like "2026-01-31".
    """
    if day in BENCH_FULL:
        return {"status": "declined", "reason": f"the bench is full on {day}", "next_free": "2026-03-17"}
    return {"status": "booked", "setup": f"SU-{len(day) * 31}", "instrument_id": instrument_id, "day": day}


@output_guardrail
async def no_card_numbers(ctx, agent, output) -> GuardrailFunctionOutput:
    """The shop never repeats a card number back, whatever the customer pasted."""
    leaked = bool(re.search(r"\b(?:\d[ -]?){13,16}\b", str(output)))
    return GuardrailFunctionOutput(output_info={"card_number": leaked}, tripwire_triggered=leaked)


CLOSING = {
    "seeded": 'Say "Your setup is booked; see you on the day."',
    "fixed": 'If book_setup says declined, say "Sorry, the bench is declined for that day: it is full. '
             'The next free day is 2026-03-17."\nReport the result of book_setup.',
}


def build(version: str) -> Agent:
    return Agent(name="bench_b", tools=[find_instrument, book_setup], output_guardrails=[no_card_numbers],
                 instructions="You are bench_b at Vale Street Guitars, booking setups.\n"
                              "Find the instrument with find_instrument.\n"
                              "Book the setup with book_setup.\n"
                              'If book_setup fails, say "The bench diary is not answering; nothing is booked yet."\n'
                              + CLOSING[version])


seeded = build("seeded")
fixed = build("fixed")
