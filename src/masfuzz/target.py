"""`Target`: what the user pointed masfuzz at, parsed once and opened once per process.

A target is the reference as the user named it (`file.py:attr`, `pkg.mod:factory("x")`,
`file.py:a,b,c`, a manifest `.yaml`/`.json`), the orchestration graph they supplied for apps that
orchestrate agents in plain Python (`--coordinator`, `--link`), and optionally the adapter to use
instead of detecting one. It is a small frozen value: it travels whole to executors, workers,
run records, suites and the pytest plugin (`to_data`/`from_data`), so every place that runs the
system runs the same graph.

`Target.open()` imports and extracts the system once per process and hands every later caller
the same `OpenedSystem`: a `file.py:build()` factory is called once, and the spec a campaign plans
from belongs to the very object its executions run.
"""

from __future__ import annotations

import contextlib
import sys
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from masfuzz.adapters.orchestration import Orchestration  # the graph a target carries
from masfuzz.errors import MasfuzzError, TargetError

if TYPE_CHECKING:
    from masfuzz.adapters.base import Adapter
    from masfuzz.scenario import Scenario
    from masfuzz.spec.model import WorkflowSpec
    from masfuzz.trace import Trace


@dataclass(frozen=True)
class Target:
    ref: str
    orchestration: Orchestration = field(default_factory=Orchestration)
    adapter: str | None = None  # "pkg.mod:Class" or "file.py:Class": skip detection

    @classmethod
    def of(cls, target: "Target | str", orchestration: Orchestration | None = None, *,
           coordinator: str | None = None, links: Any = (), adapter: Any = None) -> "Target":
        """A target from what a caller holds: a `Target`, or a reference plus the graph options."""
        if isinstance(target, Target):
            return target
        if not isinstance(target, str) or not target.strip():
            raise TargetError(f"target {target!r}: expected file.py:attr, pkg.mod:attr or a manifest")
        if coordinator or links:
            orchestration = Orchestration.parse(coordinator, links)
        return cls(target, orchestration or Orchestration(), adapter_name(adapter))

    def to_data(self) -> dict[str, Any]:
        out: dict[str, Any] = {"ref": self.ref}
        if self.orchestration:
            out["orchestration"] = self.orchestration.to_data()
        if self.adapter:
            out["adapter"] = self.adapter
        return out

    @classmethod
    def from_data(cls, data: Any) -> "Target":
        if isinstance(data, str):
            return cls(data)
        if not isinstance(data, dict) or not isinstance(data.get("ref"), str):
            raise TargetError(f"target: expected a mapping with a 'ref', not {data!r}")
        return cls(data["ref"], Orchestration.from_data(data.get("orchestration")),
                   data.get("adapter"))

    def __str__(self) -> str:
        return self.ref

    def opened(self) -> "OpenedSystem | None":
        """The system if this process has opened it already (`open`), else None."""
        return _OPENED.get(self)

    def open(self) -> "OpenedSystem":
        """The system, loaded and extracted on this process's first call only."""
        system = _OPENED.get(self)
        if system is None:
            from masfuzz.sutenv import Refusal, sut_environment

            # an app may build its model client as it loads, or even run itself; what it prints
            # meanwhile goes to stderr, since masfuzz's stdout is its own output (--format json)
            with sut_environment(), Refusal.loading() as answered, \
                    contextlib.redirect_stdout(sys.stderr):
                system = _open(self)
            if answered[0]:
                note = (f"the app called a model {answered[0]} time(s) while its code loaded (it runs "
                        "at import time): masfuzz answered with a placeholder, no provider was reached")
                system.spec = system.spec.model_copy(update={"notes": (*system.spec.notes, note)})
            _OPENED[self] = system
        return system


def adapter_name(adapter: Any) -> str | None:
    """An adapter as a name a worker process can import (instances cannot cross processes)."""
    if adapter is None or isinstance(adapter, str):
        return adapter
    cls = adapter if isinstance(adapter, type) else type(adapter)
    return f"{cls.__module__}:{cls.__qualname__}"


@dataclass
class OpenedSystem:
    """A target loaded once: its spec, the object its adapter runs, and the adapter."""

    target: Target
    spec: "WorkflowSpec"
    obj: Any  # the framework object (the spec itself for a manifest)
    adapter: "Adapter | None"  # None until something runs it (a manifest materialises lazily)

    def runner(self) -> "Adapter":
        if self.adapter is None:
            from masfuzz.adapters.manifest import ADAPTER  # materialises the manifest

            self.adapter = ADAPTER()
        return self.adapter

    def check(self, scenario: "Scenario") -> None:
        """Bad input in a scenario, named before anything runs: a per-agent model for an agent
        the system does not have, or no user input (only a black-box command carries its own)."""
        if scenario.input is None:
            raise TargetError(f"{self.spec.system.id}: a scenario needs an input (--input TEXT)")
        known = [a.id for a in self.spec.agents]
        for option, agents in (("--agent-model", scenario.agent_models),
                               ("--agent-temperature", scenario.temperatures)):
            for agent in agents:
                if agent not in known:
                    raise TargetError(f"{option} {agent}: no agent {agent!r} in "
                                      f"{self.spec.system.id} (agents: {', '.join(known)})")

    async def run(self, scenario: "Scenario") -> "Trace":
        """Run one scenario; an exception escaping the adapter is recorded as a crash: masfuzz's
        own (`harness_cause`) when it was raised in masfuzz's code (`_raised_by_masfuzz`), the
        system's when in the app's."""
        from masfuzz.adapters.base import execute
        from masfuzz.trace import HARNESS_CAUSE, ended_trace

        t0 = time.perf_counter()
        try:
            return await execute(self.runner(), self.obj, self.spec, scenario)
        except MasfuzzError:
            raise
        except Exception as exc:  # the adapter's contract says this never happens; be safe
            return ended_trace(
                scenario, "crash", f"{type(exc).__name__}: {exc}", time.perf_counter() - t0,
                system_id=self.spec.system.id, framework=self.spec.system.framework,
                meta={HARNESS_CAUSE: f"masfuzz's {self.spec.system.framework} adapter failed "
                                     f"({type(exc).__name__}), not the system under test"}
                if _raised_by_masfuzz(exc) else {},
            )


def _raised_by_masfuzz(exc: BaseException) -> bool:
    """Was `exc` raised in masfuzz's code rather than the app's? The innermost frame of the
    traceback that is either decides; the standard library's and installed packages' frames
    (a framework's, `copy.deepcopy`'s) are passed over, since either side may have called them.
    An adapter records the system's exceptions as the run's end itself, so one escaping it is
    mostly masfuzz misreading the system (a PydanticAI factory's Agent taken for its answer),
    but an app's own code raising past the adapter is still the app's crash."""
    import traceback

    from masfuzz.origin import origin

    for frame in reversed(traceback.extract_tb(exc.__traceback__)):
        whose = origin(frame.filename)
        if whose in ("masfuzz", "app"):
            return whose == "masfuzz"
    return True


_OPENED: dict[Target, OpenedSystem] = {}


def _open(target: Target) -> OpenedSystem:
    from masfuzz.adapters.base import instantiate, program_target, resolve
    from masfuzz.adapters.orchestration import assemble, needed
    from masfuzz.loader import load_target
    from masfuzz.spec.manifest import is_manifest_path, load_manifest
    from masfuzz.spec.validate import validate

    ref, orchestration = target.ref, target.orchestration
    if is_manifest_path(ref):
        if orchestration:
            raise TargetError(f"{ref}: a manifest states its own graph; --coordinator and "
                              "--link apply to Python targets (edit the manifest instead)")
        spec = load_manifest(ref)
        adapter = instantiate(target.adapter) if target.adapter else None
        return OpenedSystem(target, spec, spec, adapter)
    if target.adapter:
        adapter = instantiate(target.adapter)
        obj = load_target(ref).obj
        if not adapter.accepts(obj):
            raise TargetError(f"{ref}: adapter {type(adapter).__name__} does not accept a "
                              f"{type(obj).__module__}.{type(obj).__qualname__}")
        return OpenedSystem(target, _extracted(adapter, obj, ref), obj, adapter)
    notes: list[str] = []
    program = None if orchestration else program_target(ref)
    if program is not None:
        adapter, obj = program
    else:
        if needed(ref, orchestration):
            entry, notes = assemble(ref, orchestration)
        else:
            entry = load_target(ref).obj
        adapter, obj = resolve(entry, ref)
    spec = validate(_extracted(adapter, obj, ref), ref)
    if notes:
        spec = spec.model_copy(update={"notes": tuple(dict.fromkeys((*spec.notes, *notes)))})
    return OpenedSystem(target, spec, obj, adapter)


def _extracted(adapter: Any, obj: Any, ref: str) -> "WorkflowSpec":
    """The adapter's spec of `obj`; its refusal (a graph whose nodes run no agent, a project
    class with two @crew methods, a framework release it cannot read) is a load error like any
    other: one line naming the target first, whatever the adapter wrote."""
    try:
        return adapter.extract(obj, target=ref)
    except TargetError as exc:
        if str(exc).startswith(f"{ref}:"):
            raise
        raise TargetError(f"{ref}: {exc}") from None


def open_target(target: "Target | str", orchestration: Orchestration | None = None, *,
                coordinator: str | None = None, links: Any = ()) -> OpenedSystem:
    """`Target.of(...).open()`: the opened system for a reference and its graph options."""
    return Target.of(target, orchestration, coordinator=coordinator, links=links).open()
