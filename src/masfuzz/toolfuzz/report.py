"""The text report of a `masfuzz tools` run: per tool, its unique runtime errors with their
reproducing arguments and generated user requests, the counts, UE, TC/UE and the Chao1 interval;
then the correctness findings and the documentation fix when they ran."""

from __future__ import annotations

import json

from masfuzz.toolfuzz.session import SessionReport, ToolReport


def _fmt(x: float | None) -> str:
    return "-" if x is None else f"{x:.1f}"


def render_text(report: SessionReport) -> str:
    cfg = report.config
    out = [f"masfuzz tools {report.target}  seed={cfg.seed}  calls/tool={cfg.calls}  "
           f"model={cfg.model or '-'}  sut-model={cfg.sut_model or cfg.model or '-'}"]
    for note in report.notes:
        out.append(f"note: {note}")
    for t in report.tools:
        out += _tool_text(t)
    c = report.chao1
    out.append("")
    out.append(f"total: {len(report.tools)} tools, {report.calls} calls, UE {report.unique_errors}, "
               f"TC/UE {_fmt(report.calls / report.unique_errors if report.unique_errors else None)}, "
               f"Chao1 {c.estimate:.1f} 95% CI {c.interval()}")
    out.append(f"reproduce: masfuzz tools {report.target} --calls {cfg.calls} --seed {cfg.seed}"
               + (f" --model {cfg.model}" if cfg.model else "")
               + (f" --sut-model {cfg.sut_model}" if cfg.sut_model else "")
               + (" --correctness" if cfg.correctness else "") + (" --fix-docs" if cfg.fix_docs else ""))
    return "\n".join(out)


def _tool_text(t: ToolReport) -> list[str]:
    f = t.runtime.fuzz
    c = t.chao1
    out = ["", f"== {t.tool.name} ({t.tool.kind}) =="]
    for note in t.tool.notes:
        out.append(f"   note: {note}")
    out.append(f"   runtime: {f.calls} calls in {t.seconds:.1f}s: {f.ok} ok, {f.failed} failed, "
               f"{f.blocked} blocked by the sandbox (network isolation: {f.network_isolation})")
    for reason, n in sorted(f.blocked_reasons.items(), key=lambda kv: -kv[1])[:3]:
        out.append(f"      blocked x{n}: {reason}")
    out.append(f"   UE {t.unique_errors}   TC/UE {_fmt(t.tc_ue)}   Chao1 {c.estimate:.1f} 95% CI {c.interval()}")
    priors = {k: v.to_dict() for k, v in f.priors.items() if not v.empty()}
    if priors:
        out.append(f"   learned priors: {json.dumps(priors, ensure_ascii=False)[:300]}")
    for i, u in enumerate(sorted(f.unique.values(), key=lambda u: u.first_call), 1):
        out.append(f"   [{i}] {u.key}")
        out.append(f"       hits {u.count}, first at call {u.first_call}; reproduce: "
                   f"{json.dumps(u.arguments, ensure_ascii=False)[:240]}")
        if u.sanity is not None:
            line = f"       sanity check: {u.sanity}"
            if u.user_request:
                line += f"; user request: {u.user_request!r}"
            out.append(line)
            if u.confirmed is not None:
                status = "confirmed" if u.confirmed else "not confirmed"
                extra = f" (agent called with {json.dumps(u.agent_arguments, ensure_ascii=False)[:160]})" if u.agent_arguments else ""
                if u.agent_error:
                    extra += f"; the agent hit another error: {u.agent_error}"
                out.append(f"       through the agent: {status}{extra}")
    if t.correctness is not None:
        cr = t.correctness
        out.append(f"   correctness: {len(cr.sets)} prompt sets, {len(cr.erroneous_sets)} erroneous, "
                   f"{cr.error_count} erroneous prompts")
        for s in cr.sets:
            mark = "ERRONEOUS" if s.erroneous else "ok"
            out.append(f"      [{mark}] {s.template}  args consistent={s.arguments_consistent} "
                       f"outputs consistent={s.outputs_consistent} oracle scores={s.scores}")
            if s.erroneous:
                for p in s.failing_prompts[:3]:
                    out.append(f"         failing prompt: {p}")
    if t.docfix is not None:
        d = t.docfix
        out.append(f"   documentation fix: erroneous prompts {d.before} -> {d.after} "
                   f"(best of {len(d.candidates)} candidates: {[e for _, e in d.candidates]})")
        if d.improved:
            out.append(f"      new description: {d.best}")
    return out
