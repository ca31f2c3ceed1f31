"""Premature termination, AutoGen AgentChat RoundRobinGroupChat: a pottery studio's firing
requests. front_q finds the member (`member_lookup`); glaze_t checks the glaze against the firing
asked for (`glaze_check`); kiln_sched books shelf space in a firing (`book_firing`). The team
stops on a `FunctionalTermination` predicate, `stop_when`, or once kiln_sched has answered.

Seeded: the predicate dates from when kiln_sched was the team's only member with tools: it stops
the team as soon as any tool has run, which is now front_q's look-up, before glaze_t or kiln_sched
take a turn. Fixed: it stops once `book_firing` has answered.
"""

from typing import Annotated

from autogen_agentchat.agents import AssistantAgent
from autogen_agentchat.conditions import FunctionalTermination, MaxMessageTermination, TextMessageTermination
from autogen_agentchat.messages import ToolCallExecutionEvent
from autogen_agentchat.teams import RoundRobinGroupChat

from .models import agentchat_client

MEMBERS = {"rowan.achebe@posteo.net": ("Rowan Achebe", "m-118", "studio member, 4 shelves a month")}
GLAZES = {"g-14": ("Tenmoku", "cone 6"), "g-02": ("Clear majolica", "cone 04")}


def member_lookup(email: Annotated[str, 'The member\'s email, like "first.last@example.net"']) -> str:
    """A studio member's record: name, number and shelf allowance."""
    name, number, plan = MEMBERS.get(email, ("not a member", "-", "pay per shelf"))
    return f"{email}: {name} ({number}), {plan}"


def glaze_check(glaze: Annotated[str, 'The glaze code on the pot\'s base, like "g-00"'],
                firing: Annotated[str, 'The firing asked for, like "cone 6"']) -> dict:
    """Whether a studio glaze may go into a firing (a low-fire glaze runs in a high firing)."""
    name, rated = GLAZES.get(glaze, ("unknown", None))
    return {"glaze": glaze, "name": name, "rated": rated, "ok_for": firing if rated == firing else None}


def book_firing(firing: Annotated[str, 'The firing, like "cone 6"'],
                shelves: Annotated[str, 'The shelf space, like "2 shelves"']) -> dict:
    """Book shelf space in the next firing of a kind."""
    return {"firing": firing, "shelves": shelves, "kiln": "Skutt 1027", "loads": "2026-05-21 09:00",
            "collect_from": "2026-05-23"}


def clay_stock(clay: Annotated[str, 'The clay body, like "buff stoneware"']) -> str:
    """Bags of a clay body in the studio's store."""
    return f"{clay}: 6 bags of 12.5 kg"


def member(name: str, tools: list, job: str, closing: str) -> AssistantAgent:
    return AssistantAgent(name, model_client=agentchat_client(), tools=tools, reflect_on_tool_use=True,
                          system_message=f"you {job} at Saltmarsh Clay Studio. {closing}")


def build(stop_when) -> RoundRobinGroupChat:
    front_q = member("front_q", [member_lookup, clay_stock], "answer members' messages",
                     "Call member_lookup. Say \"Thanks, passing your pots to the glaze check.\"")
    glaze_t = member("glaze_t", [glaze_check, clay_stock], "check glazes before firings",
                     "If glaze_check raises an error, say \"The glaze list is down; leave the pots on the "
                     "check shelf.\" Call glaze_check. Report the result of glaze_check.")
    kiln_sched = member("kiln_sched", [book_firing], "book the kilns",
                        "If book_firing raises an error, say \"The kiln diary is down; we will email your "
                        "shelf booking.\" Call book_firing. Report the result of book_firing.")
    stop = FunctionalTermination(stop_when) | TextMessageTermination("kiln_sched") | MaxMessageTermination(16)
    return RoundRobinGroupChat([front_q, glaze_t, kiln_sched], termination_condition=stop)


def any_tool_ran(messages) -> bool:
    return any(isinstance(m, ToolCallExecutionEvent) for m in messages)


def firing_booked(messages) -> bool:
    return any(isinstance(m, ToolCallExecutionEvent) and any(r.name == "book_firing" for r in m.content)
               for m in messages)


def seeded():
    return build(any_tool_ran)


def fixed():
    return build(firing_booked)
