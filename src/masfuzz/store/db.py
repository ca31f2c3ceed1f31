"""The run store: one SQLite file every command writes to (coverage.py's data layer is the model).

Schema (version `SCHEMA_VERSION`; a store written by another version is refused with a clear
message rather than misread):

    meta(key PRIMARY KEY, value)            -- schema_version, masfuzz version
    specs(id PRIMARY KEY, system_id, json, created)
                                            -- id: content hash of the spec's JSON
    runs(id INTEGER PRIMARY KEY, command, spec_id, target, config JSON, started, finished, status)
                                            -- one masfuzz invocation (cover, fuzz, tools, exec)
    scenarios(id PRIMARY KEY, json)         -- id: Scenario.id, a content hash
    executions(id INTEGER PRIMARY KEY, run_id, scenario_id, trace JSON, status, wall_time, created)
                                            -- one execution of one scenario within a run
    contexts(obligation_id, execution_id, PRIMARY KEY(obligation_id, execution_id))
                                            -- which execution witnessed which obligation
    failures(id INTEGER PRIMARY KEY, run_id, execution_id, fingerprint, category, root_cause,
             json, created)                 -- findings of the oracles, de-duplicated by fingerprint

Every execution is committed as soon as it is recorded, so a campaign interrupted at any point
loses at most the execution in flight and resumes by skipping scenarios already executed.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from masfuzz import __version__
from masfuzz.errors import MasfuzzError
from masfuzz.scenario import Scenario
from masfuzz.spec.model import WorkflowSpec
from masfuzz.trace import Trace

SCHEMA_VERSION = 1
DEFAULT_STORE = Path(".masfuzz") / "runs.db"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS specs (
    id TEXT PRIMARY KEY, system_id TEXT NOT NULL, json TEXT NOT NULL, created REAL NOT NULL);
CREATE TABLE IF NOT EXISTS runs (
    id INTEGER PRIMARY KEY, command TEXT NOT NULL, spec_id TEXT REFERENCES specs(id),
    target TEXT, config TEXT NOT NULL DEFAULT '{}', started REAL NOT NULL, finished REAL,
    status TEXT NOT NULL DEFAULT 'running');
CREATE TABLE IF NOT EXISTS scenarios (id TEXT PRIMARY KEY, json TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS executions (
    id INTEGER PRIMARY KEY, run_id INTEGER NOT NULL REFERENCES runs(id),
    scenario_id TEXT NOT NULL REFERENCES scenarios(id), trace TEXT NOT NULL,
    status TEXT NOT NULL, wall_time REAL NOT NULL DEFAULT 0, created REAL NOT NULL);
CREATE INDEX IF NOT EXISTS executions_run ON executions(run_id, scenario_id);
CREATE TABLE IF NOT EXISTS contexts (
    obligation_id TEXT NOT NULL, execution_id INTEGER NOT NULL REFERENCES executions(id),
    PRIMARY KEY (obligation_id, execution_id));
CREATE TABLE IF NOT EXISTS failures (
    id INTEGER PRIMARY KEY, run_id INTEGER NOT NULL REFERENCES runs(id),
    execution_id INTEGER REFERENCES executions(id), fingerprint TEXT NOT NULL,
    category TEXT NOT NULL, root_cause TEXT NOT NULL DEFAULT '', json TEXT NOT NULL,
    created REAL NOT NULL);
CREATE INDEX IF NOT EXISTS failures_fp ON failures(fingerprint);
"""


def spec_id(spec: WorkflowSpec) -> str:
    body = spec.model_dump_json(by_alias=True)
    return "spec-" + hashlib.sha256(body.encode()).hexdigest()[:12]


class RunStore:
    def __init__(self, path: str | Path = DEFAULT_STORE) -> None:
        self.path = Path(path)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.db = sqlite3.connect(self.path)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA foreign_keys=ON")
            self._migrate()
        except sqlite3.DatabaseError as exc:
            raise MasfuzzError(f"{self.path}: not a masfuzz run store ({exc})") from None

    def _migrate(self) -> None:
        row = None
        try:
            row = self.db.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()
        except sqlite3.OperationalError:
            pass  # a new file
        if row is not None and int(row[0]) != SCHEMA_VERSION:
            raise MasfuzzError(
                f"{self.path}: run store schema version {row[0]}, this masfuzz reads "
                f"{SCHEMA_VERSION}; use a new --store file"
            )
        with self.db:
            self.db.executescript(_SCHEMA)
            self.db.execute(
                "INSERT OR REPLACE INTO meta VALUES ('schema_version', ?)", (str(SCHEMA_VERSION),)
            )
            self.db.execute("INSERT OR REPLACE INTO meta VALUES ('masfuzz_version', ?)",
                            (__version__,))

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> "RunStore":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- specs and runs ----------------------------------------------------------------------
    def put_spec(self, spec: WorkflowSpec) -> str:
        sid = spec_id(spec)
        with self.db:
            self.db.execute(
                "INSERT OR IGNORE INTO specs VALUES (?, ?, ?, ?)",
                (sid, spec.system.id, spec.model_dump_json(by_alias=True), time.time()),
            )
        return sid

    def get_spec(self, sid: str) -> WorkflowSpec:
        row = self.db.execute("SELECT json FROM specs WHERE id=?", (sid,)).fetchone()
        if row is None:
            raise MasfuzzError(f"{self.path}: no spec {sid!r}")
        return WorkflowSpec.model_validate_json(row[0])

    def start_run(self, command: str, spec: WorkflowSpec | None = None, target: str = "",
                  config: dict[str, Any] | None = None) -> int:
        sid = self.put_spec(spec) if spec is not None else None
        with self.db:
            cur = self.db.execute(
                "INSERT INTO runs (command, spec_id, target, config, started) VALUES (?,?,?,?,?)",
                (command, sid, target, json.dumps(config or {}, sort_keys=True), time.time()),
            )
        return int(cur.lastrowid)

    def finish_run(self, run_id: int, status: str = "completed") -> None:
        with self.db:
            self.db.execute("UPDATE runs SET finished=?, status=? WHERE id=?",
                            (time.time(), status, run_id))

    def find_resumable(self, command: str, target: str, config: dict[str, Any]) -> int | None:
        """The latest unfinished run of the same command, target and configuration."""
        row = self.db.execute(
            "SELECT id FROM runs WHERE command=? AND target=? AND config=? AND status='running' "
            "ORDER BY id DESC LIMIT 1",
            (command, target, json.dumps(config, sort_keys=True)),
        ).fetchone()
        return int(row[0]) if row else None

    def run_info(self, run_id: int) -> dict[str, Any]:
        row = self.db.execute(
            "SELECT id, command, spec_id, target, config, started, finished, status FROM runs "
            "WHERE id=?", (run_id,)
        ).fetchone()
        if row is None:
            raise MasfuzzError(f"{self.path}: no run {run_id}")
        keys = ("id", "command", "spec_id", "target", "config", "started", "finished", "status")
        info = dict(zip(keys, row))
        info["config"] = json.loads(info["config"])
        return info

    def runs(self) -> list[dict[str, Any]]:
        rows = self.db.execute(
            "SELECT r.id, r.command, r.target, r.started, r.status, COUNT(e.id) FROM runs r "
            "LEFT JOIN executions e ON e.run_id = r.id GROUP BY r.id ORDER BY r.id"
        )
        keys = ("id", "command", "target", "started", "status", "executions")
        return [dict(zip(keys, row)) for row in rows]

    def latest_run(self, command: str | None = None) -> int | None:
        q, args = "SELECT id FROM runs", ()
        if command:
            q, args = q + " WHERE command=?", (command,)
        row = self.db.execute(q + " ORDER BY id DESC LIMIT 1", args).fetchone()
        return int(row[0]) if row else None

    # -- scenarios, executions, contexts ------------------------------------------------------
    def record_execution(self, run_id: int, scenario: Scenario, trace: Trace,
                         obligation_ids: Sequence[str] = ()) -> int:
        """Store one execution and the obligations it witnessed, atomically."""
        end = trace.termination
        status = end.reason if end else "unknown"
        with self.db:
            self.db.execute("INSERT OR IGNORE INTO scenarios VALUES (?, ?)",
                            (scenario.id, scenario.model_dump_json()))
            cur = self.db.execute(
                "INSERT INTO executions (run_id, scenario_id, trace, status, wall_time, created) "
                "VALUES (?,?,?,?,?,?)",
                (run_id, scenario.id, trace.model_dump_json(by_alias=True), status,
                 trace.usage.wall_time, time.time()),
            )
            eid = int(cur.lastrowid)
            self.db.executemany("INSERT OR IGNORE INTO contexts VALUES (?, ?)",
                                [(o, eid) for o in obligation_ids])
        return eid

    def executed_scenarios(self, run_id: int) -> set[str]:
        rows = self.db.execute("SELECT scenario_id FROM executions WHERE run_id=?", (run_id,))
        return {r[0] for r in rows}

    def executions(self, run_id: int) -> Iterator[tuple[int, Scenario, Trace]]:
        rows = self.db.execute(
            "SELECT e.id, s.json, e.trace FROM executions e JOIN scenarios s "
            "ON s.id = e.scenario_id WHERE e.run_id=? ORDER BY e.id", (run_id,)
        )
        for eid, sjson, tjson in rows:
            yield eid, Scenario.model_validate_json(sjson), Trace.model_validate_json(tjson)

    def contexts(self, run_id: int) -> dict[str, list[str]]:
        """obligation id -> ids of the scenarios that witnessed it in this run."""
        rows = self.db.execute(
            "SELECT c.obligation_id, e.scenario_id FROM contexts c JOIN executions e "
            "ON e.id = c.execution_id WHERE e.run_id=? ORDER BY e.id", (run_id,)
        )
        out: dict[str, list[str]] = {}
        for ob, sid in rows:
            ids = out.setdefault(ob, [])
            if sid not in ids:
                ids.append(sid)
        return out

    # -- failures ---------------------------------------------------------------------------
    def record_failure(self, run_id: int, execution_id: int | None, fingerprint: str,
                       category: str, root_cause: str, body: dict[str, Any]) -> int:
        with self.db:
            cur = self.db.execute(
                "INSERT INTO failures (run_id, execution_id, fingerprint, category, root_cause, "
                "json, created) VALUES (?,?,?,?,?,?,?)",
                (run_id, execution_id, fingerprint, category, root_cause,
                 json.dumps(body, sort_keys=True), time.time()),
            )
        return int(cur.lastrowid)

    def failures(self, run_id: int | None = None) -> list[dict[str, Any]]:
        q = "SELECT id, run_id, execution_id, fingerprint, category, root_cause, json FROM failures"
        args: tuple = ()
        if run_id is not None:
            q, args = q + " WHERE run_id=?", (run_id,)
        out = []
        for fid, rid, eid, fp, cat, rc, body in self.db.execute(q + " ORDER BY id", args):
            out.append({"id": fid, "run_id": rid, "execution_id": eid, "fingerprint": fp,
                        "category": cat, "root_cause": rc, **json.loads(body)})
        return out
