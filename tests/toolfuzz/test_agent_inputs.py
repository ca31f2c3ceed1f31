"""Input an agent really sends, drawn in the first calls (generate.documented_calls,
generate.written_numbers), and the documentation's refusals read for what they cover
(rejections._library_refusal, rejections.documented_refusal): a number written with a currency
sign or a decimal point, two documented values together, a documented date-and-time form, a JSON
example taken whole; a library's refusal of what the documentation says is refused is a
rejection, its refusal of a number as people write it is not, and a crash on one argument is not
excused by another's refusing clause."""

from __future__ import annotations

import inspect
from pathlib import Path

from masfuzz.loader import load_target
from masfuzz.toolfuzz.fuzzer import fuzz_tool
from masfuzz.toolfuzz.generate import documented_calls, draw, written_numbers
from masfuzz.toolfuzz.priors import doc_priors, static_priors
from masfuzz.toolfuzz.rejections import documented_refusal, documented_rejection
from masfuzz.toolfuzz.sandbox import CallOutcome
from masfuzz.toolfuzz.tools import from_callable

HERE = Path(__file__).resolve().parent


def _fn(name):
    return load_target(f"{HERE / 'agent_input_tools.py'}:{name}").obj


def _tool(name):
    return from_callable(_fn(name))


def _failed_at(name, marker, message, error_type="ValueError", below=()):
    """The outcome of a call that failed at the line of `marker` in the tool's code (and, below
    it, in `below`'s frames: a library's)."""
    fn = _fn(name)
    lines, first = inspect.getsourcelines(fn)
    line = first + next(i for i, text in enumerate(lines) if marker in text)
    return CallOutcome("error", error_type=error_type, message=message,
                       frames=[(inspect.getsourcefile(fn), line, name), *below])


def test_a_number_the_code_casts_is_sent_as_people_write_one():
    tool = _tool("unit_cost")
    code = static_priors(_fn("unit_cost"), ["shelf_price", "units"])
    calls = documented_calls(tool.schema, doc_priors(tool.description, tool.schema), {"shelf_price": "a", "units": 3},
                             code=code)
    sent = {c["shelf_price"] for c in calls}
    assert {"2.5", "1,250.00", "$1,250.00"} <= sent
    drawn = draw(written_numbers(), 40, 1)
    assert any(not t.replace(".", "").isdigit() for t in drawn) and any("," in t for t in drawn)


def test_a_price_with_its_sign_is_found_and_text_without_one_is_a_rejection():
    found = fuzz_tool(_tool("unit_cost"), calls=10, seed=0)
    (error,) = found.unique.values()
    assert error.key.error_type == "ValueError" and any(ch.isdigit() for ch in error.arguments["shelf_price"])
    fixed = fuzz_tool(_tool("unit_cost_fixed"), calls=10, seed=0)
    assert not fixed.unique


def test_a_library_refusal_is_a_rejection_of_what_the_documentation_refuses_only():
    tool = _tool("servings")
    refused = lambda text: _failed_at("servings", "int(grams)", f"invalid literal for int() with base 10: {text!r}")  # noqa: E731
    assert documented_rejection(tool, refused("a bag"), {"grams": "a bag"})  # not a weight: documented
    assert not documented_rejection(tool, refused("412.5"), {"grams": "412.5"})  # a weight int() cannot read
    assert not documented_rejection(tool, refused("1,200"), {"grams": "1,200"})
    # a message that quotes no input: the library refused something the tool built, not the agent's
    assert not documented_rejection(tool, _failed_at("servings", "int(grams)", "invalid literal"), {"grams": "x"})
    # a date parser refusing another form is what "any other form raises" says; the documented form is not
    slot = _tool("delivery_slot")
    strptime = [("/usr/lib/python3/_strptime.py", 555, "_strptime")]
    other = _failed_at("delivery_slot", "strptime", "time data '2024/06/03' does not match format '%d.%m.%Y'",
                       below=strptime)
    assert documented_rejection(slot, other, {"slot": "2024/06/03"})
    documented = _failed_at("delivery_slot", "strptime", "time data '03.06.2024 10:15' does not match format",
                            below=strptime)
    assert not documented_rejection(slot, documented, {"slot": "03.06.2024 10:15"})


def test_two_documented_values_are_sent_together():
    tool = _tool("shift_hours")
    calls = documented_calls(tool.schema, doc_priors(tool.description, tool.schema), {"clock_in": "a", "clock_out": "b"})
    assert calls[0] == {"clock_in": "2024-06-01T09:00:00+01:00", "clock_out": "2024-06-01T17:30:00"}
    found = fuzz_tool(tool, calls=4, seed=0)
    assert "TypeError" in {k.error_type for k in found.unique}
    assert "TypeError" not in {k.error_type for k in fuzz_tool(_tool("shift_hours_fixed"), calls=4, seed=0).unique}


def test_a_documented_date_and_time_form_is_sent_and_other_forms_are_rejections():
    found = fuzz_tool(_tool("delivery_slot"), calls=8, seed=0)
    (error,) = found.unique.values()
    assert "unconverted data remains" in error.message and " " in error.arguments["slot"].strip()
    assert found.handled  # the non-dates, refused as documented


def test_a_json_example_is_one_value_and_its_inner_words_are_not():
    tool = _tool("count_leaves")
    constants = doc_priors(tool.description, tool.schema)["tree_json"].constants
    assert constants == {'{"left": ["x", "y"], "right": {"z": 1}}'}
    raised = _failed_at("count_leaves", "raise ValueError", "tree_json must be a JSON object")
    assert documented_rejection(tool, raised, {"tree_json": "x"})  # "x" is inside the example, no value of it


def test_a_crash_on_one_argument_is_not_excused_by_anothers_refusing_clause():
    def stock_level(item: str, aisle: int = 1) -> str:
        """Units of an item on a shop's shelves.

        item: the item's code, e.g. "SKU-100"; a code the shop does not stock answers "not stocked".
        aisle: which aisle, 1 to 9; another aisle raises ValueError.
        """
        return ""

    tool = from_callable(stock_level)
    crash = "Error executing tool stock_level"
    assert not documented_refusal(tool, crash, {"item": "bread", "aisle": 4})  # aisle documented: item crashed
    assert documented_refusal(tool, crash, {"item": "bread", "aisle": 12})  # the aisle refused, as documented
    assert documented_refusal(tool, "aisle must be 1 to 9", {"item": "SKU-100", "aisle": 0})


class _Calls:
    def __init__(self, name):
        self.fn = _fn(name)

    def call(self, arguments):
        return CallOutcome("ok", result=self.fn(**arguments))


def test_a_date_format_the_summary_promises_is_checked_on_a_day_past_the_twelfth():
    from masfuzz.toolfuzz.correctness import check_examples, reads_in

    (wrong,) = check_examples(_tool("stamp_date"), _Calls("stamp_date"))
    assert wrong.arguments == {"paid_on": "2024-03-25", "till": "B"} and not wrong.agrees
    assert "03.25.2024" in wrong.got and wrong.to_dict()["documented"] == "dates written DD.MM.YYYY"
    (right,) = check_examples(_tool("stamp_date_fixed"), _Calls("stamp_date_fixed"))
    assert right.agrees
    assert reads_in("no date here", "%d/%m/%Y") and not reads_in("due 12/31/2024", "%d/%m/%Y")
