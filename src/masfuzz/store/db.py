"""The run store: one SQLite file every command writes to (coverage.py's data layer is the model).

Schema (version `SCHEMA_VERSION`; a version 1 store is migrated in place when opened, a store of
a later version or another application's database is refused with one line):

    meta(key PRIMARY KEY, value)            -- schema_version, masfuzz version
    specs(id PRIMARY KEY, system_id, json, created)
                                            -- id: content hash of the spec's JSON
    runs(id INTEGER PRIMARY KEY, command, spec_id, target, config JSON, seed, started, finished,
         status, summary JSON, lease_owner, lease_expires)
                                            -- one campaign (cover, tools, ...); status running |
                                               completed; the lease says which process works on it
    scenarios(id PRIMARY KEY, json)         -- id: Scenario.id, a content hash
    executions(id INTEGER PRIMARY KEY, run_id, scenario_id, seq, trace JSON, status, wall_time,
               created, UNIQUE(run_id, scenario_id))
                                            -- one execution of one scenario within a run, never two
    contexts(obligation_id, execution_id, PRIMARY KEY(obligation_id, execution_id))
                                            -- the coverage items each execution exercised
                                               (structural: obligation ids)
    failures(id INTEGER PRIMARY KEY, run_id, execution_id, scenario_id, fingerprint, category,
             root_cause, detector, description, evidence JSON, elements JSON, json, created,
             UNIQUE(run_id, fingerprint))   -- the oracles' findings, the first execution of each
                                               fingerprint being its reproducer
    attempts(run_id, bundle_id, number, bundle, obligations JSON, text, reward, verdict, leaked,
             scenario_id, model_calls, created, PRIMARY KEY(run_id, bundle_id, number))
                                            -- structural generation's refine attempts
    fault_runs(run_id, scenario_id, bundle_id, agent, tool, mode, holds, reasons JSON,
               PRIMARY KEY(run_id, scenario_id))
                                            -- fault re-runs and their robustness verdicts
    usage(run_id, role, agent, model, calls, tokens_in, tokens_out, cache_hits, seconds, cost)
                                            -- model usage per role and agent
    tool_findings(id INTEGER PRIMARY KEY, run_id, tool, kind, fingerprint, exception, message,
                  frame, arguments JSON, user_request, confirmed, json, created,
                  UNIQUE(run_id, tool, fingerprint))
                                            -- tool fuzzing's unique errors and correctness findings
    tool_results(run_id, tool, complete, json, PRIMARY KEY(run_id, tool))
                                            -- one tool's part of a campaign's tool fuzzing: done,
                                               or cut short by the budget (a resumed one redoes it)
    corpus(run_id, entry, scenario_id, parent, round, mutation, gain JSON, PRIMARY KEY(run_id, entry))
                                            -- FLARE's corpus: its seeds, then each mutant that
                                               added coverage, with the entry it was made from
                                               (added in place to a version 2 store)
    notes(id INTEGER PRIMARY KEY, run_id, execution_id, scenario_id, text, created,
          UNIQUE(run_id, scenario_id, text))
                                            -- what the oracles decided against in an execution
                                               (a proposal the judge agent rejected): no failure,
                                               shown beside them (added in place to a version 2
                                               store)

Every write is committed as soon as it is made, so a campaign killed at any point loses at most
the execution in flight, and recording the same execution twice writes nothing: a resumed
campaign can neither lose nor duplicate. The store runs in WAL mode with `synchronous=NORMAL`:
a commit is in the log when the statement returns, so a killed masfuzz (SIGKILL, Ctrl-C, a crash)
loses nothing; only a crash of the operating system itself may roll back the last commits (never
corrupt the file). The log is not synced to disk on every commit, which was most of the driver's
time per execution (an fsync each).
"""

from __future__ import annotations

import functools
import hashlib
import inspect
import json
import os
import socket
import sqlite3
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import quote

from masfuzz import __version__
from masfuzz.errors import MasfuzzError
from masfuzz.oracles.failure import Failure
from masfuzz.redact import redact, redact_data, trace_json
from masfuzz.scenario import Scenario
from masfuzz.spec.model import WorkflowSpec
from masfuzz.trace import Trace

SCHEMA_VERSION = 2
DEFAULT_STORE = Path(".masfuzz") / "runs.db"
BUSY_TIMEOUT_MS = 30_000  # two processes on one store wait for each other, never "locked"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS specs (
    id TEXT PRIMARY KEY, system_id TEXT NOT NULL, json TEXT NOT NULL, created REAL NOT NULL);
CREATE TABLE IF NOT EXISTS runs (
    id INTEGER PRIMARY KEY, command TEXT NOT NULL, spec_id TEXT REFERENCES specs(id),
    target TEXT, config TEXT NOT NULL DEFAULT '{}', started REAL NOT NULL, finished REAL,
    status TEXT NOT NULL DEFAULT 'running', seed INTEGER, summary TEXT NOT NULL DEFAULT '{}',
    lease_owner TEXT, lease_expires REAL);
CREATE TABLE IF NOT EXISTS scenarios (id TEXT PRIMARY KEY, json TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS executions (
    id INTEGER PRIMARY KEY, run_id INTEGER NOT NULL REFERENCES runs(id),
    scenario_id TEXT NOT NULL REFERENCES scenarios(id), trace TEXT NOT NULL,
    status TEXT NOT NULL, wall_time REAL NOT NULL DEFAULT 0, created REAL NOT NULL, seq INTEGER);
CREATE UNIQUE INDEX IF NOT EXISTS executions_once ON executions(run_id, scenario_id);
CREATE TABLE IF NOT EXISTS contexts (
    obligation_id TEXT NOT NULL, execution_id INTEGER NOT NULL REFERENCES executions(id),
    PRIMARY KEY (obligation_id, execution_id));
CREATE TABLE IF NOT EXISTS failures (
    id INTEGER PRIMARY KEY, run_id INTEGER NOT NULL REFERENCES runs(id),
    execution_id INTEGER REFERENCES executions(id), fingerprint TEXT NOT NULL,
    category TEXT NOT NULL, root_cause TEXT NOT NULL DEFAULT '', json TEXT NOT NULL,
    created REAL NOT NULL, scenario_id TEXT, detector TEXT NOT NULL DEFAULT '',
    description TEXT NOT NULL DEFAULT '', evidence TEXT NOT NULL DEFAULT '[]',
    elements TEXT NOT NULL DEFAULT '[]');
CREATE UNIQUE INDEX IF NOT EXISTS failures_once ON failures(run_id, fingerprint);
CREATE INDEX IF NOT EXISTS failures_fp ON failures(fingerprint);
CREATE TABLE IF NOT EXISTS attempts (
    run_id INTEGER NOT NULL REFERENCES runs(id), bundle_id TEXT NOT NULL, number INTEGER NOT NULL,
    bundle TEXT NOT NULL, obligations TEXT NOT NULL, text TEXT NOT NULL, reward INTEGER NOT NULL,
    verdict TEXT NOT NULL, leaked TEXT, scenario_id TEXT, model_calls INTEGER NOT NULL DEFAULT 0,
    created REAL NOT NULL, PRIMARY KEY (run_id, bundle_id, number));
CREATE TABLE IF NOT EXISTS fault_runs (
    run_id INTEGER NOT NULL REFERENCES runs(id), scenario_id TEXT NOT NULL,
    bundle_id TEXT NOT NULL, agent TEXT NOT NULL, tool TEXT NOT NULL, mode TEXT NOT NULL,
    holds INTEGER NOT NULL, reasons TEXT NOT NULL, PRIMARY KEY (run_id, scenario_id));
CREATE TABLE IF NOT EXISTS usage (
    run_id INTEGER NOT NULL REFERENCES runs(id), role TEXT NOT NULL, agent TEXT NOT NULL,
    model TEXT NOT NULL, calls INTEGER NOT NULL, tokens_in INTEGER NOT NULL,
    tokens_out INTEGER NOT NULL, cache_hits INTEGER NOT NULL, seconds REAL NOT NULL, cost REAL);
CREATE TABLE IF NOT EXISTS tool_findings (
    id INTEGER PRIMARY KEY, run_id INTEGER NOT NULL REFERENCES runs(id), tool TEXT NOT NULL,
    kind TEXT NOT NULL, fingerprint TEXT NOT NULL, exception TEXT NOT NULL DEFAULT '',
    message TEXT NOT NULL DEFAULT '', frame TEXT NOT NULL DEFAULT '',
    arguments TEXT NOT NULL DEFAULT 'null', user_request TEXT, confirmed INTEGER,
    json TEXT NOT NULL, created REAL NOT NULL);
CREATE UNIQUE INDEX IF NOT EXISTS tool_findings_once ON tool_findings(run_id, tool, fingerprint);
CREATE TABLE IF NOT EXISTS tool_results (
    run_id INTEGER NOT NULL REFERENCES runs(id), tool TEXT NOT NULL, complete INTEGER NOT NULL,
    json TEXT NOT NULL, PRIMARY KEY (run_id, tool));
CREATE TABLE IF NOT EXISTS corpus (
    run_id INTEGER NOT NULL REFERENCES runs(id), entry INTEGER NOT NULL,
    scenario_id TEXT NOT NULL, parent INTEGER, round INTEGER NOT NULL, mutation TEXT NOT NULL,
    gain TEXT NOT NULL, PRIMARY KEY (run_id, entry));
CREATE TABLE IF NOT EXISTS notes (
    id INTEGER PRIMARY KEY, run_id INTEGER NOT NULL REFERENCES runs(id),
    execution_id INTEGER REFERENCES executions(id), scenario_id TEXT, text TEXT NOT NULL,
    created REAL NOT NULL);
CREATE UNIQUE INDEX IF NOT EXISTS notes_once ON notes(run_id, scenario_id, text);
"""

_RUN_COLUMNS = ("id", "command", "spec_id", "target", "config", "seed", "started", "finished",
                "status", "summary", "lease_owner", "lease_expires")
_USAGE_COLUMNS = ("role", "agent", "model", "calls", "tokens_in", "tokens_out", "cache_hits",
                  "seconds", "cost")


class RunLeased(MasfuzzError):
    """Another live masfuzz process works on the run this invocation would write into."""


class StoredFailure(dict):
    """A failure as stored: `Failure`'s fields plus id, run_id, execution_id, the reproducing
    scenario's input and anything recorded beside it; a mapping for reporters, typed access for
    code (`f.fingerprint`, `f.failure`)."""

    @property
    def fingerprint(self) -> str:
        return self["fingerprint"]

    @property
    def failure(self) -> Failure:
        return Failure.model_validate(self)

    def as_dict(self) -> dict[str, Any]:
        return dict(self)


def spec_id(spec: WorkflowSpec) -> str:
    body = spec.model_dump_json(by_alias=True)
    return "spec-" + hashlib.sha256(body.encode()).hexdigest()[:12]


def _cannot_write(exc: sqlite3.Error) -> bool:
    """SQLite failed to write (a full disk, a read-only file or folder, an I/O error), as
    opposed to finding something that is no run store or a damaged one."""
    text = str(exc).lower()
    return isinstance(exc, sqlite3.OperationalError) and any(
        w in text for w in ("readonly", "read-only", "disk is full", "disk i/o", "unable to open"))


def _store_error(path: Path, exc: sqlite3.Error) -> MasfuzzError:
    """One line for a store SQLite failed on while in use. What was committed before stays (each
    write is its own transaction): the same command run again resumes from there."""
    if _cannot_write(exc):
        return MasfuzzError(f"{path}: cannot write the run store ({exc}); what was recorded "
                            "before is kept, and running the same command again resumes from it")
    return MasfuzzError(f"{path}: the run store is damaged ({exc}); give a new --store "
                        "(sqlite3's .recover may save what it holds)")


def _one_line_errors(cls: type) -> type:
    """Every public method of the store, a generator's iteration too, raises `_store_error`
    for an SQLite error instead of a traceback (a corrupt page, a full disk)."""
    def guarded(fn: Any) -> Any:
        if inspect.isgeneratorfunction(fn):
            @functools.wraps(fn)
            def gen(self: Any, *args: Any, **kwargs: Any) -> Any:
                try:
                    yield from fn(self, *args, **kwargs)
                except sqlite3.Error as exc:
                    raise _store_error(self.path, exc) from None
            return gen

        @functools.wraps(fn)
        def call(self: Any, *args: Any, **kwargs: Any) -> Any:
            try:
                return fn(self, *args, **kwargs)
            except sqlite3.Error as exc:
                raise _store_error(self.path, exc) from None
        return call

    for name, fn in list(vars(cls).items()):
        if not name.startswith("_") and inspect.isfunction(fn):
            setattr(cls, name, guarded(fn))
    return cls


@_one_line_errors
class RunStore:
    """The run store at `path`; `read_only` for a command that only reads it (`report`), which
    then works on a store in a folder or file masfuzz may not write."""

    def __init__(self, path: str | Path = DEFAULT_STORE, *, read_only: bool = False) -> None:
        self.path = Path(path)
        self.read_only = read_only
        try:
            if read_only:
                self.db = self._connect_read_only()
            else:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                # autocommit mode: every statement outside an explicit transaction commits at once
                self.db = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT_MS / 1000,
                                          isolation_level=None)
            self.db.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
            if not read_only:
                self.db.execute("PRAGMA journal_mode=WAL")
                self.db.execute("PRAGMA synchronous=NORMAL")  # see the module's docstring
            self.db.execute("PRAGMA foreign_keys=ON")
            self._open_schema()
        except sqlite3.DatabaseError as exc:
            if _cannot_write(exc) and "readonly" not in str(exc):
                raise _store_error(self.path, exc) from None
            if _cannot_write(exc):
                raise MasfuzzError(f"{self.path}: masfuzz cannot write this run store ({exc}); "
                                   "`masfuzz report` reads it, a command that runs anything needs "
                                   "a --store it can write") from None
            raise MasfuzzError(f"{self.path}: not a masfuzz run store ({exc})") from None
        except OSError as exc:
            raise MasfuzzError(f"{self.path}: cannot open the run store ({exc.strerror or exc})") from None

    def _connect_read_only(self) -> sqlite3.Connection:
        """Read without writing anything: `mode=ro`; when even that needs a write (a store in WAL
        mode whose shared-memory file cannot be made in a read-only folder), as an immutable file."""
        if not self.path.is_file():
            raise MasfuzzError(f"{self.path}: no run store here")
        uri = "file:" + quote(str(self.path.resolve()))
        for mode in ("?mode=ro", "?immutable=1"):
            db = sqlite3.connect(uri + mode, uri=True, timeout=BUSY_TIMEOUT_MS / 1000,
                                 isolation_level=None)
            try:
                db.execute("SELECT count(*) FROM sqlite_master").fetchone()
                return db
            except sqlite3.OperationalError as exc:
                db.close()
                if not _cannot_write(exc) or mode == "?immutable=1":
                    raise
        raise AssertionError("unreachable")

    # -- schema ------------------------------------------------------------------------------
    def _tables(self) -> set[str]:
        return {r[0] for r in self.db.execute("SELECT name FROM sqlite_master WHERE type='table'")}

    def _open_schema(self) -> None:
        tables = self._tables()
        version = None
        if "meta" in tables:
            row = self.db.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()
            version = row[0] if row else None
        if tables and version is None:
            raise MasfuzzError(f"{self.path}: not a masfuzz run store (it holds another "
                               f"application's tables: {', '.join(sorted(tables)[:3])})")
        if version is not None:
            try:
                number = int(version)
            except ValueError:
                raise MasfuzzError(f"{self.path}: not a masfuzz run store (schema version "
                                   f"{version!r})") from None
            if number > SCHEMA_VERSION or number < 1:
                raise MasfuzzError(f"{self.path}: run store schema version {number}, this "
                                   f"masfuzz reads {SCHEMA_VERSION}; use a new --store file")
            if number < SCHEMA_VERSION:
                if self.read_only:
                    raise MasfuzzError(f"{self.path}: run store schema version {number} must be "
                                       f"migrated to {SCHEMA_VERSION} first, by a command that "
                                       "writes it (`masfuzz report` reads only)")
                self._migrate_v1()
                return
        if self.read_only:
            if version is None:
                raise MasfuzzError(f"{self.path}: an empty run store (it holds no runs)")
            return
        with self._transaction():
            self._create()
            self._stamp()

    def _create(self) -> None:
        # statement by statement: executescript would commit the transaction it runs in
        for statement in _SCHEMA.split(";"):
            if statement.strip():
                self.db.execute(statement)

    def _stamp(self) -> None:
        self.db.execute("INSERT OR REPLACE INTO meta VALUES ('schema_version', ?)",
                        (str(SCHEMA_VERSION),))
        self.db.execute("INSERT OR REPLACE INTO meta VALUES ('masfuzz_version', ?)", (__version__,))

    def _migrate_v1(self) -> None:
        """Version 1 -> 2 in one transaction: new run and failure columns, one execution per
        (run, scenario), typed failure columns filled from their JSON bodies, new tables."""
        with self._transaction():
            def add(table: str, column: str, decl: str) -> None:
                have = {r[1] for r in self.db.execute(f"PRAGMA table_info({table})")}
                if column not in have:
                    self.db.execute(f"ALTER TABLE {table} ADD COLUMN {column} {decl}")

            for column, decl in (("seed", "INTEGER"), ("summary", "TEXT NOT NULL DEFAULT '{}'"),
                                 ("lease_owner", "TEXT"), ("lease_expires", "REAL")):
                add("runs", column, decl)
            add("executions", "seq", "INTEGER")
            for column, decl in (("scenario_id", "TEXT"), ("detector", "TEXT NOT NULL DEFAULT ''"),
                                 ("description", "TEXT NOT NULL DEFAULT ''"),
                                 ("evidence", "TEXT NOT NULL DEFAULT '[]'"),
                                 ("elements", "TEXT NOT NULL DEFAULT '[]'")):
                add("failures", column, decl)
            # a v1 run could execute one scenario twice: keep the first, re-point what used others
            dupes = self.db.execute(
                "SELECT e.id, k.keep FROM executions e JOIN (SELECT run_id, scenario_id, "
                "MIN(id) AS keep FROM executions GROUP BY run_id, scenario_id) k ON "
                "k.run_id = e.run_id AND k.scenario_id = e.scenario_id WHERE e.id != k.keep"
            ).fetchall()
            for gone, keep in dupes:
                self.db.execute("UPDATE OR IGNORE contexts SET execution_id=? WHERE execution_id=?",
                                (keep, gone))
                self.db.execute("DELETE FROM contexts WHERE execution_id=?", (gone,))
                self.db.execute("UPDATE failures SET execution_id=? WHERE execution_id=?", (keep, gone))
                self.db.execute("DELETE FROM executions WHERE id=?", (gone,))
            self.db.execute("UPDATE executions SET seq = (SELECT COUNT(*) FROM executions p WHERE "
                            "p.run_id = executions.run_id AND p.id < executions.id) WHERE seq IS NULL")
            self.db.execute("DELETE FROM failures WHERE id NOT IN (SELECT MIN(id) FROM failures "
                            "GROUP BY run_id, fingerprint)")
            for fid, body in self.db.execute("SELECT id, json FROM failures").fetchall():
                data = _loads(body, {})
                self.db.execute(
                    "UPDATE failures SET scenario_id=?, detector=?, description=?, evidence=?, "
                    "elements=? WHERE id=?",
                    (data.get("scenario_id"), str(data.get("detector", "")),
                     str(data.get("description", "")), json.dumps(list(data.get("evidence") or [])),
                     json.dumps(list(data.get("elements") or [])), fid))
            self._create()
            self._stamp()

    class _Txn:
        def __init__(self, db: sqlite3.Connection, mode: str) -> None:
            self.db, self.mode = db, mode

        def __enter__(self) -> sqlite3.Connection:
            self.db.execute(f"BEGIN {self.mode}")
            return self.db

        def __exit__(self, kind: Any, *rest: Any) -> None:
            self.db.execute("COMMIT" if kind is None else "ROLLBACK")

    def _transaction(self, mode: str = "IMMEDIATE") -> "RunStore._Txn":
        """One atomic write (IMMEDIATE: the write lock is taken at the start, so two processes
        deciding on the same run serialise instead of racing)."""
        return RunStore._Txn(self.db, mode)

    def check(self) -> str:
        """SQLite's own integrity check: 'ok' or what is broken."""
        return "; ".join(r[0] for r in self.db.execute("PRAGMA integrity_check"))

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> "RunStore":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- specs and runs ----------------------------------------------------------------------
    def put_spec(self, spec: WorkflowSpec) -> str:
        sid = spec_id(spec)
        self.db.execute("INSERT OR IGNORE INTO specs VALUES (?, ?, ?, ?)",
                        (sid, spec.system.id, spec.model_dump_json(by_alias=True), time.time()))
        return sid

    def get_spec(self, sid: str) -> WorkflowSpec:
        row = self.db.execute("SELECT json FROM specs WHERE id=?", (sid,)).fetchone()
        if row is None:
            raise MasfuzzError(f"{self.path}: no spec {sid!r}")
        return WorkflowSpec.model_validate_json(row[0])

    def start_run(self, command: str, spec: WorkflowSpec | None = None, target: str = "",
                  config: dict[str, Any] | None = None, *, seed: int | None = None,
                  owner: str | None = None, ttl: float = 0.0) -> int:
        sid = self.put_spec(spec) if spec is not None else None
        cur = self.db.execute(
            "INSERT INTO runs (command, spec_id, target, config, started, seed, lease_owner, "
            "lease_expires) VALUES (?,?,?,?,?,?,?,?)",
            (command, sid, redact(target), _config(config), time.time(), seed, owner,
             time.time() + ttl if owner else None))
        return int(cur.lastrowid)

    def claim_run(self, command: str, target: str, config: dict[str, Any], owner: str, *,
                  spec: WorkflowSpec | None = None, seed: int | None = None, fresh: bool = False,
                  wait: float = 0.0, ttl: float = 30.0) -> tuple[int, str]:
        """The run this invocation works on, with its lease taken: `(id, "resumed")` for the
        unfinished run of the same command, target and configuration, `(id, "new")` for a new
        one, or `(id, "completed")` when the run another process held finished while this one
        waited. A run whose lease another live process holds is waited for up to `wait`
        seconds, then refused with one line (`RunLeased`)."""
        deadline = time.monotonic() + wait
        waited_for = None
        while True:
            with self._transaction():
                busy = None
                if not fresh:
                    row = self.db.execute(
                        "SELECT id, lease_owner, lease_expires FROM runs WHERE command=? AND "
                        "target=? AND config=? AND status='running' ORDER BY id DESC LIMIT 1",
                        (command, target, _config(config))).fetchone()
                    if row is not None:
                        rid, holder, expires = row
                        if (holder and holder != owner and (expires or 0) > time.time()
                                and _alive(holder)):
                            busy = (rid, holder)
                        else:
                            self.db.execute("UPDATE runs SET lease_owner=?, lease_expires=? "
                                            "WHERE id=?", (owner, time.time() + ttl, rid))
                            return int(rid), "resumed"
                if busy is None:
                    if not fresh and waited_for is not None and (done := self.completed_run(
                            command, target, config)) is not None:
                        return done, "completed"
                    return self.start_run(command, spec, target, config, seed=seed, owner=owner,
                                          ttl=ttl), "new"
            if time.monotonic() >= deadline:
                raise RunLeased(f"{self.path}: run {busy[0]} of this configuration is being "
                                f"worked on by another masfuzz process ({busy[1]}); try again "
                                "when it ends")
            waited_for = busy[0]
            time.sleep(min(0.5, max(0.0, deadline - time.monotonic())))

    def renew_lease(self, run_id: int, owner: str, ttl: float = 30.0) -> None:
        self.db.execute("UPDATE runs SET lease_expires=? WHERE id=? AND lease_owner=?",
                        (time.time() + ttl, run_id, owner))

    def release_lease(self, run_id: int, owner: str) -> None:
        self.db.execute("UPDATE runs SET lease_owner=NULL, lease_expires=NULL WHERE id=? AND "
                        "lease_owner=?", (run_id, owner))

    def finish_run(self, run_id: int, status: str = "completed",
                   summary: dict[str, Any] | None = None) -> None:
        self.db.execute(
            "UPDATE runs SET finished=?, status=?, lease_owner=NULL, lease_expires=NULL, "
            "summary=COALESCE(?, summary) WHERE id=?",
            (time.time(), status, json.dumps(redact_data(summary), sort_keys=True)
             if summary is not None else None, run_id))

    def find_resumable(self, command: str, target: str, config: dict[str, Any]) -> int | None:
        """The latest unfinished run of the same command, target and configuration."""
        return self._latest(command, target, config, "running")

    def completed_run(self, command: str, target: str, config: dict[str, Any]) -> int | None:
        """The latest completed run of the same command, target and configuration."""
        return self._latest(command, target, config, "completed")

    def _latest(self, command: str, target: str, config: dict[str, Any], status: str) -> int | None:
        row = self.db.execute(
            "SELECT id FROM runs WHERE command=? AND target=? AND config=? AND status=? "
            "ORDER BY id DESC LIMIT 1", (command, target, _config(config), status)).fetchone()
        return int(row[0]) if row else None

    def run_info(self, run_id: int) -> dict[str, Any]:
        row = self.db.execute(f"SELECT {', '.join(_RUN_COLUMNS)} FROM runs WHERE id=?",
                              (run_id,)).fetchone()
        if row is None:
            raise MasfuzzError(f"{self.path}: no run {run_id}")
        info = dict(zip(_RUN_COLUMNS, row))
        info["config"] = _loads(info["config"], {})
        info["summary"] = _loads(info["summary"], {})
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

    # -- scenarios, executions, coverage items ------------------------------------------------
    def record_execution(self, run_id: int, scenario: Scenario, trace: Trace,
                         obligation_ids: Sequence[str] = (), *, seq: int | None = None) -> int:
        """Store one execution and the coverage items it exercised, atomically. Recording the
        same scenario of the same run again writes nothing and returns the first one's id."""
        end = trace.termination
        status = end.reason if end else "unknown"
        with self._transaction():
            self.db.execute("INSERT OR IGNORE INTO scenarios VALUES (?, ?)",
                            (scenario.id, redact(scenario.model_dump_json())))
            cur = self.db.execute(
                "INSERT OR IGNORE INTO executions (run_id, scenario_id, seq, trace, status, "
                "wall_time, created) VALUES (?,?,?,?,?,?,?)",
                (run_id, scenario.id, seq, trace_json(trace), status,
                 trace.usage.wall_time, time.time()))
            if not cur.rowcount:
                row = self.db.execute("SELECT id FROM executions WHERE run_id=? AND scenario_id=?",
                                      (run_id, scenario.id)).fetchone()
                return int(row[0])
            eid = int(cur.lastrowid)
            self.db.executemany("INSERT OR IGNORE INTO contexts VALUES (?, ?)",
                                [(o, eid) for o in obligation_ids])
        return eid

    def add_contexts(self, execution_id: int, items: Sequence[str]) -> None:
        """Coverage items a judgement added to a recorded execution (a model's mapping)."""
        with self._transaction():
            self.db.executemany("INSERT OR IGNORE INTO contexts VALUES (?, ?)",
                                [(i, execution_id) for i in items])

    def executed_scenarios(self, run_id: int) -> set[str]:
        rows = self.db.execute("SELECT scenario_id FROM executions WHERE run_id=?", (run_id,))
        return {r[0] for r in rows}

    def execution_count(self, run_id: int) -> int:
        return int(self.db.execute("SELECT COUNT(*) FROM executions WHERE run_id=?",
                                   (run_id,)).fetchone()[0])

    def scenario(self, scenario_id: str) -> Scenario | None:
        row = self.db.execute("SELECT json FROM scenarios WHERE id=?", (scenario_id,)).fetchone()
        return Scenario.model_validate_json(row[0]) if row else None

    def executions(self, run_id: int) -> Iterator[tuple[int, Scenario, Trace]]:
        rows = self.db.execute(
            "SELECT e.id, s.json, e.trace FROM executions e JOIN scenarios s "
            "ON s.id = e.scenario_id WHERE e.run_id=? ORDER BY e.id", (run_id,)
        ).fetchall()
        for eid, sjson, tjson in rows:
            yield eid, Scenario.model_validate_json(sjson), Trace.model_validate_json(tjson)

    def trace(self, execution_id: int) -> Trace | None:
        row = self.db.execute("SELECT trace FROM executions WHERE id=?", (execution_id,)).fetchone()
        return Trace.model_validate_json(row[0]) if row else None

    def execution_items(self, run_id: int) -> Iterator[tuple[int, float, list[str]]]:
        """Each execution of the run in the order it was recorded: its id, when, and the
        coverage items it exercised (what a coverage-over-time curve is drawn from)."""
        rows = self.db.execute(
            "SELECT e.id, e.created, c.obligation_id FROM executions e LEFT JOIN contexts c "
            "ON c.execution_id = e.id WHERE e.run_id=? ORDER BY e.id", (run_id,))
        current: tuple[int, float, list[str]] | None = None
        for eid, created, item in rows:
            if current is None or current[0] != eid:
                if current is not None:
                    yield current
                current = (eid, created, [])
            if item is not None:
                current[2].append(item)
        if current is not None:
            yield current

    def coverage_items(self, run_id: int) -> dict[str, list[str]]:
        """Coverage item id -> ids of the scenarios that exercised it in this run, in order."""
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

    contexts = coverage_items  # the name coverage.py gives them

    # -- failures ---------------------------------------------------------------------------
    def record_failure(self, run_id: int, execution_id: int | None, failure: Failure,
                       scenario_id: str | None = None,
                       extra: dict[str, Any] | None = None) -> int | None:
        """Record a failure unless its fingerprint is already recorded for the run (the first
        reproducer stays); None when it was."""
        body = {**failure.model_dump(mode="json"), **(extra or {})}
        if scenario_id:
            body["scenario_id"] = scenario_id
        cur = self.db.execute(
            "INSERT OR IGNORE INTO failures (run_id, execution_id, scenario_id, fingerprint, "
            "category, root_cause, detector, description, evidence, elements, json, created) "
            "VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
            (run_id, execution_id, body.get("scenario_id"), failure.fingerprint, failure.category,
             failure.root_cause, failure.detector, failure.description,
             json.dumps(list(failure.evidence)), json.dumps(list(failure.elements)),
             redact(json.dumps(body, sort_keys=True)), time.time()))
        return int(cur.lastrowid) if cur.rowcount else None

    def blamed(self, stored: StoredFailure) -> Failure:
        """A stored failure with who and when: as stored, or, for one stored before failures
        said them (no `step` in its record), derived from its execution's trace."""
        from masfuzz.oracles.blame import blame

        failure = stored.failure
        if "step" in stored or stored.get("execution_id") is None:
            return failure
        trace = self.trace(stored["execution_id"])
        return failure if trace is None else blame(trace, failure)

    def update_failure(self, run_id: int, failure: Failure) -> None:
        """Rewrite the run's failure of `failure`'s fingerprint (another oracle found it too: its
        `found_by`, maybe better evidence), keeping its reproducer and what was stored beside it."""
        row = self.db.execute("SELECT json FROM failures WHERE run_id=? AND fingerprint=?",
                              (run_id, failure.fingerprint)).fetchone()
        if row is None:
            return
        body = {**_loads(row[0], {}), **failure.model_dump(mode="json", exclude={"scenario_id"})}
        self.db.execute(
            "UPDATE failures SET detector=?, description=?, evidence=?, elements=?, json=? "
            "WHERE run_id=? AND fingerprint=?",
            (failure.detector, failure.description, json.dumps(list(failure.evidence)),
             json.dumps(list(failure.elements)), redact(json.dumps(body, sort_keys=True)), run_id,
             failure.fingerprint))

    def replace_reproducer(self, run_id: int, execution_id: int | None, failure: Failure,
                           scenario_id: str) -> None:
        """Make another execution the reproducer of the run's failure of `failure`'s fingerprint:
        a stronger witness of the same fault (see `Recorder.add_failures`)."""
        body = {**failure.model_dump(mode="json"), "scenario_id": scenario_id}
        self.db.execute(
            "UPDATE failures SET execution_id=?, scenario_id=?, detector=?, description=?, evidence=?, "
            "elements=?, json=? WHERE run_id=? AND fingerprint=?",
            (execution_id, scenario_id, failure.detector, failure.description,
             json.dumps(list(failure.evidence)), json.dumps(list(failure.elements)),
             redact(json.dumps(body, sort_keys=True)), run_id, failure.fingerprint))

    def failures(self, run_id: int | None = None) -> list[StoredFailure]:
        q = ("SELECT f.id, f.run_id, f.execution_id, f.fingerprint, f.category, f.root_cause, "
             "f.json, s.json FROM failures f LEFT JOIN scenarios s ON s.id = f.scenario_id")
        args: tuple = ()
        if run_id is not None:
            q, args = q + " WHERE f.run_id=?", (run_id,)
        out = []
        for fid, rid, eid, fp, cat, rc, body, sjson in self.db.execute(q + " ORDER BY f.id", args):
            data = _loads(body, {})
            if sjson and "input" not in data:
                scenario = _loads(sjson, {})
                data["input"] = scenario.get("input", "")
                # what a fuzzing mutant changed and the faults masfuzz injected: part of
                # what reproduces the failure
                data["configuration"] = {k: scenario[k] for k in
                                         ("temperatures", "agent_models", "speaking_order", "faults")
                                         if scenario.get(k)}
            out.append(StoredFailure({**data, "id": fid, "run_id": rid, "execution_id": eid,
                                      "fingerprint": fp, "category": cat, "root_cause": rc}))
        return out

    # -- structural generation -------------------------------------------------------------
    def record_attempt(self, run_id: int, *, bundle_id: str, bundle: str,
                       obligations: Sequence[str], number: int, text: str, reward: int,
                       verdict: str, leaked: str | None = None, scenario_id: str | None = None,
                       model_calls: int = 0) -> None:
        self.db.execute(
            "INSERT OR IGNORE INTO attempts VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
            (run_id, bundle_id, number, bundle, json.dumps(list(obligations)), redact(text), reward,
             redact(verdict), leaked, scenario_id, model_calls, time.time()))

    def attempts(self, run_id: int) -> list[dict[str, Any]]:
        keys = ("bundle_id", "number", "bundle", "obligations", "text", "reward", "verdict",
                "leaked", "scenario_id", "model_calls")
        rows = self.db.execute(f"SELECT {', '.join(keys)} FROM attempts WHERE run_id=? "
                               "ORDER BY created, rowid", (run_id,))
        out = []
        for row in rows:
            a = dict(zip(keys, row))
            a["obligations"] = _loads(a["obligations"], [])
            out.append(a)
        return out

    def record_fault_run(self, run_id: int, *, bundle_id: str, agent: str, tool: str, mode: str,
                         scenario_id: str, holds: bool, reasons: Sequence[str]) -> None:
        self.db.execute("INSERT OR IGNORE INTO fault_runs VALUES (?,?,?,?,?,?,?,?)",
                        (run_id, scenario_id, bundle_id, agent, tool, mode, int(holds),
                         json.dumps(list(reasons))))

    def fault_runs(self, run_id: int) -> list[dict[str, Any]]:
        keys = ("scenario_id", "bundle_id", "agent", "tool", "mode", "holds", "reasons")
        out = []
        for row in self.db.execute(f"SELECT {', '.join(keys)} FROM fault_runs WHERE run_id=? "
                                   "ORDER BY rowid", (run_id,)):
            f = dict(zip(keys, row))
            f["holds"], f["reasons"] = bool(f["holds"]), _loads(f["reasons"], [])
            out.append(f)
        return out

    # -- model usage ---------------------------------------------------------------------------
    def record_usage(self, run_id: int, rows: Sequence[dict[str, Any]]) -> None:
        """The run's model usage so far (replaces what was recorded before)."""
        with self._transaction():
            self.db.execute("DELETE FROM usage WHERE run_id=?", (run_id,))
            self.db.executemany(
                f"INSERT INTO usage (run_id, {', '.join(_USAGE_COLUMNS)}) VALUES "
                f"(?, {', '.join('?' * len(_USAGE_COLUMNS))})",
                [(run_id, *(redact_data(r.get(k, 0 if k not in ("role", "agent", "model") else ""))
                            for k in _USAGE_COLUMNS)) for r in rows])

    def usage(self, run_id: int) -> list[dict[str, Any]]:
        rows = self.db.execute(f"SELECT {', '.join(_USAGE_COLUMNS)} FROM usage WHERE run_id=? "
                               "ORDER BY role, agent, model", (run_id,))
        return [dict(zip(_USAGE_COLUMNS, r)) for r in rows]

    # -- tool fuzzing --------------------------------------------------------------------------
    def record_tool_finding(self, run_id: int, finding: dict[str, Any]) -> int | None:
        """One unique tool error or correctness finding (by tool and fingerprint); None when
        it was already recorded for the run."""
        finding = redact_data(finding)
        cur = self.db.execute(
            "INSERT OR IGNORE INTO tool_findings (run_id, tool, kind, fingerprint, exception, "
            "message, frame, arguments, user_request, confirmed, json, created) "
            "VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
            (run_id, _text(finding["tool"]), _text(finding.get("kind", "runtime")),
             _text(finding["fingerprint"]), _text(finding.get("exception", "")),
             _text(finding.get("message", "")), _text(finding.get("frame", "")),
             json.dumps(finding.get("arguments"), default=str),
             None if finding.get("user_request") is None else _text(finding["user_request"]),
             None if finding.get("confirmed") is None else int(bool(finding["confirmed"])),
             json.dumps(finding, sort_keys=True, default=str), time.time()))
        return int(cur.lastrowid) if cur.rowcount else None

    def record_tool_result(self, run_id: int, data: dict[str, Any],
                           findings: Sequence[dict[str, Any]], *, complete: bool) -> None:
        """One tool's part of a campaign's tool fuzzing and its findings, atomically, in place
        of what an earlier, cut-short attempt at the same tool recorded."""
        tool = str(data["tool"])
        with self._transaction():
            self.db.execute("DELETE FROM tool_findings WHERE run_id=? AND tool=?", (run_id, tool))
            for finding in findings:
                self.record_tool_finding(run_id, finding)
            self.db.execute("INSERT OR REPLACE INTO tool_results VALUES (?, ?, ?, ?)",
                            (run_id, tool, int(complete),
                             json.dumps(redact_data(data), sort_keys=True, default=str)))

    def tool_results(self, run_id: int) -> list[dict[str, Any]]:
        """The tools' parts recorded for a run, each with `complete` (False: the budget cut
        it short)."""
        rows = self.db.execute("SELECT complete, json FROM tool_results WHERE run_id=? "
                               "ORDER BY rowid", (run_id,))
        return [{**_loads(body, {}), "complete": bool(done)} for done, body in rows]

    def tool_findings(self, run_id: int) -> list[dict[str, Any]]:
        rows = self.db.execute("SELECT json FROM tool_findings WHERE run_id=? ORDER BY id",
                               (run_id,))
        return [_loads(r[0], {}) for r in rows]

    def record_corpus_entry(self, run_id: int, data: dict[str, Any]) -> None:
        """One entry of FLARE's corpus (`Entry.to_data`) as it joins. A resumed loop grows the
        same corpus again: the entry it writes a second time is the stored one, kept."""
        self.db.execute("INSERT OR IGNORE INTO corpus VALUES (?, ?, ?, ?, ?, ?, ?)",
                        (run_id, data["entry"], data["scenario"], data["parent"], data["round"],
                         data["mutation"], json.dumps(list(data["gain"]))))

    def corpus(self, run_id: int) -> list[dict[str, Any]]:
        """The run's corpus in the order it grew (none for a store written before it was kept)."""
        if "corpus" not in self._tables():
            return []
        rows = self.db.execute("SELECT entry, scenario_id, parent, round, mutation, gain FROM "
                               "corpus WHERE run_id=? ORDER BY entry", (run_id,))
        return [{"entry": e, "scenario": sid, "parent": parent, "round": r, "mutation": m,
                 "gain": _loads(gain, [])} for e, sid, parent, r, m, gain in rows]

    def record_note(self, run_id: int, execution_id: int | None, scenario_id: str, text: str) -> None:
        """A note on one execution (a proposal the judge rejected); written once."""
        self.db.execute("INSERT OR IGNORE INTO notes (run_id, execution_id, scenario_id, text, created) "
                        "VALUES (?, ?, ?, ?, ?)", (run_id, execution_id, scenario_id, redact(_text(text)),
                                                   time.time()))

    def notes(self, run_id: int) -> list[dict[str, Any]]:
        """The run's notes in the order written (none for a store written before they were kept)."""
        if "notes" not in self._tables():
            return []
        rows = self.db.execute("SELECT execution_id, scenario_id, text FROM notes WHERE run_id=? "
                               "ORDER BY id", (run_id,))
        return [{"execution_id": eid, "scenario_id": sid, "text": text} for eid, sid, text in rows]


def _alive(owner: str) -> bool:
    """Is the process holding a lease alive? Owners are `host:pid`; on this host a dead pid
    frees the lease at once (a killed campaign resumes without waiting out the lease), on
    another host only the lease's expiry can tell."""
    host, _, pid = owner.rpartition(":")
    if host != socket.gethostname() or not pid.isdigit():
        return True
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _text(value: Any) -> str:
    """`value` as a text column can hold it: SQLite refuses a lone surrogate (what a tool's
    undecodable bytes become), so one is kept as its escape (`\\ud800`), visibly. (The JSON
    columns need nothing: `json.dumps` escapes it and reading gives it back.)"""
    return str(value).encode("utf-8", "backslashreplace").decode("utf-8")


def _config(config: dict[str, Any] | None) -> str:
    return json.dumps(redact_data(config or {}), sort_keys=True)


def _loads(text: str | None, default: Any) -> Any:
    try:
        return json.loads(text) if text else default
    except ValueError:
        return default
