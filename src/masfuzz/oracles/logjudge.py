"""One imported log judged (`masfuzz judge --chat`): the deterministic detectors, the final
answer against the expected one (`--expected`), FLARE's failure and judge agents (`--model`),
and who and when (`responsibility`): the verdict, the findings and the attribution
"agent, step, why" of each log, and a summary of many.
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
from masfuzz.oracles.responsibility import answer_check, decisive
from masfuzz.spec.model import WorkflowSpec


def judge_log(log: Imported, spec: WorkflowSpec | None = None, *, client: Any = None,
              rounds: int = 2, expected: str | None = None) -> tuple[dict[str, Any], list[Failure]]:
    """The log's section of the judge report and its failures (agent and step filled);
    `expected` (else the answer the log's file keeps) is checked against the final answer."""
    trace, expected = log.trace, expected or log.expected
    notes: list[str] = []
    try:
        own = spec if spec is not None else spec_from_traces([trace])
    except MasfuzzError as exc:  # no agent spoke: there is nothing to judge but the answer
        own, notes = None, [str(exc)]
    failures = detect(trace, own)
    checked = answer_check(trace, expected)
    if checked is not None:
        failures.append(checked)
    if client is not None and own is not None:
        from masfuzz.fuzz.failure_agents import identify_failures
        from masfuzz.fuzz.specification import skeleton

        report = asyncio.run(identify_failures(trace, skeleton(own), client, rounds=rounds,
                                               expected=expected))
        failures += report.failures
        notes += report.notes
    failures = blame_all(trace, dedupe(failures))
    blame = decisive(trace, failures)
    own_failures = [f for f in failures if f.attribution == "sut"]
    return {
        "file": log.source, "format": log.format, "events": len(trace.events),
        "verdict": "failure" if own_failures else "no failure found",
        "failures": [f.model_dump(mode="json") for f in failures],
        "attribution": blame.as_dict() if blame is not None else None,
        **({"expected": expected} if expected else {}), **({"notes": notes} if notes else {}),
    }, failures


def summary(logs: list[dict[str, Any]]) -> dict[str, Any]:
    failed = sum(1 for x in logs if x["verdict"] == "failure")
    return {"logs": len(logs), "failed": failed, "no_failure_found": len(logs) - failed}


def _who(section: dict[str, Any]) -> str:
    a = section.get("attribution")
    if not a:
        return "-"
    step = a["step_ref"] if a["step_ref"] is not None else f"event {a['step']}"
    return f"agent {a['agent'] or '(none)'}, step {step}"


def log_lines(section: dict[str, Any]) -> list[str]:
    """One log's verdict, findings and attribution."""
    out = [f"{section['file']}: {section['format']} transcript, {section['verdict']}"]
    for f in section["failures"]:
        where = f" at step {f['step_ref'] if f.get('step_ref') is not None else f.get('step')}" \
            if f.get("step") is not None else ""
        whose = "" if f.get("attribution", "sut") == "sut" else f" (not the app's: {f['attribution']})"
        out.append(f"  [{f['category']} / {f['root_cause']}]{whose} {f.get('agent') or '-'}{where}: "
                   f"{f['description']}")
    a = section.get("attribution")
    if a:
        out.append(f"  attribution: {_who(section)}")
        out.append(f"    why: {a['why']}")
    for note in section.get("notes", ()):
        out.append(f"  note: {note}")
    return out


def judged_text(judged: dict[str, Any], *, batch: bool) -> str:
    """The judge section: each log in full, or (batch) one line per log and the totals."""
    logs = judged["logs"]
    if not batch:
        return "\n".join(line for s in logs for line in log_lines(s)) + "\n"
    out = [f"{s['file']}: {s['format']}, {s['verdict']}, {_who(s)}" for s in logs]
    t = judged["summary"]
    out.append(f"{t['logs']} log(s): {t['failed']} with a failure, {t['no_failure_found']} without")
    return "\n".join(out) + "\n"
