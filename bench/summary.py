"""The figures of a `make bench` run, on one screen.

Each bench records its figures here as it prints them (`record`): one JSON line each in
.masfuzz/bench/figures.jsonl, with its target, whether it is met and the machine's core count.
`python bench/summary.py` prints the table of the latest figure of each name; `--reset` starts
a new run (`make bench` does, before the first bench).

    .venv/bin/python bench/summary.py [--reset]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

FILE = Path(__file__).resolve().parents[1] / ".masfuzz" / "bench" / "figures.jsonl"


def record(name: str, value: float | str, target: str, met: bool | None, *, unit: str = "",
           note: str = "") -> None:
    """One figure: `value` (a ratio measured in the same run, or a time with the machine noted),
    what the project aims at, and whether it is met (None: no target, shown for information)."""
    FILE.parent.mkdir(parents=True, exist_ok=True)
    line = {"name": name, "value": value, "unit": unit, "target": target, "met": met,
            "note": note, "cores": os.cpu_count(), "bench": Path(sys.argv[0]).name,
            "time": time.time()}
    with FILE.open("a") as f:
        f.write(json.dumps(line) + "\n")


def figures() -> list[dict]:
    latest: dict[str, dict] = {}
    if FILE.exists():
        for line in FILE.read_text().splitlines():
            try:
                fig = json.loads(line)
                latest[fig["name"]] = fig
            except (ValueError, KeyError):
                continue
    return list(latest.values())


def table(rows: list[dict]) -> str:
    if not rows:
        return "no bench figures recorded"
    out = [f"{'figure':<52} {'value':>14}  {'target':<16} {'':<8} bench"]
    for r in rows:
        v = r["value"]
        value = f"{v:.3g}" if isinstance(v, float) else str(v)
        state = {True: "met", False: "NOT met", None: "-"}[r["met"]]
        out.append(f"{r['name']:<52} {value + r['unit']:>14}  {r['target']:<16} {state:<8} "
                   f"{r['bench']}" + (f"  ({r['note']})" if r["note"] else ""))
    cores = sorted({r["cores"] for r in rows})
    met = sum(1 for r in rows if r["met"] is True)
    aimed = sum(1 for r in rows if r["met"] is not None)
    out.append(f"{met} of {aimed} targets met; machine: {', '.join(map(str, cores))} cores "
               "(times are this machine's; ratios are measured within one run)")
    return "\n".join(out)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reset", action="store_true", help="forget the figures recorded so far")
    args = parser.parse_args()
    if args.reset:
        FILE.unlink(missing_ok=True)
        return 0
    print("\nbench summary")
    print(table(figures()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
