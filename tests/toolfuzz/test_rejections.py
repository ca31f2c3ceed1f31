"""Documented rejections (toolfuzz/rejections.py): a tool raising, by its own `raise`, the
exception its documentation says it raises for input it does not take is its error handling;
the same exception undocumented, raised by a library call, or raised on the documentation's own
example stays a finding."""

from __future__ import annotations

import inspect

import pytest
from pathlib import Path

from masfuzz.loader import load_target
from masfuzz.toolfuzz.fuzzer import fuzz_tool
from masfuzz.toolfuzz.rejections import documented_rejection
from masfuzz.toolfuzz.sandbox import CallOutcome
from masfuzz.toolfuzz.tools import from_callable

HERE = Path(__file__).resolve().parent


def _tool(name):
    return from_callable(load_target(f"{HERE / 'finding_tools.py'}:{name}").obj)


def _raised_at(tool, marker, arguments, message="refused"):
    """The outcome of a call that raised ValueError at the line of `marker` in the tool's code."""
    fn = load_target(f"{HERE / 'finding_tools.py'}:{tool.name}").obj
    lines, first = inspect.getsourcelines(fn)
    line = first + next(i for i, text in enumerate(lines) if marker in text)
    return CallOutcome("error", error_type="ValueError", message=message,
                       frames=[(inspect.getsourcefile(fn), line, tool.name)])


def test_a_documented_raise_is_a_rejection_and_the_undocumented_one_is_not():
    assert documented_rejection(_tool("book_slot"), _raised_at(_tool("book_slot"), "raise ValueError", {}),
                                {"hour": 99})
    quiet = _tool("book_slot_quietly")
    assert not documented_rejection(quiet, _raised_at(quiet, "raise ValueError", {}), {"hour": 99})


def test_a_library_refusing_what_the_tool_never_checked_is_no_rejection():
    tool = _tool("parse_amount")
    assert not documented_rejection(tool, _raised_at(tool, "float(amount)", {}), {"amount": "1,250.00"})


def test_a_raise_spread_over_lines_counts_but_not_on_the_documented_example():
    tool = _tool("dial")
    outcome = _raised_at(tool, 'f"not a phone number', {})  # the line inside the raise
    assert documented_rejection(tool, outcome, {"number": "12ab"})
    example = _raised_at(tool, 'f"not a phone number', {}, "not a phone number: '+44 20 7946 0958'")
    assert not documented_rejection(tool, example, {"number": "+44 20 7946 0958"})
    # the example in another argument than the one refused does not make it a bug
    assert documented_rejection(tool, outcome, {"number": "+44 20 7946 0958"})


def test_fuzzing_shows_documented_rejections_as_error_handling_and_keeps_the_rest():
    documented = fuzz_tool(_tool("book_slot"), calls=12, seed=0)
    assert not documented.unique
    assert any(h.message.startswith("ValueError: hour must be") for h in documented.handled.values())
    quiet = fuzz_tool(_tool("book_slot_quietly"), calls=12, seed=0)
    assert {k.error_type for k in quiet.unique} == {"ValueError"}


def test_arguments_reach_the_code_as_its_framework_validates_them():
    import pydantic

    from masfuzz.toolfuzz.tools import as_declared

    quote = load_target(f"{HERE / 'finding_tools.py'}:quote").obj
    tool = from_callable(quote)
    # a JSON object becomes the declared model, as every framework hands it over
    assert tool.invoke({"cover": {"value": 2}, "tracks": ["a"]}) == "2.0 ['a'] "
    assert tool.call_function({"cover": {"value": 2}, "tracks": ["a"], "note": "n"}) == "2.0 ['a'] n"
    # what the declared types refuse is refused in masfuzz's frame: the framework's refusal
    with pytest.raises(pydantic.ValidationError):
        as_declared(quote, {"cover": {"value": 2}, "tracks": [["a"]]})
    taint = type("T", (str,), {})("x")
    assert as_declared(quote, {"cover": {"value": 1}, "tracks": [], "note": taint})["note"] is taint
