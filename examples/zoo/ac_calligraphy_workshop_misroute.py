"""Misrouted request, AutoGen AgentChat (`SelectorGroupChat` with its own `selector_prompt`, a
`model_client` choosing each speaker from the members' descriptions, members with
`reflect_on_tool_use=True`, and a stop condition of three joined with `|`, one of them an
`ExternalTermination` the shop's till can set): a calligraphy studio. `quill_s` runs the shop
(nibs, inks, paper; `price_item`), `tutor_m` enrols students on the Saturday workshops
(`enrol_workshop`). Whoever finishes signs off with "Desk closed", which ends the team.

Seeded: the members' descriptions date from the studio's first year, when the shop counter sold
the workshop places: the shop's still says it books workshops and classes, the tutor's only that
she teaches, so a request for workshop places is given to the shop, which can only price
stationery, and the tutor never hears of it. Fixed: the descriptions say who does what now.
"""

from __future__ import annotations

from typing import Annotated, Literal

from autogen_agentchat.agents import AssistantAgent
from autogen_agentchat.conditions import ExternalTermination, MaxMessageTermination, TextMentionTermination
from autogen_agentchat.teams import SelectorGroupChat

from .models import agentchat_client

STOCK = {"nib": ("Leonardt Principal nib", "GBP 2.40"), "ink": ("Walnut ink 30 ml", "GBP 6.95"),
         "paper": ("Layout pad A3", "GBP 11.50")}
SEATS = {"2026-05-16": 6, "2026-05-23": 0}


def price_item(item: Annotated[str, "What the customer wants priced, in their own words"]) -> tuple:
    """Price stationery from the shop's stock: nibs, holders, inks and paper."""
    hits = [v for k, v in STOCK.items() if k in item.lower()]
    if not hits:
        return ("nicht im Sortiment", {"asked": item[:60], "stocked": sorted(STOCK)})
    return ("OK", [{"item": name, "price": price} for name, price in hits])


def enrol_workshop(workshop_date: Annotated[str, 'The Saturday of the workshop, e.g. "2026-01-31"'],
                   places: Annotated[int, "How many places the student wants"],
                   script: Literal["copperplate", "italic", "blackletter"]) -> dict:
    """Enrol students on a Saturday lettering workshop (10:00-16:00, nibs and ink provided)."""
    left = SEATS.get(workshop_date, 0)
    if left < places:
        return {"enrolment": {"state": "DECLINED", "why": f"only {left} places left on {workshop_date}"}}
    SEATS[workshop_date] = left - places
    return {"enrolment": {"state": "CONFIRMED", "ref": f"cw-{workshop_date[5:7]}{workshop_date[8:]}-{places}",
                          "script": script, "bring": "an apron"}}


SELECTOR = """You choose who answers next at Inkwell Lettering Studio. The desks:
{roles}

Conversation so far:
{history}

Pick the desk that does what the customer asks. Select one of {participants}; reply with the name only."""

DESCRIPTIONS = {
    "seeded": {"quill_s": "Sells nibs, inks and paper, and books workshop places and classes.",
               "tutor_m": "Teaches lettering."},
    "fixed": {"quill_s": "Sells nibs, inks and paper.",
              "tutor_m": "Teaches lettering and books places on the Saturday workshops and classes."},
}

till_button = ExternalTermination()  # the shop's till closes the chat when the studio shuts


def build(version: str) -> SelectorGroupChat:
    client = agentchat_client()
    said = DESCRIPTIONS[version]
    shop = AssistantAgent("quill_s", model_client=client, tools=[price_item], reflect_on_tool_use=True,
                          description=said["quill_s"],
                          system_message="You run the shop counter at Inkwell Lettering Studio.\n"
                                         "Price what the customer asks about with price_item.\n"
                                         'Sign off with "Desk closed - thank you for writing to Inkwell."')
    tutor = AssistantAgent("tutor_m", model_client=client, tools=[enrol_workshop], reflect_on_tool_use=True,
                           description=said["tutor_m"],
                           system_message="You are the lettering tutor at Inkwell Lettering Studio.\n"
                                          "Enrol the student with enrol_workshop.\n"
                                          'Sign off with "Desk closed - thank you for writing to Inkwell."')
    stop = TextMentionTermination("Desk closed") | MaxMessageTermination(10) | till_button
    return SelectorGroupChat([shop, tutor], model_client=client, selector_prompt=SELECTOR,
                             termination_condition=stop)


def seeded():
    return build("seeded")


def fixed():
    return build("fixed")
