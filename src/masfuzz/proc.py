"""Processes masfuzz starts for a system under test: each in a process group of its own, so
that one kill ends it and everything it started.

A process the system under test starts the way a daemon does (fork, `setsid`, fork again) leaves
every group masfuzz could kill. So a command makes masfuzz the subreaper of its descendants
(`Adopted`, Linux's PR_SET_CHILD_SUBREAPER): such an orphan becomes masfuzz's child instead of
init's, and whatever of them is still running when the command ends is killed and reaped.
"""

from __future__ import annotations

import asyncio
import ctypes
import os
import signal
import sys
from collections.abc import Iterator
from typing import Any


async def start_in_group(*argv: str, **options: Any) -> asyncio.subprocess.Process:
    """`asyncio.create_subprocess_exec`, the child leading a new session and process group."""
    return await asyncio.create_subprocess_exec(*argv, start_new_session=True, **options)


async def kill_group(proc: asyncio.subprocess.Process, *, reap_within: float = 5.0) -> None:
    """Kill the process group `proc` leads (its children too) and reap `proc`."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    try:
        await asyncio.wait_for(proc.wait(), reap_within)
    except TimeoutError:
        pass
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


def _children() -> dict[int, str]:
    """This process's living children (not zombies): pid -> command name, from /proc."""
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
        if len(fields) > 1 and fields[1] == str(me) and fields[0] != "Z":
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
            for _ in range(100):  # a killed orphan's own children are adopted next
                left = {pid: name for pid, name in _children().items() if pid not in self._before}
                if not left:
                    break
                for pid, name in left.items():
                    try:
                        os.kill(pid, signal.SIGKILL)
                        os.waitpid(pid, 0)
                    except (ProcessLookupError, ChildProcessError):
                        continue  # ended, or reaped by whoever waits for it
                    self.ended.append(f"{pid} ({name})")
        finally:
            _prctl(_PR_SET_CHILD_SUBREAPER, self._was.value)
