"""Statement and branch coverage of the system under test's own code (FLARE's SC and BC).

FLARE (§3.3.4, §4) reports how much of the target's own code its executions ran; it is measured,
never used as feedback. An executor asked for it (`ExecutionRequest(code_coverage=True)`, see
`masfuzz.exec.codecov`) stores what one execution ran in `trace.meta["code_coverage"]`:

    {"root": "/abs/app/folder",
     "files": {"app.py": {"lines": [1, 3, ...], "arcs": [[-1, 1], [1, 3], ...]}}}

paths relative to the target's root (`target_root`), line numbers sorted, arcs as coverage.py
records them (a negative number is the entry to or exit from the code object starting there).

`code_coverage(executions, root)` unions any number of them and asks coverage.py what each file
could have run: SC = executed / executable statements, BC = taken / possible branches, per file
and in total. A file counts once an execution ran any of it (its import counts): a file under
the root that the system never imported is not part of it. The files are analysed as they are on
disk when the report is made, so report against the source the executions ran.
"""

from __future__ import annotations

import importlib.util
import json
import os
import tempfile
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from masfuzz.errors import TargetError
from masfuzz.loader import split_target

Arc = tuple[int, int]
FileArcs = dict[str, set[Arc]]  # relative path -> arcs run


def target_root(ref: str) -> Path:
    """The folder holding the target's own code: the top package of the target's module, else
    the folder of its file (a plain script, a manifest)."""
    where, _ = split_target(ref)
    if where.endswith((".py", ".ipynb", ".yaml", ".yml", ".json")) or "/" in where or "\\" in where:
        return _top_package(Path(where).expanduser().resolve())
    spec = importlib.util.find_spec(where.split(".")[0])  # finds without importing a top name
    if spec is None:
        raise TargetError(f"{ref}: no module named {where.split('.')[0]!r}")
    if spec.submodule_search_locations:
        return Path(list(spec.submodule_search_locations)[0]).resolve()
    return Path(spec.origin or ".").resolve().parent


def _top_package(path: Path) -> Path:
    folder = path.parent
    while (folder.parent / "__init__.py").exists() and (folder / "__init__.py").exists():
        folder = folder.parent
    return folder


def execution_data(root: Path | str, files: Mapping[str, Iterable[Arc]]) -> dict[str, Any]:
    """One execution's record, compact and sorted so that it stores and compares as is."""
    out = {}
    for rel in sorted(files):
        arcs = sorted(set(map(tuple, files[rel])))
        lines = sorted({n for arc in arcs for n in arc if n > 0})
        out[rel] = {"lines": lines, "arcs": [list(a) for a in arcs]}
    return {"root": str(root), "files": out}


def union(executions: Iterable[Any]) -> tuple[str | None, FileArcs]:
    """The stored root (the first one seen) and every arc any execution ran, per file. Items
    are `meta["code_coverage"]` records or traces holding one; others are skipped."""
    root: str | None = None
    found: FileArcs = {}
    for item in executions:
        data = item.meta.get("code_coverage") if hasattr(item, "meta") else item
        if not isinstance(data, Mapping):
            continue
        root = root or data.get("root")
        for rel, record in (data.get("files") or {}).items():
            found.setdefault(rel, set()).update(tuple(a) for a in record.get("arcs", ()))
    return root, found


def code_coverage(executions: Iterable[Any], root: Path | str | None = None) -> dict[str, Any]:
    """SC and BC over the executions: `{"root", "sc", "bc", "statements", "executed",
    "branches", "taken", "files": {rel: {same keys, "missing_lines"}}}`; a ratio is None when
    there is nothing to cover. `root` defaults to the one the executions stored (give it when
    the code has moved since)."""
    stored, found = union(executions)
    base = Path(root or stored or ".").resolve()
    files = _analyse(base, found) if found else {}
    return {"root": str(base), **_ratios(files.values()), "files": files}


def _ratios(summaries: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    rows = list(summaries)
    totals = {k: sum(r[k] for r in rows) for k in ("statements", "executed", "branches", "taken")}
    return {"sc": _ratio(totals["executed"], totals["statements"]),
            "bc": _ratio(totals["taken"], totals["branches"]), **totals}


def _ratio(part: int, whole: int) -> float | None:
    return part / whole if whole else None


def _analyse(root: Path, found: FileArcs) -> dict[str, dict[str, Any]]:
    """Per file, coverage.py's own count of statements and branches (its JSON report: the public
    form of its analysis, with multi-line statements, exclusions and pragmas handled as in any
    coverage.py report) given the arcs run. Files no longer on disk are left out."""
    import coverage

    paths = {rel: str(root / rel) for rel in sorted(found) if (root / rel).is_file()}
    if not paths:
        return {}
    cov = coverage.Coverage(data_file=None, branch=True, config_file=False)
    cov.set_option("report:ignore_errors", True)  # a file that no longer parses is left out
    cov.get_data().add_arcs({paths[rel]: found[rel] for rel in paths})
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "coverage.json")
        cov.json_report(morfs=list(paths.values()), outfile=out)
        with open(out, encoding="utf-8") as f:
            report = json.load(f)["files"]
    by_path = {os.path.realpath(os.path.join(os.getcwd(), name)): entry
               for name, entry in report.items()}  # its names are relative to the cwd
    return {rel: _summary(by_path[os.path.realpath(p)]) for rel, p in paths.items()
            if os.path.realpath(p) in by_path}


def _summary(entry: Mapping[str, Any]) -> dict[str, Any]:
    s = entry["summary"]
    return {**_ratios([{"statements": s["num_statements"], "executed": s["covered_lines"],
                        "branches": s.get("num_branches", 0),
                        "taken": s.get("covered_branches", 0)}]),
            "missing_lines": entry.get("missing_lines", [])}


__all__ = ["code_coverage", "execution_data", "target_root", "union"]
