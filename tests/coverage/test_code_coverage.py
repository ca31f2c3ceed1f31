"""Code coverage (FLARE's SC and BC) counts only the target's own files, and is the same
in-process and in the subprocess and pool workers."""

from __future__ import annotations

import ast
import asyncio
import json
import subprocess
import sys
from pathlib import Path

import pytest

from masfuzz.coverage.code import code_coverage, execution_data, target_root
from masfuzz.exec import ExecutionRequest, make_executor
from masfuzz.scenario import Scenario
from masfuzz.target import Target
from tests.conftest import ROOT

APP = "examples/customer_service/app.py:triage_agent"
POLICY = "scripted/examples/customer_service/policy.py:policy"
HOME = (ROOT / "examples" / "customer_service").resolve()
SEAT = Scenario(input="Please change my seat to 14C, confirmation ABC123", sut_model=POLICY)
BAGS = Scenario(input="How much luggage can I bring?", sut_model=POLICY)


@pytest.fixture(autouse=True)
def _in_repo(monkeypatch):
    monkeypatch.chdir(ROOT)


async def _measured(kind: str, scenarios, *, warm_up: bool = False):
    """Measured traces of `scenarios`; `warm_up`: first run one scenario unmeasured with the
    same executor (the target is then imported, and a tool ran, before coverage starts)."""
    ex = make_executor(kind, timeout=60)
    try:
        if warm_up:
            await ex.run(APP, SEAT)
        return [await ex.execute(ExecutionRequest(Target(APP), sc, ex.models, 60.0, True))
                for sc in scenarios]
    finally:
        await ex.aclose()


@pytest.fixture(scope="module")
def by_executor():
    return {kind: asyncio.run(_measured(kind, [SEAT, BAGS]))
            for kind in ("inprocess", "subprocess", "pool")}


def _body_lines(function: str) -> set[int]:
    tree = ast.parse((HOME / "app.py").read_text())
    (node,) = [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == function]
    return set(range(node.body[0].lineno, node.end_lineno + 1))


def test_only_the_targets_own_files_are_measured(by_executor):
    for traces in by_executor.values():
        for trace in traces:
            data = trace.meta["code_coverage"]
            assert Path(data["root"]) == HOME
            for rel in data["files"]:
                assert (HOME / rel).resolve().is_relative_to(HOME) and (HOME / rel).is_file()
            # The scripted policy sits in the folder but stands in for the model: left out.
            assert set(data["files"]) == {"app.py"}


def test_sc_and_bc_are_the_same_in_process_and_in_the_workers(by_executor):
    per_execution = {k: [t.meta["code_coverage"] for t in ts] for k, ts in by_executor.items()}
    assert per_execution["inprocess"] == per_execution["subprocess"] == per_execution["pool"]
    reports = {k: code_coverage(ts) for k, ts in by_executor.items()}
    assert reports["inprocess"] == reports["subprocess"] == reports["pool"]
    report = reports["pool"]
    assert 0 < report["sc"] < 1 and 0 < report["bc"] < 1
    assert report["executed"] <= report["statements"] and report["taken"] <= report["branches"]
    assert set(report["files"]) == {"app.py"}


def test_in_process_numbers_hold_after_the_target_ran_unmeasured():
    """The target imported and a tool run (on the loop's thread pool) before coverage started
    still gives the worker's numbers."""
    inproc = asyncio.run(_measured("inprocess", [SEAT], warm_up=True))
    pooled = asyncio.run(_measured("pool", [SEAT], warm_up=True))
    assert inproc[0].meta["code_coverage"] == pooled[0].meta["code_coverage"]


def test_the_opening_counts_in_every_execution(by_executor):
    """Module-level lines (run at import) are part of each execution, the first or not."""
    seat, bags = (set(t.meta["code_coverage"]["files"]["app.py"]["lines"])
                  for t in by_executor["pool"])
    module_level = {n.lineno for n in ast.parse((HOME / "app.py").read_text()).body}
    assert module_level <= seat and module_level <= bags


def test_a_scenario_using_a_tool_covers_more_of_its_body(by_executor):
    seat, bags = (code_coverage([t]) for t in by_executor["pool"])
    ran = {name: set(t.meta["code_coverage"]["files"]["app.py"]["lines"])
           for name, t in zip(("seat", "bags"), by_executor["pool"])}
    update_seat, faq_lookup = _body_lines("update_seat"), _body_lines("faq_lookup_tool")
    assert len(ran["seat"] & update_seat) > len(ran["bags"] & update_seat) == 0
    assert len(ran["bags"] & faq_lookup) > len(ran["seat"] & faq_lookup) == 0
    assert code_coverage(by_executor["pool"])["executed"] > max(seat["executed"], bags["executed"])


OFF = """
import asyncio, io, json, sys
from masfuzz.exec import ExecutionRequest, make_executor
from masfuzz.exec.frames import Opener
from masfuzz.exec.worker import Channel, serve
from masfuzz.scenario import Scenario
from masfuzz.target import Target

sc = Scenario(input="Please change my seat to 14C, confirmation ABC123", sut_model={policy!r})
trace = asyncio.run(make_executor("inprocess").run({app!r}, sc))
request = ExecutionRequest(Target({app!r}), sc)
late = ExecutionRequest(Target({app!r}), sc, code_coverage=True)
out = io.BytesIO()  # the worker's lines are sealed frames (no key in these requests: the empty one)
serve(Channel(out), [json.dumps(request.to_data()), json.dumps(late.to_data())])
answers = [json.loads(Opener().open(line)) for line in out.getvalue().splitlines()]
(worker_trace,) = [a["trace"] for a in answers if "trace" in a]
print(json.dumps({{"inprocess": sorted(trace.meta), "worker": sorted(worker_trace["meta"]),
                  "request": sorted(request.to_data()), "imported": "coverage" in sys.modules,
                  "tracing": sys.gettrace() is not None, "late": answers[-1].get("error")}}))
"""


def test_code_coverage_is_off_by_default_and_then_costs_nothing():
    """Nothing in the trace or the request, coverage.py not even imported, nothing traced; and a
    worker that opened its target unmeasured refuses to measure later rather than undercount
    (the pool never asks it to)."""
    script = OFF.format(app=APP, policy=POLICY)
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert "code_coverage" not in seen["inprocess"] and "code_coverage" not in seen["worker"]
    assert "code_coverage" not in seen["request"]
    assert seen == {**seen, "imported": False, "tracing": False}
    assert "first request" in seen["late"]


def test_the_flag_travels_to_the_worker():
    request = ExecutionRequest(Target(APP), SEAT, code_coverage=True)
    assert ExecutionRequest.from_data(request.to_data()) == request
    assert ExecutionRequest.from_data(ExecutionRequest(Target(APP), SEAT).to_data()).code_coverage is False


def test_executors_build_measured_requests_when_asked():
    assert make_executor("pool", code_coverage=True).request(APP, SEAT).code_coverage
    assert not make_executor("pool").request(APP, SEAT).code_coverage


def test_target_root_is_the_scripts_folder_or_the_top_package(tmp_path):
    assert target_root(APP) == HOME
    pkg = tmp_path / "proj" / "myapp" / "sub"
    pkg.mkdir(parents=True)
    for folder in (pkg, pkg.parent):
        (folder / "__init__.py").write_text("")
    (pkg / "mod.py").write_text("x = 1\n")
    assert target_root(f"{pkg / 'mod.py'}:x") == pkg.parent
    assert target_root("masfuzz.target:Target") == Path(__import__("masfuzz").__file__).parent


def test_records_are_compact_and_sorted():
    data = execution_data("/r", {"b.py": [(2, 3), (-1, 2), (2, 3)], "a.py": []})
    assert list(data["files"]) == ["a.py", "b.py"]
    assert data["files"]["b.py"] == {"lines": [2, 3], "arcs": [[-1, 2], [2, 3]]}
    assert json.loads(json.dumps(data)) == data


def test_nothing_measured_has_no_ratio():
    report = code_coverage([None, {}, {"root": str(HOME), "files": {}}])
    assert report["sc"] is None and report["bc"] is None and report["files"] == {}


def test_branch_coverage_counts_branches_taken(tmp_path):
    (tmp_path / "m.py").write_text("def f(x):\n    if x:\n        return 1\n    return 2\n")
    half = {"root": str(tmp_path), "files": {"m.py": {"arcs": [[-1, 1], [1, -1], [-1, 2],
                                                              [2, 3], [3, -1]]}}}
    other = {"root": str(tmp_path), "files": {"m.py": {"arcs": [[-1, 2], [2, 4], [4, -1]]}}}
    assert code_coverage([half])["files"]["m.py"]["bc"] == 0.5
    both = code_coverage([half, other])
    assert both["sc"] == 1.0 and both["bc"] == 1.0 and both["branches"] == 2
