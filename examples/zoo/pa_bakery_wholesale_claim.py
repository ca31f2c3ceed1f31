"""Incorrect verification, PydanticAI agent delegation: a bakery's wholesale line. Cafés and
delis write to `desk`, which passes orders to `b2` through its `ask_orders` tool; b2 books them
into the bakehouse's order book with `place_order`. The order book answers a typed record whose
outcome is nested (`{"result": {"state": "REJECTED", "reason": ...}}`): an account with an overdue
invoice is on credit hold and gets nothing baked.

The agents' instructions are assembled from one dict of prompt parts, as the bakery's other bots
are. Seeded: b2's closing step, a cheerful next-step line about the drop, follows the order book
call whatever its state. Fixed: a step before it answers a REJECTED order with the reason.
"""

from __future__ import annotations

from typing_extensions import TypedDict  # pydantic reads a TypedDict from here before Python 3.12

from pydantic_ai import Agent, RunContext

from .models import pydantic_ai_model


class Outcome(TypedDict):
    state: str  # ACCEPTED, REJECTED or QUEUED, as the order book names them
    reason: str


class OrderReply(TypedDict):
    account: str
    drop_date: str
    result: Outcome


ACCOUNTS = {"WH-2210": {"name": "Pickle & Rye deli", "hold": "credit hold: invoice INV-0881 is 46 days overdue"},
            "WH-1048": {"name": "Mill Lane café", "hold": ""}}


def place_order(account: str, drop_date: str, items: str) -> OrderReply:
    """Book a wholesale order into the bakehouse order book for an early-morning drop.

    Args:
        account: The wholesale account number, like "WH-1000".
        drop_date: The morning of the drop, like "2026-01-31".
        items: What to bake, like "40 sourdough".
    """
    customer = ACCOUNTS.get(account)
    if customer is None:
        return {"account": account, "drop_date": drop_date, "result": {"state": "REJECTED", "reason": "unknown account"}}
    if customer["hold"]:
        return {"account": account, "drop_date": drop_date, "result": {"state": "REJECTED", "reason": customer["hold"]}}
    return {"account": account, "drop_date": drop_date, "result": {"state": "ACCEPTED", "reason": f"{items} on the bake sheet"}}


BAKERY = "Hearth & Sons"
PARTS = {
    "b2_role": "You run the wholesale order book at {bakery}.",
    "b2_call": 'Call place_order.\nIf place_order raises an error, say "The order book is offline; ring the bakehouse before 14:00 and we will pencil you in."',
    "b2_hold": 'If place_order answers REJECTED, say "The bakehouse could not take this order: the account is on credit hold. Our accounts team will ring you today to sort it out."',
    "b2_close": 'Say "You\'re all set for the early drop - leave the crate cage unlocked, the van is there by 05:30."',
    "desk_role": "You answer {bakery}'s wholesale customers.",
    "desk_steps": 'Call ask_orders when the request mentions order, loaves, bake or drop.\n'
                  'If ask_orders raises an error, say "The bakehouse is not answering just now; we will call you back within the hour."\n'
                  'Report the result of ask_orders.\nSay "Thanks for getting in touch with {bakery}."',
}


def prompt(*keys: str) -> str:
    return "\n".join(PARTS[k] for k in keys).format(bakery=BAKERY)


def build(parts: tuple[str, ...]) -> Agent:
    b2 = Agent(pydantic_ai_model(), name="b2", instructions=prompt(*parts))
    b2.tool_plain(place_order)
    desk = Agent(pydantic_ai_model(), name="desk", instructions=prompt("desk_role", "desk_steps"))

    @desk.tool
    async def ask_orders(ctx: RunContext, message: str) -> str:
        """Pass a customer's order to the order book.

        Args:
            message: The customer's message, word for word.
        """
        result = await b2.run(message, usage=ctx.usage)
        return result.output

    return desk


def seeded():
    return build(("b2_role", "b2_call", "b2_close"))


def fixed():
    return build(("b2_role", "b2_call", "b2_hold", "b2_close"))
