"""Information loss, Agents SDK sessions, a customer who writes more than once: a water company's
billing office. The web chat posts each message the customer sends as one line; the first goes to
front_w, who reads the account and the bill, and each message after it to plans_k, who arranges
payment plans. The turns of one conversation share an SDK session (`SQLiteSession`, the SDK's
SQLite-backed conversation memory), so plans_k reads what was said before the customer's
follow-ups (a second request, then a correction of it): the account number, given once, in the
first message.

Seeded: the chat opens `SQLiteSession(thread)` afresh for each message. The session id is the
same, but a session without a `db_path` keeps its history in an in-memory SQLite database of its
own, so each message starts a new, empty conversation: plans_k never sees the account number and
has to ask for it again. Fixed: one session is opened for the conversation and every turn uses it.
"""

from dataclasses import dataclass
from typing import Annotated

from agents import Agent, Runner, SQLiteSession, function_tool

from .models import model_string

ACCOUNT = Annotated[str, 'The customer account number, e.g. "WW-0000000"']


@dataclass
class Bill:
    account: str
    period: str
    amount_due: str
    reading_type: str


@function_tool
def bill_summary(account: ACCOUNT) -> Bill:
    """The latest bill on a water account: period, amount due and how the meter was read."""
    return Bill(account, "Jan-Mar 2025", "£412.60", "actual")


@function_tool
def leak_allowance(account: ACCOUNT) -> dict:
    """Whether an account may claim a leak allowance on its supply pipe."""
    return {"account": account, "eligible": {"value": False, "why": "allowance used in 2023"}}


@function_tool
def arrange_instalments(account: ACCOUNT,
                        instalments: Annotated[int, 'How many monthly payments, e.g. "6"']) -> tuple:
    """Set up, or replace, the plan spreading a water account's balance over monthly direct debits."""
    return (201, {"account": account, "plan": f"{instalments} x £{412.60 / instalments:.2f}",
                  "first_collection": "2025-05-28"})


front_w = Agent(
    name="front_w", model=model_string(), tools=[bill_summary, leak_allowance],
    instructions="You read messages to Wyeford Water's billing office.\n"
                 "1. Look the bill up via bill_summary.\n"
                 "2. Where bill_summary raises an error, state \"Our billing system is offline; we will write to "
                 "you within five working days.\"\n"
                 "3. Report the outcome of bill_summary.")
plans_k = Agent(
    name="plans_k", model=model_string(), tools=[arrange_instalments],
    instructions="You arrange payment plans at Wyeford Water.\n"
                 "1. Arrange the plan via arrange_instalments.\n"
                 "2. Where arrange_instalments raises an error, state \"Payment plans cannot be set up just now; "
                 "no collection will be taken until we write to you.\"\n"
                 "3. Report the outcome of arrange_instalments.")


def lines(messages: str) -> list[str]:
    """The web chat posts the customer's messages one a line."""
    return [m.strip() for m in messages.splitlines() if m.strip()]


async def seeded(messages: str, thread: str = "web-chat") -> str:
    first, *rest = lines(messages)
    result = await Runner.run(front_w, first, session=SQLiteSession(thread))
    for line in rest:
        result = await Runner.run(plans_k, line, session=SQLiteSession(thread))
    return result.final_output


async def fixed(messages: str, thread: str = "web-chat") -> str:
    session = SQLiteSession(thread)
    first, *rest = lines(messages)
    result = await Runner.run(front_w, first, session=session)
    for line in rest:
        result = await Runner.run(plans_k, line, session=session)
    return result.final_output
