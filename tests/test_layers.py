"""The layers of docs/architecture.md hold, checked by import-linter's contracts in pyproject.toml;
and the check fails for a wrong-way import planted in each layer (so it cannot pass by accident:
a layer left out of the contract, or siblings not marked, would let its plant through)."""

import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

from tests.conftest import ROOT

LINT = str(Path(sys.executable).with_name("lint-imports"))
CONTRACTS = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]["contracts"]
LAYERS = [[m.strip() for m in layer.replace(":", "|").split("|")]
          for layer in next(c for c in CONTRACTS if c["type"] == "layers")["layers"]]


def _lint(root: Path) -> subprocess.CompletedProcess:
    # wide lines: a route import-linter prints is one line, whatever the terminal
    return subprocess.run([LINT, "--no-cache"], cwd=root, capture_output=True, text=True,
                          env={"PYTHONPATH": str(root / "src"), "PATH": "/usr/bin:/bin", "COLUMNS": "500"},
                          timeout=300)


def _source(package: Path, member: str) -> Path:
    folder = package / member
    return folder / "__init__.py" if folder.is_dir() else package / f"{member}.py"


def test_each_forbidden_contract_binds_every_module_but_its_owner():
    """A forbidden contract lists its sources by hand: a module left off it (or a new one) could
    import the forbidden package unseen. Every top-level module is a source but the owner."""
    package = ROOT / "src" / "masfuzz"
    modules = {p.name for p in package.iterdir() if (p / "__init__.py").exists()}
    modules |= {p.stem for p in package.glob("*.py") if p.stem != "__init__"}
    owners = {"models": {"llm"}, "frameworks": {"adapters"}, "terminal": {"cli"}}
    for contract in CONTRACTS:
        if contract["type"] == "forbidden":
            sources = {m.removeprefix("masfuzz.") for m in contract["source_modules"]}
            assert modules - sources == owners[contract["id"]], contract["name"]
    assert {m for layer in LAYERS for m in layer} == modules  # and every one has a layer


def test_the_layers_hold():
    proc = _lint(ROOT)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "BROKEN" not in proc.stdout and proc.stdout.count("KEPT") == len(CONTRACTS)


def test_a_wrong_way_import_planted_in_each_layer_breaks_the_check(tmp_path):
    shutil.copytree(ROOT / "src", tmp_path / "src", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    package = tmp_path / "src" / "masfuzz"
    plants = []  # (importer, imported): each must come back as a broken import
    for above, below in zip(LAYERS, LAYERS[1:]):
        plants.append((below[-1], above[0]))  # up one layer: the nearest wrong way
    plants += [(layer[1], layer[0]) for layer in LAYERS if len(layer) > 1]  # between siblings
    plants += [("report", "openai"), ("oracles", "langgraph"), ("campaign", "rich")]
    for importer, imported in plants:
        path = _source(package, importer)
        name = imported if imported in ("openai", "langgraph", "rich") else f"masfuzz.{imported}"
        path.write_text(path.read_text() + f"\nimport {name}  # planted\n")
    proc = _lint(tmp_path)
    assert proc.returncode != 0
    assert f"Contracts: 0 kept, {len(CONTRACTS)} broken." in proc.stdout, proc.stdout[-3000:]
    routes = {" ".join(line.split()[1:4]) for line in proc.stdout.splitlines() if line.startswith("-")}
    missed = []
    for importer, imported in plants:
        name = imported if imported in ("openai", "langgraph", "rich") else f"masfuzz.{imported}"
        if f"masfuzz.{importer} -> {name}" not in routes:
            missed.append(f"masfuzz.{importer} -> {name}")
    assert not missed, f"planted, not caught: {missed}\n{proc.stdout[-3000:]}"
