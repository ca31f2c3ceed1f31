"""A memory cgroup around one sandbox: the memory its processes use together.

RLIMIT_AS (`masfuzz.exec.sandbox.Limits.memory_mb`) is a limit per process: a run that forks
N children may use N times it. The kernel's one limit over a group of processes is a cgroup's
memory controller, version 1 (`memory.limit_in_bytes`) or 2 (`memory.max`). masfuzz makes one
below its own cgroup for each sandboxed worker, before the worker enters its namespaces (inside
them it no longer sees /sys/fs/cgroup), and moves the worker in: everything the worker and its
runs start is counted against the one limit. When the group goes over it, the kernel's OOM
killer ends one of its processes with SIGKILL and counts the kill (`oom_kill` in
`memory.oom_control` or `memory.events`): that count is how a silent SIGKILL is told apart
from the app's own crash (`oom_killed`).

Creating a cgroup takes write access to the parent's folder: root has it; an unprivileged user
has it only where one was delegated (systemd's user service on cgroup version 2, where masfuzz
moves itself into a leaf so that the delegated cgroup may hand the memory controller down:
`_delegate_memory`). Elsewhere `create` returns None and the per-process limit is all there is
(docs/sandbox.md says so).
"""

from __future__ import annotations

import atexit
import contextlib
import errno
import os
from pathlib import Path

PREFIX = "masfuzz-"  # a sandbox's cgroup: masfuzz-PID-N (PID: the masfuzz process that made it)
_made: list[int] = [0]


def _own_memory_cgroup() -> Path | None:
    """The folder of this process's memory cgroup, version 1 or 2; None when there is none
    mounted here."""
    try:
        lines = Path("/proc/self/cgroup").read_text().splitlines()
        mounts = Path("/proc/self/mountinfo").read_text().splitlines()
    except OSError:
        return None
    v1 = next((ln.split(":", 2)[2] for ln in lines if "memory" in ln.split(":", 2)[1].split(",")), None)
    v2 = next((ln.split(":", 2)[2] for ln in lines if ln.startswith("0::")), None)
    for line in mounts:
        fields = line.split()
        dash = fields.index("-")
        kind, options = fields[dash + 1], fields[dash + 3].split(",")
        root, point = fields[3], fields[4]
        if kind == "cgroup" and "memory" in options and v1 is not None:
            own = v1
        elif kind == "cgroup2" and v2 is not None and "memory" in _controllers(point):
            own = v2
        else:
            continue
        relative = os.path.relpath(own, root) if own.startswith(root) else None
        if relative is not None:
            return Path(point) / relative if relative != "." else Path(point)
    return None


def _controllers(point: str) -> list[str]:
    try:
        return Path(point, "cgroup.controllers").read_text().split()
    except OSError:
        return []


def create(memory_mb: int) -> str | None:
    """A new memory cgroup limited to `memory_mb` (swap included where the kernel counts it),
    below this process's own; its path, or None where none can be made (not root and none
    delegated, no memory controller). Stale ones of gone masfuzz processes are removed first."""
    parent = _own_memory_cgroup()
    if parent is None or not os.access(parent, os.W_OK):
        return None
    _remove_left()
    sweep(parent)
    _made[0] += 1
    path = parent / f"{PREFIX}{os.getpid()}-{_made[0]}"
    limit = str(memory_mb * 2**20)
    try:
        path.mkdir()
    except OSError:
        return None
    v2 = (path / "memory.max").exists() or _delegate_memory(parent, path)
    try:
        if v2:
            (path / "memory.max").write_text(limit)
            with contextlib.suppress(OSError):
                (path / "memory.swap.max").write_text("0")
        else:
            (path / "memory.limit_in_bytes").write_text(limit)
            with contextlib.suppress(OSError):  # absent when the kernel does not account swap
                (path / "memory.memsw.limit_in_bytes").write_text(limit)
    except OSError:
        remove(str(path))
        return None
    return str(path)


def _delegate_memory(parent: Path, child: Path) -> bool:
    """On cgroup version 2, give `parent`'s children the memory controller when it has it but
    does not hand it down (a cgroup systemd delegated to a user, `systemd-run --user -p
    Delegate=yes`; a container's own root): the kernel does so only for a cgroup that holds no
    process, so masfuzz first moves itself into a leaf of its own (`masfuzz-PID-self`), and back
    when another process is still there (the user's shell). Whether `child` has memory.max now."""
    if "memory" not in _controllers(str(parent)):
        return False
    control = parent / "cgroup.subtree_control"
    try:
        control.write_text("+memory")
    except OSError as exc:
        if exc.errno != errno.EBUSY:
            return False
        leaf = parent / f"{PREFIX}{os.getpid()}-self"
        try:
            leaf.mkdir(exist_ok=True)
            moved = enter(str(leaf))
            if moved:
                control.write_text("+memory")
        except OSError:
            moved = False
        if not moved:
            enter(str(parent))
            with contextlib.suppress(OSError):
                leaf.rmdir()
            return False
    return (child / "memory.max").exists()


def enter(path: str, pid: int = 0) -> bool:
    """Move `pid` (0: this process) into the cgroup at `path`; its children are born there."""
    try:
        Path(path, "cgroup.procs").write_text(str(pid or os.getpid()))
    except OSError:
        return False
    return True


def oom_killed(path: str | None) -> int:
    """How many processes of the cgroup the kernel's OOM killer ended (0 when unknown)."""
    if not path:
        return 0
    for name in ("memory.events", "memory.oom_control"):  # read before and after every run
        with contextlib.suppress(OSError, ValueError), open(os.path.join(path, name)) as f:
            for line in f.read().splitlines():
                key, _, value = line.partition(" ")
                if key == "oom_kill":
                    return int(value)
    return 0


def remove(path: str | None) -> None:
    """Remove the cgroup once its processes are gone (the kernel refuses it before: a killed
    sandbox's processes die a moment after its worker); one still busy is tried again on the
    next `create` and when masfuzz ends."""
    if not path:
        return
    try:
        os.rmdir(path)
    except FileNotFoundError:
        pass
    except OSError:
        if not _LEFT:
            atexit.register(_remove_left)
        _LEFT.add(path)


def _remove_left() -> None:
    for path in list(_LEFT):
        try:
            os.rmdir(path)
        except OSError as exc:
            if exc.errno == errno.EBUSY:
                continue  # still busy: tried again later
        _LEFT.discard(path)


_LEFT: set[str] = set()


def sweep(parent: Path) -> None:
    """Remove the empty cgroups of masfuzz processes that are gone (killed before `remove`)."""
    from masfuzz.proc import alive

    with contextlib.suppress(OSError):
        for entry in parent.iterdir():
            pid, dash, _ = entry.name[len(PREFIX):].partition("-")
            if entry.name.startswith(PREFIX) and dash and pid.isdigit() and not alive(int(pid)):
                remove(str(entry))
