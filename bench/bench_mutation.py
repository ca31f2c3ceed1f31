"""Mutation analysis: does the structural suite of `masfuzz cover` kill workflow mutants that a
plain end-to-end suite of the same size does not?

On examples/customer_service with scripted models (offline, deterministic):

1. `masfuzz cover` writes the structural suite (cases realized from the obligations C1-C4, and
   the fault re-runs of the witnessed tool calls);
2. a plain end-to-end suite of the same number of cases is written in the suite format: realistic
   customer requests, fixed, written without the obligations (no expected witness; a case fails
   on a mutant only when the run ends differently, a new failure shows, or it cannot run);
3. `masfuzz mutate` runs both suites against every mutant and this script prints both suites'
   sizes, the score of each operator for each, and the operators and mutants the structural
   suite kills and the plain one does not.

    python bench/bench_mutation.py [--keep DIR]

Needs the openai-agents extra. Runs in well under three minutes (in-process executor).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
CS = str(EXAMPLES / "customer_service" / "app.py") + ":triage_agent"
CS_SUT = "scripted/" + str(EXAMPLES / "customer_service" / "policy.py") + ":policy"
TESTER = "scripted/" + str(EXAMPLES / "testers" / "template_tester.py") + ":policy"

# What customers of an airline desk ask, written without looking at the obligations. Cycled if
# the structural suite has more cases than these.
PLAIN_REQUESTS = (
    "How much luggage can I bring on board?",
    "Is there wifi on the plane?",
    "Please change my seat to 14C, confirmation ABC123.",
    "Can I get a hot meal on my flight?",
    "I'd like to move to seat 22A. My confirmation is QX7P2K.",
    "Hi, I want to switch my seat.",
    "What is the baggage allowance, and can you move my seat to 3A? Confirmation ZZ9Y8X.",
    "Hello, I have a question about my flight.",
    "How many seats does the aircraft have?",
    "Can you change my seat to 10B please? Booking LMN456.",
    "Which rows are the exit rows?",
    "Move me to seat 7F, confirmation K8J2LQ.",
)


def plain_suite(structural, size: int):
    """A suite of `size` plain requests, in the structural suite's format and models."""
    from masfuzz.generate.suite import Suite, SuiteCase
    from masfuzz.scenario import Provenance, Scenario

    cases = []
    for i in range(size):
        scenario = Scenario(input=PLAIN_REQUESTS[i % len(PLAIN_REQUESTS)], sut_model=CS_SUT,
                            restricted="probe", provenance=Provenance(source="user"))
        cases.append(SuiteCase(scenario.id, "witness", f"plain request {i + 1}", scenario, [], []))
    return Suite(structural.target, structural.system, structural.models, None, cases, [],
                 orchestration=structural.orchestration)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--keep", help="write the suites to DIR (default: a temporary folder)")
    args = ap.parse_args()
    from masfuzz import api
    from masfuzz.generate.suite import load_suite

    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        where = Path(args.keep) if args.keep else Path(tmp)
        where.mkdir(parents=True, exist_ok=True)
        structural_path, plain_path = where / "structural.yaml", where / "plain.yaml"
        api.cover(CS, model=TESTER, sut_model=CS_SUT, no_cache=True, store=str(where / "runs.db"),
                  suite=str(structural_path), progress="off", executor="inprocess")
        structural = load_suite(structural_path)
        plain_suite(structural, len(structural.cases)).save(plain_path)
        results = {}
        for name, path in (("structural", structural_path), ("plain", plain_path)):
            results[name] = api.mutate(CS, suite=str(path), sut_model=CS_SUT, no_cache=True,
                                       executor="inprocess")
    s, p = results["structural"], results["plain"]
    print(f"structural suite (masfuzz cover): {s['cases']} case(s); "
          f"plain end-to-end suite: {p['cases']} case(s)")
    print(f"{'operator':<20} {'structural':>14} {'plain':>14}")
    for op in s["operators"]:
        cells = []
        for data in (s, p):
            o = data["operators"][op]
            cells.append(f"{o['killed']}/{o['killed'] + o['survived']} {o['score']:.2f}"
                         if o["status"] == "scored" else o["status"])
        print(f"{op:<20} {cells[0]:>14} {cells[1]:>14}")
    print(f"{'overall':<20} {s['killed']}/{s['scored']} {s['score']:.2f}".ljust(35)
          + f" {p['killed']}/{p['scored']} {p['score']:.2f}".rjust(14))

    def killed(data):
        return {r["mutant"] for o in data["operators"].values() for r in o["results"]
                if r["status"] == "killed"}

    only = sorted(killed(s) - killed(p))
    ops = [op for op in s["operators"]
           if s["operators"][op]["killed"] and not p["operators"][op]["killed"]]
    better = [op for op in s["operators"]
              if (s["operators"][op]["score"] or 0) > (p["operators"][op]["score"] or 0)]
    print(f"operators whose mutants only the structural suite kills: {', '.join(ops) or 'none'}")
    print(f"operators the structural suite scores higher on: {', '.join(better) or 'none'}")
    print("mutants killed by the structural suite and not by the plain one:")
    for label in only:
        why = next(r["killed_by"][0] for o in s["operators"].values() for r in o["results"]
                   if r["mutant"] == label)
        print(f"  {label}: case {why['case']} {why['why'][:120]}")
    reverse = sorted(killed(p) - killed(s))
    print(f"mutants killed by the plain suite and not by the structural one: "
          f"{', '.join(reverse) or 'none'}")
    print(f"note: {s['note']}")
    print(f"({time.perf_counter() - t0:.0f} s)")
    from summary import record

    record("mutation: score, structural suite", s["score"], "", None,
           note=f"{s['killed']}/{s['scored']} mutants, {s['cases']} cases")
    record("mutation: score, plain suite of the same size", p["score"], "", None,
           note=f"{p['killed']}/{p['scored']} mutants, {p['cases']} cases")
    record("mutation: operators only the structural suite kills", ", ".join(ops) or "none",
           ">= 1 operator", bool(ops))
    return 0 if ops else 1


if __name__ == "__main__":
    sys.exit(main())
