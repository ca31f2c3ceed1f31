"""Loading targets the way users name them."""

import sys

import pytest

from masfuzz.loader import load_target
from masfuzz.errors import TargetError


def _write(path, text):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def test_script_importing_its_project_package_by_absolute_name(tmp_path, monkeypatch):
    # The shape of the Agents SDK's examples: examples/customer_service/main.py (no __init__.py
    # beside it) does `from examples.auto_mode import ...` and is meant to run from the repo root.
    _write(tmp_path / "repo" / "projpkg" / "__init__.py", "")
    _write(tmp_path / "repo" / "projpkg" / "util.py", "VALUE = 42\n")
    _write(tmp_path / "repo" / "projpkg" / "demo" / "main.py",
           "from projpkg.util import VALUE\nanswer = VALUE\nif __name__ == '__main__':\n    raise SystemExit('ran main')\n")
    monkeypatch.setattr(sys, "path", list(sys.path))
    loaded = load_target(str(tmp_path / "repo" / "projpkg" / "demo" / "main.py") + ":answer")
    assert loaded.obj == 42


def test_missing_module_that_no_ancestor_provides_is_one_line(tmp_path, monkeypatch):
    _write(tmp_path / "app.py", "import no_such_module_anywhere\nx = 1\n")
    monkeypatch.setattr(sys, "path", list(sys.path))
    with pytest.raises(TargetError) as info:
        load_target(str(tmp_path / "app.py") + ":x")
    assert "No module named 'no_such_module_anywhere'" in str(info.value)
    assert "\n" not in str(info.value)


def test_factory_call_with_literal_arguments(tmp_path, monkeypatch):
    _write(tmp_path / "fac.py", "def build(name, n=1):\n    return f'{name}x{n}'\n")
    monkeypatch.setattr(sys, "path", list(sys.path))
    assert load_target(str(tmp_path / "fac.py") + ':build("a", n=3)').obj == "ax3"
    with pytest.raises(TargetError, match="literals"):
        load_target(str(tmp_path / "fac.py") + ":build(open)")


def test_package_init_and_submodules_it_does_not_import(tmp_path, monkeypatch):
    _write(tmp_path / "proj" / "crew" / "__init__.py", "")
    _write(tmp_path / "proj" / "crew" / "planner.py", "planner = 'the planner'\n")
    monkeypatch.setattr(sys, "path", list(sys.path))
    loaded = load_target(str(tmp_path / "proj" / "crew" / "__init__.py") + ":planner.planner")
    assert loaded.obj == "the planner"
    assert loaded.module.__name__ == "crew"  # the package itself, not a module 'crew.__init__'
    with pytest.raises(TargetError, match="no attribute 'writer.writer'"):
        load_target(str(tmp_path / "proj" / "crew" / "__init__.py") + ":writer.writer")


def test_a_notebook_cell_that_builds_its_team_and_then_runs_it_keeps_the_team(tmp_path, monkeypatch):
    # The AgentChat docs' swarm.ipynb: one cell defines `research_team` and then awaits its run;
    # a loop that awaits at top level and what follows it (reading the result) are left out.
    import json

    cells = [
        "def helper():\n    return 'tool'\n",
        "team_name = 'research'\nteam = {'name': team_name}\nresult = await run(team)\nprint(result.messages)\n",
        "while True:\n    reply = await ask()\n    break\nafter = 1\n",
        "async def later():\n    return await run(team)\nlast = team['name']\n",
    ]
    notebook = {"cells": [{"cell_type": "code", "source": c} for c in cells], "nbformat": 4}
    _write(tmp_path / "nb.ipynb", json.dumps(notebook))
    monkeypatch.setattr(sys, "path", list(sys.path))
    assert load_target(str(tmp_path / "nb.ipynb") + ":team").obj == {"name": "research"}
    assert load_target(str(tmp_path / "nb.ipynb") + ":last").obj == "research"
    with pytest.raises(TargetError, match="no attribute 'after'"):
        load_target(str(tmp_path / "nb.ipynb") + ":after")
