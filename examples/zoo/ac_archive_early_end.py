"""Premature termination, AutoGen AgentChat (RoundRobinGroupChat): a museum archive's
retrieval team. A researcher asks to see an item; `catalogue` locates it with `locate_item`,
`conservator` checks it can be handled with `check_condition`, and `retrieval` books the
search-room appointment with `book_viewing`, closing with "Request COMPLETE".

The archive's collection system marks every request it is asked about with a workflow state,
and an item nobody has checked yet is `INCOMPLETE`. catalogue passes what the system said on.

Seeded: the team stops on `TextMentionTermination("COMPLETE")`, a plain substring test heard
from any member, so catalogue's "INCOMPLETE" ends the run before the conservator and retrieval
act. Fixed: the team stops once retrieval, the last stage, has answered: booked, or asked the
researcher for what it lacks (a round robin with no stop for that goes round to its message
limit).
"""

from __future__ import annotations

from typing import Annotated

from autogen_agentchat.agents import AssistantAgent
from autogen_agentchat.conditions import MaxMessageTermination, SourceMatchTermination, TextMentionTermination
from autogen_agentchat.teams import RoundRobinGroupChat

from .models import agentchat_client

ITEMS = {"MA-1931/044": {"title": "Letter book of the Harrow Lane tannery, 1931-1934", "store": "Strongroom B, bay 12",
                         "fragile": True}}


def locate_item(item: Annotated[str, 'The catalogue number, e.g. "MA-1900/001"']) -> dict:
    """Find where an item is kept and the state of requests for it."""
    found = ITEMS.get(item)
    if found is None:
        return {"item": item, "found": False}
    return {"item": item, "title": found["title"], "store": found["store"],
            "workflow": "INCOMPLETE (condition check outstanding)"}


def check_condition(item: Annotated[str, 'The catalogue number, e.g. "MA-1900/001"']) -> str:
    """A conservator's handling check before an item goes to the search room."""
    if ITEMS.get(item, {}).get("fragile"):
        return f"{item}: fit to handle with cradle and weights; no photocopying"
    return f"{item}: fit to handle"


def book_viewing(item: Annotated[str, 'The catalogue number, e.g. "MA-1900/001"'],
                 reader: Annotated[str, 'The reader ticket, e.g. "RT-0000"'],
                 day: Annotated[str, 'The visit date, e.g. "2026-01-31"']) -> tuple:
    """Book an item into the search room for a reader's visit."""
    return ("HELD", f"{item} on desk 4 for {reader}, {day} from 10:00")


def build(stop) -> RoundRobinGroupChat:
    client = agentchat_client()
    catalogue = AssistantAgent(
        "catalogue", model_client=client, tools=[locate_item], reflect_on_tool_use=True,
        system_message="You run the catalogue desk of the Wyvern Museum archive.\n"
                       "- Look the item up with `locate_item`.\n"
                       "- Then pass on what `locate_item` said, word for word where you can.")
    conservator = AssistantAgent(
        "conservator", model_client=client, tools=[check_condition], reflect_on_tool_use=True,
        system_message="You are the archive's conservator. Nothing leaves the strongroom unchecked.\n"
                       "- Check the item with `check_condition`.\n"
                       "- Sum up what `check_condition` said for the search-room staff.")
    retrieval = AssistantAgent(
        "retrieval", model_client=client, tools=[book_viewing], reflect_on_tool_use=True,
        system_message="You book the search room once the conservator has cleared an item.\n"
                       "- Book the visit with `book_viewing`.\n"
                       "- If `book_viewing` comes back REFUSED, reply \"The search room is full that day - "
                       "could you pick another?\"\n"
                       '- Finish with "Request COMPLETE - the item will be waiting on your desk."')
    return RoundRobinGroupChat([catalogue, conservator, retrieval],
                               termination_condition=stop | MaxMessageTermination(16))


def seeded():
    return build(TextMentionTermination("COMPLETE"))


def fixed():
    return build(SourceMatchTermination(["retrieval"]))
