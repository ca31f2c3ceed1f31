"""The code blocks of README.md and docs/*.md stay true.

Every fenced block names its language, and the language says how the block is checked:

- ```bash (or sh): every line is a command (a trailing `\\` continues it, `  # ...` is a
  comment). A masfuzz command line (`masfuzz ...`, or a path ending in `/masfuzz`) parses with
  the options it shows and resolves as the command would (a line holding a `[...]` placeholder
  is only checked to be masfuzz's); `make T` names a target of the Makefile; `pip install`
  names extras that pyproject.toml declares; `python FILE` names a file of the repository and
  `python -m MODULE` an importable module; `cd` and `export` set up the lines after them. Any
  other program fails the test: give it a check here, or show the block as ```text.
- ```console: the lines starting with `$ ` are commands, checked as in bash; the others are
  their output, shown and not checked.
- ```python: runs, in a temporary folder that holds the examples (each block in a namespace of
  its own); the `test_*` functions a block defines are called.
- ```toml: parses, and its `[tool.masfuzz]` settings resolve for the commands it names.
- ```yaml, ```json: parse.
- ```text: not run (output, synopses, diagrams, commands that need a key or another machine).
"""

import json
import re
import shlex
import tomllib
from importlib.util import find_spec
from pathlib import Path

import pytest
import yaml

from masfuzz.cli import COMMANDS, build_parser
from masfuzz.options import resolve

from tests.conftest import ROOT

PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
BLOCKS = [(page.relative_to(ROOT).as_posix(), lang, body) for page in PAGES
          for lang, body in re.findall(r"^```(\S*)\n(.*?)^```", page.read_text(), re.S | re.M)]
LANGUAGES = {"bash", "sh", "console", "python", "toml", "yaml", "json", "text"}
SET_UP = {"cd", "export"}


def _lines(lang: str, body: str):
    for line in body.replace("\\\n", " ").splitlines():
        if lang == "console":
            if not line.startswith("$ "):
                continue
            line = line[2:]
        line = line.split("  #")[0].strip()
        if line and not line.startswith("#"):
            yield line


COMMAND_LINES = [(page, line) for page, lang, body in BLOCKS if lang in ("bash", "sh", "console")
                 for line in _lines(lang, body)]


def test_every_block_names_a_language_that_is_checked():
    unknown = [(page, lang or "(none)") for page, lang, _ in BLOCKS if lang not in LANGUAGES]
    assert not unknown, f"fenced blocks without a checked language: {unknown}"


def _makefile_targets() -> set[str]:
    return set(re.findall(r"^([\w-]+):", (ROOT / "Makefile").read_text(), re.M))


def _extras() -> set[str]:
    return set(tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"])


@pytest.mark.parametrize("page,line", COMMAND_LINES)
def test_command_lines_run_as_written(page, line):
    argv = shlex.split(line)
    program = argv[0]
    if program == "masfuzz" or program.endswith("/masfuzz"):
        assert len(argv) > 1 and argv[1] in COMMANDS, f"{page}: not a masfuzz command: {line}"
        if "[" in line:
            return  # a synopsis with optional parts
        args = argv[1:]
        ns = build_parser(args[0]).parse_args(args)
        resolve(args[0], ns, env={}, project={})
    elif program == "make":
        missing = set(argv[1:]) - _makefile_targets()
        assert not missing, f"{page}: no such make target {missing}: {line}"
    elif program == "pip":
        assert argv[1] == "install", f"{page}: {line}"
        for extras in re.findall(r"\[([\w,-]+)\]", line):
            unknown = set(extras.split(",")) - _extras()
            assert not unknown, f"{page}: pyproject.toml has no extra {unknown}: {line}"
    elif program == "python":
        if argv[1] == "-m":
            assert find_spec(argv[2]) is not None, f"{page}: no module {argv[2]}: {line}"
        else:
            assert (ROOT / argv[1]).is_file(), f"{page}: no file {argv[1]}: {line}"
    else:
        assert program in SET_UP, (f"{page}: `{program}` is not checked by this test: check it "
                                   f"here, or show the block as ```text: {line}")


def test_python_blocks_run(tmp_path, monkeypatch):
    (tmp_path / "examples").symlink_to(ROOT / "examples")
    monkeypatch.chdir(tmp_path)
    blocks = [(page, body) for page, lang, body in BLOCKS if lang == "python"]
    assert len(blocks) >= 3
    tests = []
    for page, body in blocks:
        namespace = {"__name__": "docs"}
        exec(compile(body, page, "exec"), namespace)
        tests += [f for name, f in namespace.items() if name.startswith("test_") and callable(f)]
    assert (tmp_path / ".masfuzz" / "api-runs.db").exists()  # the Python API's example ran
    assert tests  # the trace-assertion example is a test: it passes as written
    for test in tests:
        test()


def test_toml_blocks_configure(tmp_path, monkeypatch):
    blocks = [body for _, lang, body in BLOCKS if lang == "toml"]
    assert blocks
    monkeypatch.chdir(tmp_path)
    for body in blocks:
        settings = tomllib.loads(body)["tool"]["masfuzz"]
        (tmp_path / "pyproject.toml").write_text(body)
        for command in [c for c in settings if c in COMMANDS] or ["cover"]:
            resolve(command, build_parser(command).parse_args([command, "t.py:x"]), env={})
    [configuration] = [body for page, lang, body in BLOCKS if page == "docs/configuration.md"
                       and lang == "toml"]
    (tmp_path / "pyproject.toml").write_text(configuration)
    ns = resolve("cover", build_parser("cover").parse_args(["cover", "t.py:x"]), env={})
    assert ns.attempts == 3 and ns.criteria == ("C1", "C2", "C4") and ns.model_timeout == 60.0


def test_yaml_and_json_blocks_parse():
    for page, lang, body in BLOCKS:
        if lang == "yaml":
            yaml.safe_load(body)
        elif lang == "json":
            json.loads(body)


def test_the_scripted_policy_block_drives_the_desk_as_written(tmp_path, monkeypatch, cli):
    """The models page's policy, saved as policy.py, run with the command the page gives."""
    [body] = [body for _, lang, body in BLOCKS if lang == "python" and "def policy(request)" in body]
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


def test_readme_is_a_short_start():
    """The README is what a newcomer reads first: the set-up's two commands first, then a tour,
    under 250 lines; the reference lives in docs/."""
    readme = (ROOT / "README.md").read_text()
    assert len(readme.splitlines()) < 250
    first = next(body for _, lang, body in BLOCKS if lang)
    assert first.startswith("make demo") and "\nmake test" in first
    assert re.search(r"^```bash\nmake demo", readme, re.M).start() < readme.index("## A five-minute tour")
    for link in re.findall(r"\]\((docs/[^)#]+)", readme):
        assert (ROOT / link).is_file(), link
