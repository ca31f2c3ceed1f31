"""Tool error not handled, AutoGen AgentChat (RoundRobinGroupChat with a `CodeExecutorAgent`, an
agent that does not reflect on its tool's answer): a shooting ground's have-a-go clay sessions.
`coach_c` works out how many boxes of cartridges a group gets through in a Python block,
`range_pc` (a `CodeExecutorAgent` on a `LocalCommandLineCodeExecutor` in a temporary folder)
runs it, and `gunroom_g` sets the boxes aside with `reserve_cartridges`; gunroom_g is built
with `reflect_on_tool_use=False`, so its reply is the tool's answer as it came (AgentChat's
`ToolCallSummaryMessage`), and the team ends on its turn.

Seeded: `reserve_cartridges` indexes the gunroom's stock by the gauge asked for, and a gauge the
ground does not stock raises `KeyError`: the raw error is the gunroom's reply to the customer.
Fixed: an unstocked gauge is answered as such, with the gauges the ground does stock.
"""

from __future__ import annotations

import tempfile

from autogen_agentchat.agents import AssistantAgent, CodeExecutorAgent
from autogen_agentchat.conditions import MaxMessageTermination, SourceMatchTermination
from autogen_agentchat.teams import RoundRobinGroupChat
from autogen_ext.code_executors.local import LocalCommandLineCodeExecutor
from typing_extensions import Annotated

from .models import agentchat_client

STOCK = {"12 bore": {"boxes": 140, "load": "28 g fibre wad, 7.5 shot"},
         "20 bore": {"boxes": 35, "load": "24 g fibre wad, 7.5 shot"}}


def make_reserve(checked: bool):
    def reserve_cartridges(gauge: Annotated[str, 'The gun\'s gauge, like "12 bore"'],
                           boxes: Annotated[int, "Boxes of 25 to set aside"]) -> dict:
        """Set boxes of cartridges aside in the gunroom for a have-a-go session."""
        if checked and gauge not in STOCK:
            return {"reserved": 0, "status": "not stocked",
                    "note": f"we carry {' and '.join(STOCK)} only; bring your own {gauge} cartridges"}
        shelf = STOCK[gauge]
        return {"reserved": boxes, "status": "set aside", "load": shelf["load"]}
    return reserve_cartridges


COACH = """You are coach_c at Wealden Clays shooting ground.
In Python, work out `boxes = math.ceil(clays * shooters / 25)` (one cartridge a clay, boxes of 25).
Say "Cartridge count is in for the gunroom."
"""

GUNROOM = """You keep the gunroom at Wealden Clays.
Set the cartridges aside with reserve_cartridges.
"""


def build(checked: bool) -> RoundRobinGroupChat:
    client = agentchat_client()
    folder = tempfile.mkdtemp(prefix="wealden-")
    coach_c = AssistantAgent("coach_c", model_client=client, system_message=COACH,
                             description="Works out the cartridges a session needs.")
    range_pc = CodeExecutorAgent("range_pc", code_executor=LocalCommandLineCodeExecutor(timeout=30, work_dir=folder),
                                 description="Runs coach_c's Python.")
    gunroom_g = AssistantAgent("gunroom_g", model_client=client, tools=[make_reserve(checked)],
                               reflect_on_tool_use=False, system_message=GUNROOM,
                               description="Sets cartridges aside.")
    return RoundRobinGroupChat([coach_c, range_pc, gunroom_g],
                               termination_condition=SourceMatchTermination(["gunroom_g"]) | MaxMessageTermination(10))


def seeded():
    return build(checked=False)


def fixed():
    return build(checked=True)
