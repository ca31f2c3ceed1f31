"""`masfuzz judge --otel FILE`: spans exported from a run judge like the run's own trace."""

import json

import pytest

from masfuzz.adapters import otel
from masfuzz.trace import Trace
from tests.conftest import ROOT

pytest.importorskip("agents")

CS = "examples/customer_service/app.py:triage_agent"
CS_SUT = "scripted/examples/customer_service/policy.py:policy"
VIDEO = "examples/video_team/team.py:selector_team"
VIDEO_SUT = "scripted/examples/video_team/policy.py:policy"


@pytest.fixture(autouse=True)
def _in_repo(monkeypatch, tmp_path):
    monkeypatch.chdir(ROOT)
    monkeypatch.setenv("VIDEO_TEAM_OUT", str(tmp_path))


def _run_and_export(cli, tmp_path, target, sut, text):
    code, out, err = cli("exec", target, "--input", text, "--sut-model", sut, "--format", "json",
                         "--coverage")
    assert code == 0, err
    live = json.loads(out)
    spans = tmp_path / "spans.json"
    otel.write(Trace.model_validate(live["trace"]), spans)
    return {**live["coverage"], "failures": live["failures"]}, str(spans)


def _judge(cli, tmp_path, spans, *target):
    code, out, err = cli("judge", "--otel", spans, *target, "--store", str(tmp_path / "runs.db"),
                         "--format", "json", "--obligations")
    assert code == 0, err
    return json.loads(out)


def _criteria(report):
    return {c: (v["covered"], v["total"]) for c, v in report["coverage"]["criteria"].items()}


@pytest.mark.parametrize("target, sut, text", [
    (CS, CS_SUT, "Please change my seat to 14C, confirmation ABC123"),
    (VIDEO, VIDEO_SUT, "Make a 30-second video about the water cycle."),
])
def test_exported_spans_judge_like_the_runs_own_trace(cli, tmp_path, target, sut, text):
    live, spans = _run_and_export(cli, tmp_path, target, sut, text)
    judged = _judge(cli, tmp_path, spans, target)
    assert _criteria(judged) == _criteria(live)
    witnessed = {c: [o["id"] for o in v["items"] if o["witnessed_by"]] for c, v in judged["obligations"].items()}
    assert witnessed == {c: [o["id"] for o in v["items"] if o["witnessed_by"]]
                         for c, v in live["obligations"].items()}
    assert [f["fingerprint"] for f in judged.get("failures", [])] == [f["fingerprint"] for f in live["failures"]]
    assert judged["run"]["command"] == "judge"


def test_the_video_teams_motivating_bug_is_found_in_its_spans_and_gates(cli, tmp_path):
    _, spans = _run_and_export(cli, tmp_path, VIDEO, VIDEO_SUT, "Make a 30-second video about the water cycle.")
    code, out, err = cli("judge", "--otel", spans, VIDEO, "--store", str(tmp_path / "r.db"), "--fail-on", "ST")
    assert code == 1 and "Termination Condition Violation" in out and "--fail-on ST" in err


def test_without_a_target_the_workflow_is_the_one_the_traces_show(cli, tmp_path):
    _, spans = _run_and_export(cli, tmp_path, CS, CS_SUT, "Please change my seat to 14C, confirmation ABC123")
    judged = _judge(cli, tmp_path, spans)
    assert judged["structure"]["agents"] == 2  # triage and the seat desk, as seen


def test_a_missing_or_broken_spans_file_is_one_line_and_exit_2(cli, tmp_path):
    code, _, err = cli("judge", CS, "--store", str(tmp_path / "r.db"))
    assert code == 2 and "give --otel FILE" in err and "--chat FILE|DIR" in err
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    code, _, err = cli("judge", "--otel", str(bad), "--store", str(tmp_path / "r.db"))
    assert code == 2 and len(err.strip().splitlines()) == 1


def test_autogens_own_spans_of_a_run_judge_like_the_runs_own_trace(cli, tmp_path):
    """The video team run once with an OpenTelemetry SDK tracer provider installed (what
    examples/video_team/traced.py does on import): AgentChat's own instrumentation exports its
    spans, and judging them gives the run's own coverage, witnesses and failures."""
    pytest.importorskip("autogen_agentchat")
    pytest.importorskip("opentelemetry.sdk.trace")
    pytest.importorskip("opentelemetry.exporter.otlp.proto.common")
    import os
    import subprocess
    import sys

    spans = tmp_path / "autogen.otlp.jsonl"
    # a process of its own: the tracer provider is process-global and this one stays clean
    done = subprocess.run(
        [sys.executable, "-c", "from masfuzz.cli import run; run()", "exec",
         "examples/video_team/traced.py:selector_team", "--input", "Make a 30-second video about the water cycle.",
         "--sut-model", VIDEO_SUT, "--format", "json", "--coverage",
         # the app appends its spans to a file its import (in masfuzz's process too) created:
         # outside the sandbox, where the file's owner may write it (what is compared here is
         # the judging of AutoGen's own spans, not the sandbox)
         "--unsafe-no-sandbox"],
        capture_output=True, text=True, cwd=ROOT, timeout=300, env={**os.environ, "OTLP_JSON_FILE": str(spans)})
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    live = {**out["coverage"], "failures": out["failures"]}
    # the spans are AutoGen's (scope autogen-core / the runtime's), none of masfuzz's exporter
    lines = [json.loads(line) for line in spans.read_text().splitlines()]
    scopes = {ss["scope"]["name"] for doc in lines for rs in doc["resourceSpans"] for ss in rs["scopeSpans"]}
    assert "autogen-core" in scopes and "masfuzz" not in scopes

    judged = _judge(cli, tmp_path, str(spans), VIDEO)
    assert _criteria(judged) == _criteria(live) == {"C1": (4, 4), "C2": (4, 4), "C3": (0, 12), "C4": (4, 12)}
    witnessed = {c: [o["id"] for o in v["items"] if o["witnessed_by"]] for c, v in judged["obligations"].items()}
    assert witnessed == {c: [o["id"] for o in v["items"] if o["witnessed_by"]]
                         for c, v in live["obligations"].items()}
    assert [f["fingerprint"] for f in judged["failures"]] == [f["fingerprint"] for f in live["failures"]]
    assert [f["root_cause"] for f in judged["failures"]] == ["Termination Condition Violation"]

    # the very events of the run's own trace (times aside), rebuilt from AutoGen's spans
    conditions = ("(TextMentionTermination(text='TERMINATE') | MaxMessageTermination(max_messages=10))",)
    (back,) = otel.ingest_all(spans, conditions)
    own = Trace.model_validate(out["trace"])
    assert [e.model_copy(update={"t": 0.0}) for e in back.events] == [
        e.model_copy(update={"t": 0.0}) for e in own.events]

    # What the spans lack is said, not hidden: AgentChat exports no stop message (the reason is
    # named from the target's MaxMessageTermination) and no model calls (usage is unknown).
    notes = [n for n in judged["notes"] if n.startswith("judge --otel:")]
    assert any("MaxMessageTermination(10)" in n for n in notes)
    assert any("no model calls" in n for n in notes)
    assert back.usage.model_calls == 0 < own.usage.model_calls
    # Without a TARGET nothing names the condition: the run ended by an unnamed condition
    # (`other`), so the bug of the missing termination cannot be told from the spans alone.
    bare = _judge(cli, tmp_path, str(spans))
    assert _criteria(bare)["C1"] == (4, 4)
    assert "Termination Condition Violation" not in [f["root_cause"] for f in bare.get("failures", [])]
    assert any("judge with a TARGET" in n for n in bare["notes"])
