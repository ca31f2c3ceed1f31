"""What the documentation says, used: the examples and formats it gives each argument are sent
first (priors.doc_priors, generate.documented_calls), and an example it gives with its answer is
checked against the tool (correctness.check_examples)."""

from __future__ import annotations

from pathlib import Path

from masfuzz.loader import load_target
from masfuzz.toolfuzz.correctness import check_examples, documented_examples
from masfuzz.toolfuzz.fuzzer import fuzz_tool
from masfuzz.toolfuzz.priors import doc_priors
from masfuzz.toolfuzz.sandbox import CallOutcome
from masfuzz.toolfuzz.tools import from_callable

HERE = Path(__file__).resolve().parent


def _tool(name):
    return from_callable(load_target(f"{HERE / 'finding_tools.py'}:{name}").obj)


def test_the_documentation_gives_each_argument_its_examples_and_formats():
    tool = _tool("dial")
    assert doc_priors(tool.description, tool.schema)["number"].constants == {"+44 20 7946 0958"}
    days = _tool("days_between")  # a format stated for no argument in particular is each one's
    found = doc_priors(days.description, days.schema)
    assert found["start"].date_formats == found["end"].date_formats == {"%d/%m/%Y"}


def test_a_tool_refusing_its_own_documented_example_is_found_in_a_tiny_budget():
    result = fuzz_tool(_tool("dial"), calls=4, seed=0)
    (error,) = result.unique.values()  # its other refusals are documented rejections
    assert error.arguments["number"] == "+44 20 7946 0958"


class _Calls:
    def __init__(self, tool):
        self.fn = load_target(f"{HERE / 'finding_tools.py'}:{tool.name}").obj

    def call(self, arguments):
        return CallOutcome("ok", result=self.fn(**arguments))


def test_a_documented_example_answered_otherwise_is_a_correctness_error():
    tool = _tool("trail_km")
    assert documented_examples(tool) == [('trail_km("Kungsleden")', {"trail": "Kungsleden"}, "Kungsleden: 440 km")]
    (check,) = check_examples(tool, _Calls(tool))
    assert not check.agrees and check.got == "Kungsleden: 273 km"


def test_a_doctest_is_an_example_and_other_calls_are_not():
    def repeat(text: str, times: int = 1) -> str:
        """Repeat a text.

        >>> repeat("ab", times=2)
        'abab'
        >>> print("not the tool")
        not the tool
        """
        return text * times

    tool = from_callable(repeat)
    assert documented_examples(tool) == [('repeat("ab", times=2)', {"text": "ab", "times": 2}, "abab")]
    (check,) = check_examples(tool, type("C", (), {"call": staticmethod(
        lambda a: CallOutcome("ok", result=repeat(**a)))})())
    assert check.agrees


def test_a_number_is_sent_each_value_its_documentation_names():
    from masfuzz.toolfuzz.generate import documented_calls

    def list_page(page: int = 1, page_size: int = 3) -> str:
        """List bookings.

        page: which page, from 1.
        page_size: bookings per page, 0 to 1,000; 0 puts them all on one page.
        """
        return ""

    tool = from_callable(list_page)
    calls = documented_calls(tool.schema, doc_priors(tool.description, tool.schema), {"page": 2})
    assert {"page": 2, "page_size": 0} in calls and {"page": 2, "page_size": 1000} in calls
    assert {"page": 1} in calls  # "from 1"


def test_a_number_documentation_gives_its_range_and_refusing_clauses_do_not():
    from masfuzz.toolfuzz.priors import Range, doc_range

    assert doc_range("the starting hour, 8 to 17 (office hours).") == Range(8, 17)
    assert doc_range("between 1900 and 2100") == Range(1900, 2100)
    assert doc_range("more than 0 and at most 30; another weight raises ValueError") == Range(0, 30, low_open=True)
    assert doc_range("how many years, any number from 0 up") == Range(0, None)
    assert doc_range("0 to 1,000,000; more raise ValueError") == Range(0, 1_000_000)
    # a clause saying what is refused names no range taken
    assert doc_range("a weight more than 30 raises ValueError") is None
    assert doc_range("the yearly rate in percent") is None


def test_every_number_at_the_top_of_its_range_at_once_is_sent():
    """An overflow that needs two arguments large together ((1 + rate) ** years) is met in the
    first calls, whatever the seed: the documented maximum of the rate with a large number of
    years (no upper bound documented), not only one argument at its edge at a time."""
    from masfuzz.toolfuzz.generate import top_corners
    from masfuzz.toolfuzz.priors import doc_ranges

    tool = _tool("compound")
    corners = top_corners(tool.schema, doc_ranges(tool.description, tool.schema), {})
    assert {"principal": 1e6, "rate_percent": 100.0, "years": 10**6} in corners
    assert all(c["rate_percent"] == 100.0 for c in corners)  # documented: never past it
    for seed in (0, 1, 2):
        found = fuzz_tool(tool, calls=8, seed=seed)
        assert {k.error_type for k in found.unique} >= {"OverflowError"}


def test_an_arguments_own_format_outranks_a_format_the_summary_states():
    def shipping_label_date(when: str, depot: str) -> str:
        """Formats a despatch day the way the courier's labels print it: MM/DD/YYYY.

        when: the despatch day as YYYY-MM-DD; anything else is refused with ValueError.
        depot: the depot code.
        """
        return when

    def stamp(on: str) -> str:
        """Prints a day as DD.MM.YYYY for the franking machine.

        on: the day, YYYY-MM-DD.
        """
        return on

    def open_hours(day: str) -> str:
        """Opening hours of the branch. Days are written DD/MM/YYYY."""
        return day

    for fn, arg in ((shipping_label_date, "when"), (stamp, "on")):
        tool = from_callable(fn)
        assert doc_priors(tool.description, tool.schema)[arg].date_formats == {"%Y-%m-%d"}, fn.__name__
    # a format stated only in the summary is still the argument's when it states none of its own
    tool = from_callable(open_hours)
    assert doc_priors(tool.description, tool.schema)["day"].date_formats == {"%d/%m/%Y"}
