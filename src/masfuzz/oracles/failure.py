"""`Failure`: one finding of an oracle over a `Trace`, in FLARE's failure taxonomy (§3.4, Table 2).

A failure names its category (FLARE's four symptom types plus the runtime crashes of its Table 2
and masfuzz's restricted-tool-call observations), its root cause in Table 2's vocabulary, the
detector that found it, one actionable line, the trace events that show it, and the scenario
that reproduces it, and, when an oracle knows it, the id of the FLARE specification clause it
violates (`term::bound`, `rel::order`, `task::voice_actor::use::synthesize_voice`). It says who
and when: the one agent the fault is blamed on and the decisive step (`masfuzz.oracles.blame`
derives them where an oracle did not).

Its `fingerprint` says what the fault is, not which oracle found it: the Table-1 symptom of its
category, the root cause, the blamed agent and the subject (the tool, the peer agent, the clause:
`subject`; unset, the structural elements involved stand for it). Never the detector, never
volatile text (ids, timestamps, payloads, a model's wording): the same defect found by two
scenarios, worded two ways, or found by a detector and by FLARE's failure agents, is one failure,
which says every oracle that found it (`found_by`; `dedupe` merges them).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from typing import Literal

from pydantic import BaseModel, ConfigDict, computed_field

Category = Literal[
    "agent_task_execution",
    "tool_invocation",
    "agent_relationship",
    "system_termination",
    "runtime_crash",
    "restricted_tool_call",
]

CATEGORY_NAMES: dict[str, str] = {
    "agent_task_execution": "agent task execution",
    "tool_invocation": "tool invocation",
    "agent_relationship": "agent relationship",
    "system_termination": "system termination",
    "runtime_crash": "runtime crash",
    "restricted_tool_call": "restricted tool call",
}

# FLARE Table 2's root causes, plus two its text names without a row: premature termination
# (§3.4, termination anomaly 2) and an agent calling a tool outside its agent-tool interactions
# (§3.4, tool misuse 1), which masfuzz observes as a `restricted_attempt`; and three of runs that
# end normally, which the semantic oracles (semantic.py, instructed.py) find: an agent reporting
# an outcome its tool's result contradicts (incorrect verification), a fact the user gave lost
# when one agent hands over to the next, and a request routed to an agent whose tools cannot
# serve it.
RootCause = Literal[
    "Runtime Crash",
    "Prompt and Instruction Deviation",
    "Response Omission",
    "Malformed Output Format",
    "Repetitive Execution of Completed Tasks",
    "Role Misalignment",
    "Explicit Task Refusal",
    "Tool Invocation Omission",
    "Tool Execution Error",
    "Tool Specification Mismatch",
    "Violation of Relationships-based Speaking Order",
    "Termination Condition Violation",
    "Max Round Limit Exceeded",
    "Premature Termination",
    "Restricted Tool Access",
    "Incorrect Verification",
    "Information Loss at Hand-over",
    "Misrouted Request",
]

# Table 2's grouping of root causes under the failure types, with the two additions above where
# §3.4 places them; a model-written finding must name a root cause of its own category.
ROOT_CAUSES: dict[str, tuple[str, ...]] = {
    "agent_task_execution": (
        "Prompt and Instruction Deviation", "Response Omission", "Malformed Output Format",
        "Repetitive Execution of Completed Tasks", "Role Misalignment", "Explicit Task Refusal",
        "Incorrect Verification"),
    "tool_invocation": (
        "Tool Invocation Omission", "Tool Execution Error", "Tool Specification Mismatch",
        "Restricted Tool Access"),
    "agent_relationship": ("Violation of Relationships-based Speaking Order",
                           "Information Loss at Hand-over", "Misrouted Request"),
    "system_termination": (
        "Termination Condition Violation", "Max Round Limit Exceeded", "Premature Termination"),
    "runtime_crash": ("Runtime Crash",),
    "restricted_tool_call": ("Restricted Tool Access",),
}
# FLARE Table 1's failure columns: agent relationships, system termination, agent task
# execution, tool invocation (restricted tool calls included: FLARE's tool misuse 1), runtime
# crashes.
SYMPTOMS: dict[str, str] = {"agent_relationship": "AR", "system_termination": "ST",
                            "agent_task_execution": "TE", "tool_invocation": "TI",
                            "restricted_tool_call": "TI", "runtime_crash": "RC"}
FAIL_ON_NAMES = (*CATEGORY_NAMES, *dict.fromkeys(SYMPTOMS.values()), "any")


def gating(failures: list[dict], fail_on: str | Sequence[str] | None) -> list[dict]:
    """The failures that fail a `--fail-on` gate (categories or Table-1 symbols, or any; a
    comma list or its names): the system's own only, never the harness's or the settings'."""
    if not fail_on:
        return []
    wanted = set(fail_on.split(",") if isinstance(fail_on, str) else fail_on)
    return [f for f in failures if f.get("attribution", "sut") == "sut"
            and ("any" in wanted or f["category"] in wanted or SYMPTOMS.get(f["category"]) in wanted)]


# The four symptom types FLARE's failure agent reports (§3.4); crashes and restricted calls are
# observed mechanically.
FLARE_CATEGORIES = ("agent_task_execution", "tool_invocation", "agent_relationship",
                    "system_termination")

# Whose failure it is. `sut`: the system under test's own. `harness`: caused by masfuzz (its time
# limit reached while the model in use was still answering, ...); `settings`: caused by a bound
# the user set. Findings not the system's own are shown apart and never counted as its failures.
Attribution = Literal["sut", "harness", "settings"]

Severity = Literal["high", "medium", "low", "info"]
Confidence = Literal["observed", "judged"]
# A crash and an agent using a tool it must not are the app's worst; a run that never ends or
# ends too early, a broken speaking order or a misused tool are wrong behaviour; an agent saying
# nothing is the mildest.
SEVERITY_OF_CATEGORY: dict[str, Severity] = {
    "runtime_crash": "high", "restricted_tool_call": "high", "system_termination": "medium",
    "agent_relationship": "medium", "tool_invocation": "medium", "agent_task_execution": "medium"}
SEVERITY: dict[str, Severity] = {"Restricted Tool Access": "high", "Premature Termination": "high",
                                 "Response Omission": "low"}
JUDGED_DETECTOR = "failure_agent"  # the detector name of FLARE's failure agents' findings
# Which decided a finding (`Failure.decided_by`). A detector whose reading is mechanical and
# sound (a crash, a bound, a restricted call, a tool's rejection of its own documented format)
# decides alone: RULE. One that reads free text — what a sentence claims, what a question asks
# for, which tool a request needs, what an instruction depends on — only proposes: the judge
# agent confirms or rejects the proposal when a tester model is configured (JUDGE_CONFIRMED;
# a rejected one is no failure, it is kept as a note), and without one the rule stands
# (UNCONFIRMED); when the judge could not answer (its call failed or timed out, its reply was
# malformed, the budget's model calls were spent) the rule stands too and says why
# (`judge_unavailable`): a proposal is never lost for want of a verdict. The failure and judge
# agents' own findings are theirs (AGENTS).
RULE = "rule"
UNCONFIRMED = "rule (no judge configured)"
JUDGE_CONFIRMED = "judge confirmed"
AGENTS = "failure and judge agents"
PROPOSING_DETECTORS = frozenset({"claimed_outcome", "handover_facts", "participation", "instructed_order",
                                 "misrouted_request", "misread_table", "refused_choice", "deliverable",
                                 "void_row"})



def judge_unavailable(why: str) -> str:
    """`decided_by` of a proposal the judge was asked about and gave no verdict on."""
    return f"rule (judge unavailable: {' '.join(why.split())[:200]})"


def rule_decided(decided_by: str) -> bool:
    """Did a proposal's rule decide it alone (no judge configured, or none available)?"""
    return decided_by == UNCONFIRMED or decided_by.startswith("rule (judge unavailable")


def undecided(failures: list["Failure"], why: str) -> list["Failure"]:
    """`failures` with each of the system's proposals kept as the rule decided it, saying that
    the judge was unavailable and why."""
    return [f.model_copy(update={"decided_by": judge_unavailable(why)})
            if f.for_the_judge else f for f in failures]


FINGERPRINT_CHARS = 16  # 64 bits of sha256: no collisions among the failures of one store


class Failure(BaseModel):
    model_config = ConfigDict(frozen=True, extra="ignore")  # a dumped failure (with its fingerprint) loads back

    category: Category
    root_cause: RootCause
    detector: str
    description: str
    evidence: tuple[int, ...] = ()  # indices into the trace's events
    scenario_id: str = ""
    # The structural elements the failure is about (agent and tool ids, a termination reason, a
    # speaker cycle): what the fingerprint is made of.
    elements: tuple[str, ...] = ()
    clause: str | None = None  # the FLARE specification clause violated, when known
    # Who and when: the one agent the fault is blamed on (None when no agent is: a tool's own
    # crash, a run the harness ended) and the decisive step, an index into the trace's events;
    # `step_ref` names that step as the user's own log had it (a span id, a message number),
    # when the trace was imported from one (`Trace.meta[EVENT_SOURCES]`).
    agent: str | None = None
    step: int | None = None
    step_ref: str | None = None
    # What the fault is about beside the blamed agent (the tool, the peer agent, the clause; ""
    # when nothing but the agent): part of the fingerprint. None: the elements stand for it.
    subject: str | None = None
    found_by: tuple[str, ...] = ()  # every oracle that found this fault (empty: `detector` alone)
    attribution: Attribution = "sut"  # not part of the fingerprint: the defect is the same
    because: str = ""  # why a finding is attributed to the harness or the settings
    decided_by: str = ""  # RULE, UNCONFIRMED, JUDGE_CONFIRMED or AGENTS (above); "" until set

    @computed_field  # type: ignore[prop-decorator]
    @property
    def fingerprint(self) -> str:
        # The symptom, not the category: a restricted call is tool misuse (TI) whether a detector
        # (restricted_tool_call) or the failure agent (tool_invocation) names it.
        parts: list = [SYMPTOMS[self.category], self.root_cause, self.agent,
                       self.subject if self.subject is not None else list(self.elements)]
        key = json.dumps(parts)
        return hashlib.sha256(key.encode()).hexdigest()[:FINGERPRINT_CHARS]

    @computed_field  # type: ignore[prop-decorator]
    @property
    def severity(self) -> Severity:
        """How much the defect matters to the app's user; `info` for a finding that is not the
        app's (the harness's or the settings'), which is shown but no defect."""
        if self.attribution != "sut":
            return "info"
        return SEVERITY.get(self.root_cause) or SEVERITY_OF_CATEGORY[self.category]

    @computed_field  # type: ignore[prop-decorator]
    @property
    def confidence(self) -> Confidence:
        """`observed`: a detector saw it in the trace, mechanically; `judged`: a model's finding
        that masfuzz's guard and judge rounds confirmed."""
        return "judged" if self.detector == JUDGED_DETECTOR else "observed"

    @property
    def proposal(self) -> bool:
        """A detector's reading of free text, which the judge agent is to confirm."""
        return self.detector in PROPOSING_DETECTORS and self.decided_by != JUDGE_CONFIRMED

    @property
    def for_the_judge(self) -> bool:
        """A proposal about the system's own behaviour: what the judge agent is asked about
        (one the harness or the settings caused is no finding of the system's to confirm)."""
        return self.proposal and self.attribution == "sut"

    @property
    def category_name(self) -> str:
        return CATEGORY_NAMES[self.category]

    @property
    def oracles(self) -> tuple[str, ...]:
        return self.found_by or (self.detector,)


def merge(kept: Failure, other: Failure) -> Failure:
    """One failure of two findings of the same fault: every oracle that found it, and the better
    evidence: within one trace a detector's observation over a model's judgement, else the first
    found (evidence indices point into their own trace: another scenario's never replace them)."""
    better = kept.confidence == "judged" and other.confidence == "observed"
    best = other if better and kept.scenario_id == other.scenario_id else kept
    found = tuple(dict.fromkeys((*best.oracles, *kept.oracles, *other.oracles)))
    update: dict = {} if found == best.found_by else {"found_by": found}
    if rule_decided(best.decided_by) and {kept.decided_by, other.decided_by} & {AGENTS, JUDGE_CONFIRMED}:
        update["decided_by"] = JUDGE_CONFIRMED  # the failure and judge agents found it too
    return best.model_copy(update=update) if update else best


def dedupe(failures: list[Failure]) -> list[Failure]:
    """One failure per fingerprint, where it first appears, merged from all its findings."""
    out: dict[str, Failure] = {}
    for f in failures:
        out[f.fingerprint] = merge(out[f.fingerprint], f) if f.fingerprint in out else f
    return list(out.values())
