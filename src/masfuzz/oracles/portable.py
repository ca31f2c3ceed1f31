"""`PortableJudge`: the deterministic detectors a campaign runs on every trace, as data another
process can rebuild and run.

A campaign's judging of a run (the workflow's detectors, `detect`, or FLARE's spec-aware ones,
`detect_cited`) is a pure function of the trace and the specifications it reads. Made of data,
it can be sent where the run ran (the worker pool, `masfuzz.exec.pool`) and run there, right
after the execution, instead of one trace at a time on the campaign's own process while the
workers wait for their next scenario: a judging request like an execution request, dispatched
to the same workers. The worker answers with the failures, which the campaign stores as if it
had found them itself: the same judge on the same trace (`PortableJudge.from_data` rebuilds an
equal one; `tests/exec/test_judging.py` checks it).

A campaign whose detectors are a plain function (`masfuzz judge`'s imported logs) judges on its
own process, as before.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from functools import cached_property
from typing import Any, Literal

from masfuzz.errors import MasfuzzError
from masfuzz.graph.specification import FlareSpec
from masfuzz.oracles.detectors import detect
from masfuzz.oracles.failure import Failure
from masfuzz.oracles.flare import detect_cited
from masfuzz.spec.model import WorkflowSpec
from masfuzz.trace import Trace

Kind = Literal["workflow", "flare"]


@dataclass(frozen=True, eq=False)
class PortableJudge:
    """`kind` "workflow": every detector over the workflow's spec (`oracles.detect`); "flare":
    FLARE's, each finding citing its clause of `flare` (`oracles.flare.detect_cited`)."""

    kind: Kind
    workflow: WorkflowSpec | None = None
    flare: FlareSpec | None = None  # kind "flare"

    def __call__(self, trace: Trace) -> list[Failure]:
        if self.kind == "flare":
            return detect_cited(trace, self.flare, self.workflow)
        return detect(trace, self.workflow)

    @cached_property
    def text(self) -> str:
        """Its JSON (`from_data` rebuilds it), with a `digest` that names it among the judges a
        worker has rebuilt: made once, as every judging request carries it."""
        data: dict[str, Any] = {
            "kind": self.kind,
            "workflow": None if self.workflow is None else self.workflow.model_dump(mode="json", by_alias=True),
            "flare": None if self.flare is None else self.flare.model_dump(mode="json", by_alias=True)}
        data["digest"] = hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()
        return json.dumps(data)

    @classmethod
    def from_data(cls, data: Any) -> "PortableJudge":
        """The judge `text` describes, rebuilt once per digest in this process (a worker judges
        many traces with one)."""
        if not isinstance(data, dict) or data.get("kind") not in ("workflow", "flare") \
                or not isinstance(data.get("digest"), str):
            raise MasfuzzError(f"judging request: expected a judge, not {data!r:.80}")
        digest = data["digest"]
        judge = _REBUILT.get(digest)
        if judge is None:
            workflow, flare = data.get("workflow"), data.get("flare")
            judge = cls(data["kind"], None if workflow is None else WorkflowSpec.model_validate(workflow),
                        None if flare is None else FlareSpec.model_validate(flare))
            if len(_REBUILT) >= _KEPT:
                _REBUILT.clear()
            _REBUILT[digest] = judge
        return judge


_REBUILT: dict[str, PortableJudge] = {}  # by digest: the judges this process has rebuilt
_KEPT = 8  # a worker serves one campaign's judge, or a few


def prepare_worker_template() -> None:
    """What a worker's first judging would do, done once in the pool's template before it forks
    the workers (`masfuzz.exec.template`), so that no worker pays it: the detectors compile
    their regular expressions on first use (61 of them on the customer-service desk's first
    judging, two thirds of its 27 ms) and read the installed plugins' entry points. A small
    handoff team's run is judged both ways; the patterns that name a campaign's own agents and
    tools are compiled when the pool gives the template the campaign's own judge (`prepare`)."""
    from masfuzz.graph.specification import skeleton
    from masfuzz.spec.model import AgentSpec, Delegation, Permissions, SystemInfo, ToolSpec

    workflow = WorkflowSpec(
        system=SystemInfo(id="prime", entry_agent="triage_agent"),
        agents=(AgentSpec(id="triage_agent", instructions="Hand the customer's question to the FAQ "
                          "agent, then wait for its answer before you reply."),
                AgentSpec(id="faq_agent", instructions="Answer with the lookup tool's result, "
                          "based on the triage agent's notes.")),
        tools=(ToolSpec(id="lookup_tool", description="Look up a booking by its reference.",
                        parameters={"type": "object", "properties": {
                            "reference": {"type": "string", "description": "e.g. ABC123"}}}),),
        permissions=Permissions(allow=(("faq_agent", "lookup_tool"),)),
        delegations=(Delegation(**{"from": "triage_agent", "to": "faq_agent"}),))
    for judge in (PortableJudge("workflow", workflow), PortableJudge("flare", workflow, skeleton(workflow))):
        _rehearse(judge)


def prepare(text: str) -> None:
    """The judge `text` describes (`PortableJudge.text`), rebuilt in this process and used once,
    on a made-up run of its own team (`rehearsal`): done in the pool's template before it forks
    the workers, each of them finds the judge rebuilt (`from_data`), the specification's readings
    made (cached by the specification) and the patterns that name the team's agents and tools
    compiled. Measured on the customer-service desk at 16 workers: each worker's first judging
    took 0.2-0.3 s of CPU, two thirds of the judging CPU of a 200-execution campaign."""
    _rehearse(PortableJudge.from_data(json.loads(text)))


def _rehearse(judge: PortableJudge) -> None:
    if judge.workflow is None or not judge.workflow.agents:
        return
    try:
        judge(rehearsal(judge.workflow))
    except Exception:  # noqa: BLE001 - a worker's first judging does it, and says what fails
        pass


def rehearsal(workflow: WorkflowSpec) -> Trace:
    """A made-up run of `workflow`'s team, for a judge to be used once on (`prepare`): the user
    asks, the entry agent takes a turn, each delegation of the spec is followed as the team
    reaches it, each agent calls each tool it may use (the first call fails, so the detectors of
    errors read it too) and the last agent answers. Its findings mean nothing; the detectors'
    work on first use (their patterns for these names) is what it is for."""
    from masfuzz.trace import AgentTurn, DelegationEvent, Message, TerminationEvent, ToolCall, ToolResult

    entry = workflow.system.entry_agent or (workflow.agents[0].id if workflow.agents else "")
    events: list[Any] = [Message(role="user", content="Where is my booking ABC123? Please check "
                                 "and change my seat.")]
    seen, order = {entry}, [entry]
    for agent in order:  # the team as its delegations reach it, from the entry agent
        for d in workflow.delegations:
            if d.from_ == agent and d.to not in seen:
                seen.add(d.to)
                order.append(d.to)
    order += [a.id for a in workflow.agents if a.id not in seen]
    last, calls = entry, 0
    for agent in order:
        if agent != entry:
            events.append(DelegationEvent(**{"from": last, "to": agent}))
        events.append(AgentTurn(agent=agent))
        for allowed, tool in workflow.permissions.allow:
            if allowed != agent:
                continue
            calls += 1
            events += [ToolCall(agent=agent, tool=tool, arguments={"reference": "ABC123"}, call_id=str(calls)),
                       ToolResult(agent=agent, tool=tool, call_id=str(calls), status="error" if calls == 1 else "ok",
                                  payload="no such booking" if calls == 1 else "done")]
        last = agent
    answer = "Your booking ABC123 is confirmed and your seat is changed."
    events += [Message(agent=last, content=answer), TerminationEvent(reason="completed", final_output=answer)]
    return Trace(events=tuple(events))
