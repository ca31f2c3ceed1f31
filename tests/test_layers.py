"""The layers of docs/architecture.md hold, checked by import-linter's contracts in pyproject.toml; and the
check fails when a forbidden import is planted (so it cannot pass by accident)."""

import shutil
import subprocess
import sys
from pathlib import Path

from tests.conftest import ROOT

LINT = str(Path(sys.executable).with_name("lint-imports"))


def _lint(root: Path) -> subprocess.CompletedProcess:
    return subprocess.run([LINT, "--no-cache"], cwd=root, capture_output=True, text=True,
                          env={"PYTHONPATH": str(root / "src"), "PATH": "/usr/bin:/bin"},
                          timeout=300)


def test_the_layers_hold():
    proc = _lint(ROOT)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "BROKEN" not in proc.stdout and proc.stdout.count("KEPT") == 4


def test_a_planted_forbidden_import_breaks_the_check(tmp_path):
    shutil.copytree(ROOT / "src", tmp_path / "src", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    model = tmp_path / "src" / "masfuzz" / "spec" / "model.py"
    model.write_text(model.read_text() + "\nimport masfuzz.llm.client  # planted\n")
    proc = _lint(tmp_path)
    assert proc.returncode != 0
    assert "The core (spec, graph, coverage, oracles, store, report, traces) imports no" in proc.stdout
    assert "masfuzz.spec.model -> masfuzz.llm.client" in proc.stdout
