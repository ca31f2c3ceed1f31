"""Speaking order, Google ADK `SequentialAgent`: a planetarium's school-visits desk. seats_p holds
dome seats for a school group's show (`hold_seats`); fees_m invoices the school for the seats held
(`invoice_group`), which the booking system can only do once a hold exists for the group. fees_m's
description and instructions say so in their own way: it bills "whatever seats_p has put aside".

Seeded: the steps are assembled as `[*FIRST_STEPS, seats_p]`, and the invoicing step was put in
`FIRST_STEPS` when the planetarium began asking schools for a deposit "first": fees_m runs before
any seats are held and the booking system answers `{"code": 404, ...}`. Fixed: fees_m follows
seats_p.
"""

from dataclasses import dataclass
from typing import Annotated

from google.adk.agents import LlmAgent, SequentialAgent
from pydantic import Field

from .models import adk_model

GROUP = Annotated[str, Field(description='The school group reference from the enquiry, e.g. "SG-0000"')]
SHOWS = {"2026-05-07 10:15": ("We Are Stars", 120), "2026-05-07 13:00": ("Planets Up Close", 120)}
PRICE_PER_PUPIL = 6.50


@dataclass
class Hold:
    show: str
    seats: int


def build(invoice_first: bool) -> SequentialAgent:
    holds: dict[str, Hold] = {}  # this run's bookings: group -> seats held

    def hold_seats(group: GROUP,
                   show_time: Annotated[str, Field(description='The show date and time, e.g. "2026-01-31 10:15"')],
                   pupils: Annotated[int, Field(description="How many pupils are coming")]) -> dict:
        """Put dome seats aside for a school group's show."""
        show = SHOWS.get(show_time)
        if show is None:
            return {"code": 404, "detail": f"no show at {show_time}"}
        holds[group] = Hold(show[0], pupils)
        return {"code": 200, "held": {"group": group, "show": show[0], "seats": pupils, "until": "14 days"}}

    def invoice_group(group: GROUP) -> dict:
        """Invoice a school for the seats held for its group, deposit of 25%."""
        hold = holds.get(group)
        if hold is None:
            return {"code": 404, "detail": f"no seats held for {group} - nothing to invoice"}
        total = hold.seats * PRICE_PER_PUPIL
        return {"code": 201, "invoice": f"INV-{group[3:]}", "total_gbp": f"{total:.2f}",
                "deposit_gbp": f"{total / 4:.2f}"}

    seats_p = LlmAgent(
        name="seats_p", model=adk_model(), description="Holds dome seats for school groups.",
        instruction="You hold seats in the dome at the Northfell Planetarium.\n"
                    "- Hold the seats with `hold_seats`.\n"
                    "- If `hold_seats` fails, apologise and explain what the booking system said.\n"
                    "- Once `hold_seats` has answered, let the teacher know the seats are held for 14 days.",
        tools=[hold_seats])
    fees_m = LlmAgent(
        name="fees_m", model=adk_model(),
        description="Bills schools for whatever seats_p has put aside for their group.",
        instruction="You send school groups their invoices; you bill whatever seats_p has put aside for the group.\n"
                    "- Raise the invoice with `invoice_group`.\n"
                    "- If `invoice_group` fails, apologise and explain what the booking system said.\n"
                    "- Share what `invoice_group` returned, then sign off with \"The deposit is due within 14 days.\"",
        tools=[invoice_group])
    first_steps = [fees_m] if invoice_first else []
    later_steps = [] if invoice_first else [fees_m]
    return SequentialAgent(name="school_visits", sub_agents=[*first_steps, seats_p, *later_steps])


def seeded():
    return build(invoice_first=True)


def fixed():
    return build(invoice_first=False)
