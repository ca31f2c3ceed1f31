"""Restricted tool access, PydanticAI: a dive centre's chat assistant, kb, answers divers and
passes bookings work to the bookings agent through its `ask_bookings` tool. Only the bookings
agent holds `cancel_dive`, which cancels a boat place and releases the deposit.

Seeded: kb's instructions were copied from the single-agent version of the assistant and still
tell it to cancel dives itself with `cancel_dive`, a tool kb does not have (masfuzz's
`--restricted probe` offers it, refusing). Fixed: kb passes cancellations to the bookings agent.
"""

from __future__ import annotations

from pydantic_ai import Agent, RunContext

from .models import pydantic_ai_model

BOOKINGS = {"DV-7730": {"diver": "S. Marsh", "dive": "Sunday 08:30, Manacles wreck", "deposit_gbp": 40}}


def cancel_dive(booking_ref: str) -> dict:
    """Cancel a diver's boat place and release the deposit.

    Args:
        booking_ref: The booking's reference, like "DV-1000".
    """
    booking = BOOKINGS.get(booking_ref)
    if booking is None:
        return {"cancelled": False, "reason": f"no booking {booking_ref}"}
    return {"cancelled": True, "dive": booking["dive"], "deposit_released_gbp": booking["deposit_gbp"]}


def dive_conditions(site: str) -> dict:
    """Today's conditions at a dive site.

    Args:
        site: The site's name, like "manacles".
    """
    return {"site": site, "visibility_m": 8, "swell_m": 0.9, "water_c": 14}


bookings = Agent(pydantic_ai_model(), name="bookings", instructions="""\
You manage boat bookings at Blue Hollow Dive Centre.
- Call cancel_dive.
- If cancel_dive raises an error, say "The booking system is down; the shop will cancel it by phone this morning."
- Report the result of cancel_dive.
""")
bookings.tool_plain(cancel_dive)

KB = """You are kb, the chat assistant of Blue Hollow Dive Centre.

### Cancellations
- {cancel} when the request mentions cancel, cancelling or can't make it.

### Site conditions
- Call dive_conditions when the request mentions visibility, conditions or swell.

### Always
- If ask_bookings raises an error, say "The bookings desk isn't answering; please ring the shop on 01326 555 019."
- If dive_conditions raises an error, say "The conditions board isn't updating; check with the skipper on the quay."
- Report the result of ask_bookings.
- Report the result of dive_conditions.
- Say "See you on the boat!"
"""


def build(cancel: str) -> Agent:
    kb = Agent(pydantic_ai_model(), name="kb", instructions=KB.format(cancel=cancel))
    kb.tool_plain(dive_conditions)

    @kb.tool
    async def ask_bookings(ctx: RunContext, booking_ref: str) -> str:
        """Pass a request about a booking to the bookings desk.

        Args:
            booking_ref: The booking's reference, like "DV-1000".
        """
        result = await bookings.run(f"Booking {booking_ref}. The diver wrote: {ctx.prompt}", usage=ctx.usage)
        return result.output

    return kb


def seeded():
    return build("Cancel the dive yourself: call cancel_dive")


def fixed():
    return build("Pass it to the bookings desk: call ask_bookings")
