"""The judge section of a report (`masfuzz judge`): each judged log's verdict, findings and
attribution "agent, step, why", or one line per log and the totals of many. Plain rendering of
the sections `masfuzz.judging` makes.
"""

from __future__ import annotations

from typing import Any

from masfuzz.oracles.failure import RULE


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
        # which decided, where a judge could have: confirmed, or unavailable and why
        decided = f" (decided by {f['decided_by']})" if f.get("decided_by") not in (None, "", RULE) else ""
        out.append(f"  [{f['category']} / {f['root_cause']}]{whose} {f.get('agent') or '-'}{where}: "
                   f"{f['description']}{decided}")
    a = section.get("attribution")
    if a:
        out.append(f"  attribution: {_who(section)}")
        out.append(f"    why: {a['why']}")
    for note in section.get("rejected_proposals", ()):
        out.append(f"  rejected (no failure): {note}")
    for note in section.get("notes", ()):
        out.append(f"  note: {note}")
    return out


def judged_text(judged: dict[str, Any], *, batch: bool) -> str:
    """The judge section: each log in full, or (batch) one line per log and the totals."""
    logs = judged["logs"]
    if not batch:
        return "\n".join(line for s in logs for line in log_lines(s)) + "\n"
    # a clean log names no one; a failed one without an attribution says so
    out = [f"{s['file']}: {s['format']}, {s['verdict']}" + (f", {_who(s)}" if s.get("attribution") else
                                                           ", no agent named" if s["verdict"] == "failure" else "")
           for s in logs]
    t = judged["summary"]
    out.append(f"{t['logs']} log(s): {t['failed']} with a failure, {t['no_failure_found']} without")
    return "\n".join(out) + "\n"
