"""Premature termination, AutoGen AgentChat (`RoundRobinGroupChat` ended by a
`FunctionCallTermination`, tools reflected on with `reflect_on_tool_use=True`): a wig and hair
prosthesis studio that fits wigs for people going through chemotherapy. `reception_r` finds the
client's record with `find_client` and passes the fitting on; `fitter_f` books the fitting
appointment with `book_fitting`.

Seeded: the chat is to end once the fitting is booked, and the stop was written as
`FunctionCallTermination("find_client")`, the look-up's name copied from the line above the
booking tool's: the chat ends, normally, as soon as reception has found the client, and fitter_f
never books the fitting. Fixed: it ends on a call of `book_fitting`. (Both also end once fitter_f
answers without booking: a question, or its line for a broken diary.)
"""

from __future__ import annotations

from typing import Annotated

from autogen_agentchat.agents import AssistantAgent
from autogen_agentchat.conditions import FunctionCallTermination, MaxMessageTermination, TextMessageTermination
from autogen_agentchat.teams import RoundRobinGroupChat

from .models import agentchat_client

CLIENTS = {"WG-3307": {"client_ref": "WG-3307", "client_id": "CL-8812", "name": "Moira Eckersley",
                       "wig": "shoulder-length synthetic, chestnut", "nhs_voucher": True}}
FITTINGS: list[str] = []


def find_client(client_ref: Annotated[str, 'The reference on the client\'s card, like "WG-1000"']) -> dict:
    """Find a client's record: who they are, the wig on order, whether an NHS voucher covers it."""
    return CLIENTS.get(client_ref, {"status": 404, "detail": f"no client {client_ref}"})


def book_fitting(client_ref: Annotated[str, 'The client reference, like "WG-1000"'],
                 fitting_day: Annotated[str, 'The day of the fitting, like "2026-01-31"']) -> dict:
    """Book a private one-hour fitting room with a fitter for a client's new wig."""
    FITTINGS.append(client_ref)
    return {"status": "booked", "appointment": f"FT-{4470 + len(FITTINGS)}", "day": fitting_day,
            "time": "10:30", "room": "the quiet room upstairs"}


RECEPTION = """You are reception_r at Willow Wig Studio.
Find the client with find_client.
If find_client fails, say "Our client records are not opening; fitter_f will take the details by phone."
Pass the client ref and the fitting day to fitter_f.
"""

FITTER = """You are fitter_f, a wig fitter at Willow Wig Studio.
Book the fitting with book_fitting.
If book_fitting fails, say "The fitting diary is not answering, so nothing is booked yet; we will ring you."
Reply "Your fitting is on {day} at {time} in {room}, appointment {appointment}."
"""


def build(stop_tool: str) -> RoundRobinGroupChat:
    reception_r = AssistantAgent("reception_r", model_client=agentchat_client(), tools=[find_client],
                                 reflect_on_tool_use=True, system_message=RECEPTION)
    fitter_f = AssistantAgent("fitter_f", model_client=agentchat_client(), tools=[book_fitting],
                              reflect_on_tool_use=True, system_message=FITTER)
    # booked, or the fitter answered without booking (a question, a broken diary)
    stop = FunctionCallTermination(stop_tool) | TextMessageTermination("fitter_f") | MaxMessageTermination(10)
    return RoundRobinGroupChat([reception_r, fitter_f], termination_condition=stop)


def seeded():
    return build("find_client")


def fixed():
    return build("book_fitting")
