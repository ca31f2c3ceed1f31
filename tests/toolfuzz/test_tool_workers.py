"""`masfuzz tools --workers N`: several tools tested at once, each in its own sandbox, with the
same results as one at a time (in the tools' order), each tool's model use its own."""

from __future__ import annotations

import json
import re
from pathlib import Path

from masfuzz.cli import main

ROOT = Path(__file__).resolve().parents[2]
FILES = f"{ROOT}/examples/tools/file_tools.py"
SLOW = f"scripted/{ROOT}/tests/toolfuzz/slow_policies.py"
TIMES = re.compile(r'"(seconds|fuzz_seconds|duration|started|finished|wall_time)": [0-9.eE+-]+')


def _tools(capsys, tmp_path, workers: int, log: Path) -> dict:
    code = main(["tools", FILES, "--calls", "25", "--seed", "2", "--workers", str(workers),
                 "--store", str(tmp_path / f"w{workers}.db"), "--no-cache", "--format", "json",
                 "--model", f"{SLOW}:tester", "--sut-model", f"{SLOW}:agent"])
    out = capsys.readouterr().out
    assert code in (0, 1), out  # 1: the tools have failures of their own
    return json.loads(out)


def test_tools_at_once_give_the_results_of_one_at_a_time(capsys, tmp_path, monkeypatch):
    runs, overlap = {}, {}
    for workers in (1, 3):
        log = tmp_path / f"in-flight-{workers}.log"
        monkeypatch.setenv("SLOW_POLICIES_LOG", str(log))
        # long enough that three tools' model stages overlap on a machine busy with other work
        # (at 50 ms a loaded machine could finish one tool's stage before the next one began)
        monkeypatch.setenv("SLOW_POLICIES_DELAY", "0.4")
        runs[workers] = _tools(capsys, tmp_path, workers, log)
        overlap[workers] = max(int(n) for n in log.read_text().split())
    one, three = runs[1], runs[3]
    names = [t["tool"] for t in one["tools"]]
    assert len(names) == 5 and [t["tool"] for t in three["tools"]] == names  # the tools' order
    # each tool's model stages ran (its errors confirmed through the agent) ...
    assert sum(t["models"]["agent"]["calls"] for t in one["tools"]) > 0
    # ... at once with --workers 3, one at a time with --workers 1
    assert overlap == {1: 1, 3: overlap[3]} and overlap[3] >= 2
    # and gave the same results, model use per tool included (only times differ)
    scrub = lambda doc: TIMES.sub(r'"\1": 0', json.dumps(doc["tools"], sort_keys=True))  # noqa: E731
    assert scrub(one) == scrub(three)


def nested(query: dict, rows: list[dict], n: int = 0) -> str:
    """Counts what it is given (nested arguments: Hypothesis describes lambdas to draw them)."""
    return f"{len(query)} {len(rows)} {n}"


def test_tools_generating_at_once_from_threads_raise_nothing():
    # CPython 3.11's AST constructor is not thread-safe (gh-106905): Hypothesis parsing a
    # filter's lambda in two threads at once raised SystemError, which reached the user as a
    # crash of `masfuzz tools --workers N`; generation takes turns (fuzzer.GENERATING)
    import threading

    from masfuzz.toolfuzz.fuzzer import fuzz_tool
    from masfuzz.toolfuzz.sandbox import Sandbox, isolation_problem
    from masfuzz.toolfuzz.tools import wrap_tool

    tool, results, errors = wrap_tool(nested), [], []

    def fuzz(seed: int) -> None:
        try:
            with Sandbox(tool, isolate=isolation_problem() is None) as box:
                results.append(fuzz_tool(tool, calls=100, seed=seed, sandbox=box))
        except Exception as exc:  # noqa: BLE001 - what the test looks for
            errors.append(repr(exc)[:300])

    threads = [threading.Thread(target=fuzz, args=(seed,)) for seed in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == [] and [r.calls for r in results] == [100] * 4
