"""Plain-text report for a terminal."""

from __future__ import annotations

from typing import Any

from masfuzz.report.analysis import Analysis, warnings
from masfuzz.report.base import Reporter

LIST_LIMIT = 200  # per criterion; a closed-world C3 set can be |agents| x |tools| long


def heading(analysis: Analysis) -> list[str]:
    """The report's first lines: which run, and its warnings."""
    run = analysis.extra.get("run")
    out = [f"run {run['id']}: masfuzz {run['command']} {run['target']} ({run['status']})"] if run else []
    return out + [f"WARNING: {w}" for w in warnings(analysis)]


class TextReporter(Reporter):
    format = "text"

    def render(self, analysis: Analysis, *, obligations: bool = False) -> str:
        spec, s = analysis.spec, analysis.structure
        out = heading(analysis)
        if spec is None or s is None:
            return "\n".join(out) + "\n" + self._sections(analysis)
        mode = spec.permissions.restrict_mode.replace("_", "-")
        out += [
            f"system {spec.system.id} ({spec.system.framework}, {spec.system.pattern}), "
            f"entry {spec.system.entry_agent}",
            f"  reachable agents  {s.agents:>6}",
            f"  tools             {s.tools:>6}",
            f"  allowed edges     {s.allowed:>6}",
            f"  restricted edges  {s.restricted:>6}  ({mode})",
            f"  delegations       {s.delegations:>6}",
            f"  obligations       {s.obligations:>6}  "
            + "(" + " + ".join(f"{k} {v}" for k, v in analysis.space.counts().items()) + ")",
        ]
        if s.unreachable:
            out.append(f"  unreachable agents (no obligations): {', '.join(s.unreachable)}")
        for note in spec.notes:
            out.append(f"  note: {note}")
        if analysis.coverage is not None:
            out.append("")
            out.append(f"coverage over {analysis.scenarios} scenario(s)")
            for r in analysis.criteria():
                label = analysis.criterion_name(r.criterion)
                line = f"  {r.criterion} {label:<22} {r.covered:>5}/{r.total:<5} {r.ratio:6.1%}"
                if r.criterion == "C3":
                    line += "  (inverted: each is a restricted call the system attempted)"
                out.append(line)
            t = analysis.coverage.total()
            out.append(f"  all                       {t.covered:>5}/{t.total:<5} {t.ratio:6.1%}")
            g = analysis.gated()
            out.append(f"  C1+C2+C4 (--fail-under)   {g[0]:>5}/{g[1]:<5} {analysis.coverage_percent():5.1f}%")
        if obligations:
            out.append("")
            out.extend(self._obligations(analysis))
        if analysis.failures:
            out.append("")
            out.extend(failure_lines(analysis.failures))
        return "\n".join(out) + "\n" + self._sections(analysis)

    def _sections(self, analysis: Analysis) -> str:
        """What the campaign's phases left: known failures replayed, generation, fuzzing, tool fuzzing."""
        from masfuzz.report.phases import phase_lines, phases_of

        lines = phase_lines(phases_of(analysis))
        text = "\n" + "\n".join(lines) + "\n" if lines else ""
        rejected = analysis.extra.get("rejected_proposals")
        if rejected:
            text += (f"\nrejected by the judge agent (no failures): {len(rejected)} proposal(s)\n"
                     + "".join(f"  {r['text']}\n" for r in rejected[:LIST_LIMIT])
                     + (f"  ... and {len(rejected) - LIST_LIMIT} more\n" if len(rejected) > LIST_LIMIT else ""))
        replayed = analysis.extra.get("replayed")
        if replayed:
            live = sum(1 for r in replayed if r["still_fails"])
            text += (f"\nreplayed: {len(replayed)} failure(s) stored for this target: {live} still "
                     f"fail, {len(replayed) - live} fixed\n")
            text += "".join(f"  {'STILL FAILS' if r['still_fails'] else 'fixed      '}  [{r['category']} / "
                            f"{r['root_cause']}] {r['description']}\n" for r in replayed)
        if "generation" in analysis.extra:
            from masfuzz.report.generation import generation_text

            text += generation_text(analysis.extra["generation"])
        if "fuzz" in analysis.extra:
            from masfuzz.report.fuzzing import fuzz_text

            text += fuzz_text(analysis.extra["fuzz"])
        if "judged" in analysis.extra:
            from masfuzz.report.judged import judged_text

            text += "\n" + judged_text(analysis.extra["judged"], batch=False)
        tools = analysis.extra.get("tools")
        if tools and tools.get("session"):
            from masfuzz.report.tools import tools_text

            text += ("\n" if text else "") + tools_text(tools["session"])
        return text

    def _obligations(self, analysis: Analysis) -> list[str]:
        out = ["obligations"]
        for oset in analysis.space.sets():
            out.append(f"  {oset.criterion} {analysis.criterion_name(oset.criterion)} ({len(oset)})")
            for i, ob in enumerate(oset):
                if i == LIST_LIMIT:
                    out.append(f"    ... and {len(oset) - LIST_LIMIT} more")
                    break
                mark = ""
                if analysis.coverage is not None:
                    who = analysis.coverage.witnessed(ob)
                    mark = f"  witnessed by {', '.join(who)}" if who else "  not witnessed"
                out.append(f"    {ob.id}{mark}")
        if analysis.coverage is not None and analysis.coverage.unexpected:
            out.append("  observed but not declared in the spec")
            for ob_id, who in sorted(analysis.coverage.unexpected.items()):
                out.append(f"    {ob_id}  seen in {', '.join(who)}")
        return out


def configuration_text(config: dict[str, Any]) -> str:
    """A mutant's configuration in one line: per-agent temperature and model, speaking order,
    the faults masfuzz injected into tools."""
    parts = [f"{a} at temperature {t:g}" for a, t in config.get("temperatures", {}).items()]
    parts += [f"{a} on {m}" for a, m in config.get("agent_models", {}).items()]
    if config.get("speaking_order"):
        parts.append("order " + ">".join(config["speaking_order"]))
    parts += [f"injected fault {f['tool']}={f['mode']}" for f in config.get("faults", ())]
    return ", ".join(parts)


def who_and_when(f: dict[str, Any]) -> str:
    """The blamed agent and the decisive event, named as the user's own log names it when the
    trace was imported from one: every report's words for them."""
    who = f"who: {f['agent']}" if f.get("agent") else "who: no agent to blame"
    step = f.get("step")
    when = "when: -" if step is None else f"when: event {step}" + (
        f" ({f['step_ref']} in your log)" if f.get("step_ref") else "")
    return f"{who}, {when}"


def oracles(f: dict[str, Any]) -> list[str]:
    """Every oracle that found the failure (one stored before `found_by` names its detector)."""
    return list(f.get("found_by") or [f["detector"]])


EVIDENCE_SHOWN = 12  # event indices listed per failure in text (JSON has them all)


def failure_lines(failures: list[dict[str, Any]]) -> list[str]:
    """Failures (`Failure.model_dump` dicts, or stored ones carrying the reproducer's input)."""
    if not failures:
        return ["failures: none found by the deterministic detectors"]
    not_own = sum(1 for f in failures if f.get("attribution", "sut") != "sut")
    out = [f"failures ({len(failures)}" + (f", {not_own} of them caused by masfuzz or the "
                                           "settings, not the app" if not_own else "") + ")"]
    for f in failures:
        category = f["category"].replace("_", " ")
        whose = f.get("attribution", "sut")
        tag = f" ({f['severity']}, {f['confidence']})" if whose == "sut" and "severity" in f else (
            "" if whose == "sut" else f" (caused by the {whose}, not the app)")
        out.append(f"  [{category} / {f['root_cause']}]{tag} {f['description']}")
        if f.get("because"):
            out.append(f"    {f['because']}")
        if f.get("shared_process"):
            out.append(f"    {f['shared_process']}")
        out.append(f"    {who_and_when(f)}")
        where = f"    found by {', '.join(oracles(f))}" + (f", decided by {f['decided_by']}" if f.get("decided_by") else "")
        where += f", fingerprint {f['fingerprint']}, events "
        evidence = list(f.get("evidence", ()))
        where += (", ".join(str(i) for i in evidence[:EVIDENCE_SHOWN]) or "-") + (
            f" (+{len(evidence) - EVIDENCE_SHOWN} more)" if len(evidence) > EVIDENCE_SHOWN else "")
        if f.get("clause"):
            where += f", violates {f['clause']}"
        if f.get("scenario_id"):
            where += f", reproduced by {f['scenario_id']}"
        out.append(where)
        if f.get("input"):
            text = " ".join(str(f["input"]).split())
            out.append(f"    input: {text if len(text) <= 120 else text[:117] + '...'}")
        if f.get("configuration"):
            out.append("    with " + configuration_text(f["configuration"]))
    return out
