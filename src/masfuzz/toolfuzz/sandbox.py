"""Run fuzzed tool calls where they can do no harm.

The isolation is the operating system's, the same whether masfuzz runs as root or not
(masfuzz.exec.confine has the steps and why they are done by hand). A tool's worker is a
fork of masfuzz that, before any tool code runs:
- has every inherited descriptor closed (a run store's, a model client's socket) and an
  environment of an allow-list plus the names the user passes (`--pass-env`);
- lives in new user, mount, network, IPC, PID and UTS namespaces; root inside is an
  unprivileged id outside (nobody when masfuzz runs as root);
- sees a file system of its own: the Python install, masfuzz, the tool's own source folder
  (its dot-files hidden), the fixture and the system's programs, all read-only, a fresh /proc of
  its own processes and a scratch folder that is a tmpfs of `SandboxLimits.disk_mb`; the
  machine's root is not reachable (pivot_root), nor is any other process;
- has no capability, no_new_privs, and a seccomp filter refusing mount, namespace, ptrace,
  keyring, module and io_uring calls;
- the network namespace has only a down loopback: no address is reachable;
- is PID 1 of its PID namespace and dies with the process that started it (PR_SET_PDEATHSIG);
  when it dies the kernel kills every process in the namespace; after each call it kills every
  process of its namespace (but itself): nothing a tool forked or spawned, in the background or
  detached, outlives the call;
- hard limits (a tool cannot raise them again): address space, CPU seconds, file size,
  processes (counted for the sandbox's own user, so they hold for root too) and no core dumps;
  a wall-clock limit enforced by the parent, which kills a hanging worker, and with it every
  process in its namespace, and starts a fresh one.
On top of that, an audit hook refuses writes outside the call's directory and network access
from Python with a clear `SandboxViolation`, so a tool's finding says what it tried rather than
failing on a read-only file system.

Every call runs in a fresh fork of the prepared worker: nothing a call changes in its process
(umask, signal handlers, a patched module, the environment, a thread) reaches the next call, and
the scratch folder is emptied between calls. What a worker sends masfuzz is JSON, never a
pickle: a tool that reaches the channel can at most lie about its own call, and only by reading
the key its outcome is sealed with from its own process's memory (`masfuzz.exec.frames`).

A tool may start programs (a shell tool, a Python REPL in a subprocess): they run inside the
same namespaces and limits, in the call's folder. A program that exits non-zero while the tool
returns normally makes the call a returned error message (`handled`), not "ok": the tool
swallowed a failure. Without the namespaces (`--unsafe-no-sandbox`) starting programs is refused,
since nothing would then hold a program the audit hook cannot see.

Each call's outcome carries the arcs (lines and branches) of the tool's own code it ran,
measured by coverage.py in the worker (`CallOutcome.reached`): what the fuzzer steers by.

Everything a call writes to its standard output and error, from Python, from C or from a
program it started, goes to a file of the worker's (file-descriptor level), never to masfuzz's
own output; its tail is kept with the call's outcome.

Before each call its folder gets a fresh copy of the fixture folder (`--fixture`) and the setup
function (`--setup`) runs in the call's process, under the same guards, in that folder: what it
creates or sets in the environment is what the call sees. A fixture or setup that fails is the
settings' failure (`SetupError`), never the tool's.

Where the kernel refuses the confinement (`isolation_problem()` says why), masfuzz refuses to
fuzz unless told `--unsafe-no-sandbox`; then only the audit hook, the limits, the closed
descriptors and the cleaned environment hold.

One worker serves many calls (preparing one costs more than forking it); a crash, kill or limit
hit of a call's process is that call's outcome, and a hang replaces the worker.
"""

from __future__ import annotations

import asyncio
import gc
import inspect
import json
import logging
import multiprocessing
import os
import re
import resource
import shutil
import signal
import sys
import tempfile
import subprocess
import threading
import time
import traceback
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Literal, get_args

from masfuzz.exec.confine import (Confinement, become_root_inside, build_root, clean_environment,
                                      close_descriptors, die_with_parent, enter_namespaces, hard_limit,
                                      hidden_names, libc, lock_down, readable_paths, sandbox_tasks,
                                      seccomp, threads_after_fork, vm_bytes, write_id_maps)
# imported here, not in the worker: a module imported in a forked worker is parsed there, and a
# fork taken while another thread of masfuzz was inside CPython 3.11's AST constructor left the
# child's parser state corrupt ("AST constructor recursion depth mismatch", gh-106905)
from masfuzz.exec import cgroup
from masfuzz.exec.codecov import meter
from masfuzz.proc import descendants, own_folder, reap
from masfuzz.toolfuzz.priors import call_tainted
from masfuzz.toolfuzz.swallowed import SWALLOWED_ERROR, logged_exceptions
from masfuzz.toolfuzz.swallowed import swallowed as swallowed_exception
from masfuzz.toolfuzz.tools import FuzzTool, RemoteFailure, ReturnedError, settle

# ok: the tool returned; handled: it returned an error message (its own error handling, not a
# finding); error: it raised, or broke its declared return type (a contract violation);
# timeout / crash: it hung or its process died; blocked: the sandbox refused what it tried.
Status = Literal["ok", "handled", "error", "timeout", "crash", "blocked"]
MAX_RESULT_CHARS = 4000
RETURNED_ERROR = "ReturnedError"  # error_type of an error message a tool returned instead of raising
CONTRACT_VIOLATION = "ContractViolation"  # error_type of a return of the wrong type
SETUP_ERROR = "SetupError"  # error_type of a fixture or setup that failed before the tool ran
OUT_OF_MEMORY = "Crash[out of memory]"  # error_type of a call the kernel killed at the memory cgroup's limit
MAX_OUTPUT_CHARS = 2000  # the tail of a call's standard output and error kept with its outcome
# What a returned error message starts with, whatever the tool's style: "Error: ...",
# "ERROR ...", "Traceback (most recent call last)", an exception's repr "KeyError('x')" or its
# str "SyntaxError: invalid syntax" / "sqlite3.OperationalError: ...", "Exception: ...".
_RETURNED_ERROR = re.compile(
    r"\s*(Traceback \(most recent call last\)|(?:[A-Za-z_][\w.]*)?(?:Error|Exception)\b(?=\s*[:(\[]|\s*$)"
    r"|Error\b|ERROR\b|Exception\b)")


class SandboxViolation(PermissionError):
    """Raised inside the sandbox when a tool tries to leave it (a PermissionError, so code that
    handles failed writes, like the import system's bytecode cache, handles it too)."""


@dataclass(frozen=True)
class SandboxLimits:
    time_s: float = 10.0  # wall clock per call
    cpu_s: int = 10  # CPU seconds per call
    memory_mb: int = 1024  # extra address space per worker
    file_mb: int = 64  # largest file a call may write
    processes: int = 256  # processes (threads) a worker may start beyond its own
    disk_mb: int = 256  # all a worker's calls may hold in their folders at once (a tmpfs)


@dataclass(frozen=True)
class CallState:
    """What each call's folder and process hold before the tool runs (`--fixture`, `--setup`)."""
    fixture: str | None = None  # a folder copied into each call's folder
    setup: Callable[..., Any] | None = None  # run before each call, in the call's folder
    setup_name: str = ""  # how the user named it (module:function)
    setup_takes_folder: bool = False  # called with the call's folder as its one argument
    pass_env: tuple[str, ...] = ()  # environment variables the tool may see (`--pass-env`)


@dataclass
class CallOutcome:
    status: Status
    result: str = ""
    error_type: str = ""
    message: str = ""
    frames: list[tuple[str, int, str]] = field(default_factory=list)
    priors: dict[str, dict[str, list[Any]]] = field(default_factory=dict)
    duration: float = 0.0
    output: str = ""  # the tail of what the call wrote to its standard output and error
    # The message as errors are grouped by (`grouping.normalise_message`), masked in the worker
    # from the whole message: `message` is clipped, and an echoed long input with it
    masked: str = ""
    # The arcs of the tool's own code the call ran: (file relative to its code root, from line,
    # to line), as coverage.py records them (a negative line: entering or leaving a function).
    reached: frozenset[tuple[str, int, int]] = frozenset()
    # Threads the call started that were still running the tool's own code when it returned:
    # they end with the call's process (a fresh fork per call), never running into the next.
    leftover_threads: int = 0

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def to_json(self) -> bytes:
        """What a worker sends masfuzz (never a pickle: see `_send`)."""
        return _dumps({**self.to_dict(), "reached": sorted(self.reached)}, default=repr).encode()

    @classmethod
    def from_json(cls, data: bytes) -> "CallOutcome":
        """An outcome a worker sent (JSON: see `_send`); ValueError when it is not one."""
        raw = json.loads(data)
        if not isinstance(raw, dict) or raw.get("status") not in get_args(Status):
            raise ValueError("not a call's outcome")
        known = {k: v for k, v in raw.items() if k in cls.__dataclass_fields__}
        known["frames"] = [tuple(f) for f in known.get("frames", [])]
        known["reached"] = frozenset(tuple(a) for a in known.get("reached", []))
        return cls(**known)


# Sandboxes of several tools start their workers from threads of one process (`masfuzz tools
# --workers N`); a fork copies every lock as it is at that moment, so two forks never overlap.
_STARTING = threading.Lock()
# The worker's own JSON encoder, taken before any tool runs: a tool that patches json.dumps
# changes its own call's module, not how its outcome is sent.
_dumps = json.dumps

# --- inside the worker -------------------------------------------------------------------

_ALLOWED_ROOT: list[str] = []  # the current call's directory (a list: mutated by the worker)
_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND
_PATH_EVENTS = {  # audit event -> indices of path arguments that must stay inside
    "os.remove": (0,), "os.rmdir": (0,), "os.mkdir": (0,), "os.rename": (0, 1),
    "os.chmod": (0,), "os.chown": (0,), "os.truncate": (0,), "os.link": (0, 1),
    "os.symlink": (1,), "os.utime": (0,), "shutil.rmtree": (0,), "shutil.copyfile": (1,),
    "shutil.copytree": (1,), "shutil.move": (0, 1), "os.chdir": (),
}
_NET_EVENTS = {"socket.connect", "socket.bind", "socket.sendto", "socket.sendmsg",
               "socket.getaddrinfo", "socket.gethostbyname", "socket.gethostbyaddr",
               "socket.getnameinfo"}
_EXEC_EVENTS = {"subprocess.Popen", "os.system", "os.exec", "os.posix_spawn", "os.spawn",
                "os.fork", "os.forkpty", "pty.spawn"}
_PROCESSES_ALLOWED: list[bool] = [False]  # True in an isolated worker: programs run inside it
_EXITS: list[tuple[str, int]] = []  # the current call's programs that exited non-zero


def _inside(path: Any) -> bool:
    if isinstance(path, int) or path is None or not _ALLOWED_ROOT:
        return True  # a file descriptor already opened, or no call running
    try:
        real = os.path.realpath(str(os.fsdecode(path)))  # str(): never read a taint object
    except (TypeError, ValueError):
        return False
    root = _ALLOWED_ROOT[0]
    return real == root or real.startswith(root + os.sep) or real in ("/dev/null",)


def _audit(event: str, args: tuple[Any, ...]) -> None:
    if not _ALLOWED_ROOT:
        return
    if event == "open":
        path, mode, flags = (tuple(args) + (None, None, 0))[:3]
        writing = (isinstance(mode, str) and any(c in mode for c in "wax+")) or (
            isinstance(flags, int) and flags & _WRITE_FLAGS)
        if writing and not _inside(path):
            raise SandboxViolation(f"sandbox: writing {path!r} outside the call's directory is blocked")
    elif event in _PATH_EVENTS:
        for i in _PATH_EVENTS[event]:
            if i < len(args) and not _inside(args[i]):
                raise SandboxViolation(f"sandbox: {event} on {args[i]!r} outside the call's directory is blocked")
    elif event in _NET_EVENTS:
        raise SandboxViolation(f"sandbox: network access ({event}) is blocked")
    elif event in _EXEC_EVENTS and not _PROCESSES_ALLOWED[0]:
        raise SandboxViolation(f"sandbox: starting a program ({event}) is blocked without the "
                               "OS sandbox's namespaces")


def _confinement(tool: FuzzTool | None, state: CallState, base: str, scratch_mb: int) -> Confinement:
    """What a worker of `tool` may read and keep (see masfuzz.exec.confine)."""
    setup_file = None
    if state.setup is not None:
        try:
            setup_file = inspect.getsourcefile(inspect.unwrap(state.setup))
        except TypeError:
            setup_file = None
    from masfuzz.exec.sandbox import library_folders

    roots = [r for r in ((tool.own_code_root if tool else None), setup_file, *(tool.readable if tool else ())) if r]
    folders = [r if os.path.isdir(r) else os.path.dirname(r) for r in roots]
    own = folders + ([os.path.realpath(state.fixture)] if state.fixture else [])
    libraries = [f for f in library_folders(tuple(os.path.realpath(f) for f in folders)) if f not in folders]
    return Confinement(os.path.realpath(base), scratch_mb, readable_paths(state.fixture) + folders + libraries,
                       hidden_names(folders + libraries), tuple(state.pass_env), own,
                       network=bool(tool is not None and tool.reaches))


def _confined(conn: Any, conf: Confinement, serve: Callable[[Any], None]) -> None:
    """In a fresh fork of masfuzz: confine a worker (masfuzz.exec.confine's steps) and run
    `serve(lib)` in it, as PID 1 of its PID namespace. This process stays outside, writes the
    user namespace's id maps and passes on how the worker ended; a refused step is sent to the
    parent as {"kind": "refused", "detail": why}."""
    if conf.cgroup:  # while still outside: inside the namespaces no cgroup is seen
        cgroup.enter(conf.cgroup)
    close_descriptors([conn.fileno()])
    clean_environment(conf.keep_env)
    lib = libc()
    try:
        seccomp()
        conf.pack()
    except OSError as exc:
        _send(conn, {"kind": "refused", "detail": str(exc)})
        os._exit(3)
    ready_r, ready_w = os.pipe()
    go_r, go_w = os.pipe()
    middle = os.fork()
    if middle == 0:
        os.close(ready_r)
        os.close(go_w)
        try:
            die_with_parent(lib)
            if os.geteuid() == 0:
                os.setgroups([])  # root's groups would stay its own outside the namespace
            enter_namespaces(lib, conf.network)
            # Opened in the new mount namespace (a bind's source must be of it) but before the
            # id change below: still as the user, who may read a path under a private folder.
            sources = conf.open_sources()
            os.write(ready_w, b"1")
            if os.read(go_r, 1) != b"1":
                os._exit(3)
            become_root_inside()
            die_with_parent(lib)  # a change of credentials clears it
        except OSError as exc:
            _send(conn, {"kind": "refused", "detail": str(exc)})
            os._exit(3)
        worker = os.fork()
        if worker == 0:
            try:
                die_with_parent(lib)
                build_root(lib, conf, sources)
                for src in sources:
                    if src.fd >= 0:
                        os.close(src.fd)
            except OSError as exc:
                _send(conn, {"kind": "refused", "detail": str(exc)})
                os._exit(3)
            try:
                serve(lib)
            except BaseException:  # masfuzz's own failure in the worker: said, never silent
                _send(conn, {"kind": "refused", "detail": traceback.format_exc()[-2000:]})
                os._exit(1)
            os._exit(0)
        conn.close()
        _pass_on(worker)
    os.close(ready_w)
    os.close(go_r)
    if os.read(ready_r, 1) == b"1":
        try:
            write_id_maps(middle)
            os.write(go_w, b"1")
        except OSError as exc:
            _send(conn, {"kind": "refused", "detail": f"writing the user namespace's id maps refused: {exc}"})
    os.close(go_w)  # unless told to go on, the middle process ends
    conn.close()
    _pass_on(middle)


def _pass_on(child: int) -> None:
    """Wait for `child` and end the way it ended, so the parent reads its signal or status."""
    _, status = os.waitpid(child, 0)
    if os.WIFSIGNALED(status):
        signal.signal(os.WTERMSIG(status), signal.SIG_DFL)
        os.kill(os.getpid(), os.WTERMSIG(status))
    os._exit(os.WEXITSTATUS(status) if os.WIFEXITED(status) else 1)


def _send(conn: Any, message: dict[str, Any]) -> None:
    """Everything a worker tells masfuzz is JSON: a tool that reaches the channel can lie about
    its call, never run code in masfuzz (as a forged pickle would)."""
    conn.send_bytes(_dumps(message, default=repr).encode())


def _probe(conn: Any) -> Callable[[Any], None]:
    def serve(lib: Any) -> None:
        try:
            lock_down(lib)
        except OSError as exc:
            _send(conn, {"kind": "refused", "detail": str(exc)})
            return
        _send(conn, {"kind": "ready", "isolated": True})
    return serve


_PROBLEM: list[str | None] = []


def isolation_problem() -> str | None:
    """Why this machine cannot confine a tool (None: it can), probed once per process by
    confining a worker that does nothing. The question is the machine's: when a fork of this
    process would not be single-threaded (a library's fork hook starts a thread,
    `threads_after_fork`), which no worker masfuzz starts afresh inherits, it is asked in a
    fresh interpreter."""
    if not _PROBLEM and threads_after_fork():
        _PROBLEM.append(_fresh_problem())
    if not _PROBLEM:
        base = own_folder("masfuzz-probe-")
        ctx = multiprocessing.get_context("fork")
        parent, child = ctx.Pipe()
        conf = _confinement(None, CallState(), base, 1)
        with _STARTING:
            proc = ctx.Process(target=_confined, args=(child, conf, _probe(child)), daemon=True)
            proc.start()
        child.close()
        answer: dict[str, Any] = {"kind": "refused", "detail": "the probe ended without an answer"}
        try:
            if parent.poll(30):
                answer = json.loads(parent.recv_bytes())
        except (EOFError, OSError, ValueError):
            pass
        proc.join(10)
        parent.close()
        shutil.rmtree(base, ignore_errors=True)
        _PROBLEM.append(None if answer.get("kind") == "ready" else str(answer.get("detail")))
    return _PROBLEM[0]


def _fresh_problem() -> str | None:
    """`isolation_problem` as a new Python process, which imported nothing but masfuzz, says it."""
    import masfuzz

    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        [os.path.dirname(os.path.dirname(masfuzz.__file__)), *filter(None, [env.get("PYTHONPATH")])])
    code = "import json; from masfuzz.toolfuzz.sandbox import isolation_problem; print(json.dumps(isolation_problem()))"
    try:
        done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                              timeout=120, check=False)
    except (OSError, subprocess.SubprocessError) as exc:
        return f"the probe in a fresh Python process did not run: {exc}"
    try:
        return json.loads(done.stdout.strip().splitlines()[-1])
    except (ValueError, IndexError):
        return f"the probe in a fresh Python process failed: {done.stderr.strip()[-300:]}"


def _capture_output(base: str) -> int:
    """Point this process's standard output and error (the file descriptors, so C code and the
    programs it starts are caught too) at a file of its own; the file's descriptor."""
    for stream in (sys.stdout, sys.stderr):
        try:
            if stream is not None:
                stream.flush()
        except (OSError, ValueError):
            pass
    fd = os.open(os.path.join(base, f".output-{os.getpid()}"),
                 os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND, 0o600)
    os.dup2(fd, 1)
    os.dup2(fd, 2)
    before = {id(sys.stdout): 1, id(sys.stderr): 2}
    sys.stdout = open(1, "w", buffering=1, encoding="utf-8", errors="backslashreplace", closefd=False)
    sys.stderr = open(2, "w", buffering=1, encoding="utf-8", errors="backslashreplace", closefd=False)
    # A log handler a library made at import holds the sys.stdout of that time (agno's does):
    # when that was not descriptor 1 (pytest's capture, an app's replaced stream) its descriptor
    # is closed here, and the tool's first log line would kill the call. It writes here instead.
    loggers = [logging.getLogger(), *logging.Logger.manager.loggerDict.values()]
    for handler in (h for lg in loggers for h in getattr(lg, "handlers", ())):
        if isinstance(handler, logging.StreamHandler) and id(handler.stream) in before:
            # not setStream: it flushes the old stream, whose descriptor may be gone
            handler.stream = sys.stdout if before[id(handler.stream)] == 1 else sys.stderr
    return fd


def _output_tail(fd: int, start: int = 0) -> str:
    """The tail of what was written to the output file since `start`."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError, AttributeError):
            pass
    try:
        size = os.fstat(fd).st_size
        at = max(start, size - MAX_OUTPUT_CHARS * 4)
        data = os.pread(fd, size - at, at)
    except OSError:
        return ""
    return data.decode("utf-8", errors="replace")[-MAX_OUTPUT_CHARS:]


def _watch_exits() -> None:
    """Record the programs a call starts that exit non-zero (subprocess, os.system)."""
    handle = subprocess.Popen._handle_exitstatus  # type: ignore[attr-defined]

    def handled(self: Any, *args: Any, **kwargs: Any) -> Any:
        out = handle(self, *args, **kwargs)
        if self.returncode and _ALLOWED_ROOT:
            _EXITS.append((_program(self.args), self.returncode))
        return out

    subprocess.Popen._handle_exitstatus = handled  # type: ignore[attr-defined]
    system = os.system

    def watched_system(command: Any) -> int:
        status = system(command)
        if status and _ALLOWED_ROOT:
            _EXITS.append(("sh", os.waitstatus_to_exitcode(status) if status > 0 else status))
        return status

    os.system = watched_system


def _program(args: Any) -> str:
    if isinstance(args, (str, bytes)):
        return "sh"  # a command line (shell=True) or one program named as a string
    try:
        return os.path.basename(os.fsdecode(list(args)[0]))
    except (TypeError, IndexError, ValueError):
        return "a program"


def _worker(conn: Any, tool: FuzzTool, limits: SandboxLimits, base: str, isolated: bool,
            state: CallState | None = None, conf: Confinement | None = None, lib: Any = None) -> None:
    """The worker: prepared once (coverage.py measuring the tool's code, the limits, the
    confinement locked), then a fresh fork of it for every call (`_fresh_call`), so nothing a
    call changes in its process (a umask, a signal handler, a patched module, a thread) reaches
    the next one. Between calls it kills what the call left running and empties its folder."""
    if not isolated:  # in the isolated worker `_confined` did both already
        close_descriptors([conn.fileno()])
        clean_environment(conf.keep_env if conf else ())
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent decides when we stop
    sys.dont_write_bytecode = True
    code = _code_meter(tool)  # before the limits: what coverage.py takes is not the tool's share
    if code is not None:
        code.take()  # opens coverage.py's data here, once, not again in every call's fork
    if isolated:
        if limits.processes > 0:  # counted for the sandbox's own user: it holds for root too
            hard_limit(resource.RLIMIT_NPROC, sandbox_tasks() + limits.processes)
        try:
            lock_down(lib)
        except OSError as exc:
            _send(conn, {"kind": "refused", "detail": str(exc)})
            return
    _PROCESSES_ALLOWED[0] = isolated
    _watch_exits()
    if tool.connection is not None:
        _serve_held(conn, tool, limits, base, isolated, state or CallState())
        return
    # Nothing the worker holds now is collected in a call's fork: its collector does not walk
    # (and so copy on write) the whole inherited heap, which made a call several times slower.
    gc.freeze()
    _send(conn, {"kind": "ready", "isolated": isolated})
    while True:
        try:
            msg = conn.recv()  # from masfuzz itself: the one direction that may be pickled
        except (EOFError, OSError):
            return
        if msg is None:
            return
        _, arguments, taint = msg
        answer = _fresh_call(conn, tool, arguments, taint, limits, base, state or CallState(), code)
        if isolated:
            _end_leftovers()
        for name in os.listdir(base):  # what the call wrote anywhere in the scratch folder
            path = os.path.join(base, name)
            shutil.rmtree(path, ignore_errors=True) if os.path.isdir(path) else _unlink(path)
        conn.send_bytes(answer)


def _serve_held(conn: Any, tool: FuzzTool, limits: SandboxLimits, base: str, isolated: bool,
                state: CallState) -> None:
    """The worker of a tool whose calls go to a server of its own (`FuzzTool.connection`: an
    MCP server). The tool's code is the server's, not this process's, so there is nothing for
    a fresh fork per call to contain, and one session is kept across calls (a server takes
    seconds to start): the worker starts the server (its child, in the same namespaces and
    limits) before saying it is ready, then runs each call itself. Its output and the server's
    standard error go to a file of the worker's, each call's part kept with its outcome. No
    CPU-seconds limit: it would count all the calls together; the wall clock bounds each."""
    output = _capture_output(base)
    if limits.memory_mb > 0:
        hard_limit(resource.RLIMIT_AS, vm_bytes() + limits.memory_mb * 2**20)
    hard_limit(resource.RLIMIT_FSIZE, limits.file_mb * 2**20)
    hard_limit(resource.RLIMIT_CORE, 0)
    assert tool.connection is not None
    with tool.connection():
        _send(conn, {"kind": "ready", "isolated": isolated})
        while True:
            try:
                msg = conn.recv()
            except (EOFError, OSError):
                return
            if msg is None:
                return
            _, arguments, _taint = msg  # nothing of the tool's runs here to taint
            start = os.fstat(output).st_size
            outcome = _one_call(tool, arguments, False, limits, base, state)
            outcome.output = _output_tail(output, start)
            conn.send_bytes(outcome.to_json())


def _unlink(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


def _fresh_call(conn: Any, tool: FuzzTool, arguments: dict[str, Any] | None, taint: bool,
                limits: SandboxLimits, base: str, state: CallState, code: Any) -> bytes:
    """Run one call in a fork of this worker; its outcome as JSON (a crash's when the fork died
    without one). The fork holds neither the channel to masfuzz nor anything the worker opened."""
    from masfuzz.exec.frames import last_sealed, new_key, seal

    try:
        read, write = os.pipe()
    except OSError as exc:
        return _refused_call("a pipe", exc)
    # the outcome is sealed (`masfuzz.exec.frames`): the tool's code holds the pipe too, and an
    # outcome it writes there (an "ok" for a call that then dies) is not taken for the call's
    key = new_key().encode()
    try:
        child = os.fork()
    except OSError as exc:  # a process limit (ulimit -u, a container's pids limit) refused it
        os.close(read)
        os.close(write)
        return _refused_call("a process", exc)
    if child == 0:
        status = 0
        try:
            os.close(read)
            os.close(conn.fileno())
            outcome = _call_in_fork(tool, arguments, taint, limits, base, state, code)
            data = outcome.to_json()
        except BaseException as exc:  # masfuzz's own failure here, never the tool's
            data = CallOutcome("error", "", "MasfuzzError", f"masfuzz failed around the call: {exc!r}",
                               [(__file__, 0, "_fresh_call")]).to_json()
            status = 1
        try:
            view = memoryview(seal(key, data))
            while view:
                view = view[os.write(write, view):]
        finally:
            os._exit(status)
    os.close(write)
    start = time.perf_counter()
    data, status = _collect(read, child)
    os.close(read)
    outcome = last_sealed(key, data)
    if outcome is not None:
        return outcome
    exit_code = -os.WTERMSIG(status) if os.WIFSIGNALED(status) else os.WEXITSTATUS(status)
    return CallOutcome("crash", error_type=_crash_name(exit_code),
                       message=f"the tool's process died (exit code {exit_code})",
                       duration=time.perf_counter() - start).to_json()


def _refused_call(what: str, exc: OSError) -> bytes:
    """The outcome of a call masfuzz could not start: its own failure (a frame of masfuzz's only,
    so it is attributed to the harness), never a crash of the tool's."""
    import resource

    soft = resource.getrlimit(resource.RLIMIT_NPROC)[0]
    return CallOutcome("error", "", "MasfuzzError",
                       f"masfuzz could not start the call: {what} was refused ({exc}); a limit of "
                       f"this machine on processes (ulimit -u: {'unlimited' if soft < 0 else soft}) or "
                       "files, not the tool's failure", [(__file__, 0, "_fresh_call")]).to_json()


def _collect(read: int, child: int) -> tuple[bytes, int]:
    """What the call's fork wrote, and its wait status. Read until the fork has ended (not until
    end of file: a process the tool forked may hold the pipe open)."""
    import select

    ended = os.pidfd_open(child)
    chunks: list[bytes] = []
    try:
        while True:
            ready, _, _ = select.select([read, ended], [], [])
            if read in ready:
                chunk = os.read(read, 1 << 16)
                if chunk:
                    chunks.append(chunk)
                    continue
            if ended in ready or read in ready:
                break
        os.set_blocking(read, False)
        while True:
            try:
                chunk = os.read(read, 1 << 16)
            except BlockingIOError:
                break
            if not chunk:
                break
            chunks.append(chunk)
    finally:
        os.close(ended)
    _, status = os.waitpid(child, 0)
    return b"".join(chunks), status


def _call_in_fork(tool: FuzzTool, arguments: dict[str, Any] | None, taint: bool, limits: SandboxLimits,
                  base: str, state: CallState, code: Any) -> CallOutcome:
    output = _capture_output(base)
    if limits.memory_mb > 0:
        hard_limit(resource.RLIMIT_AS, vm_bytes() + limits.memory_mb * 2**20)
    hard_limit(resource.RLIMIT_CPU, limits.cpu_s + 1)
    hard_limit(resource.RLIMIT_FSIZE, limits.file_mb * 2**20)
    hard_limit(resource.RLIMIT_CORE, 0)
    sys.addaudithook(_audit)
    before = {t.ident for t in threading.enumerate()}
    outcome = _one_call(tool, arguments, taint, limits, base, state, code)
    outcome.output = _output_tail(output)
    if code is not None:
        outcome.reached = frozenset((rel, a, b) for rel, arcs in code.take().items() for a, b in arcs)
        outcome.leftover_threads = _threads_in(tool.own_code_root, before)
    return outcome


def _threads_in(root: str, before: set[int | None]) -> int:
    """Threads started since `before` that are running code under `root` now (somewhere on
    their stack). An idle pool thread the framework keeps (waiting in the standard library) is
    not counted: it runs none of the tool's code into the next call."""
    prefix = os.path.realpath(root) + os.sep
    frames = sys._current_frames()
    count = 0
    for thread in threading.enumerate():
        frame = frames.get(thread.ident) if thread.ident not in before else None
        while frame is not None:
            if os.path.realpath(frame.f_code.co_filename).startswith(prefix):
                count += 1
                break
            frame = frame.f_back
    return count


def _code_meter(tool: FuzzTool) -> Any:
    """coverage.py measuring the lines and branches of the tool's own code (`own_code_root`:
    the package that defines it, even inside site-packages; never masfuzz, the standard library
    or the framework around it) in this worker; None when the tool has no Python code here (an
    MCP tool). The C tracer calls back only for the tool's own frames' lines, so a call costs
    little more than it did."""
    root = tool.own_code_root
    if root is None:
        return None
    return meter(Path(root))


def _end_leftovers() -> None:
    """Kill and reap every process the call left running (a program started in the
    background, a daemon that left its session), so none outlives the call it belongs to.

    Only in the isolated worker: it is PID 1 of its PID namespace, where `kill(-1)` reaches
    every other process of the namespace, which is every process the tool started, however
    it detached (orphans are reparented to PID 1), and nothing outside it. Killed again until
    none is left, for one that forked while the first signal was sent."""
    if os.getpid() != 1:  # never outside the namespace: kill(-1) would reach the user's processes
        return
    while True:
        try:
            os.kill(-1, signal.SIGKILL)
        except ProcessLookupError:
            pass  # none left to signal; the wait below collects what is still unreaped
        try:
            os.waitpid(-1, 0)
        except ChildProcessError:
            return


def _prepare(state: CallState, workdir: str) -> CallOutcome | None:
    """Fill a call's folder and run the setup in it; a failure is the settings', never the tool's."""
    start = time.perf_counter()
    if state.fixture:
        try:
            shutil.copytree(state.fixture, workdir, symlinks=True, dirs_exist_ok=True)
        except Exception as exc:
            return CallOutcome("error", "", SETUP_ERROR,
                               f"--fixture {state.fixture}: copying it into the call's folder "
                               f"failed: {type(exc).__name__}: {exc}",
                               [(__file__, 0, "_prepare")], duration=time.perf_counter() - start)
    if state.setup is not None:
        try:
            settle(state.setup(workdir) if state.setup_takes_folder else state.setup())
        except Exception as exc:
            frames = [(f.filename, f.lineno or 0, f.name) for f in traceback.extract_tb(exc.__traceback__)]
            return CallOutcome("error", "", SETUP_ERROR,
                               f"--setup {state.setup_name} failed: {type(exc).__name__}: {exc}"[:MAX_RESULT_CHARS],
                               frames or [(__file__, 0, "_prepare")], duration=time.perf_counter() - start)
    return None


def _one_call(tool: FuzzTool, arguments: dict[str, Any] | None, taint: bool, limits: SandboxLimits,
              base: str, state: CallState, code: Any = None) -> CallOutcome:
    """One call in a fresh folder; `arguments` None prepares the folder only (a dry run of the
    fixture and setup)."""
    workdir = tempfile.mkdtemp(prefix="call-", dir=base)
    home = os.getcwd()
    environment = dict(os.environ)
    os.chdir(workdir)
    os.environ.update(HOME=workdir, TMPDIR=workdir)
    tempfile.tempdir = workdir
    _ALLOWED_ROOT[:] = [os.path.realpath(workdir)]
    try:
        failed = _prepare(state, workdir)
        if code is not None:
            code.take()  # what the setup ran is not the call's
        if failed is not None or arguments is None:
            return failed or CallOutcome("ok")
        _EXITS.clear()  # the tool's programs only, not the setup's
        start = time.perf_counter()
        with logged_exceptions() as logged:
            if taint and tool.function is not None:
                result, exc, priors = call_tainted(tool.call_function, arguments)
            else:
                priors = {}
                try:
                    result, exc = tool.invoke(arguments), None
                except Exception as e:  # the tool's failure is the finding
                    result, exc = None, e
        if exc is None:
            text = _render(result)
            broken = contract_violation(tool, result)
            if broken is not None:
                return CallOutcome("error", text, CONTRACT_VIOLATION, broken, [tool.definition_frame],
                                   _prior_dicts(priors), time.perf_counter() - start)
            lost = swallowed_exception(result, logged) if tool.connection is None else None
            if lost is not None:  # logged, then an empty or default value: the swallowed-error oracle
                return CallOutcome("error", text, SWALLOWED_ERROR,
                                   _clip(f"{lost.error_type}: {lost.message} (logged, then {text[:40]} returned)"),
                                   lost.frames or [tool.definition_frame], _prior_dicts(priors),
                                   time.perf_counter() - start)
            swallowed = _swallowed_exit(text)
            if swallowed is not None or isinstance(result, ReturnedError) or (
                    isinstance(result, str) and returned_error(text, arguments)):
                # Many tools (LangChain's among them) catch their own exceptions and return the
                # message, or return what a failed program printed: that is their error
                # handling, recorded apart, never a runtime error.
                return CallOutcome("handled", text, RETURNED_ERROR, swallowed or text,
                                   [(f"<returned by {tool.name}>", 0, tool.name)],
                                   _prior_dicts(priors), time.perf_counter() - start)
            return CallOutcome("ok", text, priors=_prior_dicts(priors), duration=time.perf_counter() - start)
        return _failure(exc, priors, time.perf_counter() - start, arguments)
    finally:
        _ALLOWED_ROOT.clear()
        os.chdir(home)
        os.environ.clear()
        os.environ.update(environment)
        tempfile.tempdir = None
        shutil.rmtree(workdir, ignore_errors=True)


def _swallowed_exit(text: str) -> str | None:
    """The returned error message of a call whose program exited non-zero while the tool
    returned normally (None: none did)."""
    if not _EXITS:
        return None
    program, code = _EXITS[-1]
    how = f"was killed by signal {-code}" if code < 0 else f"exited with status {code}"
    return f"{program} {how}; the tool returned: {text.strip()[:300]}"


def returned_error(text: str, arguments: dict[str, Any]) -> bool:
    """Whether a tool's returned text is an error message, by the same rule for every tool. A
    text whose error-like start the tool was given (an echo of "Error: x") is not one."""
    found = _RETURNED_ERROR.match(text)
    if found is None:
        return False
    head = found.group(0).strip()
    return not any(isinstance(v, str) and head in v for v in _string_values(arguments))


def _string_values(value: Any) -> list[str]:
    if isinstance(value, str):
        return [str.__str__(value)]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _string_values(v)]
    if isinstance(value, (list, tuple)):
        return [s for v in value for s in _string_values(v)]
    return []


def contract_violation(tool: FuzzTool, result: Any) -> str | None:
    """Why a result breaks the return type the tool's function declares (None: it does not, or
    nothing checkable is declared). Only plain types are checked: str, int, float, bool, bytes,
    list, dict, tuple, None, and unions and Optionals of them."""
    expected = tool.return_types
    if expected is None or isinstance(result, expected) or isinstance(result, ReturnedError):
        # an error its framework hands the model (a validation refusal) is not the function's return
        return None
    if float in expected and isinstance(result, int) and not isinstance(result, bool):
        return None  # an int where float is declared is fine in Python
    names = " | ".join("None" if t is type(None) else t.__name__ for t in expected)
    return f"returned {type(result).__name__} where -> {names} is declared"


def _failure(exc: BaseException, priors: dict[str, Any], duration: float,
             arguments: dict[str, Any] | None = None) -> CallOutcome:
    blocked = isinstance(exc, SandboxViolation) or any(
        isinstance(e, SandboxViolation) for e in _chain(exc))
    frames = [(f.filename, f.lineno or 0, f.name) for f in traceback.extract_tb(exc.__traceback__)]
    error_type = type(exc).__name__
    if isinstance(exc, RemoteFailure):  # the server's failure: its frames are not masfuzz's client's
        frames, error_type = list(exc.frames), exc.error_type
    msg = str(exc)
    from masfuzz.toolfuzz.grouping import normalise_message  # imported with the fuzzer, before any fork

    return CallOutcome("blocked" if blocked else "error", "", error_type, _clip(msg),
                       frames, _prior_dicts(priors), duration,
                       masked=normalise_message(msg, arguments=arguments))


def _clip(message: str) -> str:
    """A long message's head and tail: what follows an echoed long input ("... here") is kept,
    so that the error it names is grouped as one whatever the input's length."""
    if len(message) <= MAX_RESULT_CHARS:
        return message
    half = MAX_RESULT_CHARS // 2
    return message[:half] + " ... " + message[-half:]


def _chain(exc: BaseException) -> list[BaseException]:
    out, cur = [], exc.__cause__ or exc.__context__
    while cur is not None and len(out) < 8:
        out.append(cur)
        cur = cur.__cause__ or cur.__context__
    return out


def _prior_dicts(priors: dict[str, Any]) -> dict[str, dict[str, list[Any]]]:
    return {k: v.to_dict() for k, v in priors.items()}


def _render(value: Any) -> str:
    try:  # a str subclass (the tool's own, or a taint object it returned) as a plain str
        text = str.__str__(value) if isinstance(value, str) else repr(value)
    except Exception as exc:  # a result whose repr fails is still a result
        text = f"<unprintable {type(value).__name__}: {exc}>"
    return text[:MAX_RESULT_CHARS]


# --- the parent side -----------------------------------------------------------------------


class SandboxUnavailable(Exception):
    """The kernel refuses the isolation; the message says why."""


class _NotStarted(OSError):
    """A worker that ended before it said it was ready: masfuzz's failure to start it."""


class Sandbox:
    """Runs calls of one tool in isolated worker processes. Use as a context manager.

    `isolate=False` (what `--unsafe-no-sandbox` asks for) leaves out the namespaces: only the
    audit hook and the limits hold. With `isolate=True` on a machine that refuses namespaces,
    `SandboxUnavailable` is raised before any call runs."""

    READY_WAIT_S = 30.0  # how long starting waits for the worker; a later "ready" is taken by `_answer`

    def __init__(self, tool: FuzzTool, limits: SandboxLimits | None = None, *,
                 isolate: bool = True, use_netns: bool | None = None,
                 state: CallState | None = None) -> None:
        self.tool = tool
        self.state = state or CallState()
        self.isolate = isolate if use_netns is None else use_netns
        if self.isolate and (why := isolation_problem()) is not None:
            raise SandboxUnavailable(why)
        self.limits = limits or SandboxLimits()
        self.base = own_folder("masfuzz-sandbox-")
        # all a worker's processes share the memory limit where a cgroup can be made (docs/sandbox.md)
        self.cgroup = cgroup.create(self.limits.memory_mb + self.limits.disk_mb) if self.isolate else None
        self._ctx = multiprocessing.get_context("fork")
        self._proc: Any = None
        self._conn: Any = None
        self.network_isolation = "unknown"  # namespace | blocked-sockets (unsafe mode)
        self._late = True  # until the worker says it is ready (`_start`, `_answer`)
        self._next_id = 0

    def __enter__(self) -> "Sandbox":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def _start(self) -> None:
        with _STARTING:  # one fork at a time, whichever thread (tool) asks
            self._start_worker()

    def _start_worker(self) -> None:
        parent, child = self._ctx.Pipe()
        conf = _confinement(self.tool, self.state, self.base, self.limits.disk_mb)
        conf.cgroup = self.cgroup or ""
        if self.isolate:
            def serve(lib: Any) -> None:
                _worker(child, self.tool, self.limits, conf.scratch, True, self.state, conf, lib)
            target, args = _confined, (child, conf, serve)
        else:
            target, args = _worker, (child, self.tool, self.limits, self.base, False, self.state, conf)
        self._proc = self._ctx.Process(target=target, args=args, daemon=True)
        self._proc.start()
        child.close()
        self._conn = parent
        self._late = True  # until the worker says it is ready
        if parent.poll(self.READY_WAIT_S):
            try:
                answer = json.loads(parent.recv_bytes())
            except EOFError:  # it ended before it was ready (the machine refused it a process)
                self._proc.join(5)
                raise _NotStarted(f"its sandbox worker ended before it was ready (exit code "
                                  f"{self._proc.exitcode})") from None
            if answer.get("kind") != "ready":
                raise SandboxUnavailable(str(answer.get("detail")))
            self._ready(answer)

    def _ready(self, answer: dict[str, Any]) -> None:
        self._late = False
        self.network_isolation = "namespace" if answer.get("isolated") else "blocked-sockets"
        if self.tool.reaches:  # only masfuzz's MCP client runs there, with the machine's network
            self.network_isolation = "none: reaches its server's URL"

    def _answer(self, limit: float) -> bytes | None:
        """The worker's answer to the call just sent, within `limit` seconds (None: none came).
        A worker slower than `_start` waited for (an MCP server starting on a loaded machine)
        says it is ready first: that is no answer, and the call's own time starts then (the
        call's "not an outcome" crash and timeout were the slow start's, blamed on the tool)."""
        deadline = time.perf_counter() + limit
        while self._conn.poll(max(deadline - time.perf_counter(), 0)):
            data = self._conn.recv_bytes()
            try:
                late = json.loads(data)
            except ValueError:
                return data
            if self._late and isinstance(late, dict) and late.get("kind") == "ready":  # once only
                self._ready(late)
                deadline = time.perf_counter() + limit
                continue
            return data
        return None

    def _stop(self, kill: bool) -> None:
        if self._proc is None:
            return
        below: list[int] = []
        if kill and self._proc.is_alive():
            below = self._kill_worker()
        else:
            try:
                self._conn.send(None)
            except (OSError, BrokenPipeError):
                pass
        self._proc.join(5)
        if self._proc.is_alive():
            below = self._kill_worker()
            self._proc.join(5)
        # Its confined processes died with it; when masfuzz adopts orphans (masfuzz.proc.Adopted)
        # they are masfuzz's children: reaped here, or each replaced worker leaves zombies.
        reap(below)
        self._conn.close()
        self._proc = self._conn = None

    def _kill_worker(self) -> list[int]:
        """Kill the worker and every process below it; their pids."""
        below = descendants(self._proc.pid)
        for pid in (self._proc.pid, *below):
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        return below

    def prepare(self) -> CallOutcome:
        """A dry run of the fixture and the setup: a call's folder prepared, no tool called."""
        return self.call(None)

    def call(self, arguments: dict[str, Any] | None, *, taint: bool = False,
             time_s: float | None = None) -> CallOutcome:
        """One call; `time_s` (at most the limits' wall clock) bounds it tighter, for a caller
        whose own time runs out first."""
        if self._proc is None or not self._proc.is_alive():
            self._stop(kill=True)
            try:
                self._start()
            except _NotStarted as exc:
                self._stop(kill=True)
                return CallOutcome.from_json(_refused_call("starting its worker", exc))
        self._next_id += 1
        start = time.perf_counter()
        limit = self.limits.time_s if time_s is None else min(time_s, self.limits.time_s)
        killed = cgroup.oom_killed(self.cgroup)
        try:
            self._conn.send((self._next_id, arguments, taint))
            answer = self._answer(limit)
            if answer is None:
                self._stop(kill=True)
                return CallOutcome("timeout", error_type="Timeout",
                                   message=f"no answer within {limit:g} s; killed",
                                   duration=time.perf_counter() - start)
            return self._out_of_memory(CallOutcome.from_json(answer), killed)
        except ValueError as exc:  # the channel carried something else: a tool forging answers
            self._stop(kill=True)
            return CallOutcome("crash", error_type="Crash", message=f"the worker's answer was not an outcome ({exc})",
                               duration=time.perf_counter() - start)
        except (EOFError, OSError, BrokenPipeError):
            code = self._proc.exitcode if self._proc is not None else None
            if self._proc is not None:
                self._proc.join(1)
                code = self._proc.exitcode
            self._stop(kill=True)
            outcome = CallOutcome("crash", error_type=_crash_name(code),
                                  message=f"the tool's process died (exit code {code})",
                                  duration=time.perf_counter() - start)
            return self._out_of_memory(outcome, killed)

    def _out_of_memory(self, outcome: CallOutcome, killed_before: int) -> CallOutcome:
        """A call's SIGKILL that the memory cgroup's OOM killer counted is the memory limit's
        kill (a setting's), not the tool's crash."""
        if outcome.error_type == "Crash[SIGKILL]" and cgroup.oom_killed(self.cgroup) > killed_before:
            outcome.error_type = OUT_OF_MEMORY
            outcome.message += f", killed at the sandbox's memory limit ({self.limits.memory_mb} MB, all its processes)"
        return outcome

    def run(self, calls: list[tuple[dict[str, Any], bool]]) -> list[CallOutcome]:
        return [self.call(args, taint=taint) for args, taint in calls]

    def close(self) -> None:
        self._stop(kill=False)
        cgroup.remove(self.cgroup)
        shutil.rmtree(self.base, ignore_errors=True)


async def off_loop(blocking: Callable[..., Any], *args: Any, cancelled: threading.Event | None = None,
                   **kwargs: Any) -> Any:
    """`blocking(*args, **kwargs)` (sandboxed calls, or the fuzzing loop around them) in a thread,
    so other tools' work on this event loop goes on. Cancelled, it sets `cancelled` (for a loop
    that asks it between calls) and waits for the thread to end before the cancellation goes on:
    the caller then closes the sandbox, which the thread must be done with."""
    work = asyncio.ensure_future(asyncio.to_thread(blocking, *args, **kwargs))
    try:
        return await asyncio.shield(work)
    except asyncio.CancelledError:
        if cancelled is not None:
            cancelled.set()
        await asyncio.wait({work})
        raise


def _crash_name(code: int | None) -> str:
    if code is not None and code < 0:
        try:
            return f"Crash[{signal.Signals(-code).name}]"
        except ValueError:
            pass
    return "Crash"
