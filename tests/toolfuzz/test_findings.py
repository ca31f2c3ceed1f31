"""What counts as a finding, and the generation parts that find them within a small budget.

A finding is a raised exception, a contract violation (a return of the wrong type) or a crash
or hang; an error message the tool returns is its error handling, kept apart, never a unique
runtime error; a correct tool that echoes, strips or slices its input is never reported."""

from __future__ import annotations

from pathlib import Path

import pytest

from masfuzz.loader import load_target

from masfuzz.report.tools import findings_of, gating_failures, tools_text
from masfuzz.toolfuzz.fuzzer import fuzz_tool
from masfuzz.toolfuzz.generate import (BOUNDARY_CLASSES, BOUNDARY_STRINGS, PARTS, allocate,
                                       boundary_strings, draw, draw_mixture)
from masfuzz.toolfuzz.sandbox import returned_error
from masfuzz.toolfuzz.session import SessionConfig, SessionReport, ToolReport, session_dict
from masfuzz.toolfuzz.runtime import RuntimeReport
from masfuzz.toolfuzz.tools import from_callable

HERE = Path(__file__).resolve().parent
BUDGET = 50


class _Tools:
    """The fixture tools of finding_tools.py, loaded as a user names them (file.py:name)."""

    def __getattr__(self, name: str):
        return load_target(f"{HERE / 'finding_tools.py'}:{name}").obj


ft = _Tools()


def _types(result):
    return {k.error_type for k in result.unique}


def test_a_nul_byte_is_generated_and_found():
    found = 0
    for seed in range(4):  # in most seeds: one seed may draw no NUL in 50 calls
        result = fuzz_tool(from_callable(ft.file_size), calls=BUDGET, seed=seed)
        errors = [u for u in result.unique.values() if u.key.error_type == "ValueError"]
        assert all("null" in e.message for e in errors)
        assert _types(result) <= {"ValueError"}  # the handled OSErrors are not findings
        found += bool(errors)
    assert found >= 3


def test_a_shell_tool_swallowing_a_nul_byte_is_found_in_the_median_seed():
    # like LangChain's ShellTool: a string or a list of strings, a NUL byte makes the program
    # fail to start, and the tool logs that and returns None against its declared str
    found = []
    for seed in range(5):
        result = fuzz_tool(from_callable(ft.run_commands), calls=BUDGET, seed=seed)
        found.append(any(k.error_type == "ContractViolation" for k in result.unique))
    assert sum(found) >= 3, found


def test_boundary_strings_draw_each_value_class_and_nul_often():
    drawn = draw(boundary_strings(), 300, seed=0)
    for name, examples in BOUNDARY_CLASSES.items():
        assert any(d in examples for d in drawn), name
    # a class is as likely as any other however many examples it lists (NUL was 3 of 60)
    assert sum("\x00" in d for d in drawn) / len(drawn) >= 0.2
    # and an edge character inside ordinary text
    assert any("\x00" in d and d.strip("\x00") and d not in BOUNDARY_STRINGS for d in drawn)


def test_values_past_float_and_digit_limits_are_drawn_in_every_seed():
    """A calculator's crash on a result past 4,300 digits, and n > 1e308 for an int argument,
    were never reached in 200 calls: now every seed reaches them."""
    import math
    import sys

    def past_digits(text: str) -> bool:  # an integer expression whose value has over 4,300 digits
        for op in ("**", "^"):
            base, _, exp = text.partition(op)
            if exp and base.lstrip("-").isdigit() and exp.isdigit():
                return abs(int(base)) > 1 and int(exp) * math.log10(abs(int(base))) > sys.get_int_max_str_digits()
        return text.lstrip("-").isdigit() and len(text.lstrip("-")) > sys.get_int_max_str_digits()

    text = {"type": "object", "properties": {"expression": {"type": "string"}}, "required": ["expression"]}
    number = {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}
    for seed in (0, 1):
        drawn = [a["expression"] for _, a in draw_mixture(text, {}, 200, seed)]
        assert any(past_digits(d) for d in drawn), seed
        # past a float: by name, as a literal, or as arithmetic (1e308*10, 1.5**14287)
        assert any(d in ("inf", "-inf", "NaN", "Infinity", "1e309", "-1e309")
                   or d.startswith(("1e308*", "1.7976931348623157e308*", "1.5**", "1.5^")) for d in drawn), seed
        assert any(abs(a["n"]) > 10**308 for _, a in draw_mixture(number, {}, 200, seed)), seed


def test_later_batches_do_not_redraw_the_simplest_arguments():
    schema = {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]}
    simplest = {p: a for p, a in draw_mixture(schema, {}, 25, seed=0)[:len(PARTS)]}
    assert all(simplest[p] in [a for q, a in draw_mixture(schema, {}, 25, seed=1) if q == p]
               for p in PARTS)  # Hypothesis draws them first whatever the seed...
    later = draw_mixture(schema, {}, 25, seed=1, skip_simplest=True)
    assert len(later) == 25 and not any(a == simplest[p] for p, a in later)  # ...unless told not to


def test_a_path_component_over_255_bytes_is_generated_and_found():
    result = fuzz_tool(from_callable(ft.make_note), calls=BUDGET, seed=0)
    assert any(k.error_type == "OSError" and "too long" in k.message for k in result.unique)


def test_nested_lists_of_objects_are_generated_and_found():
    result = fuzz_tool(from_callable(ft.count_children), calls=BUDGET, seed=0)
    assert "KeyError" in _types(result)


def test_none_where_str_is_declared_is_a_contract_violation():
    tool = from_callable(ft.lookup)
    assert tool.return_types == (str,)
    result = fuzz_tool(tool, calls=20, seed=0)
    (err,) = result.unique.values()
    assert err.key.error_type == "ContractViolation"
    assert "NoneType" in err.message and "-> str" in err.message
    assert err.key.frame.startswith("finding_tools.py:lookup")


@pytest.mark.parametrize("fn", [ft.echo, ft.strip, ft.head])
def test_a_correct_tool_that_echoes_strips_or_slices_is_never_reported(fn):
    for seed in (0, 1):
        result = fuzz_tool(from_callable(fn), calls=60, seed=seed)
        assert result.unique == {} and result.handled == {}, (result.unique, result.handled)
        assert result.ok == result.calls == 60


def test_returned_error_messages_are_their_own_section_not_runtime_errors():
    tool = from_callable(ft.file_size)
    result = fuzz_tool(tool, calls=BUDGET, seed=0)
    assert result.handled, "the missing files' messages are recorded"
    assert all(k.error_type != "ReturnedError" for k in result.unique)
    report = SessionReport(SessionConfig(calls=BUDGET), [ToolReport(tool, RuntimeReport(result, {}), 1.0)], [])
    data = session_dict(report)
    (t,) = data["tools"]
    assert t["unique_errors"] == len(result.unique) == data["totals"]["unique_errors"]
    assert t["returned_errors"] and all(r["count"] >= 1 for r in t["returned_errors"])
    assert any("No such file" in r["message"] for r in t["returned_errors"])
    text = tools_text(data)
    assert "error handling:" in text and "not counted in UE" in text
    # --fail-on sees the runtime errors only
    assert len(gating_failures(findings_of(data))) == len(result.unique)


@pytest.mark.parametrize("text", [
    "Error: no such file or directory: x", "ERROR 42", "SyntaxError: invalid syntax (<string>, line 1)",
    "SyntaxError('invalid syntax', ('<string>', 1, 1, 'x', 1, 1))", "NameError(\"name 'x' is not defined\")",
    "sqlite3.OperationalError: near \"x\": syntax error", "Traceback (most recent call last):\n  ...",
    "Exception: boom", "  KeyError: 'a'",
])
def test_the_returned_error_rule_is_the_same_for_every_style(text):
    assert returned_error(text, {"q": "x"})


@pytest.mark.parametrize("text,arguments", [
    ("Errors were not found", {}), ("The Error class", {}), ("42", {}), ("ValueError is a class", {}),
    ("Error: mine", {"text": "Error: mine"}),  # an echo of the input
    ("alueError: a", {"text": "ValueError: a"}),  # a slice of it
])
def test_text_that_is_not_a_returned_error(text, arguments):
    assert not returned_error(text, arguments)


def test_every_part_gets_its_share_and_the_mixture_is_seeded():
    counts = allocate({"schema": 4, "semantic": 3, "boundary": 3, "nested": 2}, 24)
    assert counts == {"schema": 8, "semantic": 6, "boundary": 6, "nested": 4}
    assert set(allocate({"schema": 100, "semantic": 1, "boundary": 1, "nested": 1}, 25).values()) >= {1}
    schema = {"type": "object", "properties": {"p": {"type": "string"}}, "required": ["p"]}
    a = draw_mixture(schema, {}, 25, seed=3)
    assert a == draw_mixture(schema, {}, 25, seed=3) and len(a) == 25
    assert {p for p, _ in a} == set(PARTS)


def test_a_long_input_cut_off_in_the_message_is_one_unique_error():
    from masfuzz.toolfuzz.grouping import normalise_message

    short = normalise_message("invalid number 'abc'")
    cut = normalise_message("invalid number " + repr("\x00" * 2000)[:3000])  # no closing quote
    assert short == cut == "invalid number <str>"
    assert normalise_message("don't do that") == "don't do that"


def test_a_tool_failing_on_the_run_context_masfuzz_lacks_is_not_the_tools_finding():
    """The airline demo's tools read `ctx.context.state`, the context its server passes: called
    by the tools phase with none, each failed and was blamed on the app (8 AttributeErrors)."""
    from masfuzz.toolfuzz.tools import wrap_tool

    book_seat = load_target(f"{HERE.parent / 'adapters' / 'oa_context.py'}:book_seat").obj
    result = fuzz_tool(wrap_tool(book_seat), calls=5, seed=1)
    [error] = result.unique.values()
    assert error.attribution == "harness" and "run context" in error.because
    assert result.tool_errors() == []


def test_a_tool_gets_the_run_context_a_run_reaching_its_agent_gives_it():
    """The Agents SDK's customer_service example: `update_seat` asserts the flight number the
    seat agent's handoff hook sets; called with a fresh context it failed 10 times in the tools
    phase, blamed on the app. The hooks on the way to the tool's agent run first; `--context`
    makes the context the app's server would pass."""
    from masfuzz.toolfuzz.targets import collect_tools

    app = HERE.parent / "adapters" / "oa_context.py"
    [move_seat], _ = collect_tools(load_target(f"{app}:concierge").obj)
    assert move_seat.invoke({"seat": "2A"}) == "moved to 2A on FLT-123"
    assert fuzz_tool(move_seat, calls=5, seed=1).unique == {}
    [book_seat], _ = collect_tools(load_target(f"{app}:desk").obj, context=f"{app}:session")
    assert book_seat.invoke({"seat": "3C"}) == "seat 3C booked for Ada Lovelace"


@pytest.mark.parametrize("error, message, whose", [
    ("ModuleNotFoundError", "No module named 'matplotlib'", "settings"),
    ("ValueError", "API key or Search Engine ID not found in environment variables", "settings"),
    ("RuntimeError", "OPENWEATHER_API_KEY environment variable must be set", "settings"),
    ("ValueError", "invalid key 'x' in the order", "sut"),
    ("KeyError", "'api_key'", "sut"),
])
def test_a_tool_failing_on_what_the_environment_lacks_is_the_settings(error, message, whose):
    """AutoGen's company-research notebook: `analyze_stock` imports matplotlib, which the
    environment lacked, and `google_search` reads GOOGLE_API_KEY, which the run had not: each
    failed 10 times in the tools phase, blamed on the app."""
    from masfuzz.toolfuzz.grouping import attribution
    from masfuzz.toolfuzz.sandbox import CallOutcome

    assert attribution(CallOutcome(status="error", error_type=error, message=message))[0] == whose


def test_arguments_the_frameworks_validation_refuses_before_the_tool_runs_are_not_the_tools():
    """AG2's e-commerce example: AG2 validates a tool's arguments with pydantic before calling
    it; the fuzzer's `{}` for a tool with required arguments failed there, in AG2's code, and
    was blamed on the app. The same error raised in the app's own code stays its own."""
    from masfuzz.toolfuzz.grouping import attribution
    from masfuzz.toolfuzz.sandbox import CallOutcome

    lib = "/venv/lib/python3.11/site-packages/autogen/fast_depends/core/model.py"
    refused = CallOutcome(status="error", error_type="ValidationError", message="2 validation errors",
                          frames=[(lib, 262, "_solve")])
    assert attribution(refused)[0] == "harness"
    own = CallOutcome(status="error", error_type="ValidationError", message="2 validation errors",
                      frames=[("/app/functions.py", 12, "verify"), (lib, 262, "_solve")])
    assert attribution(own)[0] == "sut"
