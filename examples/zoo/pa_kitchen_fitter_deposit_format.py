"""Tool specification mismatch, PydanticAI (`deps_type` carrying the firm's job book into a
`RunContext` tool, `output_type` a Pydantic model answered through the output tool): a kitchen
fitter's accounts desk. `accounts_a` takes the deposit on an accepted quote with `take_deposit`.

Seeded: `take_deposit` documents the amount "as printed on the quote, like '£1,250.00'", but reads
it with `Decimal(amount.removeprefix("£"))`, which the card terminal's old single-figure deposits
never troubled: a quote's "£2,535.00", thousands separator and all, is "not a number" and comes
back `{"status": 422, ...}`. Fixed: the separator is taken out before the amount is read.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation

from pydantic import BaseModel
from pydantic_ai import Agent, RunContext

from .models import pydantic_ai_model


@dataclass
class JobBook:
    quotes: dict = field(default_factory=lambda: {"KF-3391": Decimal("8450.00"), "KF-3402": Decimal("12980.00")})
    paid: dict = field(default_factory=dict)


class DepositReply(BaseModel):
    """What the accounts desk tells the customer, and whether the deposit was taken."""

    message: str
    deposit_taken: bool


ACCOUNTS = """You are accounts_a at Oakline Kitchens, Norwich.
Take the deposit with take_deposit.
If take_deposit fails, say "The card system could not be reached just now; nothing has been charged and we will call you to take the deposit."
If take_deposit answers 422, say "The deposit could not be taken: the card system answered '{error}'. Nothing has been charged."
Reply "Deposit of {amount} received for job {job_ref}; your fitting slot is held, {balance} due on completion."
"""


def build(clean) -> Agent:
    accounts_a = Agent(pydantic_ai_model(), name="accounts_a", instructions=ACCOUNTS, deps_type=JobBook,
                       output_type=DepositReply)

    @accounts_a.tool
    def take_deposit(ctx: RunContext[JobBook], job_ref: str, amount: str) -> dict:
        """Take the deposit on an accepted kitchen quote by card on file.

        Args:
            job_ref: The quote's job reference, like "KF-1234".
            amount: The deposit, as printed on the quote, like "£1,250.00".
        """
        total = ctx.deps.quotes.get(job_ref.upper())
        if total is None:
            return {"status": 404, "error": f"no quote {job_ref}"}
        try:
            paid = Decimal(clean(amount.strip().removeprefix("£")))
        except InvalidOperation:
            return {"status": 422, "error": f"amount {amount!r} is not a number"}
        ctx.deps.paid[job_ref.upper()] = paid
        return {"status": 200, "job_ref": job_ref.upper(), "amount": f"{paid:.2f} GBP",
                "balance": f"{total - paid:.2f} GBP"}

    return accounts_a


def seeded():
    return build(lambda amount: amount)


def fixed():
    return build(lambda amount: amount.replace(",", ""))
