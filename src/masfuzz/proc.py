"""Processes masfuzz starts for a system under test: each in a process group of its own, so
that one kill ends it and everything it started.

A process the system under test starts the way a daemon does (fork, `setsid`, fork again) leaves
every group masfuzz could kill. So a command makes masfuzz the subreaper of its descendants
(`Adopted`, Linux's PR_SET_CHILD_SUBREAPER): such an orphan becomes masfuzz's child instead of
init's, and whatever of them is still running when the command ends is killed and reaped.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import os
import shutil
import signal
import sys
import time
from collections.abc import Iterator, Sequence
from typing import Any


def program_folders(command: Sequence[str]) -> list[str]:
    """What a sandbox must show for `command` to start in it: the virtual environment its
    program is installed in (a console script's, `VENV/bin/NAME`), else the program's folder,
    and the folder of each file or folder its arguments name by absolute path (a server
    script, a repository). A program found on PATH is looked up here, as the shell would."""
    if not command:
        return []
    found: list[str] = []
    program = shutil.which(command[0]) or command[0]
    exe = os.path.realpath(program)
    venv = os.path.dirname(os.path.dirname(os.path.abspath(program)))
    if os.path.exists(os.path.join(venv, "pyvenv.cfg")):
        found.append(venv)
    elif os.path.isfile(exe):
        found.append(os.path.dirname(exe))
    for arg in command[1:]:
        if os.path.isabs(arg) and os.path.exists(arg):
            found.append(arg if os.path.isdir(arg) else os.path.dirname(arg))
    return found


async def start_in_group(*argv: str, **options: Any) -> asyncio.subprocess.Process:
    """`asyncio.create_subprocess_exec`, the child leading a new session and process group."""
    return await asyncio.create_subprocess_exec(*argv, start_new_session=True, **options)


async def kill_group(proc: asyncio.subprocess.Process, *, reap_within: float = 5.0) -> None:
    """Kill the process group `proc` leads (its children too) and reap `proc`, and those of
    its descendants that this process adopts as they die (`reap_adopted`)."""
    family = descendants(proc.pid)
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    try:
        await asyncio.wait_for(proc.wait(), reap_within)
    except TimeoutError:
        pass
    await reap_adopted(family)
    # A descendant that left the group (a daemon) may still hold the pipes: the transport would
    # wait for their end, outlive the event loop, and print "Event loop is closed" when collected.
    transport = getattr(proc, "_transport", None)
    if transport is not None:
        transport.close()


def ended_children() -> Iterator[tuple[int, int]]:
    """Reap every child of this process that has ended, without waiting: (pid, exit status as
    `os.waitstatus_to_exitcode` gives it, negative for a signal)."""
    while True:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        yield pid, os.waitstatus_to_exitcode(status)


_PR_SET_CHILD_SUBREAPER, _PR_GET_CHILD_SUBREAPER = 36, 37


def _prctl(option: int, value: Any) -> int:
    libc = ctypes.CDLL(None, use_errno=True)
    return int(libc.prctl(option, value, 0, 0, 0))


def _children(zombies: bool = False) -> dict[int, str]:
    """This process's living children (or, `zombies`, those that ended and wait to be reaped):
    pid -> command name, from /proc."""
    me, found = os.getpid(), {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", encoding="utf-8", errors="replace") as fh:
                stat = fh.read()
        except OSError:
            continue  # ended meanwhile
        name, _, rest = stat.partition(" (")[2].rpartition(") ")
        fields = rest.split()
        if len(fields) > 1 and fields[1] == str(me) and (fields[0] == "Z") == zombies:
            found[int(entry)] = name
    return found


class Adopted:
    """Within it, this process adopts the orphans of its descendants; on leaving it, every child
    that it did not have on entering is killed and reaped (`ended` names them). Nothing happens
    where Linux's subreaper is not available."""

    def __init__(self) -> None:
        self.ended: list[str] = []
        self._before: set[int] | None = None
        self._was = ctypes.c_int(0)

    def __enter__(self) -> "Adopted":
        if sys.platform.startswith("linux"):
            try:
                _prctl(_PR_GET_CHILD_SUBREAPER, ctypes.byref(self._was))
                if _prctl(_PR_SET_CHILD_SUBREAPER, 1) == 0:
                    self._before = set(_children())
            except (OSError, AttributeError):
                pass
        return self

    def __exit__(self, *exc: object) -> None:
        if self._before is None:
            return
        try:
            # masfuzz's own processes end by themselves once their parent is gone (a sandboxed
            # worker's namespace processes die with it): given a moment, and reaped, they are
            # neither killed nor named as the system's
            deadline = time.monotonic() + 1.0
            while self._left() and time.monotonic() < deadline:
                time.sleep(0.05)
            for _ in range(100):  # a killed orphan's own children are adopted next
                left = self._left()
                if not left:
                    break
                for pid, name in left.items():
                    try:
                        os.kill(pid, signal.SIGKILL)
                        os.waitpid(pid, 0)
                    except (ProcessLookupError, ChildProcessError):
                        continue  # ended, or reaped by whoever waits for it
                    self.ended.append(f"{pid} ({name})")
            self._left()
        finally:
            _prctl(_PR_SET_CHILD_SUBREAPER, self._was.value)

    def _left(self) -> dict[int, str]:
        """Reap the adopted orphans that ended (a zombie nobody else waits for: the command's
        own subprocesses are waited for before it ends); the living ones."""
        for pid in _children(zombies=True):
            if pid not in self._before:
                with contextlib.suppress(ChildProcessError):
                    os.waitpid(pid, os.WNOHANG)
        return {pid: name for pid, name in _children().items() if pid not in self._before}


async def reap_adopted(family: list[int], within: float = 1.0) -> None:
    """Reap those of `family` (a killed process's descendants, parents before children) that
    died and became this process's children: as the subreaper of a command (`Adopted`) it
    inherits them when their parents die, and a killed sandboxed worker's namespace processes
    would otherwise stay zombies until the command ends, one set per worker replaced. A
    process another one reaps (its parent alive outside `family`) is left to it; one that
    lives on is left to `Adopted`."""
    me, left = os.getpid(), list(family)
    deadline = time.monotonic() + within
    while left and time.monotonic() < deadline:
        waiting = []
        for pid in left:
            with contextlib.suppress(ChildProcessError):
                if os.waitpid(pid, os.WNOHANG)[0] == pid:
                    continue  # reaped
            parent = _parent(pid)
            if parent is not None and (parent == me or parent in family):
                waiting.append(pid)  # ours and not dead yet, or its parent is still dying
        left = waiting
        if left:
            await asyncio.sleep(0.02)


def _parent(pid: int) -> int | None:
    """`pid`'s parent now (None: it is gone)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="utf-8", errors="replace") as fh:
            return int(fh.read().rpartition(") ")[2].split()[1])
    except (OSError, ValueError, IndexError):
        return None


def descendants(pid: int) -> list[int]:
    """Every process below `pid` (children, theirs, ...), from /proc; empty where there is none."""
    found: list[int] = []
    todo = [pid]
    while todo:
        parent = todo.pop()
        try:
            tasks = os.listdir(f"/proc/{parent}/task")
        except OSError:
            continue
        for tid in tasks:
            try:
                with open(f"/proc/{parent}/task/{tid}/children", encoding="ascii") as fh:
                    kids = [int(p) for p in fh.read().split()]
            except (OSError, ValueError):
                continue
            found += kids
            todo += kids
    return found


def reap(pids: list[int]) -> None:
    """Wait for those of `pids` that are (or became, adopted as orphans) this process's children
    and have been killed: no zombie is left behind for each worker replaced."""
    for pid in pids:
        try:
            os.waitpid(pid, 0)
        except ChildProcessError:
            pass  # not ours: whoever is its parent reaps it


# -- folders that live as long as their process ---------------------------------------------
_SWEPT: set[str] = set()
_UNNAMED_STALE_S = 3600  # a folder an older masfuzz made (no pid in its name): stale after an hour


def own_folder(prefix: str) -> str:
    """A new temporary folder named `{prefix}{pid}-XXXXXXXX`, its owner this process. A process
    that is killed (SIGKILL, the machine's OOM killer, a CI runner's timeout) cannot remove its
    folders; the pid in the name lets the next one with the same prefix (`sweep`) tell them
    from a living process's."""
    import tempfile

    if prefix not in _SWEPT:
        _SWEPT.add(prefix)
        sweep(prefix)
    return tempfile.mkdtemp(prefix=f"{prefix}{os.getpid()}-")


def sweep(prefix: str) -> list[str]:
    """Remove the folders `own_folder(prefix)` made in processes that are gone: only this user's,
    only when the pid in the name runs no more (or, named before pids were, untouched for a
    hour), and never one a mount namespace still mounts something on (a sandbox's scratch: removing
    it would unmount the tmpfs of a sandbox that runs); the paths removed."""
    import shutil
    import tempfile

    base, removed, now = tempfile.gettempdir(), [], time.time()
    try:
        names = [n for n in os.listdir(base) if n.startswith(prefix)]
    except OSError:
        return []
    mounted: set[str] | None = None
    for name in names:
        path = os.path.join(base, name)
        try:
            st = os.lstat(path)
        except OSError:
            continue
        if st.st_uid != os.geteuid() or not os.path.isdir(path) or os.path.islink(path):
            continue
        pid, dash, _ = name[len(prefix):].partition("-")
        if dash and pid.isdigit():
            if alive(int(pid)):
                continue
        elif now - st.st_mtime < _UNNAMED_STALE_S:
            continue
        mounted = _mount_points() if mounted is None else mounted
        if path in mounted:
            continue
        shutil.rmtree(path, ignore_errors=True)
        if not os.path.exists(path):
            removed.append(path)
    return removed


def alive(pid: int) -> bool:
    """Whether a process `pid` runs (any user's)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # another user's process
    return True


def _mount_points() -> set[str]:
    """Every mount point of every mount namespace this process can see into (each read once)."""
    points, seen = set(), set()
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            namespace = os.stat(f"/proc/{pid}/ns/mnt").st_ino
            if namespace in seen:
                continue
            seen.add(namespace)
            with open(f"/proc/{pid}/mountinfo", "rb") as fh:
                points.update(os.fsdecode(line.split()[4]).replace("\\040", " ") for line in fh)
        except (OSError, IndexError):
            continue
    return points
