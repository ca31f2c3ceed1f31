"""Misrouted request, PydanticAI (a front desk whose delegation tools run the other desks' agents
with `usage=ctx.usage`, declared with `@agent.tool` and a `prepare` function that offers the
clinic's tool only on clinic days): a high-street optician. `front_o` passes each customer to the
optometrist `optom_e`, who books eye examinations with `book_eye_test`, or to the dispensing desk
`dispense_d`, who orders glasses and contact lenses with `reorder_lenses`.

Seeded: front_o's first routing line dates from when every contact lens customer saw the
optometrist for a fitting: it still sends "eyes, sight tests or contact lenses" to the clinic, so a
plain repeat order of monthly lenses is booked in as an eye test and dispense_d never hears of
it. Fixed: contact lens orders are on the dispensing line.
"""

from __future__ import annotations

from typing import Literal

from pydantic_ai import Agent, RunContext
from pydantic_ai.tools import ToolDefinition

from .models import pydantic_ai_model

PRESCRIPTIONS = {"OP-7731": {"lens": "Dailies monthly toric", "checked": "2025-11-04"},
                 "OP-7790": {"lens": "Acuvue Oasys", "checked": "2024-02-19"}}
ORDERS: list[str] = []


def reorder_lenses(account: str, months: Literal[1, 3, 6, 12]) -> dict:
    """Order a repeat supply of contact lenses on the customer's current prescription.

    Args:
        account: The customer's account number, like "OP-1234".
        months: How many months' supply.
    """
    found = PRESCRIPTIONS.get(account.strip().upper())
    if found is None:
        return {"status": "no account", "account": account}
    ORDERS.append(account)
    return {"status": "ordered", "order": f"CL-{5200 + len(ORDERS)}", "lens": found["lens"], "months": months,
            "price": f"{21.5 * months:.2f} GBP", "delivery": "3 working days, to home"}


def book_eye_test(account: str, day: str) -> dict:
    """Book an eye examination in the clinic.

    Args:
        account: The customer's account number, like "OP-1234".
        day: The day wanted, like "2026-01-31".
    """
    return {"status": "booked", "account": account, "day": day or "next free", "time": "10:20", "room": "clinic 2"}


OPTOM = """You are optom_e, the optometrist's clinic at Clearview Opticians, Leicester.
Book an eye examination with book_eye_test.
If book_eye_test fails, say "The clinic diary cannot be reached just now; nothing is booked yet and we will ring you."
Reply "Eye examination booked for {day} at {time} in {room}."
"""

DISPENSE = """You are dispense_d, the dispensing desk at Clearview Opticians, Leicester.
Order the lenses with reorder_lenses.
If reorder_lenses fails, say "The lens ordering system cannot be reached just now; nothing has been ordered or charged yet."
If reorder_lenses answers no account, say "There is no account {account} on file; please check the number on your last receipt."
Reply "Order {order}: {months} months of {lens}, {price}, delivered in {delivery}."
"""

FRONT = {
    "seeded": """You are front_o at the front desk of Clearview Opticians, Leicester.
Pass anything about eyes, sight tests or contact lenses to ask_optom.
Pass anything about glasses, frames or repeat orders to ask_dispense.
""",
    "fixed": """You are front_o at the front desk of Clearview Opticians, Leicester.
Pass anything about eyes or sight tests to ask_optom.
Pass anything about glasses, frames, contact lenses or repeat orders to ask_dispense.
""",
}


async def clinic_day(ctx: RunContext[None], tool: ToolDefinition) -> ToolDefinition | None:
    """The clinic's desk is offered on clinic days (every day, since the second optometrist)."""
    return tool


def build(version: str) -> Agent:
    optom_e = Agent(pydantic_ai_model(), name="optom_e", instructions=OPTOM, tools=[book_eye_test])
    dispense_d = Agent(pydantic_ai_model(), name="dispense_d", instructions=DISPENSE, tools=[reorder_lenses])
    front_o = Agent(pydantic_ai_model(), name="front_o", instructions=FRONT[version])

    @front_o.tool(prepare=clinic_day)
    async def ask_optom(ctx: RunContext[None], request: str) -> str:
        """Ask the optometrist's clinic: pass the customer's request as written."""
        return (await optom_e.run(request, usage=ctx.usage)).output

    @front_o.tool
    async def ask_dispense(ctx: RunContext[None], request: str) -> str:
        """Ask the dispensing desk: pass the customer's request as written."""
        return (await dispense_d.run(request, usage=ctx.usage)).output

    return front_o


def seeded():
    return build("seeded")


def fixed():
    return build("fixed")
