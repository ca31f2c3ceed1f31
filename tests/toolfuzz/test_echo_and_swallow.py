"""Error keys that mask what a message echoes of the input, and the swallowed-error oracle."""

from __future__ import annotations

from pathlib import Path

from masfuzz.loader import load_target
from masfuzz.toolfuzz.fuzzer import fuzz_tool
from masfuzz.toolfuzz.grouping import normalise_message
from masfuzz.toolfuzz.swallowed import SWALLOWED_ERROR, is_default
from masfuzz.toolfuzz.tools import wrap_tool

HERE = Path(__file__).resolve().parent


def _tool(name: str):
    return wrap_tool(load_target(f"{HERE / 'finding_tools.py'}:{name}").obj)


def test_a_tool_whose_error_echoes_its_input_is_one_unique_error():
    for name in ("parse_record", "parse_items"):
        result = fuzz_tool(_tool(name), calls=60, seed=2)
        assert result.failed == 60
        assert len(result.unique) == 1, [str(k) for k in result.unique]  # not one per input


def test_masking_keeps_distinct_bugs_apart():
    same = {normalise_message("bad char U+20AC at 3", arguments={}),
            normalise_message("bad char U+1F600 at 7", arguments={})}
    assert same == {"bad char <cp> at <n>"}
    assert normalise_message("cannot parse: ", arguments={"t": ""}) == normalise_message(
        "cannot parse: abc", arguments={"t": "abc"})
    assert normalise_message("x [1, 2]", arguments={"v": [1, 2]}) == "x <arg>"
    # two messages that differ in their own words stay two errors
    assert normalise_message("no key: abc", arguments={"k": "abc"}) != normalise_message(
        "no value: abc", arguments={"k": "abc"})
    assert normalise_message("database locked", arguments={"k": "data"}) == "database locked"


def test_a_tool_that_logs_and_swallows_an_exception_is_reported():
    result = fuzz_tool(_tool("load_settings"), calls=40, seed=1)
    swallowed = [u for u in result.unique.values() if u.key.error_type == SWALLOWED_ERROR]
    assert swallowed and all(u.attribution == "sut" for u in swallowed)
    first = swallowed[0]
    assert "cannot read settings" not in first.message and "{} returned" in first.message
    assert first.key.frame.startswith("json") or "finding_tools.py" in first.key.frame
    assert result.ok >= 1  # JSON objects it can read are returned, not reported


def test_default_values():
    assert all(is_default(v) for v in (None, "", "  ", [], {}, 0, 0.0, False))
    assert not any(is_default(v) for v in ("x", [0], {"a": 1}, 1, True))
