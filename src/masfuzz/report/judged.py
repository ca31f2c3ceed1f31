"""The judge section of a report (`masfuzz judge`): each judged log's verdict, findings and
attribution "agent, step, why", or one line per log and the totals of many. Plain rendering of
the sections `masfuzz.judging` makes.

Logs judged with no TARGET get the log view (`log_view`, `log_view_text`): what a log can show,
the agents, tools and delegations seen, then the judge section. The coverage of the workflow
derived from the logs themselves is complete by construction for C1 and C4 and counts, for C3,
the closed-world pairs nobody drove the system towards: numbers that mean little for a log, so
the view leaves them out (with a TARGET the coverage is against the target's workflow, and
the whole report is shown).
"""

from __future__ import annotations

from typing import Any

from masfuzz.oracles.failure import RULE

# what only a driven run shows: the JSON report's keys the log view leaves out
DRIVEN_ONLY = ("structure", "coverage", "obligations")


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


def seen(spec: Any) -> dict[str, Any]:
    """What the logs show of the system (the workflow derived from them): the agents that spoke,
    the tools they called and the delegations between them, in the order first seen."""
    return {"agents": [a.id for a in spec.agents], "tools": [t.id for t in spec.tools],
            "delegations": [[d.from_, d.to] for d in spec.delegations]}


def log_view(report: dict[str, Any], spec: Any) -> dict[str, Any]:
    """The JSON report of logs judged with no TARGET: every key but the driven-only ones, and
    what the logs show (`seen`)."""
    return {**{k: v for k, v in report.items() if k not in DRIVEN_ONLY}, "seen": seen(spec)}


def log_view_text(heading: list[str], judged: dict[str, Any], spec: Any) -> str:
    """One log judged with no TARGET, as text: the run's heading, what the log shows, and the
    log's verdict, findings and attribution."""
    s = seen(spec)
    out = [*heading,
           f"seen: {len(s['agents'])} agent(s): {', '.join(s['agents'])}",
           f"  tools called: {', '.join(s['tools']) or '(none)'}",
           f"  delegations: {', '.join(f'{a} -> {b}' for a, b in s['delegations']) or '(none)'}",
           ""]
    return "\n".join(out) + "\n" + judged_text(judged, batch=False)
