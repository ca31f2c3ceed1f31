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
