"""Misrouted request, AG2 GroupChat with a custom speaker-selection function (AG2's "customized
speaker selection": a function of `(last_speaker, groupchat)`, tool calls going to a proxy that runs
them): a concert hall's box office chat. `boxoffice` reads the patron's message and passes it on by
name; the app's function gives the next turn to the colleague boxoffice named. `seats_k` holds
seats and wheelchair spaces (`hold_seats`); `xch_2` exchanges tickets for another performance
(`exchange_tickets`). The proxy `hall_pc` runs the tools and speaks for the patron.

Seeded: boxoffice's routing lines were copied from the season when exchanges were done by
re-seating, and send exchanges to seats_k, who cannot exchange a ticket and holds seats instead.
Fixed: exchanges go to xch_2.
"""

import re
from typing import Annotated, Literal

import autogen

from .models import ag2_config

BOOKING = Annotated[str, 'The booking reference on the e-ticket, e.g. "CH-00000"']
BOOKINGS = {"CH-58120": {"performance": "2026-03-14", "seats": ["K11", "K12"], "band": "stalls B"}}
FREE = {"2026-03-21": {"stalls B": 6, "circle": 20}, "2026-03-14": {"stalls B": 0, "circle": 2}}


def exchange_tickets(booking: BOOKING,
                     new_date: Annotated[str, 'The date of the performance wanted, e.g. "2026-01-31"']) -> dict:
    """Exchange a booking's tickets for the same seats band at another performance (fee GBP 2.50 a ticket)."""
    found = BOOKINGS.get(booking)
    if found is None:
        return {"result": "UNKNOWN_BOOKING", "booking": booking}
    band = found["band"]
    if FREE.get(new_date, {}).get(band, 0) < len(found["seats"]):
        return {"result": "NO_SEATS", "booking": booking, "detail": f"{band} sold out on {new_date}"}
    FREE[new_date][band] -= len(found["seats"])
    return {"result": "EXCHANGED", "booking": booking, "new": {"date": new_date, "seats": ["L7", "L8"]}, "fee": "5.00 GBP"}


def hold_seats(booking: BOOKING, band: Literal["stalls A", "stalls B", "circle", "wheelchair space"]) -> tuple:
    """Hold seats in a band for an unpaid booking for 20 minutes."""
    return (200, f"{band} held 20 min for {booking}")


BOXOFFICE = """Box office chat, Albion Concert Hall.
- Pass the message to `seats_k` when it is about an exchange, swap, seats or a wheelchair space.
- Pass the message to `xch_2` when it is about a refund or a lost ticket.
- Otherwise reply "Our box office is open 10:00-18:00 on 0113 496 0000."
"""

FIXED = """Box office chat, Albion Concert Hall.
- Pass the message to `xch_2` when it is about an exchange, swap, refund or a lost ticket.
- Pass the message to `seats_k` when it is about seats or a wheelchair space.
- Otherwise reply "Our box office is open 10:00-18:00 on 0113 496 0000."
"""

SEATS_K = """Seating desk.
- Hold the seats with `hold_seats`.
- If `hold_seats` fails, say "The seat map is locked just now - please try again in a few minutes."
- Report the result of `hold_seats` to the patron."""

XCH_2 = """Exchanges and refunds desk. Exchanges are free of charge up to 48 hours before the concert, then GBP 2.50 a ticket.
- Exchange the tickets with `exchange_tickets`.
- If `exchange_tickets` reports NO_SEATS or UNKNOWN_BOOKING, mark the exchange as not possible, with the reason.
- Tick off the exchange for the patron."""


def run(task: str, routing: str):
    boxoffice = autogen.AssistantAgent("boxoffice", llm_config=ag2_config(), system_message=routing,
                                       description="Reads patrons' messages and passes them on.")
    seats_k = autogen.AssistantAgent("seats_k", llm_config=ag2_config(), system_message=SEATS_K,
                                     description="Holds seats and wheelchair spaces.")
    xch_2 = autogen.AssistantAgent("xch_2", llm_config=ag2_config(), system_message=XCH_2,
                                   description="Exchanges tickets for another performance, refunds.")
    hall_pc = autogen.UserProxyAgent("hall_pc", human_input_mode="NEVER", code_execution_config=False)
    autogen.register_function(hold_seats, caller=seats_k, executor=hall_pc, description=hold_seats.__doc__)
    autogen.register_function(exchange_tickets, caller=xch_2, executor=hall_pc, description=exchange_tickets.__doc__)
    desks = {"seats_k": seats_k, "xch_2": xch_2}

    def next_speaker(last, groupchat):
        messages = groupchat.messages
        if messages[-1].get("tool_calls"):
            return hall_pc
        if last is hall_pc and len(messages) > 1:  # a tool answered: back to whoever called it
            return groupchat.agent_by_name(messages[-2]["name"])
        if last is hall_pc:  # the patron's message
            return boxoffice
        if last is boxoffice:  # the colleague boxoffice named, if any
            named = re.findall(r"\b(" + "|".join(desks) + r")\b", messages[-1].get("content") or "")
            return desks[named[0]] if named else None
        return None  # a desk's answer to the patron ends the chat

    groupchat = autogen.GroupChat([hall_pc, boxoffice, seats_k, xch_2], messages=[], max_round=10,
                                  speaker_selection_method=next_speaker)
    manager = autogen.GroupChatManager(groupchat, llm_config=ag2_config())
    return hall_pc.initiate_chat(manager, message=task)


TASK = "Booking CH-58120: could I exchange my two tickets for the performance on 2026-03-21?"


def seeded():
    return run(TASK, BOXOFFICE)


def fixed():
    return run(TASK, FIXED)
