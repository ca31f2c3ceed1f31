"""Every model call of an Agents SDK app is masfuzz's, nested runs included.

masfuzz gives its model to a run through `RunConfig(model=...)`, which reaches the entry agent's
run and the `Agent.as_tool` runs the SDK starts itself. An app also starts runs of its own from
inside the run: a guardrail whose checker is an agent (`await Runner.run(checker, ...)` in an
`@input_guardrail`), a function tool that asks another agent, an agent built per request in a
hook. Those calls pass no `run_config` (or one of the app's), so they would reach the agent's own
model: the provider masfuzz refuses ("model not injected"), a finding that is masfuzz's gap.

`Runner.run`, `run_sync` and `run_streamed` all go through the SDK's default agent runner. While
a masfuzz run is in progress its `RunConfig` is in a context variable, which asyncio tasks and
`asyncio.to_thread` copy, so every run started inside it (however deep) sees it; the default
runner is replaced by one that gives such runs masfuzz's model, its model-input filter (which
tells the recording which agent is calling) and its tracing settings, and keeps the rest of the
app's own `RunConfig`. Outside a masfuzz run it passes every call through unchanged.

The same runner tells the recording what each run the app's own code starts is given (`on_run`):
a chat front-end's runs, one per customer message, carry the user's words (`user_turns`). A run
started inside another (by a tool, a guardrail, an agent-as-tool) carries its caller's words,
not the user's: a context variable set for the length of each run tells them apart, as
`run_sync`, which runs `run`, is one run.
"""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Iterator
from contextvars import ContextVar
from typing import Any

from masfuzz.adapters.openai_agents import sdk

_RUN_CONFIG: ContextVar[Any] = ContextVar("masfuzz_agents_run_config", default=None)
_ON_RUN: ContextVar[Any] = ContextVar("masfuzz_agents_on_run", default=None)
_IN_RUN: ContextVar[bool] = ContextVar("masfuzz_agents_in_run", default=False)
_runner_classes: dict[type, type] = {}


def _chain(ours: Any, theirs: Any) -> Any:
    """Our input filter (it records which agent calls), then the app's own on what ours gave."""
    if theirs is None or theirs is ours:
        return ours

    def both(data: Any) -> Any:
        return theirs(dataclasses.replace(data, model_data=ours(data)))
    return both


def _with_ours(kwargs: dict[str, Any]) -> dict[str, Any]:
    ours = _RUN_CONFIG.get()
    theirs = kwargs.get("run_config")
    if ours is None or theirs is ours:
        return kwargs
    if theirs is None:
        return {**kwargs, "run_config": ours}
    config = dataclasses.replace(
        theirs, model=ours.model,
        call_model_input_filter=_chain(ours.call_model_input_filter, theirs.call_model_input_filter),
        tracing_disabled=False, trace_include_sensitive_data=True)
    return {**kwargs, "run_config": config}


@contextlib.contextmanager
def _one_run(input: Any) -> Iterator[None]:
    """Around a run: the recording told its input when the app's own code started it."""
    on_run = _ON_RUN.get()
    if on_run is not None and not _IN_RUN.get():
        on_run(input)
    token = _IN_RUN.set(True)
    try:
        yield
    finally:
        _IN_RUN.reset(token)


def _runner_class() -> type:
    base = sdk.require().run.AgentRunner
    cls = _runner_classes.get(base)
    if cls is None:
        class MasfuzzAgentRunner(base):  # type: ignore[misc, valid-type]
            async def run(self, starting_agent: Any, input: Any, **kwargs: Any) -> Any:
                with _one_run(input):
                    return await super().run(starting_agent, input, **_with_ours(kwargs))

            def run_sync(self, starting_agent: Any, input: Any, **kwargs: Any) -> Any:
                with _one_run(input):
                    return super().run_sync(starting_agent, input, **_with_ours(kwargs))

            def run_streamed(self, starting_agent: Any, input: Any, **kwargs: Any) -> Any:
                with _one_run(input):  # its task, made here, keeps the context it was made in
                    return super().run_streamed(starting_agent, input, **_with_ours(kwargs))

        cls = _runner_classes[base] = MasfuzzAgentRunner
    return cls


@contextlib.contextmanager
def every_run_injected(run_config: Any, on_run: Any = None) -> Iterator[None]:
    """Within the block, runs the app starts itself use `run_config`'s model and recording;
    `on_run(input)` is called as each run the app's own code starts begins."""
    run_module = sdk.require().run
    cls = _runner_class()
    if not isinstance(run_module.get_default_agent_runner(), cls):
        run_module.set_default_agent_runner(cls())  # a pass-through outside masfuzz's runs
    token, hook = _RUN_CONFIG.set(run_config), _ON_RUN.set(on_run)
    try:
        yield
    finally:
        _ON_RUN.reset(hook)
        _RUN_CONFIG.reset(token)
