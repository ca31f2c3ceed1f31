"""Small PydanticAI systems for the adapter's tests (tests/adapters/test_pydantic_ai.py).

`lead` delegates through tools in three ways PydanticAI apps write it: a tool that runs one
agent by its global name (`writer`), one that picks agents from a list (`REVIEWERS`), and one
that runs an agent held in a local variable; a fourth hands its agent to a helper of the module
that runs it (`archive`: `_ask(archivist, ...)`), and a fifth makes its agent itself (`translate`:
a note); `writer` has no name of its own (its id is the
variable's). `lead` also has a toolset known only when it connects (a note) and a provider-side
tool (web search: hosted). Output tools are not app tools: `writer` answers with a `Draft`.
"""

from __future__ import annotations

from pydantic import BaseModel

from pydantic_ai import Agent, RunContext
from pydantic_ai.capabilities import WebSearch
from pydantic_ai.toolsets import ExternalToolset, FunctionToolset


class Draft(BaseModel):
    title: str
    words: int


def count_words(text: str) -> int:
    """Count the words of a text."""
    return len(text.split())


lead = Agent("openai:gpt-4o-mini", name="lead", instructions="You lead the team.",
             toolsets=[FunctionToolset([count_words]), ExternalToolset([])],
             capabilities=[WebSearch()])
writer = Agent("openai:gpt-4o-mini", output_type=Draft, instructions="You write drafts.",
               model_settings={"temperature": 0.7})
critic = Agent("openai:gpt-4o-mini", name="critic", instructions="You criticise drafts.")
editor = Agent("openai:gpt-4o-mini", name="editor", instructions="You edit drafts.")
REVIEWERS = [critic, editor]


@lead.tool
async def write(ctx: RunContext, topic: str) -> str:
    """Have the writer draft a text."""
    result = await writer.run(f"Write about {topic}", usage=ctx.usage)
    return result.output.model_dump_json()


@lead.tool
async def review(ctx: RunContext, text: str, which: int) -> str:
    """Have reviewer number `which` review a text."""
    result = await REVIEWERS[which].run(text, usage=ctx.usage)
    return result.output


archivist = Agent("openai:gpt-4o-mini", name="archivist", instructions="You file texts.")


async def _ask(agent: Agent, text: str, ctx: RunContext) -> str:
    return (await agent.run(text, usage=ctx.usage)).output


@lead.tool
async def archive(ctx: RunContext, text: str) -> str:
    """Have the archivist file a text."""
    return await _ask(archivist, text, ctx)


@lead.tool
async def translate(ctx: RunContext, text: str) -> str:
    """Have a translator, made for the call, translate a text."""
    translator = Agent("openai:gpt-4o-mini", name="translator", instructions="You translate.")
    return (await translator.run(text, usage=ctx.usage)).output


@writer.tool_plain
def fail_always(reason: str) -> str:
    """A tool that always fails."""
    raise RuntimeError(f"broken: {reason}")


class Account:
    def __init__(self, owner: str) -> None:  # no default: masfuzz cannot make one
        self.owner = owner


teller = Agent("openai:gpt-4o-mini", name="teller", deps_type=Account)


@teller.instructions
def _owner(ctx: RunContext[Account]) -> str:
    return f"You serve {ctx.deps.owner}."
