"""`masfuzz tools --workers N`: the speedup of testing tools at once over one at a time.

The five shipped file tools (examples/tools/file_tools.py), 50 sandboxed calls each, their
unique errors confirmed through an agent: the tester and the agent are the scripted policies of
examples/tools/policies.py behind a wait of 200 ms per call, as a hosted model keeps its caller
waiting (tests/toolfuzz/slow_policies.py). Run with --workers 1, then --workers N; printed: each
wall time, the speedup, and whether the tools' results (model use included; times aside) are
identical.

    .venv/bin/python bench/bench_tool_workers.py [--workers 4] [--calls 50]
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import re
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TOOLS = f"{ROOT}/examples/tools/file_tools.py"
SLOW = f"scripted/{ROOT}/tests/toolfuzz/slow_policies.py"
TIMES = re.compile(r'"(seconds|fuzz_seconds|duration|started|finished|wall_time)": [0-9.eE+-]+')


def tools_run(workers: int, calls: int, folder: Path) -> tuple[float, dict]:
    from masfuzz.cli import main

    argv = ["tools", TOOLS, "--calls", str(calls), "--seed", "3", "--workers", str(workers),
            "--store", str(folder / f"w{workers}.db"), "--no-cache", "--format", "json",
            "--model", f"{SLOW}:tester", "--sut-model", f"{SLOW}:agent"]
    out = io.StringIO()
    t0 = time.perf_counter()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        code = main(argv)
    wall = time.perf_counter() - t0
    if code not in (0, 1):
        raise SystemExit(f"masfuzz tools failed: exit {code}")
    return wall, json.loads(out.getvalue())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--calls", type=int, default=50)
    args = parser.parse_args()
    os.environ["SLOW_POLICIES_DELAY"] = "0.2"
    sys.path.insert(0, str(ROOT))
    with tempfile.TemporaryDirectory() as tmp:
        runs = {n: tools_run(n, args.calls, Path(tmp)) for n in (1, args.workers)}
    (one, a), (many, b) = runs[1], runs[args.workers]
    scrub = lambda doc: TIMES.sub(r'"\1": 0', json.dumps(doc["tools"], sort_keys=True))  # noqa: E731
    same = scrub(a) == scrub(b)
    calls = sum(t["models"][who]["calls"] for t in a["tools"] for who in t.get("models", {}))
    print(f"tool workers: {len(a['tools'])} tools, {args.calls} calls each, {calls} model calls "
          f"waiting 200 ms each, {os.cpu_count()} cores")
    print(f"  --workers 1    {one:6.1f} s")
    print(f"  --workers {args.workers:<4} {many:6.1f} s")
    speedup = one / many
    print(f"  speedup {speedup:.1f}x; identical tool results: {'yes' if same else 'NO'}")
    from summary import record

    record(f"tool workers: speedup {args.workers} over 1", speedup, "", None, unit="x",
           note=f"{len(a['tools'])} tools, model stages waiting 200 ms a call")
    record("tool workers: identical results", "yes" if same else "NO", "yes", same)
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
