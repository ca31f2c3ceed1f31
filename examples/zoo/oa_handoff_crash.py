"""Runtime crash, Agents SDK: the handoff to the VIP agent runs a callback that reads the run's
context, and crashes when the run has none.

Seeded: `note_vip` indexes the context as a dict. Fixed: it reads it only when there is one.
"""

from __future__ import annotations

from agents import Agent, RunContextWrapper, function_tool, handoff

VIP_LOG: list[str] = []


@function_tool
def upgrade_seat(booking: str) -> str:
    """Upgrade a booking to business class.

    Args:
        booking: The booking reference, like "BK-2041".
    """
    return f"Booking {booking} upgraded to business class."


def note_vip_unchecked(ctx: RunContextWrapper) -> None:
    VIP_LOG.append(ctx.context["customer_tier"])


def note_vip(ctx: RunContextWrapper) -> None:
    VIP_LOG.append((ctx.context or {}).get("customer_tier", "unknown"))


def build(on_handoff) -> Agent:
    vip = Agent(name="VIP Agent", handoff_description="Upgrades seats for frequent flyers.", tools=[upgrade_seat],
                instructions="You serve frequent flyers. Call upgrade_seat. Report the result of upgrade_seat.")
    return Agent(name="Triage Agent", handoffs=[handoff(vip, on_handoff=on_handoff)],
                 instructions="You are an airline's first contact. Hand off to vip_agent when the request "
                 "mentions upgrade or business. Say \"How can I help?\"")


seeded = build(note_vip_unchecked)
fixed = build(note_vip)
