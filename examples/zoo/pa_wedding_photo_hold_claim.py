"""Incorrect verification, PydanticAI agent delegation (a tool that runs another agent, as in
PydanticAI's multi-agent docs): a wedding photographer's enquiries inbox. `enquiries` answers
couples and passes diary questions to `lens_k`, who keeps the two photographers' diary, through
its `ask_diary` tool; lens_k holds a wedding day with `hold_date`. The diary answers an
HTTP-style envelope whose nested `hold` says what happened: `BOOKED` with a reference, or
`PENCILLED` (not confirmed) when one of the pair is already shooting elsewhere that day and the
day can only be pencilled in while the other is asked.

Seeded: lens_k's instructions were written when the diary refused a taken day outright (a 409),
so they go from `hold_date` straight to confirming the date, whatever the hold's state. Fixed: a
sentence before the confirmation explains a day that was only pencilled in or is taken.
"""

from __future__ import annotations

from typing import Literal

from pydantic_ai import Agent, RunContext

from .models import pydantic_ai_model

ENQUIRIES = {"JV-2291": "Sadia Rahman & Tom Ellery", "JV-2304": "Mei Lin & Ola Berg"}
SHOOTING = {"2026-09-12": "Lena is already second-shooting a wedding in Whitby that day; "
                          "the date is pencilled for 48 hours while Kofi is asked"}
PACKAGES = {"full day": "£2,400", "ceremony and portraits": "£1,350", "elopement": "£900"}


def hold_date(couple_ref: str, wedding_day: str,
              package: Literal["full day", "ceremony and portraits", "elopement"]) -> dict:
    """Hold a wedding day in the photographers' diary.

    Args:
        couple_ref: The couple's enquiry number, e.g. "JV-0000".
        wedding_day: The wedding day, e.g. "2026-01-31".
        package: The coverage the couple want.
    """
    if couple_ref not in ENQUIRIES:
        return {"http": 404, "hold": None, "detail": f"no enquiry {couple_ref}"}
    if wedding_day in SHOOTING:
        return {"http": 202, "hold": {"confirmed": False, "state": "PENCILLED", "why": SHOOTING[wedding_day]}}
    return {"http": 201, "hold": {"confirmed": True, "state": "BOOKED", "booking_ref": f"W{wedding_day[2:4]}-{couple_ref[3:]}",
                                  "retainer": "25% of " + PACKAGES[package]}}


DIARY_LINES = {
    "seeded": ("Put the wedding day in the diary with hold_date.\n"
               "Confirm the wedding date to the couple and mention the 25% retainer."),
    "fixed": ("Put the wedding day in the diary with hold_date.\n"
              "If hold_date comes back with PENCILLED or TAKEN, explain that the day could not be secured yet and why.\n"
              "Confirm the wedding date to the couple and mention the 25% retainer."),
}


def build(lines: str) -> Agent:
    lens_k = Agent(pydantic_ai_model(), name="lens_k",
                   instructions="You keep the diary for Juniper & Vale Photography (Lena and Kofi shoot together).\n"
                                + lines)
    lens_k.tool_plain(hold_date)
    enquiries = Agent(pydantic_ai_model(), name="enquiries", instructions=(
        "You answer couples who write to Juniper & Vale Photography.\n"
        "Questions about dates, availability, booking or holding a wedding day are put to the diary through "
        "ask_diary.\n"
        'If ask_diary raises an error, say "The diary cannot be reached just now; Lena will email you today."\n'
        "Then pass on what ask_diary says, word for word.\n"
        'Otherwise reply "Our collections and prices are on the website under Weddings."'))

    @enquiries.tool
    async def ask_diary(ctx: RunContext, message: str) -> str:
        """Ask the diary keeper to check or hold a wedding day.

        Args:
            message: The couple's message, as they wrote it.
        """
        result = await lens_k.run(message, usage=ctx.usage)
        return result.output

    return enquiries


def seeded():
    return build(DIARY_LINES["seeded"])


def fixed():
    return build(DIARY_LINES["fixed"])
