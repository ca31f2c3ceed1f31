"""The Ray executor (kind "ray", extra `masfuzz[ray]`): executions spread over a Ray cluster.

Each `ExecutionRequest` travels as the document every executor takes (`to_data()`) to a Ray
actor (`NodeWorker`), which answers with the trace as JSON; the campaign's store is written by
the driver only. On its node an actor does what the worker pool does here: it keeps a warm
`python -m masfuzz.exec.worker` process (the target is imported once per actor, and an idle
actor serves the next request), kills it at the request's time limit (a `timeout` trace) and
records a `crash` trace, with its stderr tail and the events streamed before, when the system
under test kills it or it dies. So the traces are those of the `pool` executor. Actors, not
tasks: Ray hands tasks to whichever of its worker processes is free, and starts and stops them,
so a warm worker kept by a task's process was often not the one the next task found (measured:
a second batch of 24 runs of the customer-service desk, two at a time, took 5.5 s as tasks,
0.6 s on actors, 0.3 s in the local pool).

An actor that is lost (its node died, it was killed from outside, the system under test killed
its parent) is no finding of the system in itself: the request runs once more on a new actor.
Lost again, the execution is recorded as a `crash` trace naming Ray's error, never dropped. An
actor that gives no answer long after the request's limit is killed and the run recorded as a
`timeout`.

Where Ray runs:
- no address (neither `address`/`--ray-address` nor `RAY_ADDRESS`): masfuzz starts a local Ray
  on first use (as many logical CPUs as `concurrency` needs) and shuts it down on `aclose()`.
  The actors work in the driver's folder, so relative target paths and the model cache are the
  driver's, and `--max-connections` binds them and the driver's own calls together (the slot
  folder of `masfuzz.llm.client`, passed on in the environment).
- an address: masfuzz connects as a driver (and only disconnects on `aclose()`). The current
  folder is the job's `working_dir` (Ray uploads it, without what .gitignore lists and without
  .git, .masfuzz and .venv): the actors find the target's files and modules there. Each node has
  its own slot folder, so `--max-connections` bounds the model calls of each node, not of the
  cluster; the model cache is per node too.
- Ray already initialised in this process (an API caller's `ray.init`): used as it is.

`concurrency` bounds the executions in flight, as for every executor, and so the actors; each
actor reserves `num_cpus` (`--ray-cpus`, default 0.25: a run mostly waits on its models, and a
whole CPU an actor would make 100 workers need 100 CPUs) of the cluster's CPUs, and no more run
at once than the cluster's CPUs (when masfuzz connects) hold.
"""

from __future__ import annotations

import asyncio
import importlib.util
import logging
import os
import socket
import sys
import tempfile
import time
import uuid
from typing import Any
from urllib.parse import urlsplit

from masfuzz import errors
from masfuzz.errors import MasfuzzError
from masfuzz.exec.base import Executor
from masfuzz.exec.pool import LOAD_TIMEOUT, PoolExecutor
from masfuzz.exec.request import ExecutionRequest
from masfuzz.llm.client import CONNECTIONS, SLOTS_ENV
from masfuzz.target import adapter_name
from masfuzz.trace import Trace, ended_trace

MISSING = "--executor ray needs Ray on this machine and every worker: install masfuzz[ray]"
UPLOAD_EXCLUDES = [".git", ".masfuzz", ".venv", "__pycache__"]
ANSWER_SLACK = 120.0  # seconds past a request's limit (and its load time) before the driver gives up
GCS_PORT, CLIENT_PORT = 6379, 10001  # Ray's defaults: a head node's GCS, its Ray Client server
REACH_TIMEOUT = 5.0  # seconds a cluster's head has to accept a connection
RETRIES = 1  # runs of a request again, on a new actor, when its actor was lost


def import_ray() -> Any:
    """The `ray` module, or the one line that says how to get it (exit status 2)."""
    try:
        import ray
    except ImportError:
        raise MasfuzzError(MISSING) from None
    return ray


def ray_installed() -> bool:
    """Whether `import ray` would find it (without importing it: that takes seconds)."""
    if "ray" in sys.modules:
        return sys.modules["ray"] is not None
    return importlib.util.find_spec("ray") is not None


# -- on the node: a Ray actor holding one warm worker ---------------------------------------
class NodeWorker:
    """A Ray actor (`ray.remote(NodeWorker)`): a one-worker `PoolExecutor` on its node, kept warm
    across the requests it serves, one at a time (`folder`: the driver's working folder, when
    this node shares it)."""

    def __init__(self, folder: str | None, load_timeout: float, sandbox: Any = None) -> None:
        if folder and os.path.isdir(folder):
            os.chdir(folder)
        slots = os.environ.get(SLOTS_ENV)
        if slots:
            os.makedirs(slots, exist_ok=True)
        self.loop = asyncio.new_event_loop()  # the warm worker's pipes belong to this loop
        self.pool = PoolExecutor(load_timeout=load_timeout, sandbox=sandbox)  # the driver's settings

    def serve(self, data: dict[str, Any]) -> dict[str, Any]:
        """`{"trace": json}`, or `{"error": ..}` for bad input."""
        try:
            request = ExecutionRequest.from_data(data)
            trace = self.loop.run_until_complete(self.pool.execute(request))
        except MasfuzzError as exc:
            return {"error": str(exc), "kind": type(exc).__name__}
        return {"trace": trace.model_dump_json(by_alias=True)}


# -- on the driver ---------------------------------------------------------------------------
class RayExecutor(Executor):
    kind = "ray"

    def __init__(self, *, address: str | None = None, runtime_env: dict[str, Any] | None = None,
                 num_cpus: float = 0.25, load_timeout: float = LOAD_TIMEOUT, **options: Any) -> None:
        super().__init__(**options)
        if not ray_installed():  # said before a campaign claims its run, not at its first execution
            raise MasfuzzError(MISSING)
        check_reachable(address or os.environ.get("RAY_ADDRESS") or None)
        self.adapter = adapter_name(self.adapter)  # the worker imports it by name
        self.address = address
        self.runtime_env = runtime_env
        self.num_cpus = num_cpus
        self.load_timeout = load_timeout
        self._started = False  # whether this executor called ray.init (and so shuts it down)
        self._actor: Any = None  # ray.remote(NodeWorker), once connected
        self._idle: list[Any] = []  # actors between two requests, their workers warm
        self._folder: str | None = None

    def _connect(self) -> Any:
        ray = import_ray()
        if self._actor is None:
            if not ray.is_initialized():
                self._init(ray)
            else:  # somebody else's Ray: actors use the driver's folder if their node has it
                self._folder = os.getcwd()
            self._actor = ray.remote(NodeWorker).options(num_cpus=self.num_cpus, max_restarts=0)
        return ray

    def _semaphore(self) -> asyncio.Semaphore:
        """`concurrency` at once, or as many actors as the cluster's CPUs hold when that is
        fewer (an actor waiting for a CPU would look like a hang)."""
        if self._slots is None:
            self._connect()
            cpus = _cluster_cpus(import_ray())
            fit = max(1, int(cpus // self.num_cpus)) if cpus and self.num_cpus else self.concurrency
            self._slots = asyncio.Semaphore(min(self.concurrency, fit))
        return self._slots

    def _init(self, ray: Any) -> None:
        address = self.address or os.environ.get("RAY_ADDRESS") or None
        runtime_env = dict(self.runtime_env or {})
        env_vars = dict(runtime_env.get("env_vars") or {})
        if address is None:  # a local Ray: this machine's folder, slots and PYTHONPATH
            self._folder = os.getcwd()
            env_vars.setdefault(SLOTS_ENV, CONNECTIONS.shared_folder())
            if os.environ.get("PYTHONPATH"):
                env_vars.setdefault("PYTHONPATH", os.environ["PYTHONPATH"])
            kwargs: dict[str, Any] = {"num_cpus": max(os.cpu_count() or 1,
                                                      int(self.concurrency * self.num_cpus + 0.999)),
                                      "include_dashboard": False}
        else:  # a cluster: this folder uploaded as the job's working_dir, a slot folder per node
            runtime_env.setdefault("working_dir", os.getcwd())
            runtime_env.setdefault("excludes", UPLOAD_EXCLUDES)
            env_vars.setdefault(SLOTS_ENV, os.path.join(tempfile.gettempdir(),
                                                        f"masfuzz-slots-{uuid.uuid4().hex[:12]}"))
            kwargs = {"address": address}
        runtime_env["env_vars"] = env_vars
        try:
            ray.init(runtime_env=runtime_env, log_to_driver=False, logging_level=logging.WARNING,
                     **kwargs)
        except (ConnectionError, ValueError, RuntimeError) as exc:
            where = f"the Ray cluster at {address}" if address else "a local Ray"
            raise MasfuzzError(f"--executor ray: cannot start or reach {where}: {exc}") from None
        self._started = True
        _errors_to_stderr(ray)

    async def _execute(self, request: ExecutionRequest) -> Trace:
        ray = self._connect()
        data = request.to_data()
        patience = request.limit + self.load_timeout + ANSWER_SLACK
        t0 = time.perf_counter()
        for attempt in range(RETRIES + 1):
            actor = self._idle.pop() if self._idle else \
                self._actor.remote(self._folder, self.load_timeout, self.sandbox)
            try:
                answer = await asyncio.wait_for(actor.serve.remote(data), patience)
            except TimeoutError:
                ray.kill(actor)
                return self._ended(request, "timeout", f"no answer from Ray within {patience:g} s; "
                                   "its worker was killed", time.perf_counter() - t0)
            except ray.exceptions.RayTaskError:
                ray.kill(actor)
                raise  # masfuzz's own code failed on the node: a bug, as it would be here
            except ray.exceptions.RayError as exc:  # the actor (its process, its node) was lost
                ray.kill(actor)
                if attempt < RETRIES:
                    continue
                return self._ended(request, "crash", f"the Ray worker running it was lost "
                                   f"({RETRIES + 1} times): {_first_line(exc)}",
                                   time.perf_counter() - t0)
            self._idle.append(actor)
            if "error" in answer:  # bad input, raised here as the node raised it
                cls = getattr(errors, str(answer.get("kind")), None)
                if not (isinstance(cls, type) and issubclass(cls, MasfuzzError)):
                    cls = MasfuzzError
                raise cls(answer["error"])
            return Trace.model_validate_json(answer["trace"])
        raise AssertionError("unreachable")

    def _ended(self, request: ExecutionRequest, reason: str, message: str, seconds: float) -> Trace:
        try:  # the driver opened the target already (the campaign did): its name, for the record
            spec = request.target.open().spec.system
            names = {"system_id": spec.id, "framework": spec.framework}
        except MasfuzzError:
            names = {}
        return ended_trace(request.scenario, reason, message, seconds, **names)

    async def aclose(self) -> None:
        """Shut down the Ray this executor started (a local one) or disconnect from the
        cluster it joined; a Ray someone else started stays as it is."""
        idle, self._idle, self._actor, self._slots = self._idle, [], None, None
        if idle:  # their workers die with them (a worker dies with its parent)
            ray = import_ray()
            for actor in idle:
                ray.kill(actor)
        if self._started:
            self._started = False
            import_ray().shutdown()


def check_reachable(address: str | None) -> None:
    """A cluster address nothing answers on is bad input, said when the executor is made (before
    a campaign claims its run): `ray.init` would only fail at the first execution, and a wrong
    port makes it wait a minute first. `auto` and `local` are Ray's to resolve."""
    if not address or address in ("auto", "local"):
        return
    parts = urlsplit(address if "://" in address else f"//{address}")
    try:
        host, port = parts.hostname, parts.port
    except ValueError:
        raise MasfuzzError(f"--ray-address {address}: not HOST:PORT or ray://HOST:PORT") from None
    if not host:
        raise MasfuzzError(f"--ray-address {address}: not HOST:PORT or ray://HOST:PORT")
    port = port or (CLIENT_PORT if parts.scheme == "ray" else GCS_PORT)
    try:
        socket.create_connection((host, port), timeout=REACH_TIMEOUT).close()
    except OSError as exc:
        raise MasfuzzError(f"--executor ray: cannot reach the Ray cluster at {address}: "
                           f"{exc.strerror or exc}") from None


def _cluster_cpus(ray: Any) -> float:
    try:
        return float(ray.cluster_resources().get("CPU", 0))
    except Exception:  # noqa: BLE001 - a Ray that cannot say: no cap
        return 0.0


def _errors_to_stderr(ray: Any) -> None:
    """Ray's driver prints the errors its nodes report (a worker died, a task is retried) to
    stdout, which is masfuzz's output (`--format json`): send them to stderr instead."""
    module = getattr(getattr(ray, "_private", None), "worker", None)
    show = getattr(module, "print_to_stdstream", None)
    if show is None or getattr(show, "masfuzz", False):
        return

    def to_stderr(data: dict[str, Any], *args: Any, **kwargs: Any) -> Any:
        return show({**data, "is_err": True}, *args, **kwargs)

    to_stderr.masfuzz = True  # type: ignore[attr-defined]
    module.print_to_stdstream = to_stderr


def _first_line(exc: BaseException) -> str:
    lines = [ln.strip() for ln in str(exc).splitlines() if ln.strip()]
    return f"{type(exc).__name__}: {lines[0][:300]}" if lines else type(exc).__name__


__all__ = ["NodeWorker", "RayExecutor", "import_ray"]
