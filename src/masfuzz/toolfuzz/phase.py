"""The tool-fuzzing phase of `masfuzz run`: ToolFuzz's runtime fuzzing of the tools the
workflow's agents own, within the campaign's budget and into its store and run.

The tools are the workflow's own: each tool an agent of the extracted spec is allowed to use,
as the adapter hands it over as a Python callable (`toolfuzz.targets.collect_tools`, what
`masfuzz tools TARGET` fuzzes); a tool with no callable, or one `--stub` replaces, is named in
a note and not fuzzed. Each tool is fuzzed by the session `masfuzz tools` uses
(`FuzzSession.test_tool`), in the OS sandbox, with the run's `--calls` per tool; the budget is
asked before every call and bounds each call's wall clock, so a tight budget ends the phase
between calls and says so; each tool gets an equal part of the time the phase has left, so that
a slow first tool does not leave the next one none (`_Part`). Its calls are bounded by
`--calls`, so the phase spends the budget's wall time only: executions or tester model calls the
earlier phases used up do not stop it.

Runtime fuzzing only: the model stages (confirming an error through the agent, the correctness
pipeline) need a tester model that answers ToolFuzz's prompts, which the campaign's tester (a
realizer's) does not promise; `masfuzz tools --correctness` runs them.

Each tool's result and findings are recorded in the store as one atomic write when it is done,
or when the budget cuts it short; a resumed campaign keeps the tools done and fuzzes the rest
(a cut-short tool again from its first call, replacing what its first attempt recorded), so
findings are neither lost nor duplicated. A tool that hangs or kills its process is a finding;
a failure masfuzz's sandbox or its limits caused is recorded as theirs (`grouping.attribution`),
never as the app's. A tool masfuzz itself fails to fuzz is one of the phase's `problems`: the
phase is reported failed, naming the tool (`masfuzz.report.phases`), and the next tool is fuzzed.
Where the machine cannot sandbox a tool the phase does not run (`PhaseNotRun`), and says why.

The fuzzing loop runs in a thread (`sandbox.off_loop`): its budget callback only reads the
budget, not the store, whose SQLite connection belongs to the event loop's thread (the run's
lease is kept by `campaign.session`, on a connection of its own).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from masfuzz.campaign.budget import BudgetExhausted
from masfuzz.errors import MasfuzzError, TargetError
from masfuzz.report.tools import reproducer
from masfuzz.toolfuzz.session import FuzzSession, SessionConfig, session_data, tool_dict
from masfuzz.toolfuzz.tools import FuzzTool


@dataclass
class ToolsPhase:
    config: SessionConfig
    stubbed: Sequence[str] = ()  # tools --stub replaces: the user said they must not run
    context: str | None = None  # --context: the run context the app's server passes its tools
    refused: str | None = None  # why this machine cannot sandbox a tool: the phase is skipped
    name: str = "tools"
    spends: tuple[str, ...] = ("wall_time",)  # calls tools, not the system or the tester
    share: float = 1.0  # of the wall time (`masfuzz.campaign.budget.share_limits`)
    notes: list[str] = field(default_factory=list)
    parts: list[dict[str, Any]] = field(default_factory=list)  # each tool's data, in order
    problems: list[str] = field(default_factory=list)  # tools masfuzz failed to fuzz, and why
    target: str = ""
    ran: bool = False

    async def run(self, campaign: Any) -> None:
        from masfuzz.campaign import PhaseNotRun
        from masfuzz.report.tools import tool_findings_of

        self.ran = True
        self.target = str(campaign.target.ref)
        if self.refused is not None:
            self.notes.append(f"tool fuzzing skipped: this machine cannot isolate a tool "
                              f"({self.refused}); --unsafe-no-sandbox fuzzes without the OS sandbox")
            raise PhaseNotRun(self.notes[-1])
        tools = self._owned_tools(campaign)
        if not tools:
            campaign.progress("tools: no tool of the workflow to fuzz")
            return
        done = {r["tool"]: r for r in campaign.store.tool_results(campaign.run_id)} \
            if campaign.store is not None and campaign.run_id is not None else {}
        campaign.progress(f"tools: {len(tools)} tool(s) the agents own, up to {self.config.calls} "
                          "sandboxed calls each")
        session = FuzzSession(self.config)  # no models: runtime fuzzing only

        todo = [t for t in tools if not (done.get(t.name) or {}).get("complete")]
        for tool in tools:
            earlier = done.get(tool.name)
            if earlier is not None and earlier["complete"]:
                data = {k: v for k, v in earlier.items() if k != "complete"}
                self.parts.append(data)
                self._count(campaign, data, tool_findings_of)
                campaign.progress(f"tools: {tool.name}: fuzzed by an earlier invocation of this run")
                continue
            why = campaign.budget_left(self.spends)
            if why is not None:
                raise self._stop(campaign, why, todo[todo.index(tool):])
            part = _Part.of(campaign, self.spends, tools_left=len(todo) - todo.index(tool))
            try:
                report = await session.test_tool(tool, stop=part.stop, time_left=part.time_left)
            except MasfuzzError:
                raise  # the settings' (a fixture, a setup): the command's one line
            except Exception as exc:  # masfuzz's own failure (the sandbox would not start, ...)
                problem = f"tool {tool.name!r} not fuzzed: masfuzz failed to run it ({type(exc).__name__}: {exc})"
                self.problems.append(problem)
                self._note(campaign, problem)
                continue
            data = tool_dict(report)
            for e in data["errors"]:  # stored with its reproducer, as the session's data shows it
                e.setdefault("reproduce", reproducer(self.target, data["tool"], e["arguments"]))
            stopped = data.get("stopped")
            if campaign.store is not None and campaign.run_id is not None:
                campaign.store.record_tool_result(campaign.run_id, data, tool_findings_of(data),
                                                  complete=stopped is None)
            self.parts.append(data)
            self._count(campaign, data, tool_findings_of)
            campaign.progress(f"tools: {tool.name}: {_result(data)}")
            why = campaign.budget_left(self.spends) if stopped is not None else None
            if why is not None:  # the phase's budget, not only the tool's part of it
                raise self._stop(campaign, why, todo[todo.index(tool) + 1:])

    @staticmethod
    def _count(campaign: Any, data: dict[str, Any], findings_of: Any) -> None:
        """A tool's findings counted with the run's other failures (the progress, the summary)."""
        for finding in findings_of(data):
            campaign.recorder.count_attribution(finding.get("attribution", "sut"))

    def _owned_tools(self, campaign: Any) -> list[FuzzTool]:
        """The tools the spec's agents may use, as callables the adapter hands over."""
        from masfuzz.toolfuzz.targets import collect_tools

        owned = list(dict.fromkeys(tool for _, tool in campaign.spec.permissions.allow))
        if not owned:
            return []
        try:
            found, notes = collect_tools(campaign.target.open().obj, self.target, self.context)
        except TargetError as exc:
            self._note(campaign, f"tools not fuzzed: {exc}")
            return []
        self.notes.extend(notes)
        by_name = {t.name: t for t in found}
        out = []
        for name in owned:
            if name in self.stubbed:
                self._note(campaign, f"tool {name!r} is replaced by --stub: not fuzzed")
            elif name in by_name:
                out.append(by_name[name])
            else:
                self._note(campaign, f"tool {name!r}: the adapter hands over no Python function "
                                     "for it: not fuzzed")
        return out

    def _stop(self, campaign: Any, why: str, unfuzzed: list[FuzzTool]) -> BaseException:
        """The phase's stop, the tools it leaves unfuzzed named in its notes (the report's tools
        section listed only the tools fuzzed: the demo's said "total: 1 tools" of two)."""
        for tool in unfuzzed:
            self._note(campaign, f"tool {tool.name!r} not fuzzed: {why}")
        return campaign.stop(why)

    def _note(self, campaign: Any, note: str) -> None:
        self.notes.append(note)
        campaign.progress(f"tools: {note}")

    def summary(self) -> dict[str, Any]:
        """The phase's part of the run's summary: the session's data (`masfuzz-tools/1`), which
        the report's tools section shows."""
        if not self.ran:
            return {}
        return {"tools": session_data(self.config, self.parts, self.notes, self.target)}


@dataclass
class _Part:
    """A tool's part of the phase's wall time: what is left, shared equally by the tools not
    fuzzed yet (one that stops early leaves its rest to the next), counted from the tool's first
    call. Under load the first tool's calls used the whole share and the second got none (the
    demo at load 22: faq_lookup_tool 16 sandboxed calls in 183 s, update_seat, whose error is
    the example's real bug, not one); counted from the part's start, the arguments' generation
    before the first call (seconds to minutes under load) left a tool no call at all.
    `stop` is asked before each call from the fuzzing loop's thread: it reads the budget and
    the clock only (the store's connection belongs to the event loop's thread)."""

    campaign: Any
    spends: tuple[str, ...]
    length: float | None  # seconds from the first call; None: the phase's own time left
    used: str = ""  # the reason given when it is used
    end: float | None = None  # time.monotonic() at which it is, once the first call is asked

    @classmethod
    def of(cls, campaign: Any, spends: tuple[str, ...], *, tools_left: int) -> "_Part":
        left = campaign.time_left()
        if left is None or tools_left <= 1:  # the last tool's part is what the phase has left
            return cls(campaign, spends, None)
        part = left / tools_left
        return cls(campaign, spends, part, f"its part of phase tools's share used ({part:.1f} s from "
                                           f"its first call, the phase's time left shared by {tools_left} tool(s))")

    def stop(self) -> str | None:
        why = self.campaign.budget_left(self.spends)
        if self.length is None or why is not None:
            return why
        if self.end is None:  # the first call: the part starts
            self.end = time.monotonic() + self.length
        return self.used if time.monotonic() >= self.end else None

    def time_left(self) -> float | None:
        left = self.campaign.time_left()
        if self.length is None:
            return left
        mine = self.length if self.end is None else max(0.0, self.end - time.monotonic())
        return min(left or 0.0, mine)


def _result(data: dict[str, Any]) -> str:
    errors = data["errors"]
    theirs = sum(1 for e in errors if e.get("attribution", "sut") != "sut")
    text = (f"{data['calls']} calls, {data['failed']} failed, {data['blocked']} blocked by the "
            f"sandbox, {len(errors)} unique error(s)")
    if theirs:
        text += f" ({theirs} caused by masfuzz or the settings, not the tool)"
    if data.get("stopped"):
        text += f"; stopped: {data['stopped']}"
    return text
