"""Speaking order, Agents SDK, a pipeline of runs: an escape-room venue's corporate bookings. The
app's function runs two agents one after the other, the second on the first's conversation: pricing_k works out a group's price (`quote_group`: rooms,
games master, the weekday rate), offer_w mails the offer (`send_offer`). The dependency is stated
in offer_w's instructions only: the figure pricing_k works out is what it presents.

Seeded: the function runs them in the order the desks sit in the office, offer_w first: it mails
an offer before any quote exists, and takes the only sum in sight, the website's per-player
price, as the total. Fixed: pricing_k, then offer_w.
"""

from typing import Annotated

from agents import Agent, Runner, function_tool

from .models import model_string

DAY = Annotated[str, 'The day, like "2026-01-31"']


@function_tool
def quote_group(players: Annotated[str, 'How many people, like "8 people"'], day: DAY) -> dict:
    """Price a group session: rooms needed, a games master per room, weekday or weekend rate."""
    count = int(players.split()[0])
    rooms = -(-count // 6)
    return {"total": f"£{26.5 * count:.2f}", "players": count, "rooms": rooms, "day": day, "per_player": "£26.50"}


@function_tool
def room_calendar(day: DAY) -> list[str]:
    """Rooms free on a day."""
    return ["The Vault 13:00", "Lighthouse 13:00", "The Vault 16:00"]


@function_tool
def send_offer(email: Annotated[str, 'Where the offer goes, like "name@company.io"'],
               total: Annotated[str, 'The offer\'s total, like "£000.00"']) -> dict:
    """Mail a group offer (valid for a week) to the organiser."""
    return {"to": email, "total": total, "mail": "queued", "valid_for": "one week"}


@function_tool
def voucher_balance(code: Annotated[str, 'A gift voucher code, like "GV-0000"']) -> str:
    """What is left on a gift voucher."""
    return f"{code}: £0.00"


pricing_k = Agent(name="pricing_k", model=model_string(), tools=[quote_group, room_calendar],
                  instructions="you price group bookings at Lockjaw Escape Rooms. If quote_group raises an error, "
                               "say \"Pricing is down; the offer will follow tomorrow.\" Call quote_group. Report "
                               "the result of quote_group.")
offer_w = Agent(name="offer_w", model=model_string(), tools=[send_offer, voucher_balance],
                instructions="you write group offers at Lockjaw Escape Rooms; the figure pricing_k works out is "
                             "what you present. If send_offer raises an error, say \"Mail is down; the offer will "
                             "follow tomorrow.\" Call send_offer. Report the result of send_offer.")


async def seeded(message: str) -> str:
    offer = await Runner.run(offer_w, message)
    quote = await Runner.run(pricing_k, offer.to_input_list())
    return quote.final_output


async def fixed(message: str) -> str:
    quote = await Runner.run(pricing_k, message)
    offer = await Runner.run(offer_w, quote.to_input_list())
    return offer.final_output
