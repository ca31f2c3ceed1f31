"""The subprocess executor: every scenario in its own worker process, with a hard timeout.

A hung tool cannot be cancelled inside the process that runs it (a thread blocked in
`time.sleep` or in C code ignores asyncio), and a segfault takes its process with it. So each
scenario runs in a fresh `python -m masfuzz.exec.worker` in its own process group; at the
timeout the parent kills the whole group (the worker and anything it started), records a
`timeout` trace, and the next scenario runs. A worker that dies or answers garbage becomes a
`crash` trace. The scenario's clock starts when the worker reports the target loaded.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sys
import time
from typing import Any

from pydantic import ValidationError

from masfuzz.errors import MasfuzzError, TargetError
from masfuzz.exec.base import Executor
from masfuzz.exec.request import ExecutionRequest
from masfuzz.target import adapter_name
from masfuzz.trace import Trace, ended_trace

LOAD_TIMEOUT = 120.0  # seconds to import the target (a cold framework import on a busy machine)
STDERR_TAIL = 4000  # characters of the worker's stderr kept for a crash report
_PROTOCOL_LIMIT = 64 * 1024 * 1024  # a trace is one JSON line; allow large ones


class _Ended(Exception):
    """The worker ended without a usable answer: (kind, message)."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


class SubprocessExecutor(Executor):
    kind = "subprocess"

    def __init__(self, *, load_timeout: float = LOAD_TIMEOUT, python: str | None = None,
                 **options: Any) -> None:
        super().__init__(**options)
        self.adapter = adapter_name(self.adapter)  # the worker imports it by name
        self.load_timeout = load_timeout
        self.python = python or sys.executable

    async def _execute(self, request: ExecutionRequest) -> Trace:
        scenario = request.scenario
        proc = await asyncio.create_subprocess_exec(
            self.python, "-m", "masfuzz.exec.worker",
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE, start_new_session=True, limit=_PROTOCOL_LIMIT,
        )
        stderr = _Tail(proc.stderr)
        info: dict[str, Any] = {}
        t_run = time.perf_counter()
        limit = request.limit
        try:
            assert proc.stdin is not None and proc.stdout is not None
            try:
                proc.stdin.write(json.dumps(request.to_data()).encode() + b"\n")
                await proc.stdin.drain()
                proc.stdin.close()
            except (BrokenPipeError, ConnectionResetError):
                pass  # it died before reading; its exit status says why, below
            info = await self._answer(proc, stderr, self.load_timeout, "loading the target")
            if "ready" not in info:
                raise _Ended("crash", "worker answered without reporting the target loaded")
            t_run = time.perf_counter()
            answer = await self._answer(proc, stderr, limit, None)
            if "trace" not in answer:
                raise _Ended("crash", "worker answered without a trace")
            try:
                return Trace.model_validate(answer["trace"])
            except ValidationError as exc:
                raise _Ended("crash", f"worker sent an invalid trace: {exc.errors()[0]['msg']}")
        except _Ended as ended:
            meta = {}
            if stderr.text:
                meta["stderr_tail"] = stderr.text[-STDERR_TAIL:]
            return ended_trace(
                scenario, ended.kind, str(ended), time.perf_counter() - t_run,
                system_id=info.get("system_id", ""), framework=info.get("framework", ""),
                meta=meta,
            )
        finally:
            await _kill_group(proc)
            await stderr.close()

    async def _answer(self, proc: asyncio.subprocess.Process, stderr: "_Tail", limit: float,
                      loading: str | None) -> dict[str, Any]:
        """The worker's next protocol line within `limit` seconds, else kill and explain."""
        assert proc.stdout is not None
        try:
            line = await asyncio.wait_for(proc.stdout.readline(), limit)
        except TimeoutError:
            await _kill_group(proc)
            if loading:
                raise TargetError(f"{loading} took longer than {limit:g} s") from None
            raise _Ended("timeout", f"no result within {limit:g} s; the worker was killed") from None
        except ValueError:  # a line over the protocol limit
            raise _Ended("crash", "worker sent an answer too large to read") from None
        if not line:
            status = await proc.wait()
            await stderr.drained()
            raise _Ended("crash", _death(status, stderr.last_line()))
        try:
            answer = json.loads(line)
        except json.JSONDecodeError:
            raise _Ended("crash", f"worker sent garbage: {line[:80]!r}") from None
        if not isinstance(answer, dict):
            raise _Ended("crash", f"worker sent garbage: {line[:80]!r}")
        if "error" in answer:
            raise MasfuzzError(str(answer["error"]))
        return answer


def _death(status: int, last_line: str) -> str:
    if status < 0:
        try:
            name = signal.Signals(-status).name
        except ValueError:
            name = f"signal {-status}"
        what = f"worker killed by {name}"
    else:
        what = f"worker exited with status {status} before answering"
    return f"{what}: {last_line}" if last_line else what


async def _kill_group(proc: asyncio.subprocess.Process) -> None:
    """Kill the worker's process group (its children too) and reap the worker."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    try:
        await asyncio.wait_for(proc.wait(), 5)
    except TimeoutError:
        pass


class _Tail:
    """Drains a stream in the background (so a chatty worker never blocks on a full pipe),
    keeping only its last characters."""

    def __init__(self, stream: asyncio.StreamReader | None) -> None:
        self.text = ""
        self._task = asyncio.ensure_future(self._drain(stream)) if stream else None

    async def _drain(self, stream: asyncio.StreamReader) -> None:
        while chunk := await stream.read(65536):
            self.text = (self.text + chunk.decode("utf-8", "replace"))[-STDERR_TAIL:]

    async def drained(self) -> None:
        if self._task is not None:
            try:
                await asyncio.wait_for(asyncio.shield(self._task), 2)
            except TimeoutError:
                pass

    def last_line(self) -> str:
        lines = [ln.strip() for ln in self.text.splitlines() if ln.strip()]
        return lines[-1][:300] if lines else ""

    async def close(self) -> None:
        if self._task is not None and not self._task.done():
            self._task.cancel()
            try:
                await self._task
            except (asyncio.CancelledError, Exception):
                pass
