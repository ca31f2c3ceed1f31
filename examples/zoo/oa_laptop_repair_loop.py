"""Loop, OpenAI Agents SDK (one agent with a function tool, the run bounded by the Runner's turn
limit): a laptop repair shop's collection desk. `repairs_r` looks a repair ticket up with
`repair_status` and tells the customer whether the laptop can be collected.

Seeded: repairs_r's line was written for the old workshop system, which said "READY" when a
repair was done: "Check the repair with repair_status until it says READY". The new system says
"awaiting collection" for a finished laptop, so repairs_r checks the finished repair again and
again, to the turn limit. Fixed: it checks once and reports what the system says.
"""

from __future__ import annotations

from agents import Agent, function_tool

from .models import model_string

# the workshop system's board since its upgrade: finished jobs wait on the collection shelf
BOARD = {"LR-5521": ("awaiting collection", "new battery fitted and keyboard cleaned", "95.00 GBP"),
         "LR-5530": ("on the bench", "screen ordered", None)}


@function_tool
def repair_status(ticket: str) -> dict:
    """Look up a laptop repair on the workshop board.

    Args:
        ticket: The repair ticket, like "LR-1234".
    """
    state = BOARD.get(ticket.strip().upper())
    if state is None:
        return {"ticket": ticket, "status": "unknown ticket"}
    status, work, due = state
    return {"ticket": ticket.upper(), "status": status, "work": work, "to_pay": due,
            "collect": "Mon-Sat 09:00-17:30" if due else None}


REPAIRS = {
    "seeded": """You are repairs_r at ByteFix laptop repairs, Sheffield.
Check the repair with repair_status until it says READY.
If repair_status fails, say "The workshop board cannot be read just now; we will text you when your laptop can be collected."
Reply "Your laptop ({ticket}) is {status}: {work}. To pay: {to_pay}, collection {collect}."
""",
    "fixed": """You are repairs_r at ByteFix laptop repairs, Sheffield.
Check the repair with repair_status.
If repair_status fails, say "The workshop board cannot be read just now; we will text you when your laptop can be collected."
If repair_status answers unknown ticket, say "There is no repair under {ticket}; please check the ticket number."
Reply "Your laptop ({ticket}) is {status}: {work}. To pay: {to_pay}, collection {collect}."
""",
}


def build(version: str) -> Agent:
    return Agent(name="repairs_r", model=model_string(), tools=[repair_status], instructions=REPAIRS[version])


def seeded():
    return build("seeded")


def fixed():
    return build("fixed")
