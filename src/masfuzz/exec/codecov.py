"""Code coverage of the target's own files, measured by coverage.py in the process that runs it.

An `ExecutionRequest` with `code_coverage=True` comes back with `trace.meta["code_coverage"]`:
the lines and arcs of the target's own files (under `target_root`: never masfuzz, the standard
library or installed packages) that the execution ran (format and SC/BC:
`masfuzz.coverage.code`). Without the flag nothing here is imported and nothing is traced.

What one execution counts: what the target's *opening* ran (importing its modules, building its
agents: what every run of it stands on) plus what its run ran. Every execution carries the
opening, so its record does not depend on which execution came first in a process, and any set
of stored executions unions to the right total. A module of the target imported lazily, during a
run, counts in the run that imported it.

The opening is always measured in a fresh interpreter, so all executors give the same numbers:
- a worker measures its own first opening, coverage started before it imports the target (the
  pool keeps measuring and non-measuring workers apart, so no worker is asked to measure after
  it has imported the target: it would refuse);
- the in-process executor's process may have imported the target long before, so it has a fresh
  interpreter open the target under coverage once (`python -m masfuzz.exec.codecov`).

Files the scenario names as its scripted model (`scripted/policy.py:policy`) are left out: they
stand in for the LLM, not the system, even when they sit in the system's folder.

Once started, coverage traces the process until `stop()` (the in-process executor's `aclose`) or
the process ends: stopping and starting it again per run would lose the threads that already
exist, and synchronous tools run on such threads (the event loop's default thread pool, in the
Agents SDK and LangGraph). For the same reason a loop that meets a new measurement gets a fresh
default thread pool (`start_run(loop=...)`): threads started before coverage are not traced.
"""

from __future__ import annotations

import asyncio
import functools
import json
import os
import sys
import tempfile
import weakref
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from masfuzz.coverage.code import FileArcs, execution_data, target_root
from masfuzz.errors import MasfuzzError
from masfuzz.loader import split_target
from masfuzz.origin import MASFUZZ_ROOT, installed_roots
from masfuzz.target import OpenedSystem, Target

META_KEY = "code_coverage"
PROBE_TIMEOUT = 120.0  # seconds for a fresh interpreter to open the target (a cold framework import)
# Warnings coverage.py would print about what is expected here (the target already imported
# in-process, runs that touch none of its files).
_QUIET = ["already-imported", "no-data-collected", "module-not-measured", "module-not-imported"]


class Meter:
    """coverage.py tracing this process, keeping the arcs run in one root's files. The root
    is a folder (every file under it) or one file (a script whose folder holds other code:
    a tool fuzzed on its own, `toolfuzz.sandbox`), its paths then relative to its folder."""

    def __init__(self, root: Path) -> None:
        import coverage

        self.root = root
        self.folder = root if root.is_dir() else root.parent  # what paths are relative to
        self.loops: weakref.WeakSet[asyncio.AbstractEventLoop] = weakref.WeakSet()
        self.cov = coverage.Coverage(data_file=None, branch=True, config_file=False,
                                     include=[f"{root}/*" if root.is_dir() else str(root)],
                                     omit=_never(root))
        # The C tracer reports a line every time it runs; sys.monitoring (the default on newer
        # Pythons) reports it once per process, which would empty every run after the first.
        self.cov.set_option("run:core", "ctrace")
        self.cov.set_option("run:disable_warnings", _QUIET)
        self.cov.start()

    def take(self) -> FileArcs:
        """The arcs run since the last `take`, per file relative to the root; then forgets them."""
        data = self.cov.get_data()
        found = {}
        for path in data.measured_files():
            rel = _relative(path, self.folder)
            # only Python source can be analysed into statements and branches (a notebook's
            # cells run from their script in .masfuzz/notebooks/, which is measured)
            if rel is not None and rel.endswith(".py"):
                found[rel] = set(data.arcs(path) or ())
        data.erase()  # the collector keeps filling the same (in-memory) data
        return found

    def stop(self) -> None:
        self.cov.stop()


def _never(root: Path) -> list[str]:
    """Folders never measured even under the root: masfuzz itself, the interpreter's libraries
    and installed packages (a script at a project's top has the virtualenv below it)."""
    folders = {Path(MASFUZZ_ROOT), *(Path(p) for p in installed_roots())}
    return [f"{f.resolve()}/*" for f in folders if not root.is_relative_to(f.resolve())]


@functools.lru_cache(maxsize=4096)  # asked per file per take: a tool fuzzed takes per call
def _relative(path: str, root: Path) -> str | None:
    try:
        return Path(os.path.realpath(path)).relative_to(root).as_posix()
    except ValueError:
        return None


_METER: list[Meter] = []  # this process's one meter (coverage.py traces a process at a time)
_OPENINGS: dict[Target, FileArcs] = {}  # what opening each target ran, measured once


def meter(root: Path) -> Meter:
    """This process's meter for `root`, started on first use (another root's meter is stopped)."""
    if _METER and _METER[0].root != root:
        stop()
    if not _METER:
        _METER.append(Meter(root))
    return _METER[0]


def stop() -> None:
    """Stop tracing this process (measuring again starts afresh)."""
    if _METER:
        _METER.pop().stop()


def open_measured(target: Target) -> OpenedSystem:
    """Open `target` with coverage on from before its import, keeping what the opening ran.
    Only meaningful where nothing of the target has been imported yet (a fresh worker)."""
    m = meter(target_root(target.ref))
    m.take()
    system = target.open()
    _OPENINGS[target] = m.take()
    return system


def opened_here(target: Target) -> bool:
    """Whether this process measured (or was told) what opening `target` ran."""
    return target in _OPENINGS


async def opening(target: Target) -> FileArcs:
    """What opening `target` runs, measured once per process by a fresh interpreter unless this
    process measured its own opening."""
    if target not in _OPENINGS:
        _OPENINGS[target] = await _probe(target)
    return _OPENINGS[target]


async def _probe(target: Target) -> FileArcs:
    from masfuzz.proc import kill_group, start_in_group

    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "opening.json")
        proc = await start_in_group(
            sys.executable, "-m", "masfuzz.exec.codecov", json.dumps(target.to_data()), out,
            stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.PIPE)
        try:
            _, err = await asyncio.wait_for(proc.communicate(), PROBE_TIMEOUT)
        except TimeoutError:
            await kill_group(proc)
            raise MasfuzzError(f"measuring the opening of {target}: no answer within "
                               f"{PROBE_TIMEOUT:g} s") from None
        if proc.returncode != 0 or not os.path.exists(out):
            tail = err.decode("utf-8", "replace").strip().splitlines()[-1:] or ["no message"]
            raise MasfuzzError(f"measuring the opening of {target} failed: {tail[0]}")
        with open(out, encoding="utf-8") as f:
            return {rel: {tuple(a) for a in arcs} for rel, arcs in json.load(f).items()}


class Run:
    """One measured run, from `start_run` to `attach`."""

    def __init__(self, meter: Meter, opening: FileArcs, skip: set[str]) -> None:
        self.meter, self.opening, self.skip = meter, opening, skip

    def data(self, found: FileArcs) -> dict[str, Any]:
        files = {rel: self.opening.get(rel, set()) | found.get(rel, set())
                 for rel in {*self.opening, *found} if rel not in self.skip}
        return execution_data(self.meter.root, files)

    def attach(self, trace: Any) -> Any:
        """`trace` carrying what ran since the run started (and what the opening ran)."""
        data = self.data(self.meter.take())
        return trace.model_copy(update={"meta": {**trace.meta, META_KEY: data}})


def start_run(target: Target, scenario: Any, loop: asyncio.AbstractEventLoop | None = None) -> Run:
    """Start measuring a run of `target` (already opened, its opening known: `open_measured`
    or `opening`). `loop`: the event loop the run uses, if it may have started threads before
    coverage did."""
    if target not in _OPENINGS:
        raise MasfuzzError(f"code coverage of {target}: its opening was not measured")
    m = meter(target_root(target.ref))
    if loop is not None and loop not in m.loops:
        loop.set_default_executor(ThreadPoolExecutor(thread_name_prefix="masfuzz-measured"))
        m.loops.add(loop)
    m.take()  # what ran before this run is not its own
    return Run(m, _OPENINGS[target], model_files(scenario, m.root))


def model_files(scenario: Any, root: Path) -> set[str]:
    """The files of the scripted models the scenario names, relative to the root."""
    out = set()
    for model in (scenario.sut_model, *scenario.agent_models.values()):
        provider, _, ref = (model or "").partition("/")
        if provider != "scripted":
            continue
        where, _ = split_target(ref)
        if where.endswith(".py") or "/" in where:
            path: str | None = str(Path(where).expanduser())
        else:
            path = getattr(sys.modules.get(where), "__file__", None)
        rel = _relative(path, root) if path else None
        if rel is not None:
            out.add(rel)
    return out


def main(argv: list[str]) -> int:
    """`python -m masfuzz.exec.codecov TARGET_JSON OUT`: open the target in this fresh
    interpreter under coverage and write what the opening ran to OUT."""
    target = Target.from_data(json.loads(argv[0]))
    open_measured(target)
    with open(argv[1], "w", encoding="utf-8") as f:
        json.dump({rel: sorted(arcs) for rel, arcs in _OPENINGS[target].items()}, f)
    return 0


if __name__ == "__main__":
    status = main(sys.argv[1:])
    sys.stderr.flush()
    os._exit(status)  # frameworks leave non-daemon threads behind (as in the worker)
