"""The worker process of the isolated executors: `python -m masfuzz.exec.worker`.

Protocol: `ExecutionRequest`s as JSON lines on stdin, served one after another (the target is
opened once, on the first); the worker ends at end of input. For each request it answers on
stdout, one JSON object per line:
  `{"ready": true, "system_id": ..., "framework": ...}` once the target is loaded (the parent
  starts the scenario's clock here), then `{"event": {...}}` for every trace event as the system
  records it (so a run the parent must kill still has its events), then `{"trace": {...}}`;
  `{"error": "..."}` when the target is bad input; `{"exit": N}` when the system under test
  called `sys.exit(N)` (the worker then ends: its state is no longer trustworthy).
The system under test never writes to the protocol channel: file descriptor 1 is pointed at
stderr before the target is imported, so its prints (and its children's) cannot corrupt it.

The worker dies with masfuzz: when its parent goes away (any signal, SIGKILL included) the
kernel tells it (PR_SET_PDEATHSIG) and a watchdog notices, and it kills its whole process group,
which holds every process a tool started. Processes a tool left behind are killed after each
request too.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sys
import threading
import time
from typing import Any, TextIO

from masfuzz.errors import MasfuzzError

_PR_SET_PDEATHSIG = 1


def _claim_stdout() -> TextIO:
    proto = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    return proto


class Channel:
    """The protocol channel; events may come from the system's threads, so writes are locked."""

    def __init__(self, stream: TextIO) -> None:
        self.stream, self.lock = stream, threading.Lock()

    def send(self, message: dict[str, Any]) -> None:
        line = json.dumps(message, default=str) + "\n"
        with self.lock:
            self.stream.write(line)
            self.stream.flush()


def _kill_group() -> None:
    os.killpg(os.getpgid(0), signal.SIGKILL)


def _die_with_parent() -> None:
    """Take the whole process group down when the parent dies, however it dies."""
    parent = os.getppid()
    signal.signal(signal.SIGTERM, lambda *_: _kill_group())
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
    except (OSError, AttributeError):
        pass  # not Linux: the watchdog below still notices
    if os.getppid() != parent:  # it died before the signal was armed
        _kill_group()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.2)
        _kill_group()

    threading.Thread(target=watch, name="masfuzz-parent-watchdog", daemon=True).start()


def _kill_strays() -> None:
    """Kill what the system under test left running in this worker's process group."""
    me, group = os.getpid(), os.getpgid(0)
    for entry in os.listdir("/proc") if os.path.isdir("/proc") else ():
        if not entry.isdigit() or int(entry) == me:
            continue
        try:
            if os.getpgid(int(entry)) == group:
                os.kill(int(entry), signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass


def serve(channel: Channel, lines: TextIO) -> int:
    from masfuzz import trace as trace_module
    from masfuzz.exec.request import ExecutionRequest  # after the stdout switch: imports may print
    from masfuzz.llm import settings

    for line in lines:
        if not line.strip():
            continue
        try:
            request = ExecutionRequest.from_data(json.loads(line))
            system = request.target.open()
        except MasfuzzError as exc:
            channel.send({"error": str(exc)})
            continue
        except ValueError as exc:
            channel.send({"error": f"worker: unreadable request ({exc})"})
            continue
        channel.send({"ready": True, "system_id": system.spec.system.id,
                      "framework": system.spec.system.framework})
        trace_module.set_event_sink(
            lambda e: channel.send({"event": e.model_dump(mode="json", by_alias=True)}))
        try:
            with settings.use(request.models):  # the parent's model settings, in force here
                result = asyncio.run(system.run(request.scenario))
        except MasfuzzError as exc:
            channel.send({"error": str(exc)})
            continue
        except SystemExit as exc:  # the system under test exited: its status is not ours
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
            channel.send({"exit": code, "message": "" if isinstance(exc.code, int) else str(exc.code)})
            return 0
        finally:
            trace_module.set_event_sink(None)
        channel.send({"trace": result.model_dump(mode="json", by_alias=True)})
        _kill_strays()
    return 0


def main() -> int:
    _die_with_parent()
    channel = Channel(_claim_stdout())
    return serve(channel, sys.stdin)


if __name__ == "__main__":
    status = main()
    sys.stderr.flush()
    # Skip interpreter shutdown: frameworks leave non-daemon threads (trace exporters, HTTP
    # pools) that would keep the worker alive after it has answered.
    os._exit(status)
