"""The pool's template process: workers forked from a process that imported the framework once.

A worker started as `python -m masfuzz.exec.worker` imports the agent framework of its target
(the Agents SDK takes 2-3 s of CPU), and 16 of them on 2 cores take half a minute. The template
(`python -m masfuzz.exec.template FD MODULE...`) imports those modules once, then forks each worker
on request: the child leads a session and process group of its own, takes the three pipes the
pool made as its stdin, stdout and stderr and the environment the pool sent, and runs
`masfuzz.exec.worker.main()` as a started worker would. So a worker is still a process masfuzz
kills by its group, that dies with masfuzz (the template dies with masfuzz, a worker with the
template), whose death and exit status the pool learns (the template reaps its children and
reports each status).

Protocol on one SOCK_SEQPACKET socket pair (the template's end: the file descriptor its first
argument names): the pool sends
`{"env": {...}}` with the child's three pipe ends attached; the template answers `{"pid": N}`
(or `{"error": "..."}`), and `{"exit": N, "status": S}` when a child ends (S as
`Popen.returncode`: negative for a signal). `{"judge": ...}` (no answer) has the template make
the campaign's judge ready for the workers it forks after it (`Template.prepare_judge`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import select
import signal
import socket
import sys
from typing import Any

_MSG = 1 << 20  # largest message (an environment)
_JUDGE_MAX = 160_000  # largest judge sent (`prepare_judge`): a message within a socket's send buffer


# -- the template process --------------------------------------------------------------------
def _preload(names: list[str]) -> None:
    import importlib

    for name in names:
        try:
            module = importlib.import_module(name)
            # an adapter's set-up every worker would repeat on its first run (no thread may
            # start: a fork copies only the thread calling it)
            prepare = getattr(module, "prepare_worker_template", None)
            if callable(prepare):
                prepare()
        except BaseException:  # noqa: BLE001 - a worker imports it again and reports the error
            pass


def _prepare_judge(text: Any) -> None:
    """The campaign's judge made ready for the workers forked after this (`portable.prepare`)."""
    try:
        from masfuzz.oracles.portable import prepare

        prepare(str(text))
    except BaseException:  # noqa: BLE001 - each worker's first judging does it, and says what fails
        pass


def _child(fds: list[int], env: dict[str, str], keep_closed: list[int]) -> None:
    """In the forked child: become a worker as `python -m masfuzz.exec.worker` would be."""
    status = 1
    try:
        os.setsid()
        signal.set_wakeup_fd(-1)
        for sig in (signal.SIGCHLD, signal.SIGTERM, signal.SIGINT):
            signal.signal(sig, signal.SIG_DFL)
        for i, fd in enumerate(fds):
            os.dup2(fd, i)
        for fd in fds + keep_closed:
            with contextlib.suppress(OSError):
                os.close(fd)
        os.environ.clear()
        os.environ.update(env)
        import random

        random.seed()  # not the template's state, shared by every sibling
        client = sys.modules.get("masfuzz.llm.client")
        if client is not None:  # read from the environment at import: the pool's slot folder
            client.CONNECTIONS._folder = env.get(client.SLOTS_ENV) or None
        from masfuzz.exec import worker

        status = worker.main()
        sys.stderr.flush()
    except BaseException:  # noqa: BLE001 - whatever it is, the child must not return
        import traceback

        with contextlib.suppress(BaseException):
            traceback.print_exc()
            sys.stderr.flush()
    finally:
        os._exit(status)


def serve(control: socket.socket) -> None:
    """Fork a worker per request until the pool closes the socket; report every child's end."""
    wake_r, wake_w = os.pipe()
    os.set_blocking(wake_w, False)
    signal.set_wakeup_fd(wake_w)
    signal.signal(signal.SIGCHLD, lambda *_: None)  # a handler, so the wakeup fd is written
    while True:
        ready, _, _ = select.select([control, wake_r], [], [])
        if wake_r in ready:
            os.read(wake_r, 4096)
            _reap(control)
        if control in ready:
            try:
                data, fds, _, _ = socket.recv_fds(control, _MSG, 3)
            except OSError:
                data, fds = b"", []
            if not data:
                return  # the pool is gone
            try:
                message = json.loads(data)
            except ValueError:
                message = {}
            if isinstance(message, dict) and "judge" in message:  # no answer: the forks after it wait
                for fd in fds:
                    os.close(fd)
                _prepare_judge(message["judge"])
                continue
            try:
                env = message["env"]
                if len(fds) != 3:
                    raise ValueError(f"expected 3 file descriptors, got {len(fds)}")
                sys.stdout.flush()
                sys.stderr.flush()
                pid = os.fork()
            except (ValueError, KeyError, OSError) as exc:
                for fd in fds:
                    os.close(fd)
                control.send(json.dumps({"error": str(exc)}).encode())
                continue
            if pid == 0:
                _child(fds, env, [control.fileno(), wake_r, wake_w])
            for fd in fds:
                os.close(fd)
            control.send(json.dumps({"pid": pid}).encode())
        _reap(control)


def _reap(control: socket.socket) -> None:
    from masfuzz.proc import ended_children

    for pid, status in ended_children():
        control.send(json.dumps({"exit": pid, "status": status}).encode())


def main() -> None:
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL, 0, 0, 0)  # die with the pool
    except (OSError, AttributeError):
        pass
    control = socket.socket(fileno=int(sys.argv[1]))
    _preload(sys.argv[2:])
    serve(control)
    os._exit(0)


# -- the pool's side -----------------------------------------------------------------------------
class ForkedProcess:
    """A worker forked by the template, with what the pool uses of `asyncio.subprocess.Process`:
    pid, stdin, stdout, stderr, returncode, wait()."""

    def __init__(self, pid: int, stdin: asyncio.StreamWriter, stdout: asyncio.StreamReader,
                 stderr: asyncio.StreamReader, ended: "asyncio.Future[int]") -> None:
        self.pid, self.stdin, self.stdout, self.stderr = pid, stdin, stdout, stderr
        self._ended = ended

    @property
    def returncode(self) -> int | None:
        return self._ended.result() if self._ended.done() else None

    async def wait(self) -> int:
        status = await asyncio.shield(self._ended)
        if not self.stdin.is_closing():
            self.stdin.close()
        return status


class Template:
    """One template process of a pool, bound to the event loop that started it."""

    def __init__(self, proc: asyncio.subprocess.Process, control: socket.socket) -> None:
        self.proc, self.control = proc, control
        self.loop = asyncio.get_running_loop()
        self._answers: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self._ended: dict[int, asyncio.Future[int]] = {}
        self._statuses: dict[int, int] = {}  # ends reported before the pid was handed out
        self._lock = asyncio.Lock()
        self.judge: str | None = None  # the judge last made ready (`prepare_judge`)
        self._reader = asyncio.ensure_future(self._read())

    @classmethod
    async def start(cls, python: str, preload: list[str], env: dict[str, str]) -> "Template":
        from masfuzz.proc import start_in_group

        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        try:
            proc = await start_in_group(
                python, "-m", "masfuzz.exec.template", str(theirs.fileno()), *preload,
                pass_fds=(theirs.fileno(),),
                stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.DEVNULL,
                stderr=asyncio.subprocess.DEVNULL, env=env)
        finally:
            theirs.close()
        ours.setblocking(False)
        return cls(proc, ours)

    @property
    def alive(self) -> bool:
        return self.proc.returncode is None and not self._reader.done()

    async def _read(self) -> None:
        try:
            while True:
                data = await self.loop.sock_recv(self.control, _MSG)
                if not data:
                    break
                msg = json.loads(data)
                if "exit" in msg:
                    pid, status = int(msg["exit"]), int(msg["status"])
                    fut = self._ended.pop(pid, None)
                    if fut is None:
                        self._statuses[pid] = status
                    elif not fut.done():
                        fut.set_result(status)
                else:
                    self._answers.put_nowait(msg)
        except (OSError, ValueError):
            pass
        finally:  # the template is gone: so are its children (their watchdog kills them)
            for fut in self._ended.values():
                if not fut.done():
                    fut.set_result(-signal.SIGKILL)
            self._ended.clear()
            self._answers.put_nowait({"error": "the worker template ended"})

    async def prepare_judge(self, text: str) -> None:
        """Have the template rebuild the campaign's judge (`PortableJudge.text`) and use it once
        (`masfuzz.oracles.portable.prepare`) before it forks another worker: the workers forked
        after it share that work instead of each doing it on its first judging. A judge larger
        than a message is left to the workers."""
        self.judge = text
        data = json.dumps({"judge": text}).encode()
        if len(data) > _JUDGE_MAX:
            return
        async with self._lock:  # before the forks asked for after it
            with contextlib.suppress(OSError):
                await self.loop.sock_sendall(self.control, data)

    async def fork(self, env: dict[str, str], limit: int) -> ForkedProcess:
        """A new worker with fresh pipes; raises OSError when the template cannot fork one."""
        pipes = [os.pipe() for _ in range(3)]
        child = [pipes[0][0], pipes[1][1], pipes[2][1]]
        mine = [pipes[0][1], pipes[1][0], pipes[2][0]]
        try:
            async with self._lock:  # answers come in the order of requests
                socket.send_fds(self.control, [json.dumps({"env": env}).encode()], child)
                answer = await self._answers.get()
        except BaseException:
            for fd in mine:
                os.close(fd)
            raise
        finally:
            for fd in child:
                os.close(fd)
        if "pid" not in answer:
            for fd in mine:
                os.close(fd)
            raise OSError(answer.get("error", "the worker template did not fork"))
        pid = int(answer["pid"])
        ended = self.loop.create_future()
        if pid in self._statuses:
            ended.set_result(self._statuses.pop(pid))
        else:
            self._ended[pid] = ended
        stdout = await _reader(self.loop, mine[1], limit)
        stderr = await _reader(self.loop, mine[2], limit)
        transport, protocol = await self.loop.connect_write_pipe(
            lambda: asyncio.streams.FlowControlMixin(loop=self.loop), os.fdopen(mine[0], "wb", 0))
        stdin = asyncio.StreamWriter(transport, protocol, None, self.loop)
        return ForkedProcess(pid, stdin, stdout, stderr, ended)

    async def close(self) -> None:
        from masfuzz.proc import kill_group

        self.control.close()
        self._reader.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await self._reader
        await kill_group(self.proc)


async def _reader(loop: asyncio.AbstractEventLoop, fd: int, limit: int) -> asyncio.StreamReader:
    reader = asyncio.StreamReader(limit=limit, loop=loop)
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader, loop=loop),
                                 os.fdopen(fd, "rb", 0))
    return reader


if __name__ == "__main__":
    main()
