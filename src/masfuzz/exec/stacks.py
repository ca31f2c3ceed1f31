"""What a run was doing when masfuzz's time limit killed it: its stacks, taken just before the kill.

A run killed at `--timeout` says which agent or tool was acting (`pool._while`), not the code
it was in, and "the app hung" and "the app waited on purpose" (a rate limiter sleeping out a
quota) look the same from the events. So before the kill the pool asks the run for its stacks,
as a debugger would:

- `DUMP`, handled in Python in the run's process (`arm`): every thread's frames and every
  asyncio task's chain of awaiting coroutines (a coroutine waiting shows in no thread's stack),
  sent on the worker's channel as one `{"stacks": [...]}` line. Python runs a handler between
  two bytecodes, and a blocking call (`time.sleep`, a `select`, a lock) is interrupted for it.
- `NATIVE`, when no answer came (the main thread stuck in native code that never returns to
  the interpreter): CPython's `faulthandler` writes every thread's frames to stderr from the
  signal handler itself, which `parse_faulthandler` reads back.

`where` then says whose code the run was in: the app's own (a frame of a file outside the
standard library, the installed packages and masfuzz; the innermost such frame and its source
line are the evidence), masfuzz's model proxy (the run waited for the model's answer), or only
neither (the framework's own code, a native call).
"""

from __future__ import annotations

import faulthandler
import linecache
import os
import re
import signal
import sys
import threading
from dataclasses import dataclass
from typing import Any

# Real-time signals: no library of an app's is likely to use them, and their default action
# (the end of a process that has no handler: a program a tool started) costs nothing just
# before the kill. The worker that forked the run ignores every signal while the run goes on.
DUMP = signal.SIGRTMIN + 6
NATIVE = signal.SIGRTMIN + 7
KEY = "stacks"  # the run's answer on the channel: {"stacks": [{"name", "frames"}]}
MAX_FRAMES = 60  # innermost frames kept a stack
_MASFUZZ = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep
_PROXY = os.path.join(_MASFUZZ, "llm", "proxy.py")
# paths of what is not the app's own code, whatever interpreter ran it: installed packages and
# the standard library (a frozen module included)
_NOT_APPS = re.compile(r"[/\\](?:site|dist)-packages[/\\]|[/\\]lib[/\\]python3\.\d+[/\\]|^<")


def ignore() -> None:
    """In the worker, before its sandbox: the processes it forks to enter the sandbox share its
    process group, which the signal is sent to, and would end by it; only the run answers."""
    for sig in (DUMP, NATIVE):
        signal.signal(sig, signal.SIG_IGN)


def arm(send: Any) -> None:
    """In the run's process: answer `DUMP` with the stacks, sent by `send` (a dict to the
    channel) from a thread of its own (the interrupted main thread may hold the channel's
    lock); answer `NATIVE` with faulthandler's dump on stderr."""

    def dump(_signum: int, frame: Any) -> None:
        taken = snapshot(skip=frame)
        threading.Thread(target=send, args=({KEY: taken},), name="masfuzz-stacks", daemon=True).start()

    signal.signal(DUMP, dump)
    faulthandler.register(NATIVE, file=sys.__stderr__, all_threads=True)


def disarm() -> None:
    faulthandler.unregister(NATIVE)
    ignore()


def snapshot(skip: Any = None) -> list[dict[str, Any]]:
    """Every thread's stack and every pending asyncio task's coroutine chain, innermost frame
    last, each frame [file, line, function, source]; this thread's from `skip`, the frame a
    signal interrupted (None: left out)."""
    names = {t.ident: t.name for t in threading.enumerate()}
    here = threading.get_ident()
    out = []
    for ident, frame in sys._current_frames().items():
        if ident == here:  # this thread's own frames are the snapshot's: from the interrupted one
            frame = skip
        frames = _walk(frame)
        if frames:
            out.append({"name": f"thread {names.get(ident, ident)}", "frames": frames})
    out.sort(key=lambda s: s["name"] != "thread MainThread")  # the run's own thread first
    for task in _tasks():
        frames = _awaiting(task.get_coro())
        if frames:
            out.append({"name": f"task {task.get_name()}", "frames": frames})
    return out


def _tasks() -> list[Any]:
    import asyncio

    try:
        loop = asyncio.get_event_loop_policy().get_event_loop()
        return [t for t in asyncio.all_tasks(loop) if not t.done()]
    except (RuntimeError, ValueError):
        return []


def _walk(frame: Any) -> list[list[Any]]:
    frames = []
    while frame is not None and len(frames) < MAX_FRAMES:
        frames.append(_frame(frame.f_code.co_filename, frame.f_lineno, frame.f_code.co_name))
        frame = frame.f_back
    return frames[::-1]


def _awaiting(coro: Any) -> list[list[Any]]:
    """A coroutine's chain of awaits, outermost first (what `Task.get_stack` does not follow)."""
    frames = []
    while coro is not None and len(frames) < MAX_FRAMES:
        frame = getattr(coro, "cr_frame", None) or getattr(coro, "gi_frame", None) or getattr(coro, "ag_frame", None)
        if frame is None:
            break
        frames.append(_frame(frame.f_code.co_filename, frame.f_lineno, frame.f_code.co_name))
        coro = getattr(coro, "cr_await", None) or getattr(coro, "gi_yieldfrom", None) or getattr(coro, "ag_await", None)
    return frames


def _frame(path: str, line: int | None, function: str) -> list[Any]:
    return [path, line or 0, function, linecache.getline(path, line or 0).strip()]


_THREAD = re.compile(r"^(?:Current thread|Thread) (0x[0-9a-f]+)")
_FRAME = re.compile(r'^\s+File "(.*)", line (\d+|\?\?\?) in (.*)$')


def parse_faulthandler(text: str) -> list[dict[str, Any]]:
    """faulthandler's dump (`NATIVE`) read back: a stack per thread, innermost frame last."""
    out: list[dict[str, Any]] = []
    for line in text.splitlines():
        if m := _THREAD.match(line):
            out.append({"name": f"thread {m.group(1)}", "frames": []})
        elif out and (m := _FRAME.match(line)):
            number = int(m.group(2)) if m.group(2).isdigit() else 0
            out[-1]["frames"].insert(0, _frame(m.group(1), number, m.group(3)))
    return [s for s in out if s["frames"]]


def owner(path: str) -> str:
    """Whose code a frame's file is: "masfuzz", "library" (installed packages, the standard
    library) or "app"."""
    if os.path.abspath(path).startswith(_MASFUZZ):
        return "masfuzz"
    return "library" if _NOT_APPS.search(path) else "app"


@dataclass(frozen=True)
class Where:
    """Where a killed run was: `kind` "app" (its own code: `frame` the innermost such frame),
    "model" (waiting in masfuzz's model proxy), or "" (neither, or no stack came)."""

    kind: str
    frame: tuple[str, int, str, str] | None = None
    stack: str = ""  # the stack it was read from

    def words(self) -> str:
        if self.kind == "app" and self.frame:
            path, line, function, source = self.frame
            return (f"in the app's {function} ({_short(path)}:{line}"
                    + (f": {source[:80]}" if source else "") + ")")
        if self.kind == "model":
            return "waiting for masfuzz's model proxy to answer"
        return ""


def where(stacks: list[dict[str, Any]]) -> Where:
    """Whose code the run was in when it was killed, read from each stack's innermost frame
    that is not the framework's or the standard library's (what called into them): first a
    thread held in the app's own code (a blocking wait or work in the event loop's thread or a
    tool's, which holds everything else up), then a wait in masfuzz's model proxy, then a
    coroutine of the app's awaiting (an `asyncio.sleep` of its own); else nothing is said.
    masfuzz's own threads (the worker's channel, its watchdog) and an event loop idle in its
    `select` (its innermost own frame is masfuzz's, which runs the loop) say nothing."""
    found: dict[str, tuple[tuple[str, int, str, str] | None, str]] = {}
    for s in stacks:
        frames = s.get("frames") or []
        own = [f for f in frames if owner(f[0]) != "library"]
        if not own:
            continue
        kind = ("model" if os.path.abspath(own[-1][0]) == _PROXY else "" if owner(own[-1][0]) == "masfuzz"
                else "thread" if s["name"].startswith("thread") else "task")
        if kind and kind not in found:
            found[kind] = (tuple(own[-1]) if kind != "model" else None, s["name"])  # type: ignore[assignment]
    for kind, named in (("thread", "app"), ("model", "model"), ("task", "app")):
        if kind in found:
            return Where(named, *found[kind])
    return Where("")


def _short(path: str) -> str:
    """A file as the user finds it: from the current folder when it is under it, else its
    last three parts."""
    rel = os.path.relpath(path) if os.path.isabs(path) else path
    return rel if not rel.startswith("..") else "/".join(path.replace("\\", "/").split("/")[-3:])
