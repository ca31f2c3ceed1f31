"""Speaking order, AutoGen AgentChat (RoundRobinGroupChat): a pet sitter agency's booking team.
`hx_pair` matches the owner with a sitter free in their area (`find_sitter`) and passes on the
sitter's id and visit rate; `fee_desk` quotes the visits at the rate of the sitter hx_pair found
(`quote_visits`); `rota` puts the visits in the sitter's rota (`book_visits`).

Seeded: the team's members are read from the agency's desk registry, a dict, and listed
`sorted(...)` by name "so the order is stable": fee_desk now speaks before hx_pair, with no
sitter to price, and asks for one. Fixed: the members are listed in the order the work goes.
"""

from __future__ import annotations

from typing import Annotated, Literal

from autogen_agentchat.agents import AssistantAgent
from autogen_agentchat.conditions import MaxMessageTermination, SourceMatchTermination
from autogen_agentchat.teams import RoundRobinGroupChat

from .models import agentchat_client

SITTERS = [
    {"id": "PS-1182", "name": "Joan", "areas": ["golden triangle", "eaton"], "species": ["cats", "rabbits"], "rate": "£14.50"},
    {"id": "PS-0937", "name": "Tomasz", "areas": ["thorpe"], "species": ["dogs", "cats"], "rate": "£16.00"},
]
RATES = {s["id"]: float(s["rate"].lstrip("£")) for s in SITTERS}
SITTER = Annotated[str, 'The sitter\'s id, e.g. "PS-0000"']


def find_sitter(area: Literal["city centre", "golden triangle", "thorpe", "eaton"],
                species: Literal["cats", "dogs", "rabbits"]) -> list[dict]:
    """Sitters free in an area who look after that kind of pet."""
    return [{k: s[k] for k in ("id", "name", "rate")} for s in SITTERS
            if area in s["areas"] and species in s["species"]]


def quote_visits(sitter_id: SITTER, visits: Annotated[int, "How many visits in all"]) -> str:
    """Quote the owner for a number of visits at a sitter's own rate."""
    if sitter_id not in RATES:
        return f"sitter {sitter_id!r} not on the books"
    return f"{sitter_id}: {visits} x £{RATES[sitter_id]:.2f} = £{visits * RATES[sitter_id]:.2f}, key pickup free"


def book_visits(sitter_id: SITTER, start_day: Annotated[str, 'The first day, e.g. "2026-01-31"'],
                visits: Annotated[int, "How many visits in all"]) -> tuple:
    """Put the visits in the sitter's rota."""
    if sitter_id not in RATES:
        return ("REFUSED", f"unknown sitter {sitter_id}")
    return ("BOOKED", f"RV-{2200 + visits}", f"{sitter_id} from {start_day}")


def desks() -> dict[str, AssistantAgent]:
    client = agentchat_client()
    return {
        "hx_pair": AssistantAgent(
            "hx_pair", model_client=client, tools=[find_sitter], reflect_on_tool_use=True,
            description="Matches owners with a sitter.",
            system_message="Matching, Paws & Keys pet sitting.\n"
                           "- Find a sitter with find_sitter.\n"
                           "- Pass on the sitter's id and visit rate for fee_desk."),
        "fee_desk": AssistantAgent(
            "fee_desk", model_client=client, tools=[quote_visits], reflect_on_tool_use=True,
            description="Quotes the visits.",
            system_message="Quotes, Paws & Keys pet sitting. Visits are priced at the rate of the sitter hx_pair "
                           "found.\n"
                           "- Quote the visits with quote_visits.\n"
                           "- Confirm the quote to the owner."),
        "rota": AssistantAgent(
            "rota", model_client=client, tools=[book_visits], reflect_on_tool_use=True,
            description="Books the visits into the sitter's rota.",
            system_message="Rota, Paws & Keys pet sitting.\n"
                           "- Book the visits with book_visits.\n"
                           '- If book_visits comes back REFUSED, say "couldn\'t get that in the rota, we\'ll call u".\n'
                           "- Confirm the visits to the owner."),
    }


def team(order) -> RoundRobinGroupChat:
    registry = desks()
    return RoundRobinGroupChat(order(registry), termination_condition=SourceMatchTermination(["rota"])
                               | MaxMessageTermination(12))


def seeded():
    return team(lambda registry: [registry[name] for name in sorted(registry)])


def fixed():
    return team(lambda registry: [registry[name] for name in ("hx_pair", "fee_desk", "rota")])
