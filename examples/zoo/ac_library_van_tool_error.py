"""Tool execution error not handled, AutoGen AgentChat (Swarm with HandoffTermination, an
AssistantAgent with `reflect_on_tool_use` and `max_tool_iterations`): a county's mobile library
van. `front_q` hands van questions to `van_desk`, which looks up the van's stops and renews the
reader's loans in one go (two independent tools, called in parallel). The van works offline from
a copy of the loans table synced each morning; readers who joined since are not on it.

Seeded: `renew_loans` reads the van's copy of the card's row and raises TypeError for a card
not on it, and the raw error reaches the reader. Fixed: it answers a 404-style status telling
the reader to renew at a branch.
"""

from __future__ import annotations

from typing import Annotated

from autogen_agentchat.agents import AssistantAgent
from autogen_agentchat.conditions import HandoffTermination, MaxMessageTermination, TextMessageTermination
from autogen_agentchat.teams import Swarm

from .models import agentchat_client

STOPS = {"Ashwell": [("Tue", "10:15-11:00", "village hall car park")],
         "Hinxworth": [("Tue", "11:30-12:00", "outside the Three Horseshoes")]}
VAN_COPY = {"ML-18830": ["The Salt Path", "Wolf Hall"]}  # synced 06:00; newer readers missing

Village = Annotated[str, 'The village the van stops in, e.g. "Ashwell"']
Card = Annotated[str, 'The library card number, e.g. "ML-18830"']


def stop_times(village: Village) -> dict:
    """When and where the van stops in a village."""
    return {"village": village, "stops": [{"day": d, "time": t, "where": w} for d, t, w in STOPS.get(village, [])]}


def make_renew(checked: bool):
    def renew_loans(card: Card) -> dict:
        """Renew every loan on a card by three weeks."""
        if checked and card.upper() not in VAN_COPY:
            return {"status": {"code": 404, "text": "card not on the van's copy; renew at any branch or online"}}
        row = VAN_COPY.get(card.upper())
        titles = list(row)  # a reader on the van's copy always has a row
        return {"status": {"code": 200, "text": "renewed"}, "items": titles, "due": "3 wks"}

    return renew_loans


def build(renew) -> Swarm:
    client = agentchat_client()
    front_q = AssistantAgent("front_q", model_client=client, handoffs=["van_desk"],
                             system_message="You answer the county library's chat. Transfer to van_desk when "
                             "the customer mentions van, mobile or renew. Say \"Branch Qs: 0300 123 4049, Mon-Sat.\"")
    van_desk = AssistantAgent("van_desk", model_client=client, tools=[stop_times, renew], handoffs=["user"],
                              reflect_on_tool_use=True, max_tool_iterations=3,
                              system_message="You run the mobile library van's desk. Use stop_times and "
                              "renew_loans together. Report the results.")
    # either desk's text answer is the reply the reader waits for
    return Swarm([front_q, van_desk], termination_condition=HandoffTermination(target="user")
                 | TextMessageTermination("front_q") | TextMessageTermination("van_desk")
                 | MaxMessageTermination(14))


def seeded():
    return build(make_renew(checked=False))


def fixed():
    return build(make_renew(checked=True))
