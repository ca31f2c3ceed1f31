"""Misrouted request, PydanticAI (a front desk whose delegation tools run the other desks' agents
with `usage=ctx.usage`, the counter's agent answering through `output_type` a union of an
ordered and a not-ordered model): a string instrument shop. `front_m` passes each customer to the
luthier's workshop, `workshop_l`, who books repairs and setups with `book_repair`, or to the shop
counter, `counter_c`, who orders strings, rosin and accessories with `order_strings`.

Seeded: front_m's first routing line dates from when the luthier restrung every instrument she
sold and kept the string stock at her bench: "repairs, setups or strings" still go to the
workshop, so a plain order of cello strings is booked in as a repair and counter_c never hears
of it.
Fixed: strings are on the counter's line.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field
from pydantic_ai import Agent, RunContext

from .models import pydantic_ai_model

ACCOUNTS = {"VC-3318": {"instrument": "cello, 4/4", "strings": "Larsen Soloist medium"}}
ORDERS: list[str] = []


def order_strings(account: str, sets: int, gauge: Literal["light", "medium", "heavy"]) -> dict:
    """Order sets of strings for the instrument on a customer's account, posted to them.

    Args:
        account: The customer's account, like "VC-1000".
        sets: How many full sets.
        gauge: The string tension.
    """
    found = ACCOUNTS.get(account.strip().upper())
    if found is None:
        return {"status": "not_found", "account": account}
    ORDERS.append(account)
    return {"status": "ordered", "order": f"ST-{6100 + len(ORDERS)}", "strings": found["strings"].replace("medium", gauge),
            "sets": sets, "price": f"£{96 * sets}.00", "post": "2 working days"}


def book_repair(account: str, job: str) -> dict:
    """Book an instrument onto the luthier's bench for a repair or setup.

    Args:
        account: The customer's account, like "VC-1000".
        job: What needs doing, in the customer's words.
    """
    return {"status": "booked", "repair": "RP-" + account[-4:], "bench": "next Tuesday", "bring": "the instrument in its case"}


class Ordered(BaseModel):
    """An order the counter has placed."""
    letter: str = Field(description="The letter to the customer")
    order: str = Field(description="The order reference")


class NotOrdered(BaseModel):
    """An order the counter could not place."""
    letter: str = Field(description="The letter to the customer")
    reason: str = Field(description="Why it was not ordered")


WORKSHOP = """You are workshop_l, the luthier's workshop at Fenwick Strings, York.
Book the job with book_repair.
If book_repair fails, write "The workshop diary is not answering; nothing is booked yet."
Report what book_repair answered."""

COUNTER = """You are counter_c at the shop counter of Fenwick Strings, York.
Order the strings with order_strings.
If order_strings fails, write "Our ordering system is not answering; nothing has been ordered or charged yet."
Report what order_strings answered."""

FRONT = {
    "seeded": """You are front_m at the front desk of Fenwick Strings, York.
Pass anything about repairs, setups or strings to ask_workshop.
Pass anything about rosin, cases or accessories to ask_counter.
Tell the customer what the desk you asked answered.""",
    "fixed": """You are front_m at the front desk of Fenwick Strings, York.
Pass anything about repairs or setups to ask_workshop.
Pass anything about strings, rosin, cases or accessories to ask_counter.
Tell the customer what the desk you asked answered.""",
}


def build(version: str) -> Agent:
    workshop_l = Agent(pydantic_ai_model(), name="workshop_l", instructions=WORKSHOP, tools=[book_repair])
    counter_c = Agent(pydantic_ai_model(), name="counter_c", instructions=COUNTER, tools=[order_strings],
                      output_type=[Ordered, NotOrdered])
    front_m = Agent(pydantic_ai_model(), name="front_m", instructions=FRONT[version])

    @front_m.tool
    async def ask_workshop(ctx: RunContext[None], request: str) -> str:
        """Ask the luthier's workshop: pass on the customer's request."""
        return (await workshop_l.run(request, usage=ctx.usage)).output

    @front_m.tool
    async def ask_counter(ctx: RunContext[None], request: str) -> str:
        """Ask the shop counter: pass on the customer's request."""
        return (await counter_c.run(request, usage=ctx.usage)).output.letter

    return front_m


def seeded():
    return build("seeded")


def fixed():
    return build("fixed")
