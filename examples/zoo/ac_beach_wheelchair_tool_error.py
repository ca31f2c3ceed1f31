"""Tool error not handled, AutoGen AgentChat (RoundRobinGroupChat, a stop phrase counted from one
member only): a coastal council's beach wheelchair loans. `store_w`, the store keeper, lends a
chair from a beach's depot with `lend_chair` and passes its answer on word for word (the depot
system writes its answers for the public: "Chair 4 (balloon tyres) at Harlyn Bay is yours...");
`ranger_b` signs the call off.

Seeded: lend_chair looks the beach up in the depot table directly, so a beach with no depot
raises a KeyError, and its raw text is what store_w hands the caller.
Fixed: a beach without a depot gets the depot system's own answer naming the nearest depot.
"""

from __future__ import annotations

from typing import Annotated, Literal

from autogen_agentchat.agents import AssistantAgent
from autogen_agentchat.conditions import MaxMessageTermination, TextMentionTermination
from autogen_agentchat.teams import RoundRobinGroupChat

from .models import agentchat_client

DEPOTS = {"Harlyn Bay": ["Chair 4 (balloon tyres)", "Chair 7 (balloon tyres)"],
          "Daymer Bay": ["Chair 2 (balloon tyres)"], "Trevone": []}
NEAREST = {"Polzeath": "Daymer Bay (2.5 km, lifeguarded May-Sept)", "Constantine Bay": "Harlyn Bay (4 km)"}


def make_lend_chair(handled: bool):
    def lend_chair(beach: Literal["Harlyn Bay", "Daymer Bay", "Trevone", "Polzeath", "Constantine Bay"],
                   loan_day: Annotated[str, 'The day of the loan, e.g. "2026-01-31"']) -> str:
        """Lend a beach wheelchair from a beach's depot for a day (free; photo ID on collection)."""
        if handled and beach not in DEPOTS:
            return f"No chair is kept at {beach}; the nearest depot is {NEAREST.get(beach, 'Harlyn Bay')}."
        chairs = DEPOTS[beach]
        if not chairs:
            return f"Both chairs at {beach} are out on {loan_day}; try Harlyn Bay."
        return f"{chairs[0]} at {beach} is yours on {loan_day}: collect from the lifeguard hut from 10:00, loan BW-{len(beach) * 37}."

    return lend_chair


def build(handled: bool) -> RoundRobinGroupChat:
    client = agentchat_client()
    store_w = AssistantAgent(
        "store_w", model_client=client, tools=[make_lend_chair(handled)], reflect_on_tool_use=True,
        description="The beach wheelchair store keeper: lends chairs from the depots.",
        system_message="You keep the beach wheelchair store for North Cornwall Council.\n"
                       "Lend the chair with lend_chair.\nRelay lend_chair's answer word for word.")
    ranger_b = AssistantAgent(
        "ranger_b", model_client=client, description="The beach ranger's desk: answers the caller.",
        system_message="You are the beach ranger's desk for North Cornwall Council.\n"
                       'Sign off with "🏖️ Enjoy the beach, and ring 01208 555 014 on the day if the tide turns."')
    stop = TextMentionTermination("Enjoy the beach", sources=["ranger_b"]) | MaxMessageTermination(8)
    return RoundRobinGroupChat([store_w, ranger_b], termination_condition=stop)


def seeded():
    return build(handled=False)


def fixed():
    return build(handled=True)
