"""FLARE's Failure Agent and Judge Agent (§3.4): two tester-model roles that find the failures a
trace shows against the specification, beyond what the deterministic oracles see.

Both agents get the same input — the FLARE specification rendered with its clause ids and the
semantic event log (speaking order, tool calls, utterance excerpts, dead-loop flag) — and the same
reasoning chain, with their own instructions. The failure agent checks the log against the four
failure types (agent task execution, tool invocation, agent relationships, system termination) and
answers JSON, schema-constrained: per violation the category, the clause id, the root cause (Table
2's vocabulary), the elements (agent and tool ids), a verbatim quote of the offending log segment
and a reason, with one worked example in the prompt as the paper has. The judge reasons in three
steps (specification-log distinction, logic verification, structured output) and returns CORRECT or
INCORRECT per finding with a reason, and may name violations it thinks were missed.

The two iterate for up to `rounds` rounds: from the second on, the failure agent sees the judge's
verdicts and reports its full list again, withdrawing or revising findings. They reach consensus
when the judge calls every finding CORRECT and notes nothing missed (or the failure agent reports
nothing that passes the guard: then nothing is confirmed). The rule when they do not: the
findings confirmed are those the judge called CORRECT in the last round in which both agents
answered; everything else is rejected with its reason. A model call that fails ends the analysis
with what was confirmed so far, and a note.

No model-written finding is believed before a deterministic guard passes it: the category and
root cause are known (the root cause under its category), the clause exists in the specification,
every element is an agent or tool of the specification, the quote passes `EventLog.quoted` (and
is long enough to point at something), and the log entries the quote matches give evidence event
indices that exist in the trace. Findings that differ only in wording (quote, reason, order of the
elements) are one failure: they share category, root cause, clause and elements, hence the
fingerprint. A reply that is not JSON or not of the asked shape is counted and retried once.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from pydantic import BaseModel, Field

from masfuzz.fuzz.spec_agent import (
    TesterStats, ask, clip, missing_lists, object_schema, text_schema, tester_request,
)
from masfuzz.graph.specification import FlareSpec
from masfuzz.llm.types import ModelClient
from masfuzz.oracles.attribution import attribute
from masfuzz.oracles.blame import blame_all
from masfuzz.oracles.eventlog import EventLog, event_log
from masfuzz.oracles.failure import (
    AGENTS, FLARE_CATEGORIES, JUDGE_CONFIRMED, JUDGED_DETECTOR, ROOT_CAUSES, Failure, dedupe, undecided,
)
from masfuzz.trace import Trace

FAILURE_AGENT = "failure-agent"
JUDGE_AGENT = "judge-agent"
DETECTOR = JUDGED_DETECTOR
MAX_FINDINGS = 12
QUOTE_CHARS = 300
# A quote shorter than this ("done", "30") matches too many log entries to localize anything.
MIN_QUOTE_CHARS = 8
VERDICTS = ("CORRECT", "INCORRECT")
JUDGED = ("judged_incorrect", "not_judged")

RULES = """Failure types (report a violation only when the log shows it):
- agent_task_execution: an agent's result is inconsistent with its task's outputs (structurally
  invalid or semantically wrong), it acts beyond its responsibilities, or it refuses its task.
- tool_invocation: an agent invokes a tool outside its agent-tool interactions, with parameters
  inconsistent with the tool's description, or omits a tool its task requires.
- agent_relationship: the speaking order deviates from a fixed order, or an agent acts before an
  agent it depends on (task ordering or termination conditions in free-form dialogue).
- system_termination: agents keep exchanging messages after the termination condition is met, or
  the system halts before the required criteria are met."""

REASONING = """Reason in three steps.
Step 1, specification-log distinction: where does the behaviour in the log differ from what the
specification's clauses expect?
Step 2, logic verification: does the log information really contradict the clause, or is the
behaviour allowed by it?
Step 3, structured output: answer with JSON only, in the format asked."""

EXAMPLE = """Example (another system, the Business Challenge Resolver; never cite its names).
Specification: [rel::order] agent relationships: pattern selector; dependencies: analyst before
strategist, strategist before reviewer.
Log segment: speaking order: analyst -> reviewer -> strategist; reviewer: first [4] 'The strategy
is sound, approved.'
Judgment: {"category": "agent_relationship", "clause": "rel::order", "root_cause": "Violation of
Relationships-based Speaking Order", "elements": ["reviewer", "strategist"], "quote": "The strategy
is sound, approved.", "reason": "reviewer approved a strategy before strategist, which it depends
on, had proposed one"}"""


class Finding(BaseModel):
    """One violation as the failure agent reported it, before the guard and the judge."""

    category: str = ""
    clause: str = ""
    root_cause: str = ""
    elements: tuple[str, ...] = ()
    quote: str = ""
    reason: str = ""

    def key(self) -> tuple[str, str, str, tuple[str, ...]]:
        """What makes two findings one failure: never the wording."""
        return self.category, self.root_cause, self.clause, tuple(sorted(set(self.elements)))

    def line(self) -> str:
        return (f"category={self.category}, clause={self.clause}, root_cause={self.root_cause}, "
                f"elements={list(self.elements)}, quote={json.dumps(self.quote)}, "
                f"reason={json.dumps(self.reason)}")


class Rejection(BaseModel):
    finding: Finding
    # quote_not_in_log | quote_too_short | unknown_clause | unknown_category | unknown_root_cause
    # | unknown_element | no_evidence | malformed_finding | judged_incorrect | not_judged
    reason: str
    detail: str = ""  # what was unknown, or the judge's reason
    round: int = 1


class FailureReport(BaseModel):
    scenario_id: str = ""
    failures: list[Failure] = Field(default_factory=list)  # confirmed: guard passed, judged CORRECT
    rejected: list[Rejection] = Field(default_factory=list)
    calls: int = 0
    malformed: int = 0
    model_failures: list[str] = Field(default_factory=list)  # model calls that raised, and why
    rounds: int = 0  # rounds begun
    consensus: bool = False
    notes: list[str] = Field(default_factory=list)


class _Checked(BaseModel):
    finding: Finding
    evidence: tuple[int, ...]


# --- the analysis -------------------------------------------------------------------------------


async def identify_failures(trace: Trace, flare_spec: FlareSpec, client: ModelClient, *,
                            rounds: int = 2, seed: int | None = None,
                            expected: str | None = None) -> FailureReport:
    """The failures the failure and judge agents agree on in `trace`, each guarded; `expected`
    is the task's correct answer, when the user knows it (`judge --expected`)."""
    log = event_log(trace)
    guard = Guard(flare_spec, trace, log)
    shared = shared_input(flare_spec, log, expected)
    report, stats = FailureReport(scenario_id=trace.scenario_id), TesterStats()
    confirmed: list[_Checked] = []
    reviewed: list[tuple[Finding, str, str]] = []  # what the failure agent is shown next round
    omissions = ""
    for r in range(1, max(rounds, 1) + 1):
        report.rounds = r
        data = await ask(client, failure_request(shared, reviewed, omissions, guard, r, seed), stats,
                         lambda d: missing_lists(d, ("violations",)))
        if data is None:
            _stopped(report, stats, FAILURE_AGENT, r)
            break
        checked = guard.check_all(data["violations"], report, r)
        if not checked:
            confirmed, report.consensus = [], True  # nothing (left) to judge: they agree
            break
        verdicts = await ask(client, judge_request(shared, checked, guard, r, seed), stats,
                             lambda d: missing_lists(d, ("verdicts",)))
        if verdicts is None:
            _stopped(report, stats, JUDGE_AGENT, r)
            report.rejected += [Rejection(finding=c.finding, reason="not_judged", round=r) for c in checked]
            break
        confirmed, reviewed = _apply_verdicts(checked, verdicts["verdicts"], report, r)
        reviewed += [(x.finding, f"REJECTED by the checks ({x.reason})", x.detail)
                     for x in report.rejected if x.round == r and x.reason not in JUDGED]
        omissions = clip(verdicts["omissions"], 400) if isinstance(verdicts.get("omissions"), str) else ""
        if len(confirmed) == len(checked) and not omissions:
            report.consensus = True
            break
    return _finish(report, stats, confirmed, trace, rounds, guard)


def _finish(report: FailureReport, stats: TesterStats, confirmed: list[_Checked], trace: Trace,
            rounds: int, guard: "Guard") -> FailureReport:
    report.calls, report.malformed, report.model_failures = stats.calls, stats.malformed, stats.failures
    report.failures = to_failures(confirmed, trace, guard.tools)
    report.rejected = _unique(report.rejected)
    if not report.consensus and not report.notes:
        report.notes.append(f"no consensus after {rounds} round(s): kept the findings the judge "
                            "called CORRECT in the last round")
    return report


def _stopped(report: FailureReport, stats: TesterStats, agent: str, r: int) -> None:
    why = (f"its model call failed ({stats.failures[-1]})" if stats.failures else
           f"its replies were malformed twice ({'; '.join(stats.malformed_reasons[-2:])})")
    report.notes.append(f"{agent} gave no usable answer in round {r}: {why}; the analysis ended with "
                        "the findings confirmed so far")


def _apply_verdicts(checked: list[_Checked], verdicts: list[Any], report: FailureReport,
                    r: int) -> tuple[list[_Checked], list[tuple[Finding, str, str]]]:
    """The findings judged CORRECT; the rest rejected. Verdicts name findings by their number."""
    by_number: dict[int, tuple[str, str]] = {}
    for v in verdicts:
        if isinstance(v, dict) and isinstance(v.get("finding"), int) and v.get("verdict") in VERDICTS:
            by_number.setdefault(v["finding"], (v["verdict"], clip(str(v.get("reason") or ""), 300)))
    correct, reviewed = [], []
    for n, c in enumerate(checked, 1):
        verdict, why = by_number.get(n, ("", ""))
        reviewed.append((c.finding, verdict or "NO VERDICT", why))
        if verdict == "CORRECT":
            correct.append(c)
        else:
            report.rejected.append(Rejection(finding=c.finding, detail=why, round=r,
                                             reason="judged_incorrect" if verdict else "not_judged"))
    return correct, reviewed


def to_failures(confirmed: list[_Checked], trace: Trace, tools: list[str] = ()) -> list[Failure]:
    """One failure per key (category, root cause, clause, elements), its evidence the union of
    every wording's, its elements in the order the model named them (the agent to blame is
    among them: `masfuzz.oracles.blame`); `tools` are the specification's."""
    groups: dict[tuple, list[_Checked]] = {}
    for c in confirmed:
        groups.setdefault(c.finding.key(), []).append(c)
    out = []
    for (category, root_cause, clause, _), group in groups.items():
        first = group[0].finding
        out.append(Failure(
            category=category, root_cause=root_cause, detector=DETECTOR, clause=clause,
            elements=tuple(dict.fromkeys(first.elements)), scenario_id=trace.scenario_id,
            evidence=tuple(sorted({i for c in group for i in c.evidence})), decided_by=AGENTS,
            description=clip(f"{first.reason} (log: \"{first.quote}\")", 400)))
    return dedupe(attribute(trace, blame_all(trace, out, tools=tools)))


async def confirm_proposals(trace: Trace, flare_spec: FlareSpec, failures: list[Failure], client: ModelClient,
                            *, seed: int | None = None,
                            stats: TesterStats | None = None) -> tuple[list[Failure], list[str]]:
    """The one place a detector's proposal (`Failure.for_the_judge`: a reading of free text) is
    decided, for `judge`, `fuzz` and `run` alike: the proposals are put to the judge agent with
    the specification and the log, as the failure agent's findings are; each judged CORRECT is
    kept as `decided_by` JUDGE_CONFIRMED, each judged INCORRECT is no failure and becomes a note
    (with the judge's reason). When the judge gives no usable answer (its call failed, its reply
    stayed malformed) or no verdict on a proposal, the rule's decision stands and says so
    (`judge_unavailable`, which each such failure carries): a proposal is never lost. `stats`
    counts the judge's calls. Returns the failures and the notes on the rejected proposals (only
    those: a report lists them as "rejected by the judge agent")."""
    proposals = [f for f in failures if f.for_the_judge]
    if not proposals:
        return failures, []
    stats = stats if stats is not None else TesterStats()
    log = event_log(trace)
    guard = Guard(flare_spec, trace, log)
    checked = [_Checked(finding=Finding(category=f.category, clause=_clause_for(f, flare_spec), root_cause=f.root_cause,
                                        elements=f.elements, quote=_quote(trace, f), reason=f.description),
                        evidence=f.evidence) for f in proposals]
    verdicts = await ask(client, judge_request(shared_input(flare_spec, log), checked, guard, 1, seed),
                         stats, lambda d: missing_lists(d, ("verdicts",)))
    if verdicts is None:
        why = (f"its model call failed: {stats.failures[-1]}" if stats.failures else
               f"its replies were malformed ({'; '.join(stats.malformed_reasons[-2:])})")
        return undecided(failures, why), []
    report = FailureReport()
    correct, _ = _apply_verdicts(checked, verdicts["verdicts"], report, 1)
    confirmed = {id(c.finding) for c in correct}
    refused = {id(r.finding): r.detail for r in report.rejected if r.reason == "judged_incorrect"}
    decided = {id(f): c.finding for f, c in zip(proposals, checked)}
    out, notes = [], []
    for f in failures:
        finding = decided.get(id(f))
        if finding is None:  # not a proposal: the rule decided
            out.append(f)
        elif id(finding) in confirmed:
            out.append(f.model_copy(update={"decided_by": JUDGE_CONFIRMED}))
        elif id(finding) in refused:
            why = refused[id(finding)]
            notes.append(f"{JUDGE_AGENT} rejected {f.detector}'s proposal, not reported: {f.description}"
                         + (f" (judge: {why})" if why else ""))
        else:  # the judge answered, but not about this one: the rule's decision stands
            out += undecided([f], "it gave no verdict on this proposal")
    return out, notes


def proposal_judge(flare_spec: FlareSpec, client: ModelClient, *, seed: int | None = None,
                   count: Callable[[TesterStats], None] | None = None) -> Callable[..., Any]:
    """A campaign's `confirm` step (`masfuzz.campaign.Campaign.confirm`): each execution's
    proposals put to the judge agent (`confirm_proposals`) under the command's tester, for
    `cover`, `fuzz` and `run` alike; `count` receives each call's statistics, also when a budget
    cut the call short (the call was made all the same)."""
    async def confirm(trace: Trace, failures: list[Failure]) -> tuple[list[Failure], list[str]]:
        stats = TesterStats()
        try:
            return await confirm_proposals(trace, flare_spec, failures, client, seed=seed, stats=stats)
        finally:
            if count is not None:
                count(stats)
    return confirm


PREFIX = {"agent_relationship": "rel::", "system_termination": "term::", "agent_task_execution": "task::",
          "tool_invocation": "tool::"}


def _clause_for(f: Failure, flare_spec: FlareSpec) -> str:
    """The clause a proposal violates: its own, else the specification's clause of its category
    about its agent or tool (`task::AGENT::answer`, `tool::TOOL`), else the category's first."""
    ids = flare_spec.clause_ids()
    prefix = PREFIX.get(f.category, "")
    wanted = [f.clause or "", *(f"task::{e}::answer" for e in f.elements), *(f"tool::{e}" for e in f.elements)]
    return next((c for c in wanted if c in ids), next((c for c in ids if prefix and c.startswith(prefix)), ""))


def _quote(trace: Trace, f: Failure) -> str:
    """What the proposal rests on, for the judge to find in the log: the text of its decisive
    event, else of its latest evidence that has text (a hand-over's step is the delegation, its
    evidence the question asked after it)."""
    for i in (f.step, *reversed(f.evidence)):
        if i is not None and 0 <= i < len(trace.events):
            e = trace.events[i]
            if text := str(getattr(e, "content", "") or getattr(e, "payload", "") or ""):
                return clip(text, QUOTE_CHARS)
    return ""


def _unique(rejections: list[Rejection]) -> list[Rejection]:
    seen, out = set(), []
    for rej in rejections:
        key = (rej.finding.model_dump_json(), rej.reason)
        if key not in seen:
            seen.add(key)
            out.append(rej)
    return out


# --- the deterministic guard ---------------------------------------------------------------------


class Guard:
    """What a finding may name and quote: the specification's clauses, agents and tools, and
    the event log of the trace it is about."""

    def __init__(self, spec: FlareSpec, trace: Trace, log: EventLog) -> None:
        rel = spec.relationships
        self.clauses = spec.clause_ids()
        self.agents = sorted({*rel.order, *(a for pair in (*rel.dependencies, *rel.edges) for a in pair),
                              *spec.termination.closers, *(t.agent for t in spec.tasks),
                              *(a for c in spec.tools for a in c.agents)})
        self.tools = sorted({c.tool for c in spec.tools} | {t.tool for t in spec.tasks if t.tool})
        self.log, self.events = log, len(trace.events)

    def check_all(self, items: list[Any], report: FailureReport, r: int) -> list[_Checked]:
        out = []
        for item in items[:MAX_FINDINGS]:
            finding = _finding(item)
            if finding is None:
                report.rejected.append(Rejection(finding=Finding(), reason="malformed_finding",
                                                 detail=clip(repr(item), 120), round=r))
                continue
            reason, detail = self.problem(finding)
            if reason:
                report.rejected.append(Rejection(finding=finding, reason=reason, detail=detail, round=r))
            else:
                out.append(_Checked(finding=finding, evidence=self.evidence(finding.quote)))
        return out

    def problem(self, f: Finding) -> tuple[str, str]:
        """Why the finding cannot be believed ('', '' when it can)."""
        if f.category not in FLARE_CATEGORIES:
            return "unknown_category", f.category
        if f.root_cause not in ROOT_CAUSES[f.category]:
            return "unknown_root_cause", f"{f.root_cause!r} is no root cause of {f.category}"
        if f.clause not in self.clauses:
            return "unknown_clause", f.clause
        unknown = [e for e in f.elements if e not in self.agents and e not in self.tools]
        if unknown:
            return "unknown_element", ", ".join(unknown)
        if len(_norm(f.quote)) < MIN_QUOTE_CHARS:
            return "quote_too_short", f.quote
        if not self.log.quoted(f.quote):
            return "quote_not_in_log", clip(f.quote, 120)
        evidence = self.evidence(f.quote)
        if not evidence or not all(0 <= i < self.events for i in evidence):
            return "no_evidence", str(list(evidence))
        return "", ""

    def evidence(self, quote: str) -> tuple[int, ...]:
        """The trace events of the log entries the quote appears in."""
        needle, hits = _norm(quote), set()
        for e in self.log.excerpts:
            hits |= {q.event for q in (e.first, e.middle, e.last) if q and needle in _norm(q.text)}
        for t in self.log.tools:
            if needle in _norm(str(t.arguments)):
                hits.add(t.event)
            if t.result_event is not None and needle in _norm(t.output):
                hits.add(t.result_event)
        return tuple(sorted(hits))


def _norm(text: str) -> str:
    # as `EventLog.quoted` compares: whitespace-insensitive, case-insensitive
    return " ".join(text.split()).lower()


def _finding(item: Any) -> Finding | None:
    """The item as a finding, or None when it is not of the asked shape."""
    if not isinstance(item, dict):
        return None
    texts = {k: item.get(k) for k in ("category", "clause", "root_cause", "quote", "reason")}
    elements = item.get("elements", [])
    if not all(isinstance(v, str) for v in texts.values()) or not isinstance(elements, list) \
            or not all(isinstance(e, str) for e in elements):
        return None
    return Finding(elements=tuple(elements), **{k: v.strip() for k, v in texts.items()})


# --- the prompts ---------------------------------------------------------------------------------


def render_spec(spec: FlareSpec) -> str:
    """The specification as prompt text, one clause a line, each led by its id."""
    rel, term = spec.relationships, spec.termination
    parts = [f"pattern {rel.pattern}"]
    if rel.order:
        parts.append("fixed order " + " -> ".join(rel.order))
    if rel.dependencies:
        parts.append("dependencies: " + ", ".join(f"{a} before {b}" for a, b in rel.dependencies))
    if rel.edges and rel.pattern != "selector":  # a selector's edges are all pairs: no information
        parts.append("control passes " + ", ".join(f"{a} -> {b}" for a, b in rel.edges))
    lines = [f"[{rel.id}] agent relationships: " + "; ".join(parts)]
    lines.append(f"[{term.id}] termination: " + "; ".join(
        ["conditions: " + (", ".join(term.conditions) or "not stated")]
        + ([f"at most {term.max_turns} turns"] if term.max_turns else [])
        + ([f"closed by {', '.join(term.closers)}"] if term.closers else [])))
    for t in spec.tasks:
        extra = [f"tool {t.tool}"] if t.tool else []
        extra += [f"{name}: {', '.join(v)}"
                  for name, v in (("inputs", t.inputs), ("outputs", t.outputs)) if v]
        extra += [f"responsibility: {t.responsibility}"] if t.responsibility else []
        lines.append(f"[{t.id}] task of {t.agent} ({t.kind}): {clip(t.description, 160)}"
                     + "".join(f"; {x}" for x in extra))
    for c in spec.tools:
        lines.append(f"[{c.id}] tool {c.tool}({', '.join(c.parameters)}): {clip(c.description, 160)}; "
                     f"may be called by {', '.join(c.agents) or 'no agent'}")
    return "\n".join(lines)


def shared_input(spec: FlareSpec, log: EventLog, expected: str | None = None) -> str:
    """The input both agents share (§3.4): the reference specification and the event log, and
    the task's correct answer when it is known (a final answer that differs from it is a
    semantically wrong result)."""
    return "\n".join([
        f"System under test: {spec.system}.", "",
        "## Specification (each clause led by its id in brackets)", render_spec(spec), "",
        "## Execution log", log.render()]
        + (["", "## Expected final answer (the task's correct answer)", clip(expected, 400)]
           if expected else []))


def failure_request(shared: str, reviewed: list[tuple[Finding, str, str]], omissions: str,
                    guard: Guard, r: int, seed: int | None):
    parts = ["You are the Failure Agent. You check the execution log of a multi-agent system "
             "against its testing specification.", "", shared, ""]
    if reviewed:
        parts += ["## The judge's verdicts on your previous findings"]
        parts += [f"[{n}] {verdict}: {why or 'no reason given'} | your finding: {f.line()}"
                  for n, (f, verdict, why) in enumerate(reviewed, 1)]
        parts += [f"The judge thinks these may be missed: {omissions}"] if omissions else []
        parts += ["Keep the findings judged CORRECT; withdraw or revise those judged INCORRECT; "
                  "report your full list again.", ""]
    parts += ["## Example", EXAMPLE, "", "## Instructions", RULES, "",
              "Root causes per failure type: " + "; ".join(
                  f"{c}: {', '.join(ROOT_CAUSES[c])}" for c in FLARE_CATEGORIES), "",
              REASONING, "",
              "Report every violation as JSON {\"violations\": [...]}, each with category, the id "
              "of the violated clause, root_cause, elements (the agent and tool ids involved), "
              "quote (a sentence copied verbatim from an utterance, a tool output or tool "
              "arguments in the log) and reason. Report an empty list if nothing is violated."]
    return tester_request("\n".join(parts), failure_schema(guard), agent=FAILURE_AGENT, seed=seed,
                          metadata={"kind": "failure", "round": r})


def judge_request(shared: str, checked: list[_Checked], guard: Guard, r: int, seed: int | None):
    parts = ["You are the Judge Agent. You verify the violations another agent reported for the "
             "execution log of a multi-agent system.", "", shared, "",
             "## Findings to verify"]
    parts += [f"[{n}] {c.finding.line()}" for n, c in enumerate(checked, 1)]
    parts += ["", "## Instructions", RULES, "", REASONING, "",
              "Localize the failure-inducing log segment of each finding. A finding is CORRECT only "
              "if its quote is that segment, the cited clause really expects something else, and "
              "its failure type and root cause fit; it is INCORRECT if the behaviour is allowed by "
              "the specification, the quote does not show it, or the clause is the wrong one. "
              "Answer with JSON: a verdict (CORRECT or INCORRECT) and a reason for every finding "
              "by its number, and in omissions the violations you think were missed (\"\" if "
              "none)."]
    return tester_request("\n".join(parts), judge_schema(len(checked)), agent=JUDGE_AGENT, seed=seed,
                          metadata={"kind": "judge", "round": r})


def failure_schema(guard: Guard) -> dict[str, Any]:
    """Ids are enums, so constrained decoding cannot invent them (the guard checks anyway)."""
    names = guard.agents + [t for t in guard.tools if t not in guard.agents]
    root_causes = sorted({c for k in FLARE_CATEGORIES for c in ROOT_CAUSES[k]})
    violation = object_schema({
        "category": {"type": "string", "enum": list(FLARE_CATEGORIES)},
        "clause": {"type": "string", "enum": guard.clauses},
        "root_cause": {"type": "string", "enum": root_causes},
        "elements": {"type": "array", "maxItems": 4,
                     "items": {"type": "string", **({"enum": names} if names else {})}},
        "quote": text_schema(QUOTE_CHARS),
        "reason": text_schema(300),
    })
    return object_schema({"step1_distinction": text_schema(400), "step2_verification": text_schema(400),
                          "violations": {"type": "array", "maxItems": MAX_FINDINGS, "items": violation}})


def judge_schema(findings: int) -> dict[str, Any]:
    verdict = object_schema({
        "finding": {"type": "integer", "minimum": 1, "maximum": max(findings, 1)},
        "verdict": {"type": "string", "enum": list(VERDICTS)},
        "reason": text_schema(300),
    })
    return object_schema({"step1_distinction": text_schema(400), "step2_verification": text_schema(400),
                          "verdicts": {"type": "array", "maxItems": findings, "items": verdict},
                          "omissions": text_schema(400)})
