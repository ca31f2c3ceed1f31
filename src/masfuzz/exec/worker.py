"""The worker process of the isolated executors: `python -m masfuzz.exec.worker`.

Protocol: `ExecutionRequest`s as JSON lines on stdin, served one after another (the target is
opened once, on the first); the worker ends at end of input. For each request it answers on
stdout, one JSON object per line:
  `{"ready": true, "system_id": ..., "framework": ...}` once the target is loaded (the parent
  starts the scenario's clock here), then `{"event": {...}}` for every trace event as the system
  records it (so a run the parent must kill still has its events), then `{"trace": {...}}`;
  `{"error": "..."}` when the target is bad input; `{"exit": N}` when the system under test
  called `sys.exit(N)` (the worker then ends: its state is no longer trustworthy);
  `{"retire": "why"}` before a trace when the sandbox's limits leave the worker too little for
  another run (`masfuzz.exec.sandbox.spent`): the pool replaces it.
The system's model calls are masfuzz's to make (the model proxy, `masfuzz.llm.proxy`): each one
is a `{"model_request": {...}}` line out, answered by a `{"model_reply": {...}}` line in, which
a thread reading the input hands to the waiting call (`Inbox`) while the run goes on.
The system under test never writes to the protocol channel: file descriptor 1 is pointed at
stderr before the target is imported, so its prints (and its children's) cannot corrupt it.
Code coverage (`code_coverage` in a request) is measured from the first request or not at all:
coverage.py starts before the target is imported (`masfuzz.exec.codecov`).

Started with a sandbox plan in its environment (the default), the worker confines itself before
it reads a request (`masfuzz.exec.sandbox`). The worker dies with masfuzz: when its parent goes away (any signal, SIGKILL included) the
kernel tells it (PR_SET_PDEATHSIG) and a watchdog notices, and it kills its whole process group,
which holds every process a tool started. Processes a tool left behind are killed after each
request too.
"""

from __future__ import annotations

import asyncio
import json
import os
import queue
import signal
import sys
import threading
import time
from collections.abc import Iterable, Iterator
from typing import Any, TextIO

from masfuzz.errors import MasfuzzError
from masfuzz.exec import sandbox

_PR_SET_PDEATHSIG = 1
_PR_SET_CHILD_SUBREAPER = 36
GRACE = 1.0  # seconds the adapter's own clock runs past the request's limit


def _claim_stdout() -> TextIO:
    proto = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    return proto


def _claim_stdin() -> TextIO:
    """Requests arrive on stdin; the system under test gets an empty one. An app that calls
    `input()` while it loads or runs (a chat loop in `main()`) then reads end of file, as under
    a closed terminal, instead of swallowing masfuzz's next request and hanging."""
    proto = os.fdopen(os.dup(0), "r", encoding="utf-8")
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    sys.stdin = open(os.devnull, encoding="utf-8")  # noqa: SIM115 - lives as long as the worker
    return proto


class Channel:
    """The protocol channel; events may come from the system's threads, so writes are locked."""

    def __init__(self, stream: TextIO) -> None:
        self.stream, self.lock = stream, threading.Lock()

    def send(self, message: dict[str, Any]) -> None:
        self.write(json.dumps(message, default=str))

    def send_model(self, key: str, model: Any, then: dict[str, Any] | None = None) -> None:
        """`{key: model}` without a round trip through dicts (events and traces are many), and
        `then` on the next line in the same write (no other thread's line between them)."""
        line = f'{{"{key}":{model.model_dump_json(by_alias=True)}}}'
        self.write(line if then is None else f"{line}\n{json.dumps(then)}")

    def write(self, line: str) -> None:
        with self.lock:
            self.stream.write(line + "\n")
            self.stream.flush()


def _kill_group() -> None:
    os.killpg(os.getpgid(0), signal.SIGKILL)


def _die_with_parent() -> None:
    """Take the whole process group down when the parent dies, however it dies."""
    parent = os.getppid()
    signal.signal(signal.SIGTERM, lambda *_: _kill_group())
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
        libc.prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)  # orphans of tools come to us
    except (OSError, AttributeError):
        pass  # not Linux: the watchdog below still notices
    if os.getppid() != parent:  # it died before the signal was armed
        _kill_group()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.2)
        _kill_group()

    threading.Thread(target=watch, name="masfuzz-parent-watchdog", daemon=True).start()


def _children() -> list[int]:
    """This worker's child processes (as a subreaper, orphans of its subtree land here too)."""
    out: list[int] = []
    try:
        for tid in os.listdir("/proc/self/task"):
            with open(f"/proc/self/task/{tid}/children") as f:
                out += [int(p) for p in f.read().split()]
    except OSError:
        pass
    return out


def _kill_strays() -> None:
    """Kill what the system under test left running: every child of this worker (and, as
    orphans are reparented here, their children in turn), then reap them."""
    for _ in range(10):  # killing a child may hand its own children over to us
        pids = _children()
        if not pids:
            return
        for pid in pids:
            try:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
            except (ProcessLookupError, ChildProcessError, PermissionError):
                pass


_LOOP: list[asyncio.AbstractEventLoop] = []


def _run(coroutine: Any) -> Any:
    """Run on the worker's one event loop (kept across requests: clients and connections the
    adapters keep stay bound to it), never waiting for threads the system under test left
    blocked, as asyncio.run would at its end (a tool stuck in time.sleep would hold the answer
    back; the parent kills such a worker anyway)."""
    if not _LOOP:
        _LOOP.append(asyncio.new_event_loop())
        asyncio.set_event_loop(_LOOP[0])
    return _LOOP[0].run_until_complete(coroutine)


def _open(request: Any, first: bool) -> Any:
    """The request's opened target; under coverage from before its import when the worker's
    first request asks for code coverage."""
    if not request.code_coverage:
        return request.target.open()
    from masfuzz.exec import codecov  # only when asked: coverage off costs nothing

    if first:
        return codecov.open_measured(request.target)
    if codecov.opened_here(request.target):
        return request.target.open()
    raise MasfuzzError("worker: code coverage is measured from a worker's first request on, "
                       "and this worker opened its target without it")


def _measure(request: Any) -> Any:
    """Start measuring the request's run: `attach(trace)` then adds what it ran."""
    if not request.code_coverage:
        return lambda trace: trace
    from masfuzz.exec import codecov

    return codecov.start_run(request.target, request.scenario).attach


def _send_event(channel: Channel, event: Any) -> None:
    """A trace event as the system records it, and right after it the sandbox limit it shows
    was hit (`sandbox.watch`), if one."""
    limit = sandbox.watch(event)
    channel.send_model("event", event, None if limit is None else {"limit_hit": limit})


def serve(channel: Channel, lines: Iterable[str]) -> int:
    from masfuzz import trace as trace_module
    from masfuzz.exec.base import run_guarded
    from masfuzz.exec.request import ExecutionRequest  # after the stdout switch: imports may print
    from masfuzz.llm import settings

    first = True
    for line in lines:
        if not line.strip():
            continue
        try:
            request = ExecutionRequest.from_data(json.loads(line))
            fresh, first = first, False  # a failed opening has imported things all the same
            system = _open(request, fresh)
        except MasfuzzError as exc:
            channel.send({"error": str(exc)})
            continue
        except ValueError as exc:
            channel.send({"error": f"worker: unreadable request ({exc})"})
            continue
        sandbox.limit_cpu()
        channel.send({"ready": True, "system_id": system.spec.system.id,
                      "framework": system.spec.system.framework})
        trace_module.set_event_sink(lambda e: _send_event(channel, e))
        # `at` on the system-wide monotonic clock, the parent's too: how long the model calls
        # took is whose a timeout is (`masfuzz.exec.pool._model_seconds`)
        trace_module.set_activity_sink(lambda agent, busy, usage: channel.send(
            {"model_call": agent, "busy": busy, "at": time.monotonic(),
             **({"usage": usage} if usage else {})}))
        # The parent kills this worker at the request's limit, with the events streamed so far:
        # that kill is the authoritative end, so the adapter's own clock runs a little longer.
        scenario = request.scenario.model_copy(update={"timeout": request.limit + GRACE})
        try:
            with settings.use(request.models, request.scenario):  # as the parent said
                attach = _measure(request)
                with sandbox.running():
                    ran = _run(run_guarded(system.run(scenario)))
                result = attach(ran.model_copy(update={"scenario_id": request.scenario.id}))
        except MasfuzzError as exc:
            channel.send({"error": str(exc)})
            continue
        except SystemExit as exc:  # the system under test exited: its status is not ours
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
            channel.send({"exit": code, "message": "" if isinstance(exc.code, int) else str(exc.code)})
            return 0
        finally:
            trace_module.set_event_sink(None)
            trace_module.set_activity_sink(None)
        if (why := sandbox.spent()) is not None:  # before the trace: the pool keeps it no longer
            channel.send({"retire": why})
        channel.send_model("trace", result)
        sandbox.end_strays()
        _kill_strays()
    return 0


class Inbox:
    """What the parent sends, read by a thread of its own: execution requests, handed to
    `serve` in order, and replies to the system's model calls (`masfuzz.llm.proxy`), delivered
    at once to the call waiting for them, while `serve` is busy running the system."""

    def __init__(self, stream: TextIO, calls: Any) -> None:
        self.stream, self.calls = stream, calls
        self.requests: queue.SimpleQueue[str | None] = queue.SimpleQueue()
        threading.Thread(target=self._read, name="masfuzz-worker-inbox", daemon=True).start()

    def _read(self) -> None:
        from masfuzz.llm.proxy import REPLY_KEY

        reply = '{"%s":' % REPLY_KEY
        try:
            for line in self.stream:
                if line.startswith(reply):
                    try:
                        self.calls.deliver(json.loads(line)[REPLY_KEY])
                    except (ValueError, KeyError, TypeError):
                        pass  # a reply cut short: its call ends with the run's time limit
                else:
                    self.requests.put(line)
        finally:
            self.calls.close("masfuzz closed the worker's channel")
            self.requests.put(None)

    def __iter__(self) -> Iterator[str]:
        while (line := self.requests.get()) is not None:
            yield line


def main() -> int:
    _die_with_parent()
    plan = os.environ.pop(sandbox.PLAN_ENV, None)
    if plan:  # before the first request: nothing of the system under test has run yet
        sandbox.enter(sandbox.Plan.from_env(plan))
    channel = Channel(_claim_stdout())
    from masfuzz.llm.proxy import ProxiedCalls, proxied_client
    from masfuzz.llm.settings import SUT_CLIENTS

    calls = ProxiedCalls(channel.send)
    SUT_CLIENTS.route(proxied_client(calls))  # the system's model calls are masfuzz's to make
    return serve(channel, Inbox(_claim_stdin(), calls))


if __name__ == "__main__":
    status = main()
    sys.stderr.flush()
    # Skip interpreter shutdown: frameworks leave non-daemon threads (trace exporters, HTTP
    # pools) that would keep the worker alive after it has answered.
    os._exit(status)
