"""Who and when on labelled transcripts: how often `masfuzz judge --chat` names the agent most
responsible and the decisive step, against the random pick on the same logs.

bench/judge_labels/logs holds small transcripts in the formats `judge --chat` reads (AG2 group
chats, chat sequences and two-agent chats, AgentChat and Magentic-One TaskResults and console
logs, OpenAI Agents SDK run items, LangGraph message states), written to show the failure kinds
of real multi-agent logs: code that fails and is not fixed, an orchestrator's wrong instruction
or wrong fact sheet, a worker reporting a wrong fact, a failed tool call answered around, a turn
past the announced end, a loop without progress, an agent claiming what a tool denied, a request
routed to the wrong agent, and correct runs. bench/judge_labels/labels.json gives per log the
responsible agent and the decisive step as the log numbers its messages ("chat:message" in a
sequence), or {"failure": false}. A log that keeps its task's answer (`ground_truth`) is checked
against it, as `judge` does.

Printed: per log the label and masfuzz's answer; then agent accuracy and step accuracy (exact,
and within +-1 message; on the logs labelled with a failure), the no-failure logs judged clean,
and the same for a uniformly random pick (an agent among those that spoke, a step among the
log's messages), computed exactly as its expectation, not sampled.

The logs were written by masfuzz's authors together with the attribution rules, so the numbers
say the rules do what they were made for on these kinds, not how they fare on real logs.

`--who-when DIR` scores real logs instead: the Who&When dataset (Zhang et al., "Which Agent
Causes Task Failures and When?", ICML 2025; github.com/mingyin1/Agents_Failure_Attribution,
also on Hugging Face as Kevin355/Who_and_When), 184 failed runs labelled with the agent
responsible and the decisive step: Hand-Crafted (Magentic-One teams) and Algorithm-Generated
(AG2 group chats with code execution), each a folder of N.json with `history`,
`mistake_agent`, `mistake_step`, the task's `ground_truth` and the user's `question`. Get it
from there; it is not part of masfuzz. Printed per subset and per half (odd-numbered files, on which the rules were
developed, and even-numbered ones, held out): agent and step accuracy (exact and within +-1;
an agent's name compared whatever its case, as a few labels write "Websurfer" for WebSurfer),
logs with no attribution, the random pick's expectation, and per labelled agent how often it
was named and whom masfuzz named instead.

    python bench/bench_attribution.py [--labels bench/judge_labels]
    python bench/bench_attribution.py --who-when "path/to/Who&When" [--each]

`--each` adds a line per log (its label, masfuzz's agent and step, and why), the list to study
the misses by class: which step the label picks and which masfuzz picks.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

from masfuzz.adapters.transcript import load
from masfuzz.judging import judge_log
from masfuzz.trace import EVENT_SOURCES, AgentTurn

HERE = Path(__file__).resolve().parent / "judge_labels"


def _position(ref: str | None) -> tuple[int, int] | None:
    """A step as (chat, message): "5" is (0, 5), "1:3" is (1, 3)."""
    if ref is None:
        return None
    chat, _, message = ref.rpartition(":")
    try:
        return int(chat or 0), int(message)
    except ValueError:
        return None


def _near(a: str | None, b: str | None) -> bool:
    pa, pb = _position(a), _position(b)
    return pa is not None and pb is not None and pa[0] == pb[0] and abs(pa[1] - pb[1]) <= 1


def _same_agent(a: str | None, b: str | None) -> bool:
    """The same agent, its name's case aside: a few Who&When labels write "Websurfer" for the
    log's WebSurfer."""
    return a is not None and b is not None and a.casefold() == b.casefold()


def _random_pick(trace, label) -> tuple[float, float, float]:
    """The random pick's expected agent, exact-step and within-1 accuracy on one log."""
    agents = sorted({e.agent for e in trace.events if isinstance(e, AgentTurn)})
    steps = sorted({r for r in trace.meta[EVENT_SOURCES] if r is not None}, key=_position)
    agent = sum(_same_agent(a, label["agent"]) for a in agents) / len(agents) if agents else 0.0
    exact = (label["step"] in steps) / len(steps) if steps else 0.0
    near = sum(_near(s, label["step"]) for s in steps) / len(steps) if steps else 0.0
    return agent, exact, near


WHO_WHEN = ("Hand-Crafted", "Algorithm-Generated")


def who_when(root: Path, each: bool = False) -> None:
    """Agent and step accuracy per subset and half of the Who&When logs under `root`; `each`:
    also one line per log (label, masfuzz's answer and why), to study the misses by class."""
    subsets = [s for s in WHO_WHEN if (root / s).is_dir()]
    if not subsets:
        print(f"{root}: no {' or '.join(WHO_WHEN)} folder (the Who&When dataset's layout; get it from "
              "github.com/mingyin1/Agents_Failure_Attribution)", file=sys.stderr)
        raise SystemExit(2)
    print(f"{'':34}{'logs':>5}{'agent':>7}{'step':>6}{'step+-1':>8}{'none':>6}   "
          f"random: {'agent':>5}{'step':>6}{'step+-1':>8}")
    for subset in subsets:
        files = sorted((root / subset).glob("*.json"), key=lambda p: (len(p.stem), p.stem))
        for half, parity in (("odd (dev)", 1), ("even (held out)", 0)):
            hits = {"agent": 0, "exact": 0, "near": 0}
            rand = {"agent": 0.0, "exact": 0.0, "near": 0.0}
            confusion: dict[str, Counter] = {}
            n = none = 0
            for f in files:
                if not f.stem.isdigit() or int(f.stem) % 2 != parity:
                    continue
                data = json.loads(f.read_text())
                label = {"agent": data["mistake_agent"], "step": str(data["mistake_step"])}
                log = load(f)
                got = judge_log(log)[0]["attribution"] or {}
                n += 1
                none += not got
                hits["agent"] += _same_agent(got.get("agent"), label["agent"])
                hits["exact"] += got.get("step_ref") == label["step"]
                hits["near"] += _near(got.get("step_ref"), label["step"])
                for k, v in zip(("agent", "exact", "near"), _random_pick(log.trace, label)):
                    rand[k] += v
                named = got.get("agent") or "-"
                confusion.setdefault(label["agent"], Counter())[label["agent"] if _same_agent(named, label["agent"]) else named] += 1
                if each:
                    print(f"  {subset[:4]} {f.stem:>4}  label {label['agent']} @ {label['step']:4} masfuzz "
                          f"{got.get('agent') or '-'} @ {got.get('step_ref') or '-'}: {(got.get('why') or '')[:90]}")
            if not n:
                continue
            print(f"{subset + ' ' + half:34}{n:5}" + "".join(f"{hits[k] / n:{w}.0%}" for k, w in
                                                          (("agent", 7), ("exact", 6), ("near", 8)))
                  + f"{none:6}   {'':8}" + "".join(f"{rand[k] / n:{w}.0%}" for k, w in
                                                  (("agent", 5), ("exact", 6), ("near", 8))))
            top = sorted(confusion.items(), key=lambda kv: -sum(kv[1].values()))[:4]
            for agent, named in top:
                total = sum(named.values())
                others = ", ".join(f"{a} {c}" for a, c in named.most_common() if a != agent)[:70]
                print(f"    {agent[:28]:28} named in {named[agent]}/{total}" + (f"; instead: {others}" if others else ""))
    print("\nstep: the message index the log labels (`mistake_step`); none: logs given no attribution")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--labels", type=Path, default=HERE)
    ap.add_argument("--who-when", type=Path, metavar="DIR",
                    help="the Who&When dataset's folder (Hand-Crafted/, Algorithm-Generated/)")
    ap.add_argument("--each", action="store_true", help="with --who-when: one line per log too")
    args = ap.parse_args()
    if args.who_when:
        return who_when(args.who_when, args.each)
    labels = json.loads((args.labels / "labels.json").read_text())
    hits = {"agent": 0, "exact": 0, "near": 0}
    rand = {"agent": 0.0, "exact": 0.0, "near": 0.0}
    failed = clean = clean_ok = 0
    for name, label in sorted(labels.items()):
        log = load(args.labels / "logs" / name)
        section, _ = judge_log(log)
        got = section["attribution"] or {}
        if not label.get("agent"):
            clean += 1
            clean_ok += section["attribution"] is None
            print(f"{name:38} {log.format:14} label: {'no failure':32} masfuzz: "
                  + (f"{got['agent']} @ {got['step_ref']}" if got else "no failure"))
            continue
        failed += 1
        ok = {"agent": got.get("agent") == label["agent"], "exact": got.get("step_ref") == label["step"],
              "near": _near(got.get("step_ref"), label["step"])}
        for k, v in ok.items():
            hits[k] += v
        for k, v in zip(("agent", "exact", "near"), _random_pick(log.trace, label)):
            rand[k] += v
        marks = "".join("+" if ok[k] else "-" for k in ("agent", "exact", "near"))
        print(f"{name:38} {log.format:14} label: {label['agent'] + ' @ ' + label['step']:32} masfuzz: "
              + (f"{got['agent']} @ {got['step_ref']}" if got else "no failure") + f"  [{marks}]")
    print()
    print(f"{len(labels)} logs: {failed} with a labelled failure, {clean} without")
    print(f"{'':22}{'agent':>8}{'step':>8}{'step+-1':>9}")
    for who, counts in (("masfuzz judge --chat", hits), ("random pick", rand)):
        print(f"{who:22}" + "".join(f"{counts[k] / failed:8.0%}" if k != "near" else f"{counts[k] / failed:9.0%}"
                                    for k in ("agent", "exact", "near")))
    print(f"no-failure logs judged clean: {clean_ok}/{clean}")
    from summary import record

    for k, what in (("agent", "agent"), ("exact", "step"), ("near", "step +-1")):
        record(f"attribution: {what} accuracy on the labelled transcripts", round(hits[k] / failed, 3),
               "above the random pick", hits[k] > rand[k],
               note=f"random pick {rand[k] / failed:.0%}; {failed} logs with a failure, written with the rules")
    record("attribution: no-failure transcripts judged clean", f"{clean_ok}/{clean}", "all", clean_ok == clean)


if __name__ == "__main__":
    main()
