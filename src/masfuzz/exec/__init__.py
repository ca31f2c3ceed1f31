"""Executors: run scenarios against a target and always get a `Trace` back.

    from masfuzz.exec import make_executor
    ex = make_executor("subprocess", concurrency=2, timeout=30)
    trace = await ex.run("examples/customer_service/app.py:triage_agent", scenario)
    traces = await ex.run_many(target, scenarios)           # same order as given

- `InProcessExecutor`: loads the target once and runs on the caller's event loop; fast; its
  timeout cancels waits but cannot stop a thread blocked in a tool.
- `SubprocessExecutor`: one worker process per scenario (`python -m masfuzz.exec.worker`) with a
  hard timeout that kills the worker's whole process group. Hangs become `timeout` traces,
  deaths (non-zero exit, signals, garbage answers) `crash` traces; the next scenario runs.

Both take `concurrency` (scenarios at once; the default 1 suits a 2-core machine running local
models), `timeout` (seconds, used when the scenario sets none), and `adapter` (an adapter to use
instead of detecting one from the target's type: an `Adapter` or `"pkg.mod:Class"`).
Only bad input raises (`MasfuzzError`, e.g. a target that does not load).
"""

from __future__ import annotations

from typing import Any

from masfuzz.errors import MasfuzzError
from masfuzz.exec.base import DEFAULT_TIMEOUT, Executor, ended_trace
from masfuzz.exec.inprocess import InProcessExecutor
from masfuzz.exec.request import ExecutionRequest
from masfuzz.exec.subproc import SubprocessExecutor

EXECUTORS: dict[str, type[Executor]] = {
    "inprocess": InProcessExecutor,
    "subprocess": SubprocessExecutor,
}


def make_executor(kind: str = "subprocess", **options: Any) -> Executor:
    try:
        cls = EXECUTORS[kind]
    except KeyError:
        raise MasfuzzError(
            f"unknown executor {kind!r} (choose one of {', '.join(EXECUTORS)})"
        ) from None
    return cls(**options)


__all__ = [
    "DEFAULT_TIMEOUT", "EXECUTORS", "ExecutionRequest", "Executor", "InProcessExecutor",
    "SubprocessExecutor", "ended_trace", "make_executor",
]
