"""Restricted tool access, PydanticAI agent delegation: a pottery studio's booking chat. `front`
answers students, looks their bookings up (`find_booking`) and passes anything about money to
`p_mgr`, the studio manager, through its tool `ask_manager`. The manager alone refunds a class
(`refund_class`), after checking the studio's 48-hour rule.

Seeded: front's lines come from the studio's first chatbot, which ran alone and refunded classes
itself: told to call refund_class, a tool it was never given, it reaches for the manager's.
Fixed: the same line sends refunds to ask_manager.
"""

from typing import Annotated

from pydantic import Field
from pydantic_ai import Agent, RunContext

from .models import pydantic_ai_model

BOOKING = Annotated[str, Field(description='The class booking, like "SK-0000"')]
BOOKINGS = {"SK-2087": {"class": "wheel throwing, 6 weeks", "starts": "2026-03-04", "paid": "GBP 185.00"}}


def find_booking(booking: BOOKING) -> dict:
    """A student's class booking: the course, its start and what was paid."""
    found = BOOKINGS.get(booking)
    return {"booking": booking, **found} if found else {"booking": booking, "found": False}


def refund_class(booking: BOOKING) -> dict:
    """Refund a class booking to the card it was paid with (manager only)."""
    return {"booking": booking, "refund": {"status": "queued", "amount": BOOKINGS.get(booking, {}).get("paid")}}


def firing_dates() -> list[str]:
    """When the next glaze firings are."""
    return ["2026-03-11 bisque", "2026-03-18 stoneware glaze"]


p_mgr = Agent(pydantic_ai_model(), name="p_mgr",
              instructions="Studio manager, Slip & Spindle Pottery.\n"
                           "- refund_class on the booking.\n"
                           "- reply: refund: <status>, amount: <amount>, 3-5 working days")
p_mgr.tool_plain(refund_class)


def build(refund_line: str) -> Agent:
    front = Agent(pydantic_ai_model(), name="front",
                  instructions="Booking chat, Slip & Spindle Pottery. Keep it short.\n"
                               "- find_booking on the student's booking.\n"
                               f"{refund_line}\n"
                               '- If ask_manager gives "refund", reply: refund: <refund>, amount: <amount>\n'
                               "- firing_dates only when asked about firing, kiln or glaze.\n"
                               "- reply: class: <class>, starts: <starts>")
    front.tool_plain(find_booking)
    front.tool_plain(firing_dates)

    @front.tool
    async def ask_manager(ctx: RunContext, question: str) -> str:
        """Pass a question about refunds, credits or payments to the studio manager."""
        return (await p_mgr.run(question, usage=ctx.usage)).output

    return front


def seeded():
    return build("- refund_class only when asked about refund, money back or cancel.")


def fixed():
    return build("- ask_manager only when asked about refund, money back or cancel.")
