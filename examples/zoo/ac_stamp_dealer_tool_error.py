"""Tool error not handled, AutoGen AgentChat (SelectorGroupChat with a `selector_func`): a stamp
dealer's enquiry desk. `counter` greets the collector, then the selector function gives the floor
to `valuer_2`, which prices the stamp with `price_stamp`. valuer_2 runs without reflecting on its
tool's answer (`reflect_on_tool_use=False`), so what the tool returns is what the collector reads.

Seeded: `price_stamp` looks the catalogue number up in its price list by indexing it, and raises
KeyError for a number the list does not carry; the raw error text goes straight to the
collector. Fixed: the tool answers a number it does not carry with a 404 status and a note that
the stamp needs an expert's look.
"""

from __future__ import annotations

from typing import Annotated, Literal

from autogen_agentchat.agents import AssistantAgent
from autogen_agentchat.conditions import MaxMessageTermination, SourceMatchTermination
from autogen_agentchat.teams import SelectorGroupChat

from .models import agentchat_client

# Stanley Gibbons numbers the shop's price list carries, with mint and used prices in pounds
PRICE_LIST = {"SG 116": (450.0, 38.0), "SG 143": (160.0, 9.5), "SG 197": (55.0, 4.0)}


def make_price_stamp(guarded: bool):
    def price_stamp(
            catalogue_no: Annotated[str, 'The Stanley Gibbons catalogue number, e.g. "SG 143"'],
            condition: Annotated[Literal["mint", "used"], "Whether the stamp is mint or used"]) -> dict:
        """What the shop would pay for a stamp, from its price list."""
        if guarded and catalogue_no not in PRICE_LIST:
            return {"status": {"code": 404, "message": "not on the price list - needs Mr Hale's look in person"},
                    "catalogue_no": catalogue_no}
        mint, used = PRICE_LIST[catalogue_no]
        offer = (mint if condition == "mint" else used) * 0.6
        return {"status": {"code": 200}, "catalogue_no": catalogue_no, "offer_gbp": round(offer, 2)}

    return price_stamp


def pick_speaker(messages) -> str | None:
    """The counter answers the collector first; the valuer prices what the counter passes on."""
    return "counter" if messages[-1].source == "user" else "valuer_2"


def build(guarded: bool) -> SelectorGroupChat:
    client = agentchat_client()
    counter = AssistantAgent("counter", model_client=client, system_message=(
        "You work the counter at Hale & Daughter, stamp dealers since 1961.\n"
        'Say "Thanks for getting in touch - I\'ll ask our valuer to price that for you."'))
    valuer = AssistantAgent("valuer_2", model_client=client, tools=[make_price_stamp(guarded)],
                            reflect_on_tool_use=False, system_message=(
                                "You price stamps for Hale & Daughter.\n"
                                "Price the stamp with price_stamp."))
    return SelectorGroupChat([counter, valuer], model_client=client, selector_func=pick_speaker,
                             termination_condition=SourceMatchTermination(["valuer_2"]) | MaxMessageTermination(8))


def seeded():
    return build(False)


def fixed():
    return build(True)
