"""Black-box runs: any agent app, unmodified, as a subprocess talking to masfuzz's endpoint.

The app is started (`python app.py`, any command) with its OpenAI base URL, a dummy key and the
usual per-framework overrides (`OPENAI_BASE_URL`, `OPENAI_API_BASE`, `OAI_CONFIG_LIST`) pointing
at a `ModelServer` on loopback, scripted answers on stdin for apps that call `input()`, and a
hard timeout that kills its whole process group. The `Trace` is rebuilt from what crossed the
endpoint: which agent asked (`ModelServer`'s naming), the tool calls the model asked for, the
tool results that come back in the following requests, the speaker order, and how the run ended
(the framework's printed stop reason, the exit status, or the timeout).

The command may hold `{input}`, replaced by the scenario's input; the input is also in the
environment as `MASFUZZ_INPUT`. A scenario without an input (`input=None`) runs the command as
written, its own arguments carrying the task: no `{input}`, no `MASFUZZ_INPUT`, no stdin answer
unless given, and the trace's user message is the one the app sent in its first agent call. A
leading `python`/`python3` means this interpreter, so the app sees the packages masfuzz runs with.

A scenario's per-agent model and temperature reach an agent's calls as far as the endpoint tells
that agent apart (the namings above): agents it cannot tell apart (one shared prompt, no header,
no declared name) are one agent to it, and get one setting.
"""

from __future__ import annotations

from typing import Any

from masfuzz.adapters.base import Adapter
from masfuzz.errors import MasfuzzError
from masfuzz.llm.types import ChatReply, ChatRequest, ModelClient
from masfuzz.scenario import Scenario
from masfuzz.serve.server import ModelServer
from masfuzz.spec.model import (
    SystemInfo, WorkflowSpec,
)
from masfuzz.trace import (
    Trace,
)

from masfuzz.adapters.blackbox.process import (
    DEFAULT_TIMEOUT, DUMMY_KEY, OUTPUT_TAIL, AppOutcome, BlackboxApp, app_environment, run_app,
)
from masfuzz.adapters.blackbox.spec import spec_from_traces
from masfuzz.adapters.blackbox.trace import STOP_PHRASES, trace_from_calls

class PerAgentModels:
    """The scenario's model for each agent (`Scenario.model_for`), behind one client."""

    def __init__(self, scenario: Scenario) -> None:
        if not scenario.sut_model and not scenario.agent_models:
            raise MasfuzzError("a black-box run needs --sut-model: the model that answers the app")
        self.scenario = scenario
        self.model_string = scenario.sut_model or next(iter(scenario.agent_models.values()))

    async def complete(self, request: ChatRequest, *, timeout: float | None = None) -> ChatReply:
        model = self.scenario.model_for(request.agent or "") or self.model_string
        from masfuzz.llm.settings import sut_client

        return await sut_client(model).complete(request, timeout=timeout)


async def run_blackbox(app: BlackboxApp, scenario: Scenario, *, timeout: float | None = None,
                       client: ModelClient | None = None) -> Trace:
    """Run the app once under the scenario and rebuild its trace."""
    limit = timeout or scenario.timeout or DEFAULT_TIMEOUT
    async with ModelServer(client or PerAgentModels(scenario), agents=app.agents) as server:
        outcome = await run_app(app, server.url, scenario, limit)
        calls = list(server.recording.calls)
    return trace_from_calls(calls, outcome, scenario, system_id=app.system_id)


class BlackboxAdapter(Adapter):
    """The adapter form, so executors and campaigns can run a `BlackboxApp` like any target."""

    framework = "blackbox"
    extra = ""

    @classmethod
    def accepts(cls, obj: Any) -> bool:
        return isinstance(obj, BlackboxApp)

    def extract(self, obj: Any, *, target: str = "") -> WorkflowSpec:
        # Nothing is known before the app runs; agents appear in traces as they speak.
        return WorkflowSpec(system=SystemInfo(id=obj.system_id, entry_agent="unknown",
                                              framework="blackbox", pattern="orchestrated"),
                            notes=("black-box: structure is observed from model calls only",))

    async def run(self, obj: Any, spec: WorkflowSpec, scenario: Scenario) -> Trace:
        return await run_blackbox(obj, scenario)


ADAPTER = BlackboxAdapter


__all__ = [
    "ADAPTER", "DEFAULT_TIMEOUT", "DUMMY_KEY", "OUTPUT_TAIL", "STOP_PHRASES", "AppOutcome",
    "BlackboxAdapter", "BlackboxApp", "app_environment", "run_app", "run_blackbox",
    "spec_from_traces", "trace_from_calls",
]
