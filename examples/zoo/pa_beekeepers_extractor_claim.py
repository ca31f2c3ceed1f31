"""Incorrect verification, PydanticAI agent delegation (an agent calling another from a tool, as
in PydanticAI's multi-agent docs): a beekeepers' co-operative's members' chat. `desk` answers
members and passes equipment hire to `kit`, the hire agent, through its `ask_kit` tool; kit books
the co-op's shared honey extractor with `reserve_extractor`. The hire register answers an
HTTP-style envelope, `{"http": 201, ...}` or `{"http": 409, "body": {"reason": ...}}` when the
extractor is away (repairs, another member's weekend).

Seeded: kit's runbook goes from the reservation straight to confirming the hire, a runbook
written when the register only ever answered 201. Fixed: a step before it explains a hire that
did not go through.
"""

from __future__ import annotations

from pydantic_ai import Agent, RunContext

from .models import pydantic_ai_model

AWAY = {"2026-08-01": "extractor out for repair (bearing) until 2026-08-10",
        "2026-08-15": "on hire to another member that weekend"}
MEMBERS = {"BK-114": "Ruth Adeyemi", "BK-203": "Tomasz Nowak"}


def reserve_extractor(member: str, day: str) -> dict:
    """Reserve the co-op's 9-frame radial honey extractor for a day's collection.

    Args:
        member: The co-op membership number, e.g. "BK-000".
        day: The collection day, e.g. "2026-01-31".
    """
    if member not in MEMBERS:
        return {"http": 404, "body": {"reason": f"no member {member}"}}
    if day in AWAY:
        return {"http": 409, "body": {"reason": AWAY[day]}}
    return {"http": 201, "body": {"member": member, "collect": f"{day} 09:00, Hollybush apiary shed", "deposit": "£20"}}


KIT_STEPS = {
    "seeded": ("1. Reserve the extractor with `reserve_extractor`.\n"
               "2. Confirm the hire and remind the member to bring clean buckets and a warm room."),
    "fixed": ("1. Reserve the extractor with `reserve_extractor`.\n"
              "2. If `reserve_extractor` fails, explain why the hire did not go through and suggest "
              "another weekend.\n"
              "3. Confirm the hire and remind the member to bring clean buckets and a warm room."),
}


def build(steps: str) -> Agent:
    kit = Agent(pydantic_ai_model(), name="kit",
                instructions="You run equipment hire for the Wyre Forest Beekeepers' Co-op.\n" + steps)
    kit.tool_plain(reserve_extractor)
    desk = Agent(pydantic_ai_model(), name="desk", instructions=(
        "You answer members of the Wyre Forest Beekeepers' Co-op.\n"
        "- Ask the hire agent with `ask_kit` (only for the extractor, hire, honey or spinning).\n"
        "- Relay what `ask_kit` said.\n"
        '- Otherwise reply "For swarm collection, ring the swarm line on 01299 000111."'))

    @desk.tool
    async def ask_kit(ctx: RunContext, message: str) -> str:
        """Ask the co-op's hire agent to book equipment for a member.

        Args:
            message: The member's message, word for word.
        """
        result = await kit.run(message, usage=ctx.usage)
        return result.output

    return desk


def seeded():
    return build(KIT_STEPS["seeded"])


def fixed():
    return build(KIT_STEPS["fixed"])
