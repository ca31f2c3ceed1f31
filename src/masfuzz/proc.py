"""Processes masfuzz starts for a system under test: each in a process group of its own, so
that one kill ends it and everything it started."""

from __future__ import annotations

import asyncio
import os
import signal
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
