"""One imported log judged (`masfuzz judge --chat`): the deterministic detectors, the final
answer against the expected one (`--expected`), FLARE's failure and judge agents (`--model`),
and who and when (`oracles.responsibility`): the verdict, the findings and the attribution
"agent, step, why" of each log. It draws on adapters (the workflow seen in the log) and on the
model-driven failure agents, so it sits beside the commands, not in the core; the report's
rendering of its sections is `masfuzz.report.judged`.
"""

from __future__ import annotations

import asyncio
from typing import Any

from masfuzz.adapters.blackbox import spec_from_traces
from masfuzz.adapters.transcript import Imported
from masfuzz.errors import MasfuzzError
from masfuzz.oracles.detectors import detect
from masfuzz.oracles.failure import Failure, dedupe
from masfuzz.oracles.blame import blame_all
from masfuzz.oracles.logged import logged_findings
from masfuzz.oracles.responsibility import answer_check, decisive, earliest_claims
from masfuzz.spec.model import WorkflowSpec


def judge_log(log: Imported, spec: WorkflowSpec | None = None, *, client: Any = None,
              rounds: int = 2, expected: str | None = None) -> tuple[dict[str, Any], list[Failure]]:
    """The log's section of the judge report and its failures (agent and step filled);
    `expected` (else the answer the log's file keeps) is checked against the final answer."""
    trace, expected = log.trace, expected or log.expected
    notes: list[str] = []
    rejected: list[str] = []  # the proposals the judge agent rejected: no failures
    try:
        own = spec if spec is not None else spec_from_traces([trace])
    except MasfuzzError as exc:  # no agent spoke: there is nothing to judge but the answer
        own, notes = None, [str(exc)]
    failures = detect(trace, own)
    checked = answer_check(trace, expected)
    if checked is not None:
        failures.append(checked)
    failures += logged_findings(trace)  # what a log shows of a team it does not list
    if client is not None and own is not None:
        from masfuzz.fuzz.failure_agents import confirm_proposals, identify_failures
        from masfuzz.graph.specification import skeleton

        flare = skeleton(own)
        # the detectors' readings of free text are proposals: the judge agent decides them
        # before anything is final, then the failure agents add what the detectors missed
        failures, rejected = asyncio.run(confirm_proposals(trace, flare, failures, client))
        report = asyncio.run(identify_failures(trace, flare, client, rounds=rounds, expected=expected))
        failures += report.failures
        notes += report.notes
    failures = earliest_claims(trace, blame_all(trace, dedupe(failures)))
    blame = decisive(trace, failures, expected)
    own_failures = [f for f in failures if f.attribution == "sut"]
    return {
        "file": log.source, "format": log.format, "events": len(trace.events),
        "verdict": "failure" if own_failures else "no failure found",
        "failures": [f.model_dump(mode="json") for f in failures],
        "attribution": blame.as_dict() if blame is not None else None,
        **({"expected": expected} if expected else {}), **({"notes": notes} if notes else {}),
        "rejected_proposals": rejected,  # [] when none: a reader need not test for the key
    }, failures


