"""How well do masfuzz's oracles find the zoo's seeded bugs, and only those? Each system of the bug
zoo (examples/zoo/, ground truth in bench/oracle_labels.yaml) runs as its seeded and its fixed twin
under `masfuzz exec`, `masfuzz fuzz` and `masfuzz run` (small budgets, the zoo's scripted policy as
every agent's model, a system's own `policy:` where its label names one, its `exec_args` for
each command that has the option, the scripted template tester; each command on each twin with
the system's module imported anew, as a user's process starts it), and the findings attributed
to the app (attribution "sut") are compared with the labels:

- recall: the seeded systems on which the labelled category was found (and, stricter, the
  labelled root cause), not counting findings of runs with an injected tool fault;
- false discoveries: the fixed twins with any finding of the app's, and which (`run`'s structural
  phase re-runs scenarios with injected tool faults, and fuzzing mutants may inject one: a finding
  whose reproducer ran with an injected fault is marked so);
- blame: of the seeded findings of the labelled category that name an agent (`Failure.agent`),
  how many name the labelled one.

Per failure kind and command, then overall; the overall figures are recorded in the bench summary.
Then who and when on labelled transcripts: bench_attribution.py's agent and step accuracy.

    python bench/bench_oracles.py [--commands exec,fuzz,run] [--only KIND|SYSTEM[,...]] [--rounds N]
                                  [--budget Nx] [--jobs N] [--policy SPEC] [--json FILE]

`--policy SPEC` (a `--sut-model` spec, e.g. scripted/examples/zoo/policy_b.py:policy) drives every
system with that scripted model instead of its label's: do the oracles still find the bugs when
another model words the same runs? A pair whose twins stop differing as labelled under that model
(tests/zoo/test_zoo.py with MASFUZZ_ZOO_POLICY=SPEC) carries no bug to find and is left out by
naming the others with `--only`. Figures measured under an override are recorded under the
policy's name, apart from the zoo's own.
"""

from __future__ import annotations

import argparse
import os
import contextlib
import io
import json
import shlex
import sys
import tempfile
import subprocess
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
LABELS = ROOT / "bench" / "oracle_labels.yaml"
TESTER = "scripted/examples/testers/template_tester.py:policy"
COMMANDS = ("exec", "fuzz", "run")


def masfuzz(argv: list[str]) -> tuple[int, str, str]:
    """masfuzz's CLI in this process (a run costs no interpreter start): status, stdout, stderr."""
    from masfuzz.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(argv)
    return code, out.getvalue(), err.getvalue()


def label_args(command: str, label: dict) -> list[str]:
    """The label's `exec_args` (a bound such as `--max-turns 8`, `--restricted probe`) that the
    command has: the system is measured under the same settings by every command that can take
    them, and an option a command lacks (fuzz and run choose the restricted-tool mode
    themselves) is left out rather than refused."""
    from masfuzz.cli import build_parser

    sub = next(a for a in build_parser(command)._subparsers._group_actions).choices[command]
    out, keep = [], False
    for token in label.get("exec_args") or []:
        if token.startswith("--"):
            keep = token.split("=", 1)[0] in sub._option_string_actions
        if keep:
            out.append(token)
    return out


def findings(command: str, target: str, label: dict, policy: str, args: argparse.Namespace,
             work: Path) -> list[dict]:
    """The failures one command reports on one twin, the app's own only."""
    common = ["--input", label["input"], "--sut-model", policy, "--executor", "inprocess", "--no-cache",
              *label_args(command, label)]
    store = work / f"{len(list(work.iterdir()))}.db"
    if command == "exec":
        argv = ["exec", target, *common, "--format", "json", "--failures"]
    elif command == "fuzz":
        argv = ["fuzz", target, *common, "--model", TESTER, "--seed-tasks", "0", "--rounds",
                str(args.rounds), "--store", str(store), "--format", "json", "--progress", "off"]
    else:
        report = store.with_suffix(".json")
        argv = ["run", target, *common, "--model", TESTER, "--budget", args.budget, "--phases",
                "structural,flare", "--store", str(store), "--suite", str(store.with_suffix(".yaml")),
                "--report", f"json:{report}", "--progress", "off"]
    fresh_app(target)
    code, out, err = masfuzz(argv)
    if code not in (0, 1):
        raise SystemExit(f"masfuzz exited {code}: masfuzz {shlex.join(argv)}\n{err.strip()}")
    data = json.loads(report.read_text() if command == "run" else out)
    faulted = {r["scenario"] for r in (data.get("generation") or {}).get("fault_runs", [])}
    return [{**f, "injected_fault": f.get("scenario_id") in faulted
             or bool((f.get("configuration") or {}).get("faults"))}  # a fuzzing mutant's fault
            for f in data.get("failures") or [] if f.get("attribution", "sut") == "sut"]


def fresh_app(target: str) -> None:
    """Each command on each twin starts the app as the process a user runs it in does: the
    system's module imported anew (its tools' module-level stock, bookings and diaries as
    written), not as the earlier commands on either twin (the twins share their module) left it
    in this process. The runs of one command still share the process (`--executor inprocess`),
    as they do for the user."""
    from masfuzz import target as opened

    path = (ROOT / target.rsplit(":", 1)[0]).resolve()
    for name, module in list(sys.modules.items()):
        if getattr(module, "__file__", None) and Path(module.__file__).resolve() == path:
            del sys.modules[name]
    # the systems this process opened from that file, built from the module as it was
    for key in [k for k in opened._OPENED if (ROOT / k.ref.rsplit(":", 1)[0]).resolve() == path]:
        del opened._OPENED[key]


def blame_matches(found: list[dict], label: dict) -> list[bool]:
    """For each finding of the labelled category that names an agent, whether it names the
    labelled one (a label without an agent: no agent is to blame, so any named one is wrong)."""
    return [f["agent"] == label.get("agent") for f in found
            if f["category"] == label["category"] and f.get("agent") is not None]


def marked(found: list[dict]) -> list[str]:
    return sorted({f"{f['category']} / {f['root_cause']}"
                   + (" (under an injected fault)" if f["injected_fault"] else "") for f in found})


def measure_system(label: dict, policy: str, args: argparse.Namespace) -> list[dict]:
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for command in args.commands:
            work = Path(tmp) / command
            work.mkdir()
            started = time.monotonic()
            seen = findings(command, label["seeded"], label, policy, args, work)
            fixed = findings(command, label["fixed"], label, policy, args, work)
            seeded = [f for f in seen if not f["injected_fault"]]  # not a fault masfuzz put in
            rows.append({
                "system": label["name"], "kind": label["kind"], "command": command,
                "category": label["category"], "root_cause": label["root_cause"],
                "found": any(f["category"] == label["category"] for f in seeded),
                "root_cause_found": any(f["category"] == label["category"]
                                        and f["root_cause"] == label["root_cause"] for f in seeded),
                "blame": blame_matches(seeded, label),
                "seeded": marked(seen),
                "false": marked(fixed),
                "false_under_fault_only": bool(fixed) and all(f["injected_fault"] for f in fixed),
                "seconds": round(time.monotonic() - started, 1),
            })
    return rows


def measure(systems: list[dict], args: argparse.Namespace) -> list[dict]:
    """Each system in a process of its own (`--system`), `--jobs` at a time: one process loading
    several frameworks' apps is not what a user runs, and the twins of one system share it."""
    def one(label: dict) -> list[dict]:
        argv = [sys.executable, __file__, "--system", label["name"], "--commands", ",".join(args.commands),
                "--rounds", str(args.rounds), "--budget", args.budget,
                *(["--policy", args.policy] if args.policy else [])]
        done = subprocess.run(argv, capture_output=True, text=True, cwd=ROOT)
        if done.returncode != 0:
            raise SystemExit(f"bench_oracles: {label['name']} failed:\n{done.stderr.strip()}")
        rows = json.loads(done.stdout)
        for row in rows:
            print(f"  {row['system']:<22} {row['command']:<5} {'found' if row['found'] else 'missed':<6} "
                  f"seeded: {', '.join(row['seeded']) or '-'}; fixed: {', '.join(row['false']) or '-'}",
                  flush=True)
        return rows

    with ThreadPoolExecutor(args.jobs) as pool:
        return [row for rows in pool.map(one, systems) for row in rows]


def summarise(rows: list[dict]) -> dict:
    n = len(rows)
    blames = [b for r in rows for b in r["blame"]]
    return {"pairs": n, "found": sum(r["found"] for r in rows),
            "root_cause_found": sum(r["root_cause_found"] for r in rows),
            "false": sum(bool(r["false"]) for r in rows),
            "false_fault_only": sum(r["false_under_fault_only"] for r in rows),
            "blame_right": sum(blames), "blame_named": len(blames)}


def line(name: str, s: dict) -> str:
    blame = f"{s['blame_right']}/{s['blame_named']}" if s["blame_named"] else "-"
    fault = f" ({s['false_fault_only']} only under injected faults)" if s["false_fault_only"] else ""
    return (f"{name:<34} recall {s['found']:>2}/{s['pairs']:<2} (root cause {s['root_cause_found']:>2}) "
            f" false discoveries {s['false']:>2}/{s['pairs']:<2}{fault}  agent right {blame}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--commands", default=",".join(COMMANDS),
                        help="comma list of exec, fuzz, run (default all three)")
    parser.add_argument("--only", default="", help="comma list of failure kinds or system names (default all)")
    parser.add_argument("--rounds", type=int, default=4, help="fuzz: mutants after the seed (default 4)")
    parser.add_argument("--budget", default="8x", help="run: the campaign's budget (default 8x)")
    parser.add_argument("--jobs", type=int, default=2, help="systems measured at once (default 2)")
    parser.add_argument("--policy", help="a scripted model to drive every system with, overriding "
                        "the labels' `policy:` (default: each system's own)")
    parser.add_argument("--json", type=Path, help="also write the rows and totals to this file")
    parser.add_argument("--system", help=argparse.SUPPRESS)  # one system's rows as JSON on stdout
    args = parser.parse_args()
    args.commands = [c for c in args.commands.split(",") if c]
    if args.jobs < 1 or args.rounds < 0:
        print("bench_oracles: --jobs must be at least 1 and --rounds at least 0", file=sys.stderr)
        return 2
    if bad := [c for c in args.commands if c not in COMMANDS]:
        print(f"bench_oracles: unknown command {bad[0]!r}: expected {', '.join(COMMANDS)}", file=sys.stderr)
        return 2
    labels = yaml.safe_load(LABELS.read_text())
    systems = labels["systems"]
    os.chdir(ROOT)  # targets and the policy are named relative to the repository
    if args.system:
        label = next(s for s in systems if s["name"] == args.system)
        print(json.dumps(measure_system(label, args.policy or label.get("policy", labels["policy"]), args)))
        return 0
    if args.only:
        wanted = set(args.only.split(","))
        if unknown := wanted - {s.get("kind") for s in systems} - {s["name"] for s in systems}:
            print(f"bench_oracles: unknown kind or system {sorted(unknown)[0]!r}", file=sys.stderr)
            return 2
        systems = [s for s in systems if s.get("kind") in wanted or s["name"] in wanted]

    started = time.monotonic()
    print(f"bug zoo: {len(systems)} seeded systems with fixed twins; commands {', '.join(args.commands)}"
          + (f"; every system under {args.policy}" if args.policy else ""))
    rows = measure(systems, args)
    elapsed = time.monotonic() - started

    print("\nper failure kind and command (recall: seeded systems whose labelled category was found; "
          "false discoveries: fixed twins with any app finding)")
    for kind in dict.fromkeys(r["kind"] for r in rows):
        for command in args.commands:
            some = [r for r in rows if r["kind"] == kind and r["command"] == command]
            print(line(f"{kind} [{command}]", summarise(some)))
    print()
    totals = {}
    for command in args.commands:
        totals[command] = summarise([r for r in rows if r["command"] == command])
        print(line(f"overall [{command}]", totals[command]))
        false = sorted({f"{r['system']}: {', '.join(r['false'])}" for r in rows
                        if r["command"] == command and r["false"]})
        for item in false:
            print(f"    false discovery  {item}")
    print(f"\n{len(rows)} pairs x twins in {elapsed:.0f} s")

    from summary import record

    # an override's figures are another measurement than the zoo's own: recorded under its name
    under = f" under {Path(args.policy.removeprefix('scripted/').split(':')[0]).stem}" if args.policy else ""
    for command, s in totals.items():
        if s["pairs"] == 0:
            continue
        record(f"oracles [{command}]{under}: zoo recall", s["found"] / s["pairs"], "1.0", s["found"] == s["pairs"],
               note=f"{s['found']}/{s['pairs']} seeded systems, labelled category")
        record(f"oracles [{command}]{under}: zoo false-discovery rate", s["false"] / s["pairs"], "0", s["false"] == 0,
               note=f"{s['false']}/{s['pairs']} fixed twins with an app finding, "
               f"{s['false_fault_only']} of them only under injected faults")
        if s["blame_named"]:
            record(f"oracles [{command}]{under}: zoo blamed agent right", s["blame_right"] / s["blame_named"], "1.0",
                   s["blame_right"] == s["blame_named"], note=f"{s['blame_right']}/{s['blame_named']} findings")
    if args.json:
        args.json.write_text(json.dumps({"rows": rows, "totals": totals}, indent=2))
    # who and when on logs whose responsible agent and decisive step are labelled: the same
    # oracles read through `judge --chat` (bench_attribution.py, which prints its own figures)
    print("\nattribution on labelled transcripts (bench/bench_attribution.py):", flush=True)
    return subprocess.run([sys.executable, str(ROOT / "bench" / "bench_attribution.py")]).returncode


if __name__ == "__main__":
    sys.exit(main())
