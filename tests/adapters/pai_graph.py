"""A pydantic-graph graph whose nodes run PydanticAI agents (tests/adapters/test_pydantic_ai.py).

Both of pydantic-graph's ways to write a node: `triage`, a builder step, runs `classifier`; a
decision sends a refusal to the end through a step of plain code (`refuse`), anything else
through another (`open_draft`) to the `Draft` node, a `BaseNode` running `writer` (which has a
tool), whose `run` returns `Review`; `Review` runs `reviewer` (in a method of its own) and
returns `Draft | End[str]`.
By hand: 3 agents, 1 tool, delegations classifier -> writer, writer -> reviewer and reviewer ->
writer (the loop back), the End reachable after `triage` and after `Review`.
"""

from __future__ import annotations

from dataclasses import dataclass

from pydantic_ai import Agent
from pydantic_graph import BaseNode, End, GraphBuilder, GraphRunContext, StepContext, TypeExpression
from pydantic_graph import reduce_list_append
from typing import Literal


@dataclass
class Desk:
    task: str = ""
    rounds: int = 0


classifier = Agent("openai:gpt-4o-mini", name="classifier", instructions="Answer draft or refuse.")
writer = Agent("openai:gpt-4o-mini", name="writer", instructions="Write a short answer.")
reviewer = Agent("openai:gpt-4o-mini", name="reviewer", instructions="Answer OK or REDO.")


@writer.tool_plain
def lookup(topic: str) -> str:
    """Facts about a topic."""
    return f"facts about {topic}"


@dataclass
class Draft(BaseNode[Desk]):
    async def run(self, ctx: GraphRunContext[Desk]) -> Review:
        ctx.state.rounds += 1
        result = await writer.run(ctx.state.task)
        return Review(result.output)


@dataclass
class Review(BaseNode[Desk, None, str]):
    draft: str

    async def run(self, ctx: GraphRunContext[Desk]) -> Draft | End[str]:
        return Draft() if "REDO" in await self.verdict() else End(self.draft)

    async def verdict(self) -> str:  # the node's agent runs in a helper of its own
        return (await reviewer.run(self.draft)).output


g = GraphBuilder(state_type=Desk, input_type=str, output_type=str)


@g.step
async def triage(ctx: StepContext[Desk, None, str]) -> str:
    ctx.state.task = ctx.inputs
    return "refuse" if "refuse" in (await classifier.run(ctx.inputs)).output else "draft"


@g.step
async def refuse(ctx: StepContext[Desk, None, object]) -> str:
    return "refused"


@g.step
async def open_draft(ctx: StepContext[Desk, None, object]) -> Draft:
    return Draft()


g.add(
    g.node(Draft),
    g.node(Review),
    g.edge_from(g.start_node).to(triage),
    g.edge_from(triage).to(g.decision()
                           .branch(g.match(TypeExpression[Literal["refuse"]]).to(refuse))
                           .branch(g.match(str).to(open_draft))),
    g.edge_from(refuse).to(g.end_node),
)
desk = g.build()


# `panel`: a fork. `chair` frames the question, `pro` and `con` answer it in parallel branches,
# a join collects both, `judge` decides. By hand: 4 agents, delegations chair -> pro, chair ->
# con, pro -> judge, con -> judge.
chair = Agent("openai:gpt-4o-mini", name="chair", instructions="Frame the question.")
pro = Agent("openai:gpt-4o-mini", name="pro", instructions="Argue for.")
con = Agent("openai:gpt-4o-mini", name="con", instructions="Argue against.")
judge = Agent("openai:gpt-4o-mini", name="judge", instructions="Decide.")
p = GraphBuilder(input_type=str, output_type=str)


@p.step
async def frame(ctx: StepContext[None, None, str]) -> str:
    return (await chair.run(ctx.inputs)).output


@p.step
async def argue_for(ctx: StepContext[None, None, str]) -> str:
    return (await pro.run(ctx.inputs)).output


@p.step
async def argue_against(ctx: StepContext[None, None, str]) -> str:
    return (await con.run(ctx.inputs)).output


@p.step
async def decide(ctx: StepContext[None, None, list[str]]) -> str:
    return (await judge.run("\n".join(sorted(ctx.inputs)))).output


both = p.join(reduce_list_append, initial_factory=list[str])
p.add(
    p.edge_from(p.start_node).to(frame),
    p.edge_from(frame).to(argue_for, argue_against),
    p.edge_from(argue_for, argue_against).to(both),
    p.edge_from(both).to(decide),
    p.edge_from(decide).to(p.end_node),
)
panel = p.build()


@dataclass
class Count(BaseNode[None, None, int]):
    """A node of plain code: `counter` runs no agent, and masfuzz refuses it as it loads."""

    n: int = 0

    async def run(self, ctx: GraphRunContext) -> End[int]:
        return End(self.n + 1)


c = GraphBuilder(output_type=int)
c.add(c.node(Count), c.edge_from(c.start_node).to(Count))
counter = c.build()
