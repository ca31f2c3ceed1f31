"""The run store: versioned schema, executions with contexts, resume, failures."""

import sqlite3

import pytest

from masfuzz.errors import MasfuzzError
from masfuzz.scenario import Scenario
from masfuzz.spec import load_manifest
from masfuzz.store.db import SCHEMA_VERSION, RunStore
from masfuzz.trace import AgentTurn, TraceRecorder

from tests.conftest import EXAMPLES


def _trace(sid):
    rec = TraceRecorder(scenario_id=sid)
    rec.add(AgentTurn(agent="triage_agent"))
    return rec.finish()


def test_executions_and_contexts_survive_reopening(tmp_path):
    path = tmp_path / "runs.db"
    spec = load_manifest(EXAMPLES / "manifests" / "customer_service.yaml")
    sc = Scenario(input="hi")
    with RunStore(path) as store:
        run = store.start_run("cover", spec, target="m.yaml", config={"seed": 1})
        store.record_execution(run, sc, _trace(sc.id), ["reach::triage_agent"])
        # interrupted here: the run is never finished
    with RunStore(path) as store:
        assert store.find_resumable("cover", "m.yaml", {"seed": 1}) == run
        assert store.find_resumable("cover", "m.yaml", {"seed": 2}) is None
        assert store.executed_scenarios(run) == {sc.id}
        assert store.contexts(run) == {"reach::triage_agent": [sc.id]}
        [(eid, sc2, tr)] = list(store.executions(run))
        assert sc2 == sc and tr.speaker_order == ["triage_agent"]
        assert store.get_spec(store.run_info(run)["spec_id"]) == spec
        store.finish_run(run)
        assert store.find_resumable("cover", "m.yaml", {"seed": 1}) is None


def test_schema_version_is_recorded_and_checked(tmp_path):
    path = tmp_path / "runs.db"
    RunStore(path).close()
    db = sqlite3.connect(path)
    assert db.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone() == (str(SCHEMA_VERSION),)
    db.execute("UPDATE meta SET value='999' WHERE key='schema_version'")
    db.commit()
    db.close()
    with pytest.raises(MasfuzzError, match="schema version 999"):
        RunStore(path)


def test_not_a_database(tmp_path):
    p = tmp_path / "runs.db"
    p.write_text("this is not sqlite" * 100)
    with pytest.raises(MasfuzzError, match="not a masfuzz run store"):
        RunStore(p)


def test_failures_round_trip(tmp_path):
    from masfuzz.oracles.failure import Failure

    failure = Failure(category="system_termination", root_cause="Max Round Limit Exceeded",
                      detector="loop", description="a loop", elements=("a",))
    with RunStore(tmp_path / "r.db") as store:
        run = store.start_run("fuzz")
        store.record_failure(run, None, failure, extra={"detail": "x"})
        assert store.record_failure(run, None, failure) is None  # one row per fingerprint
        [f] = store.failures(run)
        assert f["fingerprint"] == failure.fingerprint and f["detail"] == "x"
        assert f.failure == failure


def test_a_trace_is_stored_as_its_whole_json_masked_once_checked_or_not(tmp_path, monkeypatch):
    """The store reuses the JSON the executor's redaction made of the very same trace
    (`redact.trace_json`); what it writes is byte for byte what dumping and masking it makes,
    and a secret set after that check is masked all the same."""
    from masfuzz.redact import redact, redact_trace
    from masfuzz.trace import Message

    def trace(sid, text):
        rec = TraceRecorder(scenario_id=sid)
        rec.add(AgentTurn(agent="triage_agent"))
        rec.add(Message(agent="triage_agent", content=text))
        return rec.finish()

    checked, late = Scenario(input="checked"), Scenario(input="late")
    with RunStore(tmp_path / "runs.db") as store:
        run = store.start_run("fuzz", None, target="m.py", config={})
        t1 = redact_trace(trace(checked.id, "seat 14C, code zq-7731-pass"))
        t2 = redact_trace(trace(late.id, "seat 3A, code zq-7731-pass"))
        store.record_execution(run, checked, t1)
        monkeypatch.setenv("MASFUZZ_TEST_PASSWORD", "zq-7731-pass")  # a secret from now on
        store.record_execution(run, late, t2)
        stored = dict(store.db.execute("SELECT scenario_id, trace FROM executions"))
    monkeypatch.delenv("MASFUZZ_TEST_PASSWORD")
    assert stored[checked.id] == redact(t1.model_dump_json(by_alias=True)) == t1.model_dump_json(by_alias=True)
    assert "zq-7731-pass" not in stored[late.id] and "code ***" in stored[late.id]


def test_a_scenario_copy_with_changes_has_its_own_id():
    sc = Scenario(input="hi", sut_model="scripted/a.py:p")
    first = sc.id
    changed = sc.model_copy(update={"temperatures": {"triage_agent": 0.5}})
    assert changed.id == Scenario(input="hi", sut_model="scripted/a.py:p",
                                  temperatures={"triage_agent": 0.5}).id != first
    assert sc.model_copy().id == first and sc == Scenario(input="hi", sut_model="scripted/a.py:p")
