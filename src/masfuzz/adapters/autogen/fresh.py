"""What a run's event loop owns inside an AgentChat team's members, made fresh for each run.

masfuzz runs one app many times in one process (the in-process executor under each command's
`asyncio.run`, a Python API caller's loops), each run under an event loop that may not be the
one before. An AgentChat team binds what it runs on to the loop of its first run: its agent
runtime (`SingleThreadedAgentRuntime`, whose message queue and processing task are the loop's),
the queue its output is relayed through, and the runtime's registrations of its agents
(`_initialized`). The outer team is rebuilt by the adapter for every run (`_Run.rebuild`); the
teams inside its members are not, since the members are the app's objects: a team that is a
member, a `SocietyOfMindAgent`'s inner team, the team of a `TeamTool` (and a society of mind an
`AgentTool` runs), a team the app's own code runs (a function tool's closure or module name, an
agent class of the app's: `extract.held_by`), at any depth (`extract.beneath`). Each of them gets, for the run, a runtime
and an output queue of its own, not yet bound to any loop, and is initialised anew on it;
everything else (its participants, termination condition, settings) stays the app's. The old
ones are put back after the run, as every other swap of the adapter's is. Every agent and team
in there is then reset, those a tool runs too: a `TeamTool`'s agents otherwise start the next
run with the last one's history (their word count already made), which a fresh process never
shows.

A team that is not a `BaseGroupChat` (a `Team` class of the app's own) has no such parts masfuzz
knows: it is only reset, and a crash of a later run on another loop is set aside as masfuzz's
(`masfuzz.exec.history`), not reported as the app's. Nor can masfuzz reach what the app keeps
where no code or attribute of an agent names it (a team in a registry dict looked up by key, a
client or queue a module made at import and a tool uses through another object): the same
applies.
"""

from __future__ import annotations

import asyncio
from contextlib import AsyncExitStack
from typing import Any, Callable, Iterable

from autogen_agentchat.base import ChatAgent, Team
from autogen_agentchat.teams import BaseGroupChat
from autogen_core import CancellationToken, SingleThreadedAgentRuntime

from masfuzz.adapters.autogen.extract import within

Swap = Callable[[AsyncExitStack, Any, str, Any], None]


def teams_within(members: Iterable[Any]) -> list[Any]:
    """The teams among `within(members)`."""
    return [t for t in within(members) if isinstance(t, Team)]


async def renew(stack: AsyncExitStack, members: Iterable[Any], swap: Swap) -> None:
    """Make `members` and everything inside them start this run afresh: every team a runtime and
    an output queue of its own (put back by `stack`), then every agent and team reset (its
    history and its termination condition's count emptied), those a tool runs too, which no
    member's own reset reaches (a `TeamTool` never resets its team)."""
    members = list(members)
    everything = within(members)
    for team in everything:
        if not isinstance(team, BaseGroupChat):
            continue  # the app's own kind of team: nothing of it masfuzz knows to renew
        # the runtime a user passed (`runtime=`) is the user's loop's too: the run gets an
        # embedded one, as the rebuilt outer team does
        swap(stack, team, "_runtime", SingleThreadedAgentRuntime(ignore_unhandled_exceptions=False))
        swap(stack, team, "_embedded_runtime", True)
        swap(stack, team, "_output_message_queue", asyncio.Queue())
        swap(stack, team, "_initialized", False)  # its agents are registered on the new runtime
        swap(stack, team, "_is_running", False)  # a run cut off at its time limit left it set
    for obj in everything:  # a reset starts the team's runtime: on this run's loop, after the swap
        if isinstance(obj, Team):
            await obj.reset()
        elif isinstance(obj, ChatAgent):
            await obj.on_reset(CancellationToken())
