"""Loop, AutoGen AgentChat (a `RoundRobinGroupChat` of one tool-using `AssistantAgent` with
`reflect_on_tool_use=True`, stopped by `TextMentionTermination | MaxMessageTermination`): a
borough's parking bay suspensions for house moves. `permits_p` answers residents who have
applied to suspend the bays outside their home for a removal van, and watches the Highways
approval with `suspension_status` until it comes through.

Seeded: suspension_status was pointed at the Highways team's nightly export while the live
permit API was rate-limited, and never pointed back: the export is a day old, so an application
approved this morning reads "under_review" for ever, and permits_p, told to check until it says
approved, checks to the message limit.
Fixed: suspension_status reads the live permit register.
"""

from __future__ import annotations

from typing import Annotated

from autogen_agentchat.agents import AssistantAgent
from autogen_agentchat.conditions import MaxMessageTermination, TextMentionTermination
from autogen_agentchat.teams import RoundRobinGroupChat

from .models import agentchat_client

LIVE = {"BS-3308": {"state": "approved", "bays": "4 bays outside 31-35 Elmfield Road", "signs_up": "2026-03-10"}}
NIGHTLY_EXPORT = {"BS-3308": {"state": "under_review", "bays": "4 bays outside 31-35 Elmfield Road", "signs_up": None}}


def build(register: dict) -> RoundRobinGroupChat:
    def suspension_status(application: Annotated[str, 'The suspension application reference, e.g. "BS-0000"']) -> dict:
        """The state of a parking bay suspension application (received, under_review, approved, refused)."""
        found = register.get(application)
        if found is None:
            return {"application": application, "state": "not_found"}
        return {"application": application, **found}

    permits_p = AssistantAgent(
        "permits_p", model_client=agentchat_client(), tools=[suspension_status], reflect_on_tool_use=True,
        system_message="You answer residents about parking bay suspensions for Kelsey Borough Council.\n"
                       "Check the application with suspension_status until it says approved.\n"
                       'If suspension_status says approved, say "Your bays are suspended for the move; the signs go up 4 days before."\n'
                       'If suspension_status says refused, say "Your application was refused" and tell the resident why.\n'
                       'If suspension_status says not_found, say "We cannot find that application; please check the '
                       'reference on your confirmation email."\n'
                       'If suspension_status fails, say "The permit system is down; we will email you the outcome."')
    # every closing line ends the chat: approved, refused, unknown or down
    stop = TextMentionTermination("bays are suspended") | TextMentionTermination("application was refused") \
        | TextMentionTermination("cannot find that application") | TextMentionTermination("permit system is down") \
        | MaxMessageTermination(10)
    return RoundRobinGroupChat([permits_p], termination_condition=stop)


def seeded():
    return build(NIGHTLY_EXPORT)


def fixed():
    return build(LIVE)
