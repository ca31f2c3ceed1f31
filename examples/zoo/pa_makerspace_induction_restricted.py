"""Restricted tool access, PydanticAI agent delegation: a makerspace's member chat. concierge
answers members and passes machine questions to safety_lead through its tool `ask_safety`;
safety_lead alone signs a member off on a machine (`sign_off_induction`), after the practical
session it runs, and books those sessions (`induction_slots`).

Seeded: concierge's instructions were written when sign-offs were a form the front desk filed:
told to call sign_off_induction, a tool it was never given, it reaches for safety_lead's. Fixed:
concierge asks safety_lead. Both look a member up before anything is reported, so a request about
a membership and a sign-off at once gets both.
"""

from typing import Annotated

from pydantic import Field
from pydantic_ai import Agent, RunContext

from .models import pydantic_ai_model

MEMBER = Annotated[str, Field(description='The member\'s number, like "hx-0000"')]
MACHINE = Annotated[str, Field(description='The machine\'s tag, like "mt-00"')]


def sign_off_induction(member: MEMBER, machine: MACHINE) -> dict:
    """Record that a member has passed the practical induction on a machine (unlocks its RFID reader)."""
    return {"member": member, "machine": machine, "rfid": "enabled", "signed_by": "safety lead"}


def induction_slots(machine: MACHINE) -> list[str]:
    """The next practical induction sessions on a machine."""
    return ["Tue 2026-06-02 19:00", "Sat 2026-06-06 11:00"]


def member_status(member: MEMBER) -> dict:
    """A member's membership: tier, paid until, machines signed off."""
    return {"member": member, "tier": "full", "paid_until": "2026-09-30", "machines": ["3D printer", "bandsaw"]}


def opening_hours() -> str:
    """When the space is open."""
    return "Mon-Fri 18:00-22:00, Sat-Sun 10:00-18:00"


safety_lead = Agent(pydantic_ai_model(), name="safety_lead",
                    instructions="you run machine inductions at Forge Lane Makerspace. If induction_slots raises an "
                                 "error, say \"The induction calendar is down; sessions are on the noticeboard.\" "
                                 "Call induction_slots. Report the result of induction_slots.")
safety_lead.tool_plain(sign_off_induction)
safety_lead.tool_plain(induction_slots)


def build(machine_line: str) -> Agent:
    concierge = Agent(pydantic_ai_model(), name="concierge",
                      instructions="you answer members of Forge Lane Makerspace. Call member_status when the "
                                   "request mentions membership or renew. " + machine_line + " Report the result "
                                   "of ask_safety. Report the result of member_status. Say \"Anything else? The "
                                   "space is open from 18:00 tonight.\"")
    concierge.tool_plain(member_status)
    concierge.tool_plain(opening_hours)

    @concierge.tool
    async def ask_safety(ctx: RunContext, question: str) -> str:
        """Pass a question about machine inductions and sign-offs to the safety lead."""
        return (await safety_lead.run(question, usage=ctx.usage)).output

    return concierge


def seeded():
    return build("Call sign_off_induction when the request mentions induction, sign-off, signed off or laser.")


def fixed():
    return build("Call ask_safety when the request mentions induction, sign-off, signed off or laser.")
