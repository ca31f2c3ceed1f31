"""Executors: run execution requests against a target and always get a `Trace` back.

    from masfuzz.exec import make_executor
    ex = make_executor("pool", concurrency=2, timeout=30)
    trace = await ex.run("examples/customer_service/app.py:triage_agent", scenario)
    traces = await ex.run_many(target, scenarios)           # same order as given
    await ex.aclose()                                         # stop the warm workers

- `PoolExecutor` ("pool", the default): warm worker processes that masfuzz can always kill;
  a hang, a crash, an abort or an exit of any status in the system under test is a recorded
  trace with the events seen before it, and the next scenario runs.
- `SubprocessExecutor` ("subprocess"): the same, with a fresh worker per request.
- `InProcessExecutor` ("inprocess"): this process; fastest to debug, but a blocked thread
  cannot be stopped and a dying system takes masfuzz with it.
- `RayExecutor` ("ray", extra `masfuzz[ray]`): the pool's warm workers, on the nodes of a Ray
  cluster (a local Ray unless `ray_address` or `RAY_ADDRESS` names one); `ray` is imported only
  when it runs (`masfuzz.exec.ray_executor`).

All take `concurrency` (requests at once; the default 1 suits a 2-core machine running local
models), `timeout` (seconds, used when the scenario sets none), `models` (`ModelSettings`), and
`adapter`/`orchestration` (what `run(target, ...)` puts in the `Target` it builds);
`make_executor` passes `ray_address` and `ray_cpus` (each actor's CPUs) on to the Ray executor only.
Only bad input raises (`MasfuzzError`, e.g. a target that does not load).
"""

from __future__ import annotations

from typing import Any

from masfuzz.errors import MasfuzzError
from masfuzz.exec.base import DEFAULT_TIMEOUT, Executor, ended_trace
from masfuzz.exec.inprocess import InProcessExecutor
from masfuzz.exec.pool import PoolExecutor, SubprocessExecutor
from masfuzz.exec.ray_executor import RayExecutor
from masfuzz.exec.request import ExecutionRequest

EXECUTORS: dict[str, type[Executor]] = {
    "pool": PoolExecutor,
    "subprocess": SubprocessExecutor,
    "inprocess": InProcessExecutor,
    "ray": RayExecutor,
}


def make_executor(kind: str = "pool", *, ray_address: str | None = None,
                  ray_cpus: float | None = None, **options: Any) -> Executor:
    if kind == "ray" and ray_address:
        options["address"] = ray_address
    if kind == "ray" and ray_cpus:
        options["num_cpus"] = ray_cpus
    try:
        cls = EXECUTORS[kind]
    except KeyError:
        raise MasfuzzError(
            f"unknown executor {kind!r} (choose one of {', '.join(EXECUTORS)})"
        ) from None
    return cls(**options)


__all__ = [
    "DEFAULT_TIMEOUT", "EXECUTORS", "ExecutionRequest", "Executor", "InProcessExecutor",
    "PoolExecutor", "RayExecutor", "SubprocessExecutor", "ended_trace", "make_executor",
]
