"""One analysis of a run that every reporter renders (coverage.py's analysis/report split).

An `Analysis` holds the structure of the system (the counts the paper's Table I reports), the
structural coverage with its contexts, the failures, and the sections the campaign's phases left
in the store (generation, tool fuzzing, usage). `analyze(store, run)` is the one way every
command, report and the Python API get a run's numbers: `cover` prints the very document
`report` prints for the same run. The reporters never recompute anything: they format this.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from masfuzz.coverage.structural import CriterionResult, StructuralCoverage
from masfuzz.graph.coordination import CoordinationGraph
from masfuzz.graph.obligations import CRITERION_NAMES, ObligationSpace
from masfuzz.spec.model import WorkflowSpec
from masfuzz.trace import PROCESS_RUN, Trace


@dataclass
class Structure:
    """The paper's Table I columns for one workflow."""

    agents: int
    tools: int
    allowed: int
    restricted: int
    delegations: int
    obligations: int
    unreachable: list[str]

    @classmethod
    def of(cls, graph: CoordinationGraph, space: ObligationSpace) -> "Structure":
        return cls(
            agents=len(space.reach), tools=len(graph.tools), allowed=len(space.use_tool),
            restricted=len(space.restrict_tool), delegations=len(space.delegate),
            obligations=len(space), unreachable=graph.unreachable_agents(),
        )


@dataclass(frozen=True)
class Point:
    """Where the run stood after one more execution: its number, seconds since the first one
    was recorded, C1..C4 witnessed so far, the app's failures found so far, and, in a run with
    FLARE's loop, its paths and behaviours covered so far (`flare`, empty otherwise)."""

    execution: int
    seconds: float
    covered: dict[str, int]
    failures: int
    flare: dict[str, int] = field(default_factory=dict)


@dataclass
class Analysis:
    # None for a run with no workflow behind it (`masfuzz tools` on plain tools)
    spec: WorkflowSpec | None
    graph: CoordinationGraph | None = None
    space: ObligationSpace | None = None
    structure: Structure | None = None
    coverage: StructuralCoverage | None = None
    scenarios: int = 0
    failures: list[dict[str, Any]] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)  # sections: run, generation, tools, usage
    # The traces of the executions that failed (execution id -> trace): the events a failure's
    # evidence points into, for reports that show them.
    traces: dict[int, Trace] = field(default_factory=dict)
    # Coverage over the course of the run: one point per execution, in the order recorded.
    timeline: list["Point"] = field(default_factory=list)
    # Whether the run passes its gates (`masfuzz.report.verdict.Verdict`): the API's campaigns
    # set it for their --fail-under and --fail-on, as the CLI's exit status says it
    verdict: Any = None

    @classmethod
    def of_spec(cls, spec: WorkflowSpec) -> "Analysis":
        graph = CoordinationGraph(spec)
        space = graph.obligations()
        return cls(spec, graph, space, Structure.of(graph, space))

    @classmethod
    def of_traces(cls, spec: WorkflowSpec, traces: list[Trace]) -> "Analysis":
        a = cls.of_spec(spec)
        a.coverage = StructuralCoverage(a.space).add_all(traces)
        a.scenarios = len({t.scenario_id for t in traces})
        return a

    def criteria(self) -> list[CriterionResult]:
        return self.coverage.results() if self.coverage else []

    @staticmethod
    def criterion_name(criterion: str) -> str:
        return CRITERION_NAMES.get(criterion, criterion)

    def gated(self) -> tuple[int, int]:
        """(witnessed, total) of C1+C2+C4: what `--fail-under` gates on (C3 counts restricted
        calls the system attempted, which no one wants more of)."""
        rs = [r for r in self.criteria() if r.criterion != "C3"]
        return sum(r.covered for r in rs), sum(r.total for r in rs)

    def coverage_percent(self) -> float:
        covered, total = self.gated()
        return 100.0 * covered / total if total else 100.0

    def gate(self, fail_under: float | None) -> str | None:
        """Why a CI gate fails this analysis, or None."""
        if fail_under is None or self.coverage is None:
            return None
        pct = self.coverage_percent()
        if pct < fail_under:
            return f"C1+C2+C4 coverage {pct:.1f}% is under --fail-under {fail_under:g}%"
        return None


# Said in every report of a run whose system under test ran outside the OS sandbox.
UNSANDBOXED = ("--unsafe-no-sandbox: the system under test and its tools ran WITHOUT the OS "
               "sandbox, with this machine's files, network and processes")
# ... and of one whose system under test ran in masfuzz's own process (`--executor inprocess`,
# the fast and debugging path: no worker, so no sandbox)
IN_PROCESS = ("--executor inprocess: the system under test ran inside masfuzz's own process, "
              "WITHOUT the OS sandbox, with this machine's files, network and processes (fuzzed "
              "tool calls still ran in the tool sandbox)")
# in a run's config when it did: True for --unsafe-no-sandbox, "inprocess" for --executor inprocess
UNSANDBOXED_KEY = "unsafe_no_sandbox"


def unsandboxed_warning(value: object) -> str | None:
    """The warning for a run config's `UNSANDBOXED_KEY` value (None: the system was sandboxed)."""
    if not value:
        return None
    return IN_PROCESS if value == "inprocess" else UNSANDBOXED


def warnings(a: "Analysis") -> list[str]:
    """What every report of `a` says before anything else."""
    config = (a.extra.get("run") or {}).get("config") or {}
    warning = unsandboxed_warning(config.get(UNSANDBOXED_KEY))
    return [warning] if warning else []


WHO_AND_WHEN = {"agent", "step", "step_ref", "subject", "found_by"}

# A failure shown by a run that shared its process with earlier runs (AFL++'s persistent mode,
# `--persistent N`): what they left in memory may be its cause, which no fresh fork would show.
SHARED_PROCESS = ("possibly caused by state an earlier run left: the run that showed it shared its "
                  "process with {earlier} before it (--persistent; it was run {place} of that "
                  "process); `masfuzz replay --persistent N` runs each case in a fresh fork too and "
                  "says which ran otherwise")


# The same under --executor inprocess, which opens the system once and runs every scenario of the
# process in it.
IN_PROCESS_SHARED = ("possibly caused by state an earlier run left: --executor inprocess ran it in "
                     "masfuzz's own process after {earlier} of the same system (it was run {place} of "
                     "that process); --executor pool runs each scenario in a fresh fork")


def shared_process(failure: dict[str, Any], trace: Trace | None) -> None:
    """Flag `failure` (a report's dict) when the run that showed it shared its process with
    earlier runs: its place among them (`process_run`) and what that means (`shared_process`)."""
    place = trace.meta.get(PROCESS_RUN, 1) if trace is not None else 1
    if isinstance(place, int) and place > 1:
        failure["process_run"] = place
        said = IN_PROCESS_SHARED if trace.meta.get("executor") == "inprocess" else SHARED_PROCESS
        failure["shared_process"] = said.format(
            place=place, earlier="1 run" if place == 2 else f"{place - 1} runs")


def analyze(store: Any, run_id: int | None = None) -> Analysis:
    """The analysis of one stored run (default: the latest), read from the store alone."""
    from masfuzz.errors import MasfuzzError

    if run_id is None:
        run_id = store.latest_run()
        if run_id is None:
            raise MasfuzzError(f"{store.path}: the store holds no run")
    info = store.run_info(run_id)
    if info["spec_id"] is not None:
        a = Analysis.of_spec(store.get_spec(info["spec_id"]))
        a.coverage = StructuralCoverage.from_contexts(a.space, store.coverage_items(run_id))
    else:
        a = Analysis(None)
    a.scenarios = store.execution_count(run_id)
    # who and when (`agent`, `step`) even for failures stored before failures said them
    a.failures = [{**f.as_dict(), **store.blamed(f).model_dump(mode="json", include=WHO_AND_WHEN)}
                  for f in store.failures(run_id)]
    for eid in sorted({f["execution_id"] for f in a.failures if f.get("execution_id") is not None}):
        trace = store.trace(eid)
        if trace is not None:
            a.traces[eid] = trace
    for f in a.failures:
        shared_process(f, a.traces.get(f.get("execution_id")))
    a.extra["run"] = {k: info[k] for k in ("id", "command", "target", "config", "status",
                                            "started", "finished")}
    for name, section in _sections(store, run_id, a, info).items():
        if section or name in ALWAYS_LISTED:
            a.extra[name] = section
    if a.space is not None:
        fuzz = a.extra.get("fuzz")
        flare = {"paths": set(fuzz["paths_covered"]), "behaviours": set(fuzz["behaviours_covered"])} \
            if fuzz else {}
        a.timeline = _timeline(store, run_id, a.space, a.failures, flare)
    return a


# Sections a report has even when empty: `[]` says the judge rejected nothing, as `failures`
# says nothing was found, so a reader need not test for the key.
ALWAYS_LISTED = ("rejected_proposals",)


def _timeline(store: Any, run_id: int, space: ObligationSpace, failures: list[dict[str, Any]],
              flare: dict[str, set[str]]) -> list[Point]:
    """Coverage after each execution, counted as the final coverage counts it (an item is an
    obligation of the space; a FLARE item one of the items the fuzz section counts as covered),
    so the last point agrees with the report's totals."""
    from masfuzz.graph.obligations import CRITERIA, Obligation

    found_at = sorted(f["execution_id"] for f in failures
                      if f.get("attribution", "sut") == "sut" and f.get("execution_id") is not None)
    seen: dict[str, set[tuple[str, ...]]] = {c: set() for c in CRITERIA.values()}
    reached: dict[str, set[str]] = {name: set() for name in flare}
    points: list[Point] = []
    start: float | None = None
    for n, (eid, created, items) in enumerate(store.execution_items(run_id), 1):
        start = created if start is None else start
        for item in items:
            if Obligation.is_id(item):
                ob = Obligation.parse(item)
                if ob.endpoints in space.by_kind(ob.kind):
                    seen[ob.criterion].add(ob.endpoints)
            for name, items_of in flare.items():
                if item in items_of:
                    reached[name].add(item)
        points.append(Point(n, round(created - start, 3), {c: len(s) for c, s in seen.items()},
                            sum(1 for e in found_at if e <= eid),
                            {name: len(s) for name, s in reached.items()}))
    return points


STORED_BEFORE_PHASES = {"cover": ["structural"], "fuzz": ["flare"], "run": ["structural", "flare"]}


def _sections(store: Any, run_id: int, a: Analysis, info: dict[str, Any]) -> dict[str, Any]:
    """What each phase left in the store, as report sections."""
    from masfuzz.report.fuzzing import fuzz_section
    from masfuzz.report.generation import generation_section
    from masfuzz.report.tools import tools_section

    usage = store.usage(run_id)
    # the phases the run's configuration chose (`cover` and `fuzz` are presets of `run`); a
    # run stored before configurations named them: its command's
    phases = (info.get("config") or {}).get("phases") or STORED_BEFORE_PHASES.get(info["command"], [])
    return {
        "phases": (info.get("summary") or {}).get("phases"),  # how each phase ended
        "replayed": (info.get("summary") or {}).get("replayed"),
        "generation": generation_section(store, run_id, a.spec, info, usage)
        if "structural" in phases else None,
        "fuzz": fuzz_section(store, run_id, a.spec, info, a.failures)
        if a.spec is not None and "flare" in phases else None,
        "tools": tools_section(store.tool_findings(run_id), info),
        # proposals the judge agent rejected: no failures, shown so that a user sees what was
        # decided against (`masfuzz.fuzz.failure_agents.confirm_proposals`)
        "rejected_proposals": store.notes(run_id),
        "usage": usage,
    }
