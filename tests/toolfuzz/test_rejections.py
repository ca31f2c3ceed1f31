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


def test_the_input_refused_decides_whether_a_documented_raise_is_a_bug():
    """A raise under "raises ValueError" is a rejection only of input the documentation does not
    say is valid: the arguments the message names (by name or by quoting their value) are all
    documented valid (an example, a number in its range, a date in its format) -> a bug."""
    room = _tool("book_room")
    refused = lambda hour: _raised_at(room, "raise ValueError", {}, f"hour must be 8 to 17, got {hour}")  # noqa: E731
    # the hour 0 is outside the documented 8 to 17: refused as documented, whatever the room
    assert documented_rejection(room, refused(0), {"room": "Fjord", "hour": 0})
    # the hour 17 is documented: refusing it is the off-by-one bug, though "raises ValueError"
    assert not documented_rejection(room, refused(17), {"room": "Fjord", "hour": 17})
    assert not documented_rejection(room, refused(8), {"room": "Atrium", "hour": 8})
    # a message that names no argument: all of them must be documented valid for a bug
    vague = _raised_at(room, "raise ValueError", {}, "no such booking")
    assert documented_rejection(room, vague, {"room": "Kitchen", "hour": 9})
    assert not documented_rejection(room, vague, {"room": "Fjord", "hour": 9})

    day = _tool("due_day")
    on = lambda text: _raised_at(day, "raise ValueError", {}, f"day must be YYYY-MM-DD, got {text!r}")  # noqa: E731
    assert not documented_rejection(day, on("2024-03-25"), {"day": "2024-03-25"})  # the documented format
    assert documented_rejection(day, on("25/03/2024"), {"day": "25/03/2024"})
    assert documented_rejection(day, on("2024-02-30"), {"day": "2024-02-30"})  # no such day


def test_fuzzing_finds_a_documented_value_refused_and_not_the_fixed_twin():
    found = fuzz_tool(_tool("book_room"), calls=12, seed=0)
    assert [u.arguments["hour"] for u in found.unique.values()] == [17]
    fixed = fuzz_tool(_tool("book_room_fixed"), calls=12, seed=0)
    assert not fixed.unique and fixed.handled


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


def test_a_message_stating_the_range_refused_does_not_name_an_argument_at_its_bound():
    from masfuzz.toolfuzz.rejections import refuses_documented_input

    def scale(servings_from: int, servings_to: int) -> str:
        """Scale a recipe.

        servings_from: the servings it is written for, 1 to 1000.
        servings_to: the servings wanted, 1 to 1000. A count outside 1 to 1000 raises ValueError.
        """
        return ""

    tool = from_callable(scale)
    message = "servings must be between 1 and 1000"
    # 1 is the range's bound, not the value refused: the 0 beside it is, and it is undocumented
    assert not refuses_documented_input(tool, message, {"servings_from": 1, "servings_to": 0})
    assert refuses_documented_input(tool, message, {"servings_from": 1, "servings_to": 1000})
    assert refuses_documented_input(tool, "got 12", {"servings_from": 12, "servings_to": 5000}) is True


def test_a_value_the_documentation_lists_is_valid():
    from masfuzz.toolfuzz.rejections import refuses_documented_input

    def vat(country_code: str) -> str:
        """The VAT rate of a country.

        country_code: the two-letter code, one of DE, FR, IT or NL. Any other code raises ValueError.
        """
        return ""

    tool = from_callable(vat)
    assert refuses_documented_input(tool, "no VAT rate for 'FR'", {"country_code": "FR"})
    assert not refuses_documented_input(tool, "no VAT rate for 'XX'", {"country_code": "XX"})


def test_a_value_quoted_as_refused_is_no_documented_valid_one():
    from masfuzz.toolfuzz.rejections import refuses_documented_input

    def amount(text: str) -> str:
        """Parse an amount, e.g. "12.50"; text such as "n/a" raises ValueError."""
        return ""

    tool = from_callable(amount)
    assert not refuses_documented_input(tool, "not an amount: 'n/a'", {"text": "n/a"})
    assert refuses_documented_input(tool, "not an amount: '12.50'", {"text": "12.50"})


def test_an_mcp_tools_unnamed_raise_is_a_refusal_of_input_outside_its_documentation_only():
    """An MCP tool's exception comes as the server's text, its type and code unseen: it is a
    refusal when a number refused is outside its documented range, or the documentation says
    the tool refuses input and the input is not documented valid; else the tool's bug."""
    from masfuzz.toolfuzz.rejections import documented_refusal

    def list_bookings(page: int = 1, page_size: int = 3) -> str:
        """List the bookings, a page at a time.

        page: which page, from 1.
        page_size: bookings per page, 0 to 50; 0 puts them all on one page.
        """
        return ""

    def cancel(reference: str) -> str:
        """Cancel a booking.

        reference: BK- and four digits, e.g. "BK-1003"; another form raises ValueError.
        """
        return ""

    pages, cancels = from_callable(list_bookings), from_callable(cancel)
    crash = "Error executing tool list_bookings"
    assert documented_refusal(pages, crash, {"page": 0, "page_size": 3})
    assert documented_refusal(pages, crash, {"page": 2, "page_size": 51})
    assert not documented_refusal(pages, crash, {"page": 2, "page_size": 0})  # all documented: a crash
    assert documented_refusal(cancels, "Error executing tool cancel", {"reference": "bk 12"})
    assert not documented_refusal(cancels, "Error executing tool cancel", {"reference": "BK-1003"})
