"""The tool-fuzzing part of a run (ToolFuzz): the session's data as `masfuzz tools` recorded it,
and its text. Data first; the text is rendered from the data, so `masfuzz tools` and
`masfuzz report` print the same thing for the same run."""

from __future__ import annotations

import json
import shlex
from typing import Any


def tools_section(findings: list[dict[str, Any]], info: dict[str, Any]) -> dict[str, Any] | None:
    session = (info.get("summary") or {}).get("tools")
    if session is None and not findings:
        return None
    return {"session": session, "findings": findings}


def _fmt(x: float | None) -> str:
    return "-" if x is None else f"{x:.1f}"


def _ci(c: dict[str, float]) -> str:
    return f"[{c['lower']:.1f}, {c['upper']:.1f}]"


def tools_text(data: dict[str, Any]) -> str:
    """The text report of a `masfuzz tools` session (its `masfuzz-tools/1` data): per tool, its
    unique runtime errors with reproducing arguments and user requests, UE, TC/UE and the Chao1
    interval; then the correctness findings and the documentation fix when they ran."""
    out = [f"masfuzz tools {data['target']}  seed={data['seed']}  calls/tool={data['calls_per_tool']}  "
           f"model={data['model'] or '-'}  sut-model={data['sut_model'] or data['model'] or '-'}"]
    for note in data["notes"]:
        out.append(f"note: {note}")
    for t in data["tools"]:
        out += _tool_text(t, data.get("target") or "")
    totals, c = data["totals"], data["totals"]["chao1"]
    out.append("")
    out.append(f"total: {totals['tools']} tools, {totals['calls']} calls, UE {totals['unique_errors']}, "
               f"TC/UE {_fmt(totals['tc_per_ue'])}, Chao1 {c['estimate']:.1f} 95% CI {_ci(c)}")
    out += [f"total {line}" for line in model_use_lines(totals.get("models") or {})]
    out.append(f"reproduce: masfuzz tools {shlex.quote(data['target'])} --calls {data['calls_per_tool']} "
               f"--seed {data['seed']}"
               + (f" --model {data['model']}" if data["model"] else "")
               + (f" --sut-model {data['sut_model']}" if data["sut_model"] else "")
               + (" --correctness" if data.get("correctness") else "")
               + (" --fix-docs" if data.get("fix_docs") else "")
               + (f" --fixture {shlex.quote(data['fixture'])}" if data.get("fixture") else "")
               + (f" --setup {shlex.quote(data['setup'])}" if data.get("setup") else ""))
    return "\n".join(out) + "\n"


def cost_text(cost: float | None) -> str:
    """A cost in USD, or "unknown" where no price is known (never a made-up $0)."""
    return "cost unknown (no price known for the model)" if cost is None else f"cost ${cost:.4f}"


def model_use_lines(models: dict[str, dict[str, Any]]) -> list[str]:
    """One line per role: the tester's and the agent's model calls, tokens, time and cost."""
    out = []
    for who in ("tester", "agent"):
        u = models.get(who)
        if u is None:
            continue
        cached = f" ({u['cache_hits']} from the cache)" if u["cache_hits"] else ""
        failed = f", {u['errors']} failed" if u["errors"] else ""
        out.append(f"model use, {who} {u['model']}: {u['calls']} call(s){cached}{failed}, "
                   f"{u['tokens_in']} tokens in, {u['tokens_out']} out, {u['seconds']:.1f} s, "
                   f"{cost_text(u['cost'])}")
    return out


def tool_usage_rows(data: dict[str, Any]) -> list[dict[str, Any]]:
    """A session's model use as the store's usage rows: per tool (its name in the agent
    column), the tester's (role tester) and the agent's (role sut)."""
    return [{"role": "tester" if who == "tester" else "sut", "agent": t["tool"], "model": u["model"],
             "calls": u["calls"], "tokens_in": u["tokens_in"], "tokens_out": u["tokens_out"],
             "cache_hits": u["cache_hits"], "seconds": u["seconds"], "cost": u["cost"]}
            for t in data["tools"] for who, u in sorted((t.get("models") or {}).items())]


def escaped(arguments: Any) -> str:
    """Arguments as JSON with every non-ASCII and control character escaped (`\\u009b`), so
    what is shown is what was passed, byte for byte, and can be pasted back."""
    return json.dumps(arguments, ensure_ascii=True, default=str)


def _shown(arguments: Any, limit: int = 2000) -> str:
    text = escaped(arguments)
    return text if len(text) <= limit else text[:limit] + f"... ({len(text)} characters; in full in --format json)"


def _visible(text: str) -> str:
    """Text with its control and other unprintable characters escaped (\\u009b), the rest as is."""
    return "".join(c if c.isprintable() else json.dumps(c)[1:-1] for c in str(text))


def _tail(output: str, limit: int = 300) -> str:
    return json.dumps(output[-limit:].rstrip("\n"), ensure_ascii=True)


def reproducer(target: str, tool: str, arguments: Any) -> str:
    """A shell command that calls `tool` of `target` once with exactly these arguments, the way
    `masfuzz tools` calls it (`masfuzz.api.call_tool`), outside the sandbox."""
    # JSON strings (ASCII, double-quoted) are Python string literals: no quote to shell-escape
    # unless a value holds a single quote, which shlex.quote then takes care of
    code = (f"from masfuzz.api import call_tool; print(repr(call_tool({escaped(target)}, "
            f"{escaped(tool)}, {escaped(escaped(arguments))})))")
    return f"python -c {shlex.quote(code)}"


def _tool_text(t: dict[str, Any], target: str = "") -> list[str]:
    c = t["chao1"]
    out = ["", f"== {t['tool']} ({t['kind']}) =="]
    for note in t["notes"]:
        out.append(f"   note: {note}")
    for p in t.get("poisoning") or []:
        out.append(f"   TOOL POISONING ({p['kind']}, in its {p['where']}): \"{p['quote']}\"")
    fuzzing = t.get("fuzz_seconds", t["seconds"])  # the model stages' time is on a line of its own
    out.append(f"   runtime: {t['calls']} calls in {fuzzing:.1f}s: {t['ok']} returned, {t['failed']} "
               f"failed, {t['blocked']} blocked by the sandbox (network isolation: "
               f"{t['network_isolation']})" + (f"; {t['lines_reached']} lines of its code reached"
                                               if t.get("lines_reached") else ""))
    for reason, n in sorted(t["blocked_reasons"].items(), key=lambda kv: -kv[1])[:3]:
        out.append(f"      blocked x{n}: {reason}")
    if t.get("stopped"):
        out.append(f"   stopped early: {t['stopped']}")
    if t.get("models"):
        out += [f"   {line}" for line in model_use_lines(t["models"])]
        out.append(f"   time: {t['fuzz_seconds']:.1f} s fuzzing, {t['seconds'] - t['fuzz_seconds']:.1f} s "
                   "in the model stages (sanity check, user requests, agent runs, correctness, "
                   "documentation fix)")
    aside = t.get("not_the_tools") or 0
    out.append(f"   UE {t['unique_errors']}   TC/UE {_fmt(t['tc_per_ue'])}   Chao1 "
               f"{c['estimate']:.1f} 95% CI {_ci(c)}"
               + (f"   (+{aside} unique error(s) not the tool's, not counted)" if aside else ""))
    if t["priors"]:
        out.append(f"   learned priors: {json.dumps(t['priors'], ensure_ascii=False, sort_keys=True)[:300]}")
    for i, u in enumerate(t["errors"], 1):
        whose = u.get("attribution", "sut")
        out.append(f"   [{i}] {_visible(u['key'])}" + ("" if whose == "sut" else
                   f"  (caused by {'masfuzz' if whose == 'harness' else 'the settings'}, not the "
                   f"tool: {u.get('because')})"))
        out.append(f"       hits {u['count']}, first at call {u['first_call']}, with arguments "
                   f"{_shown(u['arguments'])}")
        out.append(f"       reproduce: {u.get('reproduce') or reproducer(target, t['tool'], u['arguments'])}")
        if u.get("output"):
            out.append(f"       its output (tail): {_tail(u['output'])}")
        if u["sanity"] is not None:
            line = f"       sanity check: {u['sanity']}"
            if u["user_request"]:
                line += f"; user request: {u['user_request']!r}"
            out.append(line)
            if u["confirmed"] is not None:
                status = "confirmed" if u["confirmed"] else "not confirmed"
                extra = (f" (agent called with {_shown(u['agent_arguments'], 160)})"
                         if u["agent_arguments"] else "")
                if u["agent_error"]:
                    extra += f"; the agent hit another error: {u['agent_error']}"
                out.append(f"       through the agent: {status}{extra}")
    handled = t.get("returned_errors") or []
    if handled:
        n = sum(h["count"] for h in handled)
        out.append(f"   error handling: {n} call(s) got an error message back, {len(handled)} kind(s) "
                   "(returned, not raised: the tool's own handling, not counted in UE)")
        for h in handled[:10]:
            out.append(f"      x{h['count']}: {_visible(h['message'][:160])}  e.g. {_shown(h['arguments'], 160)}")
        if len(handled) > 10:
            out.append(f"      ... and {len(handled) - 10} more kind(s) in the JSON data")
    cr = t.get("correctness")
    if cr is not None:
        out.append(f"   correctness: {len(cr['sets'])} prompt sets, {cr['erroneous_sets']} erroneous, "
                   f"{cr['error_count']} erroneous prompts and examples")
        for s in cr["sets"]:
            mark = "ERRONEOUS" if s["erroneous"] else "ok"
            out.append(f"      [{mark}] {s['template']}  args consistent={s['arguments_consistent']} "
                       f"outputs consistent={s['outputs_consistent']} oracle scores={s['scores']}")
            if s["erroneous"]:
                for p in s["failing_prompts"][:3]:
                    out.append(f"         failing prompt: {p}")
        for e in cr.get("examples", []):
            mark = "ok" if e["agrees"] else "WRONG"
            out.append(f"      [{mark}] documented example {_visible(e['call'][:120])} -> "
                       f"{_visible(repr(e['documented'])[:120])}"
                       + ("" if e["agrees"] else f"; the tool gives {_visible(repr(e['got'])[:160])}"))
    d = t.get("docfix")
    if d is not None:
        out.append(f"   documentation fix: erroneous prompts {d['before']} -> {d['after']} "
                   f"(best of {len(d['candidates'])} candidates: {[c['errors'] for c in d['candidates']]})")
        if d["improved"]:
            out.append(f"      new description: {d['best']}")
    return out


def findings_of(session: dict[str, Any]) -> list[dict[str, Any]]:
    """The findings of a session as the store keeps them: one per unique runtime error (by
    its grouping key) and one per erroneous correctness prompt set."""
    return [f for t in session["tools"] for f in tool_findings_of(t)]


def tool_findings_of(t: dict[str, Any]) -> list[dict[str, Any]]:
    """The findings of one tool's part of a session's data."""
    import hashlib

    def fp(*parts: str) -> str:
        # surrogatepass: a message may hold a lone surrogate (a tool's bytes decoded with
        # surrogateescape); it still has a fingerprint, the same as any other text's
        return hashlib.sha256("\x00".join(parts).encode("utf-8", "surrogatepass")).hexdigest()[:16]

    # Who and when, as every finding has them: no agent is to blame for a tool's own defect, and
    # the decisive step is the session's call that first hit it (1-based; none for a prompt set).
    out = []
    for u in t["errors"]:
        out.append({"tool": t["tool"], "kind": "runtime", "fingerprint": fp(u["key"]),
                    "agent": None, "step": u.get("first_call"),
                    "exception": u["error_type"], "message": u["message"], "frame": u["frame"],
                    "arguments": u["arguments"], "user_request": u["user_request"],
                    "confirmed": u["confirmed"], "count": u["count"], "key": u["key"],
                    "attribution": u.get("attribution", "sut"), "because": u.get("because"),
                    "first_call": u.get("first_call"), "reproduce": u.get("reproduce"),
                    "output": u.get("output")})
    for p in t.get("poisoning") or []:  # instructions to the model in its documentation
        out.append({"tool": t["tool"], "kind": "poisoning", "fingerprint": fp("poisoning", p["where"], p["quote"]),
                    "agent": None, "step": None, "message": f"tool poisoning ({p['kind']}, in its "
                    f"{p['where']}): {p['quote']}", "arguments": None, "user_request": None,
                    "confirmed": None, "attribution": "sut"})
    for s in (t.get("correctness") or {}).get("sets", []):
        if s["erroneous"]:
            out.append({"tool": t["tool"], "kind": "correctness", "fingerprint": fp(s["template"]),
                        "agent": None, "step": None,
                        "message": f"erroneous prompt set: {s['template']}",
                        "arguments": None, "user_request": (s["failing_prompts"] or [None])[0],
                        "confirmed": None, "prompts": s["failing_prompts"]})
    for e in (t.get("correctness") or {}).get("examples", []):
        if not e["agrees"]:  # the documentation's own example, answered otherwise
            out.append({"tool": t["tool"], "kind": "correctness", "fingerprint": fp("example", e["call"]),
                        "agent": None, "step": None,
                        "message": f"documented example {e['call']} -> {e['documented']!r}, the tool "
                                   f"gives {e['got'][:200]!r}",
                        "arguments": e["arguments"], "user_request": None, "confirmed": None})
    return out


def gating_failures(findings: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Tool findings as the failures `--fail-on` gates: a tool that crashed on an input is a
    runtime crash (RC); documentation that led the agent to a wrong answer is a tool
    invocation failure (TI), and so is documentation that instructs the model (poisoning); one
    caused by masfuzz's sandbox or its limits is not the app's."""
    return [{"category": "runtime_crash" if f["kind"] == "runtime" else "tool_invocation",
             "attribution": f.get("attribution", "sut")} for f in findings]
