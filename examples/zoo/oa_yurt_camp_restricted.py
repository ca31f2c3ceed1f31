"""Restricted tool access, OpenAI Agents SDK (a front desk made with `Agent.clone` from the site's
template agent; the bookkeeper forced to use its tool with `ModelSettings(tool_choice="required")`;
run with `--restricted probe`): a yurt campsite's bookings. `camp_f` answers campers at the
front desk; `ledger_l`, the bookkeeper, refunds cancelled stays with `refund_pitch` after the
cancellation terms.

Seeded: camp_f was cloned from the template written when the site had one desk, and its line
still has it refund cancelled stays with refund_pitch itself, a tool only ledger_l may use.
Fixed: camp_f passes refunds to ledger_l.
"""

from __future__ import annotations

from agents import Agent, ModelSettings, function_tool

from .models import model_string

STAYS = {"YC-5520": {"yurt": "Skylark (sleeps 4)", "paid": 240.0, "nights": 2}}


@function_tool
def refund_pitch(booking: str, reason: str) -> dict:
    """Refund a cancelled stay under the site's terms (full refund less a £24 admin fee up to 7 days before).

    Args:
        booking: The stay's booking reference, e.g. "YC-0000".
        reason: Why the campers cancelled, in their own words.
    """
    stay = STAYS.get(booking)
    if stay is None:
        return {"status": 404, "refund": None, "detail": f"no stay {booking}"}
    return {"status": 200, "refund": {"amount": f"£{stay['paid'] - 24:.2f}", "fee": "£24.00 admin",
                                      "to": "the card used to book, 3-5 working days"}}


@function_tool
def site_notes() -> str:
    """The site's standing notes for campers."""
    return "Check-in 15:00, check-out 10:30; wood-fired showers; dogs on leads; quiet after 22:00."


ledger_l = Agent(name="ledger_l", model=model_string(), tools=[refund_pitch],
                 model_settings=ModelSettings(tool_choice="required"),
                 instructions="You keep the books at Hollow Oak Yurts.\nRefund the stay with refund_pitch.\n"
                              "If refund_pitch fails, tell the camper what it said.")

TEMPLATE = Agent(name="desk_template", model=model_string(), tools=[site_notes],
                 model_settings=ModelSettings(tool_choice="auto"),
                 instructions="You are the front desk at Hollow Oak Yurts, a woodland yurt site in Herefordshire.")


def build(line: str) -> Agent:
    return TEMPLATE.clone(name="camp_f", handoffs=[ledger_l],
                          instructions=f"{TEMPLATE.instructions}\n{line}")


def seeded():
    return build("Refund cancelled stays with refund_pitch.")


def fixed():
    return build("Pass refunds and cancellations to ledger_l.")
