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
"""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Iterator
from contextvars import ContextVar
from typing import Any

from masfuzz.adapters.openai_agents import sdk

_RUN_CONFIG: ContextVar[Any] = ContextVar("masfuzz_agents_run_config", default=None)
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


def _runner_class() -> type:
    base = sdk.require().run.AgentRunner
    cls = _runner_classes.get(base)
    if cls is None:
        class MasfuzzAgentRunner(base):  # type: ignore[misc, valid-type]
            async def run(self, starting_agent: Any, input: Any, **kwargs: Any) -> Any:
                return await super().run(starting_agent, input, **_with_ours(kwargs))

            def run_sync(self, starting_agent: Any, input: Any, **kwargs: Any) -> Any:
                return super().run_sync(starting_agent, input, **_with_ours(kwargs))

            def run_streamed(self, starting_agent: Any, input: Any, **kwargs: Any) -> Any:
                return super().run_streamed(starting_agent, input, **_with_ours(kwargs))

        cls = _runner_classes[base] = MasfuzzAgentRunner
    return cls


@contextlib.contextmanager
def every_run_injected(run_config: Any) -> Iterator[None]:
    """Within the block, runs the app starts itself use `run_config`'s model and recording."""
    run_module = sdk.require().run
    cls = _runner_class()
    if not isinstance(run_module.get_default_agent_runner(), cls):
        run_module.set_default_agent_runner(cls())  # a pass-through outside masfuzz's runs
    token = _RUN_CONFIG.set(run_config)
    try:
        yield
    finally:
        _RUN_CONFIG.reset(token)
