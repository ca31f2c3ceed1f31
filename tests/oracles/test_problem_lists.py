"""A validator's list of what is wrong with a request (`{"booking": null, "violations": [{"field":
...}]}`), with no exception, no failure word and no `ok` flag, is the tool refusing the request:
a format rejection when the argument it names followed the tool's documented format
(`tool_doc_mismatch`), and a failure a claim of the action done contradicts (`claimed_outcome`).
A finder's or a checker's list of issues is the thing it found, no failure; a list of problems
about the request's content (a date out of the season) is no format rejection."""

from __future__ import annotations

import pytest

from masfuzz.oracles.semantic import claimed_outcome, tool_doc_mismatch
from masfuzz.oracles.wording import payload_failure
from masfuzz.spec.model import AgentSpec, Permissions, SystemInfo, ToolSpec, WorkflowSpec
from masfuzz.trace import AgentTurn, Message, TerminationEvent, ToolCall, ToolResult, Trace

HIRE = WorkflowSpec(
    system=SystemInfo(id="hire", entry_agent="yard"), agents=(AgentSpec(id="yard"),),
    tools=(ToolSpec(id="book_trailer", description="Book a trailer for a day of hire.", parameters={
        "type": "object", "required": ["depot", "hire_day"], "properties": {
            "depot": {"type": "string", "description": 'The depot code, e.g. "DP-000"'},
            "hire_day": {"type": "string", "description": "The day of hire, DD.MM.YYYY"}}}),),
    permissions=Permissions(allow=(("yard", "book_trailer"),)))
ARGS = {"depot": "DP-417", "hire_day": "03.09.2026"}


def _run(payload: str, reply: str, arguments: dict | None = None) -> Trace:
    return Trace(scenario_id="s", events=(
        Message(role="user", content="A box trailer from depot DP-417 on 03.09.2026, please."),
        AgentTurn(agent="yard"),
        ToolCall(agent="yard", tool="book_trailer", call_id="t", arguments=arguments or ARGS),
        ToolResult(agent="yard", tool="book_trailer", call_id="t", payload=payload),
        Message(agent="yard", content=reply), TerminationEvent(reason="completed", final_output=reply)))


@pytest.mark.parametrize("payload", [
    '{"booking": null, "violations": [{"field": "hire_day", "rule": "pattern", "hint": "datum"}]}',
    "{'trailer': None, 'problems': [{'param': 'hire_day', 'code': 'unparseable'}]}",
    '{"result": null, "validation_errors": {"hire_day": ["Ungültiges Datum"]}}',
])
def test_a_list_of_problems_naming_the_documented_argument_is_a_format_rejection(payload):
    [f] = tool_doc_mismatch(_run(payload, "I couldn't book that trailer, sorry."), HIRE)
    assert (f.root_cause, f.agent, f.elements) == ("Tool Specification Mismatch", None,
                                                   ("yard", "book_trailer", "hire_day"))


def test_the_same_list_is_a_failure_a_claim_contradicts():
    payload = '{"booking": null, "violations": [{"field": "hire_day", "rule": "pattern"}]}'
    [f] = claimed_outcome(_run(payload, "Your trailer is booked for the 3rd of September."), HIRE)
    assert f.subject == "book_trailer"


@pytest.mark.parametrize("payload, arguments", [
    # the problem is the request's content: the depot is shut that week
    ('{"booking": null, "problems": [{"field": "hire_day", "why": "depot closed for maintenance"}]}', None),
    # the argument was off its documented format
    ('{"booking": null, "problems": [{"field": "hire_day", "code": "unparseable"}]}',
     {**ARGS, "hire_day": "2026-09-03"}),
    # an empty list is no problem
    ('{"booking": {"ref": "TR-88"}, "problems": []}', None),
])
def test_a_content_problem_an_undocumented_value_or_no_problem_is_no_mismatch(payload, arguments):
    assert tool_doc_mismatch(_run(payload, "Booked.", arguments), HIRE) == []


@pytest.mark.parametrize("tool", ["find_tickets", "check_document", "lint_config"])
def test_a_finder_s_or_checker_s_issues_are_what_it_found(tool):
    assert payload_failure('{"issues": [{"field": "signature", "note": "missing"}]}', tool) is None
