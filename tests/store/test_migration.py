"""A version 1 store written by the previous release opens, migrates, and reports its runs."""

import importlib.util
import sys

from masfuzz.oracles.failure import Failure
from masfuzz.scenario import Scenario
from masfuzz.spec import load_manifest
from masfuzz.store.db import SCHEMA_VERSION, RunStore
from masfuzz.trace import AgentTurn, TraceRecorder

from tests.conftest import EXAMPLES, ROOT

V1_COMMIT = "3ad1e4b"  # the last release writing schema version 1


def _v1_store_module(tmp_path):
    path = ROOT / "tests" / "store" / "fixtures" / "db_v1.py"  # src/masfuzz/store/db.py at V1_COMMIT
    spec = importlib.util.spec_from_file_location("masfuzz_store_db_v1", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def _trace(sid, agent):
    rec = TraceRecorder(scenario_id=sid)
    rec.add(AgentTurn(agent=agent))
    return rec.finish()


def test_a_v1_store_migrates_and_report_shows_it(tmp_path, cli):
    v1 = _v1_store_module(tmp_path)
    assert v1.SCHEMA_VERSION == 1
    path = tmp_path / "runs.db"
    spec = load_manifest(EXAMPLES / "manifests" / "customer_service.yaml")
    a, b = Scenario(input="hello"), Scenario(input="change my seat")
    failure = Failure(category="system_termination", root_cause="Max Round Limit Exceeded",
                      detector="missing_termination", description="the run hit its bound",
                      evidence=(0,), scenario_id=b.id, elements=("triage_agent",))
    store = v1.RunStore(path)
    run = store.start_run("cover", spec, target="cs.yaml", config={"seed": 0})
    store.record_execution(run, a, _trace(a.id, "triage_agent"), ["reach::triage_agent"])
    eid = store.record_execution(run, b, _trace(b.id, "seat_booking_agent"),
                                 ["reach::seat_booking_agent"])
    store.record_execution(run, b, _trace(b.id, "seat_booking_agent"), ["reach::seat_booking_agent"])
    store.record_failure(run, eid, failure.fingerprint, failure.category, failure.root_cause,
                         {**failure.model_dump(mode="json"), "input": b.input})
    store.finish_run(run)
    store.close()

    with RunStore(path) as migrated:
        assert migrated.check() == "ok"
        assert migrated.db.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone() \
            == (str(SCHEMA_VERSION),)
        assert migrated.execution_count(run) == 2  # v1 had executed b twice: one is kept
        assert migrated.coverage_items(run) == {"reach::triage_agent": [a.id],
                                                "reach::seat_booking_agent": [b.id]}
        [f] = migrated.failures(run)
        assert f.failure == failure and f["input"] == b.input
        assert migrated.run_info(run)["status"] == "completed"
    code, out, err = cli("report", "--store", str(path))
    assert code == 0, err
    assert "run 1: masfuzz cover cs.yaml (completed)" in out
    assert "C1 reachable agents" in out and "2/3" in out
    assert "the run hit its bound" in out


def test_foreign_and_corrupt_files_are_one_line_errors(tmp_path, cli):
    import sqlite3

    foreign = tmp_path / "other.db"
    db = sqlite3.connect(foreign)
    db.execute("CREATE TABLE customers (id INTEGER)")
    db.commit()
    db.close()
    corrupt = tmp_path / "corrupt.db"
    corrupt.write_bytes(b"SQLite format 3\x00" + b"\xff" * 5000)
    for path, words in ((foreign, "another application's tables"), (corrupt, "not a masfuzz run store")):
        code, out, err = cli("report", "--store", str(path))
        assert code == 2 and words in err and err.count("\n") == 1 and "Traceback" not in err
