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
