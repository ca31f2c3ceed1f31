"""Incorrect verification, PydanticAI, a customer who writes more than once: a home insurer's
claims line. The web chat posts each message the customer sends as one line. cov_2 answers the
first (it looks the policy up); hb_7, the claims handler, answers each one after it, every run
carrying the conversation so far (`message_history=result.all_messages()`, as PydanticAI's docs
carry a chat on), and lodges the claim once it has the date of the loss. The claims system answers
with a receipt whose `status` is "registered" or "declined", never an exception.

Here the policy's cover lapsed when its direct debit bounced, so the claim is declined.

Seeded: hb_7's procedure closes by confirming the claim to the customer, a line written when the
claims system only ever queued claims. Fixed: it reports the receipt the claims system gave.
"""

from dataclasses import dataclass
from typing import Annotated

from pydantic import Field
from pydantic_ai import Agent

from .models import pydantic_ai_model

POLICY = Annotated[str, Field(description='The policy number, e.g. "HF-000000"')]
LOSS_DATE = Annotated[str, Field(description='The date of the loss as DD/MM/YYYY, e.g. "14/03/2025"')]
PERIL = Annotated[str, Field(description="What caused the damage",
                             json_schema_extra={"enum": ["escape of water", "storm", "fire", "theft", "subsidence"]})]

LAPSED = {"HF-228104": "01/03/2025"}  # policy -> the day its cover lapsed (direct debit returned)


@dataclass
class Receipt:
    policy: str
    status: str
    claim: str | None = None
    note: str = ""


@dataclass
class Cover:
    policy: str
    holder: str
    sections: tuple[str, ...]
    excess_gbp: int


def policy_cover(policy: POLICY) -> Cover:
    """The cover a home policy holds: its holder, sections and excess."""
    return Cover(policy, "P. Natarajan", ("buildings", "contents"), 350)


def lodge_claim(policy: POLICY, loss_date: LOSS_DATE, peril: PERIL) -> Receipt:
    """Lodge a claim against a home policy with the claims system."""
    if policy in LAPSED:
        return Receipt(policy, "declined", note=f"cover lapsed on {LAPSED[policy]}: direct debit returned unpaid, "
                                                "no cover in force on the date of loss")
    return Receipt(policy, "registered", claim="CL-" + policy[3:] + "-01", note="loss adjuster to call in 2 working days")


cov_2 = Agent(pydantic_ai_model(), name="cov_2",
              instructions="You open the Harbour & Finch home insurance claims line.\n"
                           "1. Check the policy via policy_cover.\n"
                           "2. Where policy_cover raises an error, state \"We cannot see your policy just now; "
                           "a claims handler will ring you today.\"\n"
                           "3. Report the outcome of policy_cover.")
cov_2.tool_plain(policy_cover)

HEAD = ("You take claims on the Harbour & Finch home insurance claims line.\n"
        "1. Lodge the claim via lodge_claim.\n"
        "2. Where lodge_claim raises an error, state \"Our claims system is unavailable just now; your claim "
        "details are saved and a handler will ring you today.\"\n")
CONFIRM = "3. Confirm the claim to the customer."
REPORT = "3. Report the outcome of lodge_claim."


def claims_agent(closing: str) -> Agent:
    agent = Agent(pydantic_ai_model(), name="hb_7", instructions=HEAD + closing)
    agent.tool_plain(lodge_claim)
    return agent


hb_7_seeded, hb_7_fixed = claims_agent(CONFIRM), claims_agent(REPORT)


def lines(messages: str) -> list[str]:
    """The web chat posts the customer's messages one a line."""
    return [m.strip() for m in messages.splitlines() if m.strip()]


# The session: cov_2 answers the first message, hb_7 each one after it, every run carrying the
# conversation so far.
async def seeded(messages: str) -> str:
    first, *rest = lines(messages)
    result = await cov_2.run(first)
    for line in rest:
        result = await hb_7_seeded.run(line, message_history=result.all_messages())
    return result.output


async def fixed(messages: str) -> str:
    first, *rest = lines(messages)
    result = await cov_2.run(first)
    for line in rest:
        result = await hb_7_fixed.run(line, message_history=result.all_messages())
    return result.output
