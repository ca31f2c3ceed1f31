"""Misrouted request, PydanticAI agent delegation: a harbour office's front agent, hm_desk, hands
each question to one of two agents through its tools: `ask_berths` runs berth_t, who renews
moorings, and `ask_fuel` runs fuel_q, who sells diesel and books pump-outs.

Seeded: `ask_berths` was written by copying `ask_fuel` and still runs fuel_q, whose tools cannot
renew a mooring: a renewal never reaches berth_t, though hm_desk picked the right tool. Fixed:
`ask_berths` runs berth_t.
"""

from typing import Annotated

from pydantic import Field
from pydantic_ai import Agent, RunContext

from .models import pydantic_ai_model

MOORINGS = {"m-114": ("Kestrel", "£1,180.00"), "m-207": ("Halcyon", "£960.00")}


def renew_mooring(mooring: Annotated[str, Field(description='The mooring number, like "m-000"')]) -> dict:
    """Renew a swinging mooring for next season and raise the invoice."""
    if mooring not in MOORINGS:
        return {"mooring": mooring, "renewed_until": None}
    boat, fee = MOORINGS[mooring]
    return {"mooring": mooring, "boat": boat, "renewed_until": "2026-03-31", "invoice": fee}


def berth_waiting_list(length_m: Annotated[float, Field(description="The boat's length in metres")]) -> str:
    """Where a boat of this length stands on the pontoon waiting list."""
    return f"{length_m} m: 7th on the list"


def diesel_price() -> str:
    """Today's price of marine diesel at the fuel berth."""
    return "£1.21 a litre, red diesel not sold"


def book_pumpout(boat: Annotated[str, Field(description='The boat\'s name, like "Sea Spray"')]) -> str:
    """Book a holding-tank pump-out at the fuel berth."""
    return f"{boat}: pump-out at 10:00 tomorrow"


berth_t = Agent(pydantic_ai_model(), name="berth_t",
                instructions="you look after the moorings of Porthallow Harbour. If renew_mooring raises an "
                             "error, say \"The moorings ledger is down; your mooring is held until it is back.\" "
                             "Call renew_mooring. Report the result of renew_mooring.")
berth_t.tool_plain(renew_mooring)
berth_t.tool_plain(berth_waiting_list)

fuel_q = Agent(pydantic_ai_model(), name="fuel_q",
               instructions="you run the fuel berth of Porthallow Harbour. Call diesel_price when the request "
                            "mentions diesel, fuel or price. Call book_pumpout when the request mentions "
                            "pump-out or holding tank. Report the result of diesel_price. Report the result of "
                            "book_pumpout. Say \"The fuel berth does diesel and pump-outs only.\"")
fuel_q.tool_plain(diesel_price)
fuel_q.tool_plain(book_pumpout)


def build(berths_runs: Agent) -> Agent:
    hm_desk = Agent(pydantic_ai_model(), name="hm_desk",
                    instructions="you answer the harbour office's messages. Call ask_berths when the request "
                                 "mentions mooring, berth or pontoon. Call ask_fuel when the request mentions "
                                 "diesel, fuel or pump-out. Report the result of ask_berths. Report the result "
                                 "of ask_fuel.")

    @hm_desk.tool
    async def ask_berths(ctx: RunContext, question: str) -> str:
        """Pass a question about moorings or pontoon berths to the moorings officer."""
        return (await berths_runs.run(question, usage=ctx.usage)).output

    @hm_desk.tool
    async def ask_fuel(ctx: RunContext, question: str) -> str:
        """Pass a question about diesel or pump-outs to the fuel berth."""
        return (await fuel_q.run(question, usage=ctx.usage)).output

    return hm_desk


def seeded():
    return build(fuel_q)


def fixed():
    return build(berth_t)
