"""Which call of a team or an agent run as a tool (`TeamTool`, `AgentTool`) each inner event is of.

AgentChat relays what a tool-run team or agent does through its caller's stream, but does not say
which call it belongs to: two such calls the caller's model makes at once run side by side and
their events interleave (`AssistantAgent` runs a turn's calls with `asyncio.gather`). A workbench
that does not stream (`StaticWorkbench`, an app's own) runs the tool with `run()`, whose events
never reach the stream at all. For one run, every task-runner tool of the workflow's agents is
given, on the instance (taken off again after the run), a `run_json_stream` that notes each call
it runs (`CallOrigins.ran`: a call masfuzz answered in its place, with a fault or a probe, asked
no one), the call id of each event it passes on (`CallOrigins.of`: the innermost call's, for a
tool's team whose agent calls a tool of its own) and why the team stopped (`stopped`: the limit
or stop word that ended it); and a `run_json` that runs the same stream and keeps its events for
that call (`kept`), returning what `run()` does (AgentChat's `run` is its `run_stream`'s last
item, the `TaskResult`). The events themselves are the app's objects, unchanged: the call is
told by their identity, not by a mark on them.
"""

from __future__ import annotations

from contextlib import AsyncExitStack
from typing import Any, AsyncGenerator, Iterable, Mapping

from autogen_agentchat.base import TaskResult
from autogen_agentchat.messages import BaseAgentEvent, BaseChatMessage
from autogen_core import CancellationToken


class CallOrigins:
    """The call id of every event a task-runner tool passed on during one run."""

    def __init__(self) -> None:
        self._by_id: dict[int, tuple[Any, str]] = {}  # id(event) -> (the event, kept alive; its call)
        self.kept: dict[str, list[Any]] = {}  # call id -> the events a run() never streamed
        self.ran: set[str] = set()  # the calls the tools were entered for (the team or agent was asked)
        self.stopped: dict[str, str] = {}  # call id -> why its team stopped (its `TaskResult.stop_reason`)

    def note(self, event: Any, call_id: str) -> None:
        # the innermost call's stays: a deeper tool's events pass through every call above it
        self._by_id.setdefault(id(event), (event, call_id))

    def of(self, event: Any) -> str | None:
        """The call `event` was passed on in, or None (an event of the outer team's own)."""
        found = self._by_id.get(id(event))
        return found[1] if found is not None and found[0] is event else None

    def watch(self, stack: AsyncExitStack, tools: Iterable[Any]) -> None:
        """Give each task-runner tool in `tools` (each once) the noting `run_json_stream` and
        `run_json` for the run; `stack` takes them off after."""
        done: list[Any] = []
        for tool in tools:
            if getattr(tool, "_task_runner", None) is None or any(tool is d for d in done):
                continue
            done.append(tool)
            streamed = self._streaming(tool)
            _shadow(stack, tool, "run_json_stream", streamed)
            _shadow(stack, tool, "run_json", self._kept_run(streamed))

    def _streaming(self, tool: Any) -> Any:
        own = type(tool).run_json_stream

        async def run_json_stream(args: Mapping[str, Any], cancellation_token: CancellationToken,
                                  call_id: str | None = None) -> AsyncGenerator[Any, None]:
            if call_id:
                self.ran.add(call_id)
            async for item in own(tool, args, cancellation_token, call_id=call_id):
                if call_id and isinstance(item, (BaseAgentEvent, BaseChatMessage)):
                    self.note(item, call_id)
                elif call_id and isinstance(item, TaskResult) and item.stop_reason:
                    self.stopped[call_id] = item.stop_reason  # a bound of the team's, its stop word
                yield item

        return run_json_stream

    def _kept_run(self, streamed: Any) -> Any:
        async def run_json(args: Mapping[str, Any], cancellation_token: CancellationToken,
                           call_id: str | None = None) -> Any:
            last: Any = None
            kept = self.kept.setdefault(call_id or "", [])
            async for item in streamed(args, cancellation_token, call_id=call_id):
                if isinstance(item, (BaseAgentEvent, BaseChatMessage)):
                    kept.append(item)
                last = item
            return last

        return run_json


def _shadow(stack: AsyncExitStack, obj: Any, attr: str, value: Any) -> None:
    """`obj.attr` is `value` until `stack` closes; then the class's again."""
    setattr(obj, attr, value)
    stack.callback(obj.__dict__.pop, attr, None)
