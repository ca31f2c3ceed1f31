"""Misrouted request, AutoGen AgentChat Swarm: a car-share club's member chat. intake reads a
member's message and hands it over: key and lock trouble to keys_desk, who can unlock a car
remotely (`remote_unlock`), damage and fuel cards to fleet_ops.

The hand-overs are `Handoff` objects with their own names and descriptions. Seeded: the key desk's
was written by copying fleet_ops's and changing the name and description only: the tool the model
sees as `transfer_to_keys_desk` still has `target="fleet_ops"`, so a member locked out is passed
to fleet_ops, whose tools cannot open a car. Fixed: its target is keys_desk.
"""

from typing import Annotated

from autogen_agentchat.agents import AssistantAgent
from autogen_agentchat.base import Handoff
from autogen_agentchat.conditions import MaxMessageTermination, TextMessageTermination
from autogen_agentchat.teams import Swarm

from .models import agentchat_client

CAR = Annotated[str, 'The car\'s fleet number on its windscreen, like "#0000"']
CARS = {"#4471": ("Marlowe Road bay 2", "Toyota Yaris Hybrid"), "#4502": ("Quarry Street", "VW ID.3")}


def remote_unlock(car: CAR) -> dict:
    """Unlock a car over the air for the member whose booking is running now."""
    if car not in CARS:
        return {"car": car, "unlock": None, "code": 404}
    bay, model = CARS[car]
    return {"car": car, "model": model, "bay": bay, "unlock": "sent", "code": 202,
            "note": "the key is in the glovebox; lock with the app at the end"}


def reset_app_key(email: Annotated[str, 'The member\'s email, like "name@example.com"']) -> str:
    """Reissue a member's digital key to their phone."""
    return f"new key sent to the app of {email}; log out and in again"


def report_damage(car: CAR, note: Annotated[str, "What is damaged, in the member's words"]) -> str:
    """Log damage found on a car before or during a booking."""
    return f"damage on {car} logged, photos to damage@"


def fuel_card(car: CAR) -> str:
    """The PIN of the fuel card in a car."""
    return f"{car}: fuel card PIN is on the booking confirmation"


def build(keys_target: str) -> Swarm:
    client = agentchat_client()
    to_keys = Handoff(target=keys_target, name="transfer_to_keys_desk",
                      description="Pass the member to keys_desk: locked out, the app's key, unlocking.",
                      message="Passing you to the key desk.")
    to_fleet = Handoff(target="fleet_ops", name="transfer_to_fleet_ops",
                       description="Pass the member to fleet_ops: damage, cleaning, fuel cards.",
                       message="Passing you to fleet operations.")
    intake = AssistantAgent(
        "intake", model_client=client, handoffs=[to_keys, to_fleet],
        system_message="you answer members of Commonwheels car share. Hand off to keys_desk when the request "
                       "mentions unlock, locked, key or open. Hand off to fleet_ops when the request mentions "
                       "damage, scratch, dent, fuel or dirty. Say \"Thanks - what can we help you with?\"")
    keys_desk = AssistantAgent(
        "keys_desk", model_client=client, tools=[remote_unlock, reset_app_key], reflect_on_tool_use=True,
        system_message="you sort out keys and locks for Commonwheels. If remote_unlock raises an error, say "
                       "\"Remote unlock is down; ring 0300 330 1234 and we will open it by phone.\" Call "
                       "remote_unlock. Report the result of remote_unlock.")
    fleet_ops = AssistantAgent(
        "fleet_ops", model_client=client, tools=[report_damage, fuel_card], reflect_on_tool_use=True,
        system_message="you look after the cars of Commonwheels. Call report_damage when the request mentions "
                       "damage, scratch or dent. Call fuel_card when the request mentions fuel. Report the result "
                       "of report_damage. Report the result of fuel_card. Say \"Fleet ops handles damage, "
                       "cleaning and fuel cards.\"")
    stop = (TextMessageTermination("keys_desk") | TextMessageTermination("fleet_ops")
            | TextMessageTermination("intake") | MaxMessageTermination(12))
    return Swarm([intake, keys_desk, fleet_ops], termination_condition=stop)


def seeded():
    return build("fleet_ops")


def fixed():
    return build("keys_desk")
