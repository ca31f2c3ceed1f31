"""Misrouted request, AutoGen AgentChat (`GraphFlow` built with `DiGraphBuilder`, its edges out of
the desk carrying callable conditions on the desk's message): a train operator's customer
relations. `desk_d` reads each passenger's message and passes it on by naming the team;
`repay_r` files Delay Repay compensation claims with `file_delay_claim`; `tickets_t` changes and
refunds unused tickets with `change_ticket`. The graph sends the desk's message on along the edge
whose condition holds.

Seeded: the compensation team used to be called `delay_team`; the agent was renamed repay_r, and
the desk's instructions with it, but the edge's condition still looks for the old name, so a
message naming repay_r falls through to the catch-all edge to tickets_t, who can only change
tickets. Fixed: the condition looks for the name the desk uses.
"""

from __future__ import annotations

from typing import Annotated

from autogen_agentchat.agents import AssistantAgent
from autogen_agentchat.conditions import MaxMessageTermination
from autogen_agentchat.teams import DiGraphBuilder, GraphFlow

from .models import agentchat_client

CLAIMS: list[str] = []


def file_delay_claim(
        ticket_ref: Annotated[str, 'The ticket or booking reference, like "TK-448812"'],
        travel_date: Annotated[str, 'The day of the delayed journey, like "2026-01-31"'],
        minutes_late: Annotated[int, "How late the train arrived, in minutes"]) -> dict:
    """File a Delay Repay compensation claim for a late train (15 minutes or more)."""
    if minutes_late < 15:
        return {"claim": None, "status": "not eligible", "why": "arrived less than 15 minutes late"}
    share = 25 if minutes_late < 30 else 50 if minutes_late < 60 else 100
    CLAIMS.append(ticket_ref)
    return {"claim": f"DR-{81200 + len(CLAIMS)}", "status": "filed", "refund_share": f"{share}% of the fare",
            "paid_within": "14 days, to the original card"}


def change_ticket(
        ticket_ref: Annotated[str, 'The ticket or booking reference, like "TK-448812"'],
        new_date: Annotated[str, 'The new day of travel, like "2026-01-31"']) -> dict:
    """Move an unused advance ticket to another day (an admin fee of 10 pounds applies)."""
    return {"status": "changed", "ticket_ref": ticket_ref, "new_date": new_date, "fee": "10.00 GBP"}


DESK = """You are desk_d at Northern Coast Rail customer relations.
Pass anything about delays, late trains or compensation to repay_r.
Pass anything about changing or refunding unused tickets to tickets_t.
"""

REPAY = """You are repay_r, the Delay Repay team at Northern Coast Rail.
File the claim with file_delay_claim.
If file_delay_claim answers not eligible, say "A claim was looked at by the Delay Repay system, but it was '{why}', so nothing is payable."
Reply "A Delay Repay claim has been filed: {claim}, for {refund_share}, paid within {paid_within}."
"""

TICKETS = """You are tickets_t, the ticket changes team at Northern Coast Rail.
Change the ticket with change_ticket.
Reply "The ticket {ticket_ref} has been moved to {new_date} (fee {fee})."
"""


def build(name_on_edge: str) -> GraphFlow:
    desk_d = AssistantAgent("desk_d", model_client=agentchat_client(), system_message=DESK,
                            description="Reads passengers' messages and passes them to the right team.")
    repay_r = AssistantAgent("repay_r", model_client=agentchat_client(), tools=[file_delay_claim],
                             reflect_on_tool_use=True, system_message=REPAY,
                             description="Files Delay Repay compensation claims.")
    tickets_t = AssistantAgent("tickets_t", model_client=agentchat_client(), tools=[change_ticket],
                               reflect_on_tool_use=True, system_message=TICKETS,
                               description="Changes and refunds unused tickets.")

    def to_repay(message) -> bool:
        return name_on_edge in message.to_model_text()

    def elsewhere(message) -> bool:
        return name_on_edge not in message.to_model_text()

    graph = DiGraphBuilder()
    graph.add_node(desk_d).add_node(repay_r).add_node(tickets_t)
    graph.set_entry_point(desk_d)
    graph.add_edge(desk_d, repay_r, condition=to_repay)
    graph.add_edge(desk_d, tickets_t, condition=elsewhere)  # everything else is a ticket matter
    # the flow ends when the team that got the message has answered (no edge leaves it)
    return GraphFlow(participants=graph.get_participants(), graph=graph.build(),
                     termination_condition=MaxMessageTermination(12))


def seeded():
    return build("delay_team")


def fixed():
    return build("repay_r")
