"""Does FLARE's coverage feedback pay? `flare` against `uniform` (the same loop, weights never
moving) on a fixture where new coverage appears only under one operator.

The fixture (bench/flare_feedback/policy.py) is the customer-service desk whose agents each call a
tool they do not own at one temperature: the four restricted edges (C3) are reached only by the
temperature-scaling operator (alone or joint) drawing the right value for the right agent on a
seed that reaches that agent. Per campaign seed, each strategy runs until the four are covered
(or ROUND_CAP rounds); the figure is the executions it took, median over the seeds, both
strategies measured in this one run.

    python bench/bench_flare.py [SEEDS]
"""

from __future__ import annotations

import json
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TARGET = str(ROOT / "examples" / "customer_service" / "app.py") + ":triage_agent"
POLICY = ROOT / "bench" / "flare_feedback" / "policy.py"
SUT = f"scripted/{POLICY}:policy"
POOL = f"{SUT},scripted/{POLICY.relative_to(ROOT)}:policy"  # two strings, one behaviour
INPUTS = ("Change my seat to 14C, booking ABC123", "How much luggage can I bring?")
ROUND_CAP = 120


def executions_to_cover(strategy: str, seed: int, store: Path) -> tuple[int | None, int]:
    """Executions until every restricted edge was attempted, and the C3 edges covered at all."""
    from masfuzz.cli import main

    argv = ["fuzz", TARGET, "--sut-model", SUT, "--model-pool", POOL, "--strategy", strategy,
            "--rounds", str(ROUND_CAP), "--seed", str(seed), "--seed-tasks", "0", "--no-judge",
            "--no-spec-agent", "--no-cache", "--executor", "inprocess", "--store", str(store),
            "--format", "json"]
    for text in INPUTS:
        argv += ["--input", text]
    out = Path(store).with_suffix(".json")
    import contextlib
    import io

    buf = io.StringIO()
    with contextlib.redirect_stdout(buf), contextlib.redirect_stderr(io.StringIO()):
        code = main(argv)
    if code != 0:
        raise SystemExit(f"fuzz failed for {strategy} seed {seed}: exit {code}")
    out.write_text(buf.getvalue())
    data = json.loads(buf.getvalue())
    c3 = data["coverage"]["criteria"]["C3"]
    history = data["fuzz"]["history"]
    seen, total = set(), c3["total"]
    for i, h in enumerate(history, 1):
        seen |= {g for g in h["gain"] if g.startswith("restrict_tool::")}
        if len(seen) == total:
            return i, c3["covered"]
    return None, c3["covered"]


def main() -> int:
    seeds = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    results: dict[str, list[int | None]] = {"flare": [], "uniform": []}
    with tempfile.TemporaryDirectory() as tmp:
        for seed in range(seeds):
            for strategy in results:
                n, _ = executions_to_cover(strategy, seed, Path(tmp) / f"{strategy}-{seed}.db")
                results[strategy].append(n)
    print(f"fixture: 4 restricted edges reachable only by temperature scaling; {seeds} seeds, "
          f"at most {ROUND_CAP} rounds after {len(INPUTS)} seeds")
    medians = {}
    for strategy, ns in results.items():
        capped = [n if n is not None else len(INPUTS) + ROUND_CAP + 1 for n in ns]
        medians[strategy] = statistics.median(capped)
        missed = sum(1 for n in ns if n is None)
        print(f"{strategy:8s} executions to full coverage: median {medians[strategy]:g}, "
              f"min {min(capped)}, max {max(capped)}, not reached {missed}/{seeds}")
    ratio = medians["uniform"] / medians["flare"]
    print(f"uniform / flare executions (median): {ratio:.2f}  "
          f"({'feedback pays' if ratio > 1 else 'feedback does not pay here'})")
    from summary import record

    record("FLARE: uniform / flare executions to full coverage", ratio, "> 1", ratio > 1,
           note=f"median of {seeds} seeds")
    return 0


if __name__ == "__main__":
    sys.exit(main())
