"""The runtime-error pipeline (§4.1, Figure 1.1): fuzz the tool alone, then for each unique error
(1) sanity check: the agent's model, shown the tool's documentation, is asked to make that exact
    call; a refusal drops the input (the fuzzer ignores the documentation, the agent does not);
(2) a tester model writes a natural user request carrying the input (Figure 11);
(3) the agent runs that request; the error is confirmed when the agent's own call fails with the
    same unique error (a different failure is reported, not counted as a confirmation).
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from masfuzz.llm.types import ModelClient
from masfuzz.toolfuzz.agent import AgentRun, ask_for_call, run_agent
from masfuzz.toolfuzz.fuzzer import FuzzResult, UniqueError, fuzz_tool
from masfuzz.toolfuzz.grouping import error_key
from masfuzz.toolfuzz.sandbox import Sandbox, off_loop
from masfuzz.llm.structured import ask_json
from masfuzz.toolfuzz.tools import FuzzTool, tool_doc

REQUEST_PROMPT = """You are an AI assistant tester. The idea is to come up with a prompt which will make the following tool produce an error.
Tool information: {doc}
Write ONE natural request a user could send to an AI assistant that has this tool, such that the assistant calls the tool with these arguments:
{arguments}
Put the argument values in double quotes inside the request. Answer as JSON: {{"request": "..."}}"""
REQUEST_SCHEMA = {"type": "object", "properties": {"request": {"type": "string"}}, "required": ["request"]}


@dataclass
class RuntimeReport:
    fuzz: FuzzResult
    agent_runs: dict[str, AgentRun]  # unique error key -> the confirming run
    fuzz_seconds: float = 0.0  # the fuzzing alone, before the model stages

    @property
    def confirmed(self) -> list[UniqueError]:
        return [u for u in self.fuzz.unique.values() if u.confirmed]


def same_arguments(a: dict[str, Any], b: dict[str, Any]) -> bool:
    return json.dumps(a, sort_keys=True, default=str) == json.dumps(b, sort_keys=True, default=str)


def _input_rank(arguments: dict[str, Any]) -> tuple[bool, int]:
    """Inputs with blank strings last (a user never asks about nothing), then shorter first."""
    blank = any(isinstance(v, str) and not v.strip() for v in arguments.values())
    return blank, len(json.dumps(arguments, default=str))


async def confirm_error(error: UniqueError, tool: FuzzTool, sandbox: Sandbox, agent: ModelClient,
                        tester: ModelClient, seed: int) -> AgentRun | None:
    """Run the three model stages for one unique error; fills its fields in place. The failing
    inputs are tried shortest-but-not-blank first until the agent's model accepts one."""
    candidates = sorted(error.examples or [error.arguments], key=_input_rank)
    chosen = None
    for arguments in candidates:
        if await ask_for_call(agent, tool, arguments, seed=seed) is not None:
            chosen = arguments
            break
    if chosen is None:
        error.sanity = "refused"
        return None
    error.sanity = "accepted"
    prompt = REQUEST_PROMPT.format(doc=tool_doc(tool), arguments=json.dumps(chosen, ensure_ascii=False))
    answer = await ask_json(tester, prompt, REQUEST_SCHEMA, seed=seed)
    request = answer.get("request")
    if not isinstance(request, str) or not request.strip():
        error.user_request = None
        error.confirmed = False
        return None
    error.user_request = request.strip()
    run = await run_agent(agent, tool, error.user_request, sandbox.call, seed=seed)
    if run.steps:
        error.agent_arguments = run.steps[0].arguments
    own = tool.own_code_root
    keys = [error_key(s.outcome, own, s.arguments) for s in run.errors]
    error.confirmed = error.key in keys
    if keys and not error.confirmed:
        error.agent_error = str(keys[0])
    return run


async def runtime_pipeline(tool: FuzzTool, sandbox: Sandbox, *, calls: int, seed: int,
                           agent: ModelClient | None = None, tester: ModelClient | None = None,
                           max_confirm: int = 20, stop: Callable[[], str | None] | None = None,
                           time_left: Callable[[], float | None] | None = None) -> RuntimeReport:
    start = time.perf_counter()
    cancelled = threading.Event()

    def stopped() -> str | None:
        return "cancelled" if cancelled.is_set() else (stop() if stop is not None else None)

    # in a thread: the sandbox's calls block, and other tools' work shares this event loop
    result = await off_loop(fuzz_tool, tool, calls=calls, seed=seed, sandbox=sandbox,
                            stop=stopped, time_left=time_left, cancelled=cancelled)
    fuzz_seconds = time.perf_counter() - start
    runs: dict[str, AgentRun] = {}
    if agent is not None and tester is not None:
        for i, err in enumerate(sorted(result.unique.values(), key=lambda u: u.first_call)[:max_confirm]):
            run = await confirm_error(err, tool, sandbox, agent, tester, seed + i)
            if run is not None:
                runs[str(err.key)] = run
    return RuntimeReport(result, runs, fuzz_seconds)
