"""The worker process of the isolated executors: `python -m masfuzz.exec.worker`.

Protocol: `ExecutionRequest`s as JSON lines on stdin, served one after another (the target is
opened once, on the first; each run in a child process forked from that state, `_apart`, so
none sees what an earlier one left); the worker ends at end of input. For each request it answers on
stdout, one JSON object per line:
  `{"ready": true, "system_id": ..., "framework": ...}` once the target is loaded (the parent
  starts the scenario's clock here), then `{"event": {...}}` for every trace event as the system
  records it (so a run the parent must kill still has its events), then `{"trace": {...}}`;
  `{"error": "..."}` when the target is bad input; `{"exit": N}` when the system under test
  called `sys.exit(N)` (the worker then ends: its state is no longer trustworthy);
  `{"stacks": [...]}` when the pool, about to kill a run at its time limit, signals for them
  (`masfuzz.exec.stacks`);
A judging request (`{"judge": ..., "trace": ...}`, `masfuzz.exec.request.JUDGE`) is answered
with `{"judged": [failures]}` by this process itself, never by a run's fork (`_judge`).
The system's model calls are masfuzz's to make (the model proxy, `masfuzz.llm.proxy`): each one
is a `{"model_request": {...}}` line out, answered by a `{"model_reply": {...}}` line in, which
a thread reading the input hands to the waiting call (`Inbox`) while the run goes on.
The system under test's prints do not reach the protocol channel: file descriptor 1 is pointed
at stderr before the target is imported. Its code can still write onto the channel's pipe (it
runs in this process), so every line is sealed with a key the request brings
(`masfuzz.exec.frames`), and masfuzz drops what is not.
Code coverage (`code_coverage` in a request) is measured from the first request or not at all:
coverage.py starts before the target is imported (`masfuzz.exec.codecov`).

Started with a sandbox plan in its environment (the default), the worker confines itself before
it reads a request (`masfuzz.exec.sandbox`). The worker dies with masfuzz: when its parent goes away (any signal, SIGKILL included) the
kernel tells it (PR_SET_PDEATHSIG) and a watchdog notices, and it kills its whole process group,
which holds every process a tool started. Processes a tool left behind are killed after each
request too.
"""

from __future__ import annotations

import _signal
import asyncio
import contextlib
import json
import os
import queue
import select
import signal
import sys
import threading
import time
from collections.abc import Iterable, Iterator
from typing import Any, BinaryIO, TextIO

from masfuzz.errors import MasfuzzError
from masfuzz.exec import sandbox, stacks

_PR_SET_PDEATHSIG = 1
_PR_SET_CHILD_SUBREAPER = 36
GRACE = 1.0  # seconds the adapter's own clock runs past the request's limit


def _claim_stdout() -> BinaryIO:
    proto = os.fdopen(os.dup(1), "wb")
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
    """The protocol channel; events may come from the system's threads, so writes are locked.
    Each line is sealed with the current request's key (`masfuzz.exec.frames`): a line the
    system writes onto the pipe itself is not, and masfuzz drops it."""

    def __init__(self, stream: BinaryIO) -> None:
        self.stream, self.lock = stream, threading.Lock()
        self.key = b""  # the request's (`frames.KEY_FIELD`), set by `serve` before it answers

    def send(self, message: dict[str, Any]) -> None:
        self.write(json.dumps(message, default=str))

    def send_model(self, key: str, model: Any, then: dict[str, Any] | None = None) -> None:
        """`{key: model}` without a round trip through dicts (events and traces are many), and
        `then` on the next line in the same write (no other thread's line between them)."""
        line = f'{{"{key}":{model.model_dump_json(by_alias=True)}}}'
        self.write(line) if then is None else self.write(line, json.dumps(then))

    def write(self, *lines: str) -> None:
        from masfuzz.exec.frames import seal

        data = b"".join(seal(self.key, line.encode()) for line in lines)
        with self.lock:
            self.stream.write(data)
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


def _kill_strays(keep: int | None = None) -> None:
    """Kill what the system under test left running: every child of this worker (and, as
    orphans are reparented here, their children in turn) but `keep` (the child serving the next
    run, `_Resident`), then reap them."""
    for _ in range(10):  # killing a child may hand its own children over to us
        pids = [pid for pid in _children() if pid != keep]
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


def serve(channel: Channel, lines: Iterable[str], *, apart: bool = False) -> int:
    """Serve the requests of `lines`, each answered on `channel`; `apart`: each run in a child
    process forked from this worker (`_Resident`), so that no run sees what an earlier one left
    (a request's `persistent` lets one such process serve several runs)."""
    from masfuzz.exec.request import JUDGE, ExecutionRequest  # after the stdout switch: imports may print

    first = True
    resident: _Resident | None = None
    try:
        for line in lines:
            if not line.strip():
                continue
            try:
                data = json.loads(line)
                channel.key = _key_of(data)
                if isinstance(data, dict) and JUDGE in data:  # the run before it, judged here
                    _judge(channel, data)
                    continue
                request = ExecutionRequest.from_data(data)
                fresh, first = first, False  # a failed opening has imported things all the same
                system = _open(request, fresh)
            except MasfuzzError as exc:
                channel.send({"error": str(exc)})
                continue
            except ValueError as exc:
                channel.send({"error": f"worker: unreadable request ({exc})"})
                continue
            if apart and fresh:
                _prepare(system)
            if fresh:
                sandbox.settled()
                sandbox.limit_memory()
            channel.send({"ready": True, "system_id": system.spec.system.id,
                          "framework": system.spec.system.framework})
            if apart:
                resident, exited = _apart(resident, lines, line, request.persistent, channel)
            else:
                exited = _serve_one(channel, request, system)
            keep = resident.pid if resident is not None else None
            sandbox.end_strays(keep)
            _kill_strays(keep)
            sandbox.fresh_scratch()
            if exited:
                return 0
    finally:
        if resident is not None:
            resident.end()
    return 0


def _judge(channel: Channel, data: dict[str, Any]) -> None:
    """A judging request (`masfuzz.exec.request.JUDGE`): the failures its detectors find in its
    trace, answered as data. In this process, not a run's (no run sees the request's key, nor
    can leave anything behind for the detectors); when judging fails here, the answer says none
    was made and the pool judges the trace itself (where the same failure is said)."""
    from masfuzz.exec.request import JUDGE, JUDGED
    from masfuzz.oracles.portable import PortableJudge
    from masfuzz.trace import Trace

    try:
        found = PortableJudge.from_data(data[JUDGE])(Trace.model_validate(data["trace"]))
    except Exception:  # noqa: BLE001 - masfuzz's own failure: on stderr, and judged again there
        import traceback

        traceback.print_exc()
        channel.send({JUDGED: None})
        return
    channel.write(f'{{"{JUDGED}":[{",".join(f.model_dump_json() for f in found)}]}}')


def _key_of(data: Any) -> bytes:
    """The key this request's answers are sealed with (`masfuzz.exec.frames`), taken out of it."""
    from masfuzz.exec.frames import KEY_FIELD

    key = data.pop(KEY_FIELD, "") if isinstance(data, dict) else ""
    return key.encode() if isinstance(key, str) else b""


def _prepare(system: Any) -> None:
    """What a run would build once per process (`Adapter.prepare`), built before the runs are
    forked from this worker; a failure leaves it to the runs. masfuzz's own such caches too:
    the installed plugins' entry points, which making a run's model client reads (a scan of
    every installed package's metadata), and the secrets' forms each model reply is masked
    with; filled in every run's fork they were a third of its CPU."""
    from masfuzz.llm.modelstring import providers
    from masfuzz.redact import secret_values

    providers()
    secret_values()
    try:
        system.runner().prepare(system.obj)
    except Exception:  # noqa: BLE001 - the run builds it itself and reports what fails
        pass


def _serve_one(channel: Channel, request: Any, system: Any) -> bool:
    """Run one request on the opened `system` and answer it; True when the system under test
    called sys.exit (the worker then ends: its state is no longer trustworthy). A run that shares
    its process with others (`--persistent`) has its place among them and what the earlier ones
    left its tools said in its trace (`masfuzz.exec.history`)."""
    from masfuzz import trace as trace_module
    from masfuzz.exec.base import run_guarded
    from masfuzz.exec import history
    from masfuzz.llm import settings

    sandbox.limit_cpu(request.persistent)
    place = history.begin(request.target)
    stacks.arm(channel.send)  # what the run is doing, asked for before a kill at the time limit
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
        return False
    except SystemExit as exc:  # the system under test exited: its status is not ours
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
        channel.send({"exit": code, "message": "" if isinstance(exc.code, int) else str(exc.code)})
        return True
    finally:
        stacks.disarm()
        trace_module.set_event_sink(None)
        trace_module.set_activity_sink(None)
    if request.persistent > 1:  # a fresh fork's run is the first of its process: nothing to say
        result = history.note(result, request.target, place)
    channel.send_model("trace", result)
    return False


_ANSWERED, _EXITED = b"1", b"2"  # what a run's child process says after each run
_SAID_MAX = 60_000  # bytes of the names of the modules it imported that it passes on (`_import`)


def _apart(resident: "_Resident | None", inbox: Any, line: str, runs: int,
           channel: Channel) -> "tuple[_Resident | None, bool]":
    """Run the request `line` in a child process forked from this worker (`_Resident`), which
    has opened the target and run nothing of the system yet: the resident one when it may serve
    more runs, else a fresh fork. With `runs` 1 (the default) every run starts from that state,
    whatever an earlier one did to the module globals, the environment, signal handlers,
    threads or the current folder (its files: `sandbox.fresh_scratch`), at the cost of a fork
    (~3,000 copy-on-write page faults: CPython writes a reference count into every object a
    run touches). With `runs` N (`--persistent N`, AFL++'s persistent mode) one fork serves up
    to N runs, paying that once: what a run leaves in memory reaches the next runs of that
    process. A child that ends without answering (a crash, a kill, the system's own `os._exit`)
    ends this worker the same way, so the pool sees that end as the run's (and a run after it
    starts in a new worker's fresh fork). Returns the child that may serve the next run (None:
    none) and whether the system called sys.exit."""
    if resident is not None and resident.runs != runs:  # asked otherwise: a fresh fork
        resident.end()
        resident = None
    if resident is None:
        resident = _Resident.fork(inbox, channel, runs)
        if resident is None:
            return None, False
    inbox.pass_on(resident.requests, line)
    told = resident.told(channel.key)  # or this worker ends as the child did
    resident.served += 1
    exited = told[:1] == _EXITED
    if exited or resident.served >= resident.runs:  # it ends by itself: `_kill_strays` reaps it
        resident.end()
        resident = None
    sandbox.end_strays(resident.pid if resident is not None else None)
    _kill_strays(resident.pid if resident is not None else None)
    _import(told[1:].decode(errors="replace").split("\n"))
    return resident, exited


class _Resident:
    """A child process forked from the worker before any run, serving the runs the worker passes
    it (each request's line, on the pipe the model replies come on) up to `runs` of them, then
    ending. Its CPU limit (`sandbox.limit_cpu`) is each run's, named when it is what killed it,
    and so is the memory it grew by (`sandbox.peak_note`), which the pool weighs against what the
    run printed of memory (`sandbox.died_of`). What the child says after each run is sealed with
    the request's key (`masfuzz.exec.frames`): the system's code holds that pipe too, and a word
    of its own there would end this worker as if the run had."""

    def __init__(self, pid: int, requests: int, said: int, runs: int, resident_mb: float,
                 signals: dict[int, Any], inbox: Any, channel: Channel) -> None:
        self.pid, self.requests, self.said, self.runs = pid, requests, said, runs
        self.resident_mb, self.signals, self.inbox, self.channel = resident_mb, signals, inbox, channel
        self.served = 0

    @classmethod
    def fork(cls, inbox: Any, channel: Channel, runs: int) -> "_Resident | None":
        """The child, forked now; None (and the request answered with why) when the machine
        refuses the process."""
        resident = sandbox.resident_mb()
        replies, said = os.pipe(), os.pipe()
        inbox.forward_to(replies[1])
        # while the child lives, this worker ignores what a run may send it (a kill(-1) reaches
        # every process of the sandbox but the sender): only masfuzz's SIGKILL ends it
        saved = _ignore_signals()
        # what the worker holds now is the runs' shared start: the garbage collector of a run
        # walking it would write to (and so copy) every page of it
        import gc

        gc.freeze()
        try:
            pid = os.fork()
        except OSError as exc:  # the machine's process limit: masfuzz's failure to run it, no crash
            _restore_signals(saved)
            inbox.forward_to(None)
            for fd in (*replies, *said):
                os.close(fd)
            channel.send({"error": _starved(exc)})
            return None
        if pid == 0:
            try:
                _restore_signals(saved)
                os.close(replies[1])
                os.close(said[0])
                inbox.close_in_run()  # the run never reads masfuzz's requests (the next one's key)
                import ctypes

                ctypes.CDLL(None).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
                _serve_runs(channel, inbox.listen(replies[0]), said[1], runs)
            except BaseException as exc:  # noqa: BLE001 - masfuzz's own failure: the worker's stderr says it
                import traceback

                traceback.print_exc()
                if _starved(exc):  # masfuzz's, not the system's crash: an error, not a finding
                    channel.send({"error": _starved(exc)})
                os._exit(1)
            os._exit(0)
        os.close(replies[0])
        os.close(said[1])
        return cls(pid, replies[1], said[0], runs, resident, saved, inbox, channel)

    def told(self, key: bytes) -> bytes:
        """What the child said at the end of the run sealed with `key`; when it ended without a
        word, this worker ends as it did (its CPU limit's end named, its growth noted)."""
        try:
            told = _told(self.pid, self.said, key)
            if told[:1] in (_ANSWERED, _EXITED):
                return told
            os.waitid(os.P_PID, self.pid, os.WEXITED | os.WNOWAIT)
            at_limit = sandbox.at_cpu_limit(self.pid)
            _, status, usage = os.wait4(self.pid, 0)
            self.channel.send(sandbox.peak_note(usage, self.resident_mb))
            sys.stderr.flush()
            sandbox.end_as(-signal.SIGXCPU if at_limit else os.waitstatus_to_exitcode(status))
        except BaseException:
            self.end()
            raise
        return b""  # not reached: `end_as` does not return

    def end(self) -> None:
        """This worker's part: the pipes closed (the child, if still waiting for a run, reads
        their end and ends), its signals its own again. The child itself is killed and reaped
        with the strays (`_kill_strays`)."""
        _restore_signals(self.signals)
        self.inbox.forward_to(None)
        for fd in (self.requests, self.said):
            with contextlib.suppress(OSError):
                os.close(fd)


def _serve_runs(channel: Channel, requests: Any, said: int, runs: int) -> None:
    """In a `_Resident` child: serve up to `runs` requests as they come from the worker, saying
    after each (sealed with its key, `masfuzz.exec.frames`) whether the system called sys.exit
    and the modules the run imported; end when the system exited or the worker's pipe closes."""
    from masfuzz.exec.frames import seal
    from masfuzz.exec.request import ExecutionRequest

    for _ in range(runs):
        line = requests.get()
        if line is None:
            return
        data = json.loads(line)
        channel.key = key = _key_of(data)
        request = ExecutionRequest.from_data(data)
        last = next(reversed(sys.modules), None)
        exited = _serve_one(channel, request, request.target.open())
        if runs > 1:  # what the run started ends with it (the worker spares this process's own)
            _kill_strays()
        imported = "\n".join(_imported_since(last)).encode()
        # within the pipe's buffer (the worker drains it meanwhile): the write never waits
        _write_all(said, seal(key, (_EXITED if exited else _ANSWERED) + imported[:_SAID_MAX]))
        if exited:
            return


def _imported_since(last: str | None) -> list[str]:
    """The modules imported since `last` was the newest: sys.modules keeps names in the order
    they were added, so they are read from its end back to `last`. A set of every name before
    the run and a pass over them all after it wrote a reference count into each name's string,
    copying every page holding one into the run's fork."""
    names: list[str] = []
    try:
        for name in reversed(sys.modules):
            if name == last:
                return names[::-1]
            names.append(name)
    except RuntimeError:  # a thread of the system imported meanwhile: read them all
        names = list(reversed(sys.modules))
    return names[::-1]  # `last` is gone: every name (the worker imports only what it lacks)


def _told(pid: int, fd: int, key: bytes) -> bytes:
    """What the run's child said on `fd` at its end (sealed with `key`: what else is there, the
    system wrote), read as it comes, or b"" when it ended without a word. Its end is watched
    apart from the pipe, which a process it forked may hold open."""
    from masfuzz.exec.frames import Opener

    opener = Opener(key)
    said = b""
    try:
        ended = os.pidfd_open(pid)
    except (AttributeError, OSError):  # an old kernel: wait for its end
        os.waitid(os.P_PID, pid, os.WEXITED | os.WNOWAIT)
        ended = None
    try:
        while True:
            ready = select.select([fd], [], [], 0)[0] if ended is None else select.select([fd, ended], [], [])[0]
            chunk = os.read(fd, 1 << 16) if fd in ready or select.select([fd], [], [], 0)[0] else b""
            said = (said + chunk)[-(2 * _SAID_MAX):]  # the system's writing is not kept whole
            if said.endswith(b"\n") and (payload := opener.open(said)):
                return payload
            if not chunk:
                return b""  # it ended (or closed its end) without its word
    finally:
        if ended is not None:
            os.close(ended)


def _import(names: list[str]) -> None:
    """Import here what a run imported (a framework's lazy imports, the model client): the next
    run's fork has them, as a warm worker that ran in its own process had them. An import runs
    a module's own code, none of the system's run."""
    import importlib

    for name in names:
        if name and name not in sys.modules:
            try:
                importlib.import_module(name)
            except (Exception, SystemExit):  # noqa: BLE001 - the run imports it again itself
                pass


class Inbox:
    """What the parent sends, read by a thread of its own: execution requests, handed to
    `serve` in order, and replies to the system's model calls (`masfuzz.llm.proxy`), delivered
    at once to the call waiting for them, while `serve` is busy running the system."""

    def __init__(self, stream: TextIO, calls: Any) -> None:
        self.stream, self.calls = stream, calls
        self.requests: queue.SimpleQueue[str | None] = queue.SimpleQueue()
        self._forward: int | None = None  # a run's child process's pipe (`_apart`)
        self._lock = threading.Lock()
        threading.Thread(target=self._read, name="masfuzz-worker-inbox", daemon=True).start()

    def close_in_run(self) -> None:
        """In a run's child process: close the request pipe, which the next request (with the key
        of its answers, `masfuzz.exec.frames`) comes on; the replies come on a pipe of its own."""
        with contextlib.suppress(OSError, ValueError):
            os.close(self.stream.fileno())

    def forward_to(self, fd: int | None) -> None:
        """Pass the model replies to the pipe `fd` from now on (None: deliver them here)."""
        with self._lock:
            self._forward = fd

    def pass_on(self, fd: int, line: str) -> None:
        """Pass a request to the run's child process on `fd`, between the replies passed there."""
        with self._lock:
            _write_all(fd, line.encode() + (b"" if line.endswith("\n") else b"\n"))

    def listen(self, fd: int) -> "queue.SimpleQueue[str | None]":
        """In a run's child process: deliver the replies its parent passes on `fd`; the requests
        passed there come in the queue returned (None once the parent closed it)."""
        from masfuzz.llm.proxy import REPLY_KEY

        reply = '{"%s":' % REPLY_KEY
        requests: queue.SimpleQueue[str | None] = queue.SimpleQueue()

        def read() -> None:
            try:
                with os.fdopen(fd, encoding="utf-8") as pipe:
                    for line in pipe:
                        if line.startswith(reply):
                            self._deliver(line, REPLY_KEY)
                        else:
                            requests.put(line)
            finally:
                self.calls.close("masfuzz closed the worker's channel")
                requests.put(None)

        threading.Thread(target=read, name="masfuzz-run-inbox", daemon=True).start()
        return requests

    def _deliver(self, line: str, key: str) -> None:
        try:
            self.calls.deliver(json.loads(line)[key])
        except (ValueError, KeyError, TypeError):
            pass  # a reply cut short: its call ends with the run's time limit

    def _read(self) -> None:
        from masfuzz.llm.proxy import REPLY_KEY

        reply = '{"%s":' % REPLY_KEY
        try:
            for line in self.stream:
                if line.startswith(reply):
                    with self._lock:
                        if self._forward is None:
                            self._deliver(line, REPLY_KEY)
                        else:
                            _write_all(self._forward, line.encode())
                else:
                    self.requests.put(line)
        finally:
            self.calls.close("masfuzz closed the worker's channel")
            self.requests.put(None)

    def __iter__(self) -> Iterator[str]:
        while (line := self.requests.get()) is not None:
            yield line


# What a signal does by default to a process but end or stop it (and what cannot be caught).
_HARMLESS = {signal.SIGKILL, signal.SIGSTOP, signal.SIGCHLD, signal.SIGCONT, signal.SIGWINCH, signal.SIGURG}


# Set around every run's fork, some 56 signals each way: through `_signal`, the C functions
# `signal` wraps, without turning each number and handler into an enum member and back (the
# pair took 1.6 ms of the worker's CPU per run so, 0.3 ms without).
def _ignore_signals() -> dict[int, Any]:
    saved = {}
    for sig in _signal.valid_signals() - _HARMLESS:
        try:
            handler = _signal.signal(sig, _signal.SIG_IGN)
        except (OSError, ValueError):
            continue  # one the C library keeps for itself
        if handler is not None:
            saved[sig] = handler
    return saved


def _restore_signals(saved: dict[int, Any]) -> None:
    for sig, handler in saved.items():
        _signal.signal(sig, handler)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    try:
        while view:
            view = view[os.write(fd, view):]
    except OSError:
        pass  # the run's child is gone; its end is reported by the run


_FRESH_ENV = "MASFUZZ_WORKER_FRESH"  # set in a worker that replaced itself (`_fresh_for_the_sandbox`)


def _fresh_for_the_sandbox() -> bool:
    """Whether this worker can enter the sandbox as it is; else it becomes a fresh `python -m
    masfuzz.exec.worker` (same pid, pipes and environment: the pool sees no change) and does not
    return. A worker forked from the template (`masfuzz.exec.template`) carries the framework
    the template imported, and a library's fork hook may start a thread in every fork of it
    (`confine.threads_after_fork`), which the kernel's user namespace refuses. Once fresh, a
    thread still there is named by the sandbox's refusal."""
    from masfuzz.exec import confine

    if os.environ.pop(_FRESH_ENV, None) or not confine.threads_after_fork():
        return True
    sys.stdout.flush()
    sys.stderr.flush()
    os.environ[_FRESH_ENV] = "1"
    os.execv(sys.executable, [sys.executable, "-m", "masfuzz.exec.worker"])
    return False  # not reached


def main() -> int:
    stacks.ignore()
    try:
        _die_with_parent()
        plan = os.environ.get(sandbox.PLAN_ENV)
        if plan and _fresh_for_the_sandbox():
            os.environ.pop(sandbox.PLAN_ENV)
            # before the first request: nothing of the system under test has run yet
            sandbox.enter(sandbox.Plan.from_env(plan))
    except (OSError, RuntimeError) as exc:
        if not _starved(exc):
            raise
        return _cannot_serve(Channel(_claim_stdout()), _claim_stdin(), exc)
    channel = Channel(_claim_stdout())
    from masfuzz.llm.proxy import ProxiedCalls, proxied_client
    from masfuzz.llm.settings import SUT_CLIENTS

    calls = ProxiedCalls(channel.send)
    SUT_CLIENTS.route(proxied_client(calls))  # the system's model calls are masfuzz's to make
    stdin = _claim_stdin()
    try:
        inbox = Inbox(stdin, calls)
    except RuntimeError as exc:
        if not _starved(exc):
            raise
        return _cannot_serve(channel, stdin, exc)
    return serve(channel, inbox, apart=True)


def _cannot_serve(channel: Channel, stdin: TextIO, exc: BaseException) -> int:
    """Answer the first request (sealed with its key) with why this worker cannot serve."""
    try:
        channel.key = _key_of(json.loads(stdin.readline() or "{}"))
    except ValueError:
        return 1
    channel.send({"error": _starved(exc)})
    return 1


def _starved(exc: BaseException) -> str:
    """Why masfuzz's worker could not go on, when `exc` is the machine refusing it a thread or a
    process ("" if not): the processes and threads its user may run are used up (this user's
    other processes count too), which is no crash of the system under test's."""
    import errno

    thread = isinstance(exc, RuntimeError) and "can't start new thread" in str(exc)
    if not (thread or isinstance(exc, OSError) and exc.errno == errno.EAGAIN):
        return ""
    import resource

    soft = resource.getrlimit(resource.RLIMIT_NPROC)[0]
    limit = "unlimited" if soft == resource.RLIM_INFINITY else soft
    return (f"masfuzz's worker could not start a {'thread' if thread else 'process'} of its own ({exc}): "
            f"the processes this user may run ({limit}: ulimit -u, or --sandbox-processes) are used up; "
            "raise the limit, or run fewer workers")


if __name__ == "__main__":
    status = main()
    sys.stderr.flush()
    # Skip interpreter shutdown: frameworks leave non-daemon threads (trace exporters, HTTP
    # pools) that would keep the worker alive after it has answered.
    os._exit(status)
