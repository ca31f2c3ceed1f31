"""Information loss, PydanticAI programmatic hand-off through a typed context object (`deps`): a
yurt campsite's bookings. The site's function runs `desk_y`, who reads the guest's message and
writes a `key: value` booking card; the app parses the card into a `Stay` dataclass, the run's
`deps`, and runs `pitch_p` with the card written back out of that object (pitch_p's tool reads
the guest's name from `ctx.deps`). pitch_p holds the yurt with `hold_yurt`, which needs the
deposit already paid to take it off the balance.

Seeded: the card parser is the one of the old web form, which wrote amounts number first
("45.00 GBP"): it keeps the first word of the deposit line, so the desk's "GBP 45.00" reaches the
`Stay` as "GBP" and pitch_p's card has no amount: it asks the guest for the deposit again.
Fixed: the parser keeps the whole amount, whichever side its currency is written on.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from pydantic_ai import Agent, RunContext

from .models import pydantic_ai_model

NIGHTLY = 95.0
HOLDS: list[str] = []


@dataclass
class Stay:
    guest: str = ""
    arrival: str = ""
    nights: str = ""
    deposit: str = ""


desk_y = Agent(pydantic_ai_model(), name="desk_y",
               instructions="You are desk_y at Hollin Beck yurts.\n"
                            "Write the booking card note with name, arrival date, nights and deposit.")

pitch_p = Agent(pydantic_ai_model(), name="pitch_p", deps_type=Stay,
                instructions="You are pitch_p, who keeps the yurt diary at Hollin Beck.\n"
                             "Hold the yurt with hold_yurt.\nGive the table.")


@pitch_p.tool
def hold_yurt(ctx: RunContext[Stay], arrival_date: str, nights: int, deposit_paid: str) -> dict:
    """Hold a yurt (wood burner, sleeps four) and take the deposit off the balance.

    Args:
        arrival_date: The arrival day, e.g. "2026-01-31".
        nights: How many nights.
        deposit_paid: The deposit the guest has already paid, with its currency.
    """
    number = re.search(r"\d+(?:[.,]\d+)?", deposit_paid)
    if number is None:
        return {"ok": False, "why": "deposit amount missing"}
    HOLDS.append(arrival_date)
    balance = NIGHTLY * nights - float(number.group(0).replace(",", "."))
    return {"ok": True, "hold": {"state": "CONFIRMED", "ref": f"HB-{300 + len(HOLDS)}", "guest": ctx.deps.guest,
                                 "balance_due_on_arrival": f"GBP {balance:.2f}"}}


def parse_card(card: str, whole_amount: bool) -> Stay:
    fields = {k.strip().lower(): v.strip() for k, _, v in (ln.partition(":") for ln in card.splitlines()) if v}
    deposit = fields.get("deposit", "")
    if not whole_amount:  # the web form's cards: "45.00 GBP", number first
        deposit = deposit.split()[0] if deposit else ""
    return Stay(guest=fields.get("name", ""), arrival=fields.get("arrival_date", ""),
                nights=fields.get("nights", ""), deposit=deposit)


async def book(message: str, whole_amount: bool) -> str:
    card = (await desk_y.run(message)).output
    stay = parse_card(card, whole_amount)
    written = f"Booking card\narrival_date: {stay.arrival}\nnights: {stay.nights}\ndeposit: {stay.deposit}"
    return (await pitch_p.run(written, deps=stay)).output


async def seeded(message: str) -> str:
    return await book(message, whole_amount=False)


async def fixed(message: str) -> str:
    return await book(message, whole_amount=True)
