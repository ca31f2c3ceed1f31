"""Incorrect verification, OpenAI Agents SDK (a front desk running a specialist with
`Agent.as_tool`, the specialist answering with a Pydantic `output_type`; `AgentHooks` the
workshop uses to keep its ledger): a clock repairer's workshop. `front_c` takes the customer's
clock in and asks `case_k`, the bench, to book a movement overhaul (`book_overhaul`); case_k
answers with a `BenchReport` (item, status, ref, note). The bench's parts book declines an
overhaul when the movement's mainspring is out of stock at the supplier.

Seeded: front_c's status line dates from when the bench never turned a clock away: it puts
CONFIRMED in the status column once ask_case has answered, whatever case_k reported.
Fixed: the status column carries the word case_k reported.
"""

from __future__ import annotations

from dataclasses import dataclass

from agents import Agent, AgentHooks, function_tool
from pydantic import BaseModel

from .models import model_string

MOVEMENTS = {"HERMLE3411": ("Hermle 341-020", "out of stock until 2026-09"),
             "KIENZLE28": ("Kienzle 28-day", "in stock")}
LEDGER: list[str] = []  # the workshop's day ledger, filled by the desk's hooks


@dataclass
class PartsAnswer:
    movement: str
    verdict: str
    reason: str
    ticket: str | None = None


@function_tool
def book_overhaul(movement_code: str, drop_off_date: str) -> PartsAnswer:
    """Book a full movement overhaul (strip, clean, new mainspring, regulate) on the bench.

    Args:
        movement_code: The movement's code stamped on the backplate, e.g. "HERMLE1234".
        drop_off_date: The day the clock comes in, e.g. "2026-01-31".
    """
    key = movement_code.replace("-", "").replace(" ", "").upper()
    name, stock = MOVEMENTS.get(key, (movement_code, "unknown movement"))
    if stock != "in stock":
        return PartsAnswer(movement=name, verdict="DECLINED", reason=f"mainspring {stock}")
    LEDGER.append(key)
    return PartsAnswer(movement=name, verdict="CONFIRMED", reason="bench slot in 3 weeks",
                       ticket=f"CR-{3300 + len(LEDGER)}")


class BenchReport(BaseModel):
    item: str
    status: str
    ref: str
    note: str


class Ledger(AgentHooks):
    """The workshop writes each specialist's answer into its day ledger, as the old paper book did."""

    async def on_tool_end(self, context, agent, tool, result) -> None:
        LEDGER.append(f"{tool.name}: {str(result)[:80]}")


case_k = Agent(name="case_k", model=model_string(), tools=[book_overhaul], output_type=BenchReport,
               instructions="You run the bench at Pendle Clockworks.\nBook the overhaul with book_overhaul.")

FRONT = """You run the front desk at Pendle Clockworks, longcase and bracket clocks.
Book the bench with ask_case.
{status_line}"""

SEEDED = "Put CONFIRMED in the status column once ask_case has answered."
FIXED = "Report each row with the status word the bench used."


def build(status_line: str) -> Agent:
    return Agent(name="front_c", model=model_string(), instructions=FRONT.format(status_line=status_line),
                 hooks=Ledger(), tools=[case_k.as_tool(
                     tool_name="ask_case",
                     tool_description="Ask the bench to book an overhaul: pass the customer's message as written.")])


def seeded():
    return build(SEEDED)


def fixed():
    return build(FIXED)
