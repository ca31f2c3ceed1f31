"""Tester model calls per obligation on the shipped examples (issue 15's figure).

`masfuzz cover` runs on each shipped example with the scripted template tester and the
example's own scripted policy as the agents' model, in a fresh store each, and the figure is
read from the run's report (`generation.tester_calls_per_obligation`): what structural
generation costs in tester calls for each obligation it plans for. Also printed: obligations,
bundles, how many were realized, and C1+C2+C4.

    python bench/bench_tester_calls.py
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from summary import record  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
TESTER = "scripted/examples/testers/template_tester.py:policy"
EXAMPLES = [  # (target, the example's scripted policy)
    ("examples/customer_service/app.py:triage_agent", "examples/customer_service/policy.py"),
    ("examples/travel_chain/app.py:concierge", "examples/travel_chain/policy.py"),
    ("examples/research_graph/graph.py:graph", "examples/research_graph/policy.py"),
    ("examples/video_team/team.py:selector_team", "examples/video_team/policy.py"),
    ("examples/ag2_groupchat/app.py:build_manager", "examples/ag2_groupchat/policy.py"),
]


def cover(target: str, policy: str, where: Path) -> dict:
    cmd = [sys.executable, "-c", "import sys; from masfuzz.cli import main; sys.exit(main(sys.argv[1:]))",
           "cover", target, "--model", TESTER,
           "--sut-model", f"scripted/{policy}:policy", "--no-cache", "--no-check",
           "--store", str(where / "runs.db"), "--suite", str(where / "suite.yaml"),
           "--format", "json"]
    done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=900)
    if done.returncode not in (0, 1):
        raise SystemExit(f"{target}: masfuzz cover exited {done.returncode}: {done.stderr.strip()[-400:]}")
    return json.loads(done.stdout)


def main() -> None:
    print("tester model calls per obligation (masfuzz cover, scripted tester and agents)")
    print(f"  {'example':48} {'obligations':>11} {'bundles':>7} {'realized':>8} {'calls':>5} "
          f"{'calls/obl':>9} {'C1+C2+C4':>9}")
    per: list[float] = []
    t0 = time.monotonic()
    for target, policy in EXAMPLES:
        with tempfile.TemporaryDirectory() as tmp:
            report = cover(target, policy, Path(tmp))
        g, gated = report["generation"], report["coverage"]["gated"]
        per.append(g["tester_calls_per_obligation"])
        print(f"  {target:48} {g['objectives']:>11} {g['bundles']:>7} {len(g['realized']):>8} "
              f"{g['tester_model_calls']:>5} {g['tester_calls_per_obligation']:>9.2f} "
              f"{gated['percent']:>8.1f}%")
        record(f"tester calls per obligation: {target.split('/')[1]}",
               g["tester_calls_per_obligation"], "", None)
    mean = sum(per) / len(per)
    print(f"  mean over {len(per)} examples: {mean:.2f} tester calls per obligation "
          f"({time.monotonic() - t0:.0f} s)")
    record("tester calls per obligation: mean of the shipped examples", round(mean, 3), "", None,
           note=f"{len(per)} examples, scripted tester")


if __name__ == "__main__":
    main()
