"""Premature termination, AutoGen AgentChat (RoundRobinGroupChat with a `CodeExecutorAgent`): a
roller derby league sells group blocks for bout night. `stats_s` works the block out in a
Python block (the group price, and whether the block fits the seats left), `rink_pc` (a
`CodeExecutorAgent` on a `LocalCommandLineCodeExecutor` in a temporary folder) runs it, and
`box_office` sells the block with `sell_block` and signs off with "Seats CONFIRMED", the word
the team stops on.

Seeded: the stop condition hears "CONFIRMED" from anyone, and the analyst's check prints its
verdict as `status = CONFIRMED` when the block fits: the executor's output ends the run,
normally, before the box office has sold a seat. Fixed: the word counts only from the box office.
"""

from __future__ import annotations

import tempfile

from autogen_agentchat.agents import AssistantAgent, CodeExecutorAgent
from autogen_agentchat.conditions import MaxMessageTermination, TextMentionTermination
from autogen_agentchat.teams import RoundRobinGroupChat
from autogen_ext.code_executors.local import LocalCommandLineCodeExecutor

from .models import agentchat_client

SOLD: list[int] = []


def sell_block(tickets: int, total: float) -> dict:
    """Sell a block of bout-night tickets at the group price worked out by stats."""
    SOLD.append(tickets)
    return {"status": {"code": 200, "text": "sold"},
            "order": {"ref": f"RD-{2600 + len(SOLD)}", "seats": f"turn 2 bleachers, row C x{tickets}"}}


STATS = """You are stats_s, the numbers person for the Bristol Harbour Hellcats' box office.
In Python, work out `total = round(tickets * 12.5 * (0.85 if tickets >= 10 else 1), 2)` and `status = "CONFIRMED" if tickets <= seats_left else "TOO MANY"`, with seats_left 60 for Saturday's bout.
Say "Numbers are in for the box office."
"""

BOX = """You run the box office for the Bristol Harbour Hellcats.
Sell the block with sell_block once stats_s has the numbers.
Reply "Seats CONFIRMED ✅ {tickets} tickets, order {ref}, £{total} to pay on the door."
"""


def build(stop) -> RoundRobinGroupChat:
    client = agentchat_client()
    folder = tempfile.mkdtemp(prefix="hellcats-")
    stats_s = AssistantAgent("stats_s", model_client=client, system_message=STATS,
                             description="Works out group prices in Python.")
    rink_pc = CodeExecutorAgent("rink_pc", code_executor=LocalCommandLineCodeExecutor(timeout=30, work_dir=folder),
                                description="Runs the Python that stats_s writes.")
    box_office = AssistantAgent("box_office", model_client=client, tools=[sell_block], reflect_on_tool_use=True,
                                system_message=BOX, description="Sells the ticket block.")
    return RoundRobinGroupChat([stats_s, rink_pc, box_office], termination_condition=stop | MaxMessageTermination(12))


def seeded():
    return build(TextMentionTermination("CONFIRMED"))


def fixed():
    return build(TextMentionTermination("CONFIRMED", sources=["box_office"]))
