"""The README's code blocks stay true: its Python runs, its TOML configures, and every masfuzz
command line in it parses with the options it shows."""

import json
import re
import shlex
import tomllib

import pytest

from masfuzz.cli import build_parser
from masfuzz.options import resolve

from tests.conftest import ROOT

README = (ROOT / "README.md").read_text()
BLOCKS = re.findall(r"```(\w+)\n(.*?)```", README, re.S)


def _commands():
    for lang, body in BLOCKS:
        if lang not in ("bash", "console"):
            continue
        text = body.replace("\\\n", " ")
        for line in text.splitlines():
            line = line.split("  #")[0].strip().lstrip("$ ").strip()
            if line.startswith("masfuzz ") and "[" not in line:
                yield line


@pytest.mark.parametrize("line", list(_commands()))
def test_command_lines_parse(line):
    argv = shlex.split(line)[1:]
    ns = build_parser(argv[0]).parse_args(argv)
    resolve(argv[0], ns, env={}, project={})


def test_python_blocks_run(tmp_path, monkeypatch):
    (tmp_path / "examples").symlink_to(ROOT / "examples")
    monkeypatch.chdir(tmp_path)
    blocks = [body for lang, body in BLOCKS if lang == "python"]
    assert len(blocks) >= 2
    tests = []
    for body in blocks:
        namespace = {"__name__": "readme"}
        exec(compile(body, "README.md", "exec"), namespace)
        tests += [f for name, f in namespace.items() if name.startswith("test_") and callable(f)]
    assert (tmp_path / ".masfuzz" / "api-runs.db").exists()
    assert tests  # the trace-assertion example is a test: it passes as written
    for test in tests:
        test()


def test_toml_block_configures(tmp_path, monkeypatch):
    [body] = [body for lang, body in BLOCKS if lang == "toml"]
    tomllib.loads(body)
    (tmp_path / "pyproject.toml").write_text(body)
    monkeypatch.chdir(tmp_path)
    ns = resolve("cover", build_parser("cover").parse_args(["cover", "t.py:x"]), env={})
    assert ns.attempts == 3 and ns.criteria == "C1,C2,C4" and ns.model_timeout == 60.0


def test_the_scripted_policy_block_drives_the_desk_as_written(tmp_path, monkeypatch, cli):
    """The README's policy, saved as policy.py, run with the command the README gives."""
    [body] = [body for lang, body in BLOCKS if lang == "python" and "def policy(request)" in body]
    (tmp_path / "policy.py").write_text(body)
    monkeypatch.chdir(ROOT)
    code, out, err = cli("exec", "examples/customer_service/app.py:triage_agent", "--input",
                         "Move me to 14C, booking ABC123", "--sut-model",
                         f"scripted/{tmp_path / 'policy.py'}:policy", "--format", "json")
    assert code == 0, err
    events = json.loads(out)["events"]
    assert [e["to"] for e in events if e["type"] == "delegation"] == ["seat_booking_agent"]
    assert [e["tool"] for e in events if e["type"] == "tool_call"] == ["update_seat"]
    assert events[-1]["final_output"] == "Done: you are in 14C."
