"""A fuzz session: everything one `masfuzz tools` run holds, and nothing global.

The published ToolFuzz keeps its fuzzer state in module globals and hard-codes one model; here a
`FuzzSession` owns the configuration (seed, budgets, sandbox limits), the two model clients
(tester and agent) and the per-tool results, and runs the runtime pipeline, the correctness
pipeline and the documentation auto-fix for each tool. Every run is seeded and says so.

Up to `workers` tools are tested at once, each in its own sandbox process with its own seed
stream, so a tool's results do not depend on which others run beside it (the reports come back
in the tools' order, the same as one at a time); what concurrency buys is the model stages'
waiting, and the sandboxes' calls, overlapping.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from masfuzz.errors import MasfuzzError
from masfuzz.llm.accounting import Usage, tab
from masfuzz.llm.types import ModelClient
from masfuzz.toolfuzz.correctness import CorrectnessReport, correctness_pipeline
from masfuzz.toolfuzz.docfix import DocFix, fix_documentation
from masfuzz.toolfuzz.metrics import Chao1, chao1, tc_per_ue
from masfuzz.toolfuzz.poisoning import Poisoning, check
from masfuzz.toolfuzz.runtime import RuntimeReport, runtime_pipeline
from masfuzz.toolfuzz.sandbox import CallState, Sandbox, SandboxLimits
from masfuzz.toolfuzz.tools import FuzzTool


@dataclass
class SessionConfig:
    calls: int = 200
    seed: int = 0
    model: str | None = None  # the tester: prompt writer, template/infill generator, oracle, fixer
    sut_model: str | None = None  # the agent that uses the tool
    correctness: bool = False
    fix_docs: bool = False
    fix_candidates: int = 3
    templates: int = 3
    set_size: int = 5
    limits: SandboxLimits = field(default_factory=SandboxLimits)
    isolate: bool = True  # False only when the user said --unsafe-no-sandbox
    state: CallState = field(default_factory=CallState)  # --fixture and --setup
    workers: int = 1  # tools tested at once


@dataclass
class ToolReport:
    tool: FuzzTool
    runtime: RuntimeReport
    seconds: float
    correctness: CorrectnessReport | None = None
    docfix: DocFix | None = None
    # The model calls made for this tool, per role ("tester", "agent"): `model_use`'s entries
    models: dict[str, dict[str, Any]] = field(default_factory=dict)
    # Instructions to the model its documentation carries (masfuzz.toolfuzz.poisoning)
    poisoning: list[Poisoning] = field(default_factory=list)

    @property
    def unique_errors(self) -> int:
        return len(self.runtime.fuzz.tool_errors())

    @property
    def tc_ue(self) -> float | None:
        return tc_per_ue(self.runtime.fuzz.calls, self.unique_errors)

    @property
    def chao1(self) -> Chao1:
        return chao1(self.runtime.fuzz.abundances())


@dataclass
class SessionReport:
    config: SessionConfig
    tools: list[ToolReport]
    notes: list[str]
    target: str = ""

    @property
    def calls(self) -> int:
        return sum(t.runtime.fuzz.calls for t in self.tools)

    @property
    def unique_errors(self) -> int:
        return sum(t.unique_errors for t in self.tools)

    @property
    def chao1(self) -> Chao1:
        return chao1([a for t in self.tools for a in t.runtime.fuzz.abundances()])


class FuzzSession:
    def __init__(self, config: SessionConfig, *, tester: ModelClient | None = None,
                 agent: ModelClient | None = None) -> None:
        self.config = config
        self.tester = tester
        self.agent = agent
        self.neighbours: list[str] = []  # the names of the tools tested beside each other
        if tester is None and agent is None and (config.model or config.sut_model):
            self.tester, self.agent = _clients(config)
        if (config.correctness or config.fix_docs) and (self.tester is None or self.agent is None):
            raise MasfuzzError("--correctness and --fix-docs need a model: give --model (and "
                               "optionally --sut-model for the agent)")

    async def test_tool(self, tool: FuzzTool, *, stop: Callable[[], str | None] | None = None,
                        time_left: Callable[[], float | None] | None = None) -> ToolReport:
        """Test one tool; `stop` and `time_left` are a caller's budget (`fuzz_tool`'s)."""
        cfg = self.config
        start = time.perf_counter()
        with tab() as spent, Sandbox(tool, cfg.limits, isolate=cfg.isolate, state=cfg.state) as box:
            runtime = await runtime_pipeline(tool, box, calls=cfg.calls, seed=cfg.seed,
                                             agent=self.agent, tester=self.tester, stop=stop,
                                             time_left=time_left)
            report = ToolReport(tool, runtime, 0.0)
            if cfg.correctness or cfg.fix_docs:
                assert self.agent is not None and self.tester is not None
                report.correctness = await correctness_pipeline(
                    tool, box, self.agent, self.tester, seed=cfg.seed, templates=cfg.templates,
                    size=cfg.set_size)
                if cfg.fix_docs and report.correctness.error_count:
                    report.docfix = await fix_documentation(
                        tool, report.correctness, box, self.agent, self.tester, seed=cfg.seed,
                        k=cfg.fix_candidates)
        report.poisoning = check(tool.name, tool.description, tool.schema, self.neighbours)
        report.seconds = time.perf_counter() - start
        # this tool's calls only (the tab), even with other tools' calls going on at once
        report.models = {who: model_use(self._model_of(who), spent.of_role(role))
                         for who, role in self._metered()}
        return report

    def _model_of(self, who: str) -> str:
        client = self.tester if who == "tester" else self.agent
        return str(getattr(client, "model_string", "") or "")

    def _metered(self) -> list[tuple[str, str]]:
        """(who, the role its requests carry) of the tester and the agent (one client may play
        both); a client that keeps no ledger is not counted."""
        return [(who, role) for who, client, role in (("tester", self.tester, "tester"),
                                                      ("agent", self.agent, "sut"))
                if getattr(client, "ledger", None) is not None]

    async def run_async(self, tools: list[FuzzTool], notes: list[str] | None = None,
                        target: str = "") -> SessionReport:
        slots = asyncio.Semaphore(max(1, self.config.workers))
        self.neighbours = [t.name for t in tools]

        async def one(tool: FuzzTool) -> ToolReport:
            async with slots:
                return await self.test_tool(tool)

        reports = list(await asyncio.gather(*(one(t) for t in tools)))  # in the tools' order
        return SessionReport(self.config, reports, list(notes or []), target)

    def run(self, tools: list[FuzzTool], notes: list[str] | None = None, target: str = "") -> SessionReport:
        return asyncio.run(self.run_async(tools, notes, target))


def _clients(config: SessionConfig) -> tuple[ModelClient, ModelClient]:
    from masfuzz.llm.client import get_client

    tester_model = config.model or config.sut_model
    agent_model = config.sut_model or config.model
    assert tester_model and agent_model
    return get_client(tester_model, role="tester"), get_client(agent_model, role="sut")


def model_use(model: str, u: Usage) -> dict[str, Any]:
    """One role's model calls for one tool as the data keeps them; cost in USD, None when a
    price is unknown (an endpoint's model), 0 for the free local and scripted models."""
    return {"model": model, "calls": u.calls, "cache_hits": u.cache_hits, "errors": u.errors,
            "tokens_in": u.tokens_in, "tokens_out": u.tokens_out, "seconds": round(u.wall_time, 3),
            "cost": None if u.cost is None else round(u.cost, 6)}


def total_model_use(tools: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """The tools' model use added up per role, by `Usage`'s own rule (cost unknown if any
    tool's is)."""
    models: dict[str, str] = {}
    sums: dict[str, Usage] = {}
    for t in tools:
        for who, u in (t.get("models") or {}).items():
            models.setdefault(who, u["model"])
            sums[who] = sums.get(who, Usage()).plus(Usage(
                u["calls"], u["cache_hits"], u["errors"], u["tokens_in"], u["tokens_out"],
                u["seconds"], u["cost"]))
    return {who: model_use(models[who], u) for who, u in sums.items()}


def session_dict(report: SessionReport) -> dict[str, Any]:
    """The JSON form of a session report (format version 1)."""
    return session_data(report.config, [tool_dict(t) for t in report.tools], report.notes,
                        report.target)


def session_data(cfg: SessionConfig, tools: list[dict[str, Any]], notes: list[str],
                 target: str = "") -> dict[str, Any]:
    """A session's data from its tools' parts (`tool_dict`), wherever they were kept: the
    totals are counted from them."""
    from masfuzz.report.tools import reproducer

    for t in tools:  # each error's copy-pasteable reproducer: the first call's arguments
        for e in t["errors"]:
            e.setdefault("reproduce", reproducer(target, t["tool"], e["arguments"]))
    calls = sum(t["calls"] for t in tools)
    unique = sum(t["unique_errors"] for t in tools)
    c = chao1([e["count"] for t in tools for e in t["errors"]  # the tools' own, as each tool's is
               if e.get("attribution", "sut") == "sut"])
    return {
        "format": "masfuzz-tools/1", "target": target, "seed": cfg.seed,
        "calls_per_tool": cfg.calls, "model": cfg.model, "sut_model": cfg.sut_model,
        "correctness": cfg.correctness, "fix_docs": cfg.fix_docs,
        "fixture": cfg.state.fixture, "setup": cfg.state.setup_name or None,
        "totals": {"tools": len(tools), "calls": calls, "unique_errors": unique,
                   "tc_per_ue": tc_per_ue(calls, unique),
                   "chao1": {"estimate": c.estimate, "lower": c.lower, "upper": c.upper},
                   "models": total_model_use(tools)},
        "notes": list(notes),
        "tools": tools,
    }


def tool_dict(t: ToolReport) -> dict[str, Any]:
    """One tool's part of a session's data."""
    f = t.runtime.fuzz
    c = t.chao1
    return {
        "tool": t.tool.name, "kind": t.tool.kind, "notes": t.tool.notes, "seconds": round(t.seconds, 2),
        "fuzz_seconds": round(t.runtime.fuzz_seconds, 2),
        # the model stages' calls for this tool, per role: {} when no model ran
        "models": t.models,
        "calls": f.calls, "ok": f.ok, "failed": f.failed, "blocked": f.blocked,
        "blocked_reasons": f.blocked_reasons, "network_isolation": f.network_isolation,
        "unique_errors": t.unique_errors, "tc_per_ue": t.tc_ue,
        # unique errors masfuzz or the settings caused: listed in errors, not counted in UE
        "not_the_tools": len(f.unique) - t.unique_errors,
        "chao1": {"estimate": c.estimate, "lower": c.lower, "upper": c.upper},
        "priors": {k: v.to_dict() for k, v in f.priors.items() if not v.empty()},
        "errors": [u.to_dict() for u in sorted(f.unique.values(), key=lambda u: u.first_call)],
        # Error messages the tool returned (its error handling): apart, never counted in UE.
        "returned_errors": [h.to_dict() for h in sorted(f.handled.values(), key=lambda h: h.first_call)],
        "poisoning": [p.to_dict() for p in t.poisoning],
        "correctness": t.correctness.to_dict() if t.correctness else None,
        "docfix": t.docfix.to_dict() if t.docfix else None,
        # per part: calls drawn from it, how many found something new, and how many of those
        # ran code of the tool's own no call had run before
        "generation": f.parts,
        "lines_reached": f.lines_reached(),  # lines of the tool's own code the calls ran
        **({"stopped": f.stopped} if f.stopped else {}),
    }
