"""Crash safety of a campaign: SIGKILL at a random moment, resume, and lose or repeat nothing.

A `cover` campaign of 200+ executions (a generated coordinator-and-specialists manifest, the
scripted template tester, a scripted obedient model, --no-bundle) runs once uninterrupted; then
ROUNDS times it is started on a fresh store, killed with SIGKILL at a random moment, and run again
until it completes. Each round must end with: 0 completed executions lost (every execution the
store held at the kill is still there, unchanged, and was not executed again), 0 duplicated,
`PRAGMA integrity_check` ok, and coverage and failures equal to the uninterrupted run's.

    python bench/bench_crash_safety.py [ROUNDS]
"""

from __future__ import annotations

import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench" / "crash_safety"))

import system  # noqa: E402

TESTER = f"scripted/{ROOT / 'examples' / 'testers' / 'template_tester.py'}:policy"


def cover(workdir: Path, store: Path, *, fmt: str = "json") -> subprocess.Popen:
    cmd = [sys.executable, "-c", "import sys; from masfuzz.cli import main; sys.exit(main(sys.argv[1:]))",
           "cover", str(workdir / "system.yaml"), "--model", TESTER,
           "--sut-model", f"scripted/{workdir / 'policy.py'}:policy", "--no-cache", "--no-bundle",
           "--executor", "inprocess", "--store", str(store), "--suite", str(store.with_suffix(".yaml")),
           "--format", fmt]
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    return subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            cwd=workdir, env=env)


def finish(workdir: Path, store: Path) -> dict:
    proc = cover(workdir, store)
    out, err = proc.communicate(timeout=1800)
    if proc.returncode != 0:
        raise SystemExit(f"cover failed ({proc.returncode}): {err.strip().splitlines()[-1:]}")
    return json.loads(out)


def executions(store: Path) -> list[tuple[str, str]]:
    """(scenario id, trace) of every stored execution."""
    db = sqlite3.connect(store)
    try:
        return [(s, t) for s, t in db.execute("SELECT scenario_id, trace FROM executions ORDER BY id")]
    except sqlite3.OperationalError:
        return []  # killed before the schema was written
    finally:
        db.close()


def integrity(store: Path) -> str:
    db = sqlite3.connect(store)
    try:
        return db.execute("PRAGMA integrity_check").fetchone()[0]
    finally:
        db.close()


def outcome(doc: dict) -> tuple:
    return (json.dumps(doc["coverage"]["criteria"], sort_keys=True),
            sorted(f["fingerprint"] for f in doc.get("failures", [])))


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    rng = random.Random(7)
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        shape = system.layout()
        (work / "system.yaml").write_text(system.manifest(shape))
        (work / "policy.py").write_text(system.policy_source(shape))
        t0 = time.perf_counter()
        base = finish(work, work / "base.db")
        full = time.perf_counter() - t0
        base_ids = [s for s, _ in executions(work / "base.db")]
        print(f"uninterrupted: {len(base_ids)} executions in {full:.1f} s")
        if len(base_ids) < 200:
            raise SystemExit("the campaign is too small for this bench (< 200 executions)")
        lost = duplicated = bad_integrity = differ = reexecuted = 0
        killed_at = []
        for r in range(rounds):
            store = work / f"round{r}.db"
            proc = cover(work, store)
            delay = rng.uniform(0.5, full * 0.95)
            time.sleep(delay)
            proc.send_signal(signal.SIGKILL)
            proc.wait()
            before = dict(executions(store))
            killed_at.append(len(before))
            doc = finish(work, store)
            after = executions(store)
            ids = [s for s, _ in after]
            duplicated += len(ids) - len(set(ids))
            kept = dict(after)
            lost += sum(1 for s, t in before.items() if kept.get(s) != t)
            lost += len(set(base_ids) - set(ids))
            reexecuted += doc["generation"]["executions"]["run"] - (len(set(ids)) - len(before))
            bad_integrity += integrity(store) != "ok"
            differ += outcome(doc) != outcome(base)
        print(f"rounds: {rounds}, killed after {min(killed_at)}..{max(killed_at)} stored executions")
        print(f"completed executions lost: {lost}")
        print(f"executions duplicated: {duplicated}")
        print(f"executions run again after the kill (beyond the one in flight): {reexecuted}")
        print(f"integrity_check not ok: {bad_integrity}")
        print(f"final coverage or failures different from the uninterrupted run: {differ}")
        ok = lost == duplicated == bad_integrity == differ == 0
        print("crash safety: " + ("ok" if ok else "FAILED"))
        from summary import record

        record("crash safety: executions lost or duplicated", lost + duplicated, "0",
               lost + duplicated == 0, note=f"{rounds} kills")
        if not ok:
            raise SystemExit(1)


if __name__ == "__main__":
    main()
