"""`cover` and `fuzz` are presets of `run` (`--phases structural`, `--phases flare`), and the
Python API is the command line's: on one configuration, with scripted models and a fixed seed,
each face stores the same run.

What the comparison leaves out, and why:
- ids (`id`, `run_id`, `execution_id`, `spec_id` is kept: it is a content hash): numbering
  depends on what else the store holds, and each face writes its own store here;
- times (`started`, `finished`, `created`, `lease_expires`, `wall_time`, `seconds` and the
  trace events' `t`): no two runs take the same time;
- the lease's owner: this process in each face here, another host and pid elsewhere;
- the command's name (`runs.command`): a preset's run is recorded under its own command, so
  that `masfuzz cover` run twice resumes or shows its own run, not a `run`'s;
- the suite's path in the summary: each face writes its suite into its own folder (the suites'
  contents are compared instead, minus the time each was written).
Everything else — the configuration that identifies the run, every execution's scenario and
trace, coverage contexts, failures, attempts, fault re-runs, corpus entries, usage, notes, the
phases' results — must be equal.
"""

import json
import sqlite3
from pathlib import Path

import pytest
import yaml

from tests.generate.test_cover import CS, CS_SUT, TESTER

pytest.importorskip("agents")

pytestmark = pytest.mark.usefixtures("in_repo")

TASK = "Please change my seat to 14C, confirmation ABC123"
TIMES = {"started", "finished", "created", "lease_expires", "wall_time", "seconds", "t"}  # t: a trace event's
IDS = {"id", "run_id", "execution_id", "lease_owner"}
# every face runs in this one process under --executor inprocess: a trace says its place among the
# runs of its system in the process (`process_run`), which goes on counting from face to face
PLACES = {"process_run"}
# the settings of each face's one configuration (the CLI's flags; the API's keywords the same)
COMMON = {"model": TESTER, "sut_model": CS_SUT, "no_cache": True, "no_check": True,
          "no_judge": True, "seed": 7, "executor": "inprocess"}
STRUCTURAL = {**COMMON, "attempts": 2, "faults": "none", "criteria": "C1,C2"}
FLARE = {**COMMON, "input": [TASK], "rounds": 3, "seed_tasks": 0, "no_spec_agent": True}


def _flags(settings: dict) -> list[str]:
    flags = []
    for name, value in settings.items():
        flag = "--" + name.replace("_", "-")
        if value is True:
            flags.append(flag)
        else:
            for one in value if isinstance(value, list) else [value]:
                flags += [flag, str(one)]
    return flags


def _stored(folder: Path) -> dict:
    """Every table of the store in `folder`, rows as data, minus ids, times and the command."""
    db = sqlite3.connect(folder / "runs.db")
    db.row_factory = sqlite3.Row
    tables = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table' AND name != 'meta'")]
    stored = {}
    for table in tables:
        rows = [_plain({k: _json(row[k]) for k in row.keys()}) for row in db.execute(f"SELECT * FROM {table}")]
        for row in rows if table == "runs" else ():
            row.pop("command")
            row["summary"].pop("suite", None)
        stored[table] = sorted(rows, key=lambda r: json.dumps(r, sort_keys=True))
    db.close()
    return stored


def _json(value):
    if isinstance(value, str) and value[:1] in "{[":
        try:
            return json.loads(value)
        except ValueError:
            return value
    return value


def _plain(value):
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items() if k not in TIMES | IDS | PLACES}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def _cli(cli, folder: Path, command: str, settings: dict, *extra: str) -> None:
    folder.mkdir()
    suite = [] if command == "fuzz" else ["--suite", str(folder / "suite.yaml")]  # fuzz writes none
    code, out, err = cli(command, CS, *_flags(settings), "--store", str(folder / "runs.db"),
                         *suite, *extra)
    assert code in (0, 1), err  # 1: the app's failures, the same on every face


def test_cover_run_structural_and_the_api_store_the_same_run(cli, tmp_path):
    from masfuzz import api

    _cli(cli, tmp_path / "cover", "cover", STRUCTURAL)
    _cli(cli, tmp_path / "run", "run", STRUCTURAL, "--phases", "structural")
    (tmp_path / "api").mkdir()
    api.cover(CS, **STRUCTURAL, store=str(tmp_path / "api" / "runs.db"),
              suite=str(tmp_path / "api" / "suite.yaml"))
    cover = _stored(tmp_path / "cover")
    assert cover["executions"] and cover["attempts"]  # the comparison compares something
    assert cover == _stored(tmp_path / "run") == _stored(tmp_path / "api")
    suites = [yaml.safe_load((tmp_path / face / "suite.yaml").read_text()) for face in ("cover", "run", "api")]
    assert suites[0]["cases"] and all(s.pop("created") for s in suites)  # when each was written
    assert suites[0] == suites[1] == suites[2]


def test_fuzz_run_flare_and_the_api_store_the_same_run(cli, tmp_path):
    from masfuzz import api

    _cli(cli, tmp_path / "fuzz", "fuzz", FLARE)
    _cli(cli, tmp_path / "run", "run", FLARE, "--phases", "flare")
    (tmp_path / "api").mkdir()
    api.fuzz(CS, **FLARE, store=str(tmp_path / "api" / "runs.db"))
    fuzz = _stored(tmp_path / "fuzz")
    assert fuzz["executions"] and fuzz["corpus"]  # the comparison compares something
    assert fuzz == _stored(tmp_path / "run") == _stored(tmp_path / "api")
