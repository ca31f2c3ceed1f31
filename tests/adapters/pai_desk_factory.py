"""PydanticAI agent delegation written as PydanticAI's multi-agent docs show it, inside a factory:
`desk()` builds the front agent `concierge` and registers two tools on it whose bodies await
`loans.run(...)` and `events.run(...)` directly (each a delegation, run only when the model
calls the tool); `desk()` returns the agent. Two agents' `.run` appear in the factory's code, yet
none runs when it is called: the system is the agent it returns, not a pipeline of the two.
`helpers_desk()` is the same desk whose tools call a local helper that runs the agent. `slip()`
is a real pipeline (loans, then events) whose first step is a local helper it calls, and whose
answer is a dataclass holding a lock. `both` is a tool of the module-level `front` that runs
two agents itself."""

import threading
from dataclasses import dataclass, field
from typing import Any

from pydantic_ai import Agent, RunContext

loans = Agent("openai:gpt-4o-mini", name="loans", instructions="You renew library loans.")
events = Agent("openai:gpt-4o-mini", name="events", instructions="You book places at library talks.")


def desk() -> Agent:
    concierge = Agent("openai:gpt-4o-mini", name="concierge",
                      instructions="Send loan questions to `ask_loans`, talks to `ask_events`.")

    @concierge.tool
    async def ask_loans(ctx: RunContext, question: str) -> str:
        """Pass a question about loans to the loans desk."""
        return (await loans.run(question, usage=ctx.usage)).output

    @concierge.tool
    async def ask_events(ctx: RunContext, question: str) -> str:
        """Pass a question about talks to the events desk."""
        result = await events.run(question, usage=ctx.usage)
        return result.output

    return concierge


def helpers_desk() -> Agent:
    concierge = Agent("openai:gpt-4o-mini", name="concierge",
                      instructions="Send loan questions to `ask_loans`, talks to `ask_events`.")

    async def relay(agent: Agent, ctx: RunContext, question: str) -> str:
        return (await agent.run(question, usage=ctx.usage)).output

    async def ask_loans(ctx: RunContext, question: str) -> str:
        """Pass a question about loans to the loans desk."""
        return await relay(loans, ctx, question)

    async def ask_events(ctx: RunContext, question: str) -> str:
        """Pass a question about talks to the events desk."""
        return (await events.run(question, usage=ctx.usage)).output

    concierge.tool(ask_loans)
    concierge.tool(ask_events)
    return concierge


@dataclass
class Slip:
    """A pipeline's answer holding what `dataclasses.asdict` cannot copy (a lock)."""

    loan: str
    talk: str
    guard: Any = field(default_factory=threading.Lock)


async def slip(task: str) -> Slip:
    """A programmatic hand-off whose steps are a helper it defines and calls: still a pipeline."""
    async def renew(text: str) -> str:
        return (await loans.run(text)).output

    loan = await renew(task)
    talk = (await events.run(f"a talk for whoever has {loan}")).output
    return Slip(loan, talk)


front = Agent("openai:gpt-4o-mini", name="front", instructions="Ask `both` for anything.")


@front.tool_plain
async def both(question: str) -> str:
    """A module-level tool that runs two agents (events, then loans): its owner's delegations,
    not a second pipeline beside `slip()`."""
    talk = (await events.run(question)).output
    return (await loans.run(talk)).output
