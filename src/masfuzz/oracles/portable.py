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
    tools are still compiled by each worker's first judging."""
    from masfuzz.graph.specification import skeleton
    from masfuzz.spec.model import AgentSpec, Delegation, Permissions, SystemInfo, ToolSpec
    from masfuzz.trace import AgentTurn, DelegationEvent, Message, TerminationEvent, ToolCall, ToolResult

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
    trace = Trace(events=(
        Message(role="user", content="Where is my booking ABC123? Please check."),
        AgentTurn(agent="triage_agent"),
        DelegationEvent(**{"from": "triage_agent", "to": "faq_agent"}),
        AgentTurn(agent="faq_agent"),
        ToolCall(agent="faq_agent", tool="lookup_tool", arguments={"reference": "ABC123"}, call_id="1"),
        ToolResult(agent="faq_agent", tool="lookup_tool", call_id="1", status="error",
                   payload="no such booking"),
        Message(agent="faq_agent", content="Your booking ABC123 is confirmed."),
        TerminationEvent(reason="completed", final_output="Your booking ABC123 is confirmed.")))
    for judge in (PortableJudge("workflow", workflow), PortableJudge("flare", workflow, skeleton(workflow))):
        try:
            judge(trace)
        except Exception:  # noqa: BLE001 - a worker's first judging does it, and says what fails
            pass
