"""Shapes another model's wording gives the same runs: the zoo run under scripted models other
than the one each system was written for (terse field replies, chatty markdown, formal tables)
showed the oracles readings they had not expected. Each test holds a realistic trace of such a
shape beside its twin that must still be read as before."""

from __future__ import annotations

import pytest

from masfuzz.oracles.detectors import tool_argument_mismatch
from masfuzz.spec.model import AgentSpec, Permissions, SystemInfo, ToolSpec, WorkflowSpec
from masfuzz.trace import AgentTurn, Message, TerminationEvent, ToolCall, ToolResult, Trace


# -- a value written as text that the framework's validation converts -----------------------------

def _lockers() -> WorkflowSpec:
    """A locker desk whose tool takes a whole number of days and a deposit in euros."""
    schema = {"type": "object", "required": ["hire_id", "days"],
              "properties": {"hire_id": {"type": "string"}, "days": {"type": "integer"},
                             "deposit": {"type": "number"}, "insured": {"type": "boolean"}}}
    return WorkflowSpec(
        system=SystemInfo(id="lockers", entry_agent="desk", pattern="handoff"),
        agents=(AgentSpec(id="desk", instructions="Extend locker hires when asked."),),
        tools=(ToolSpec(id="extend_hire", description="Extend a locker hire by some days.", parameters=schema),),
        permissions=Permissions(allow=(("desk", "extend_hire"),)))


def _extended(arguments: dict, status: str = "ok", payload: str = "Hire LK-2231 now runs to 14 June.") -> Trace:
    return Trace(scenario_id="s", events=(
        Message(role="user", content="Can you keep locker hire LK-2231 for three more days?"),
        AgentTurn(agent="desk"),
        ToolCall(agent="desk", tool="extend_hire", call_id="c1", arguments=arguments),
        ToolResult(agent="desk", tool="extend_hire", call_id="c1", status=status, payload=payload),
        Message(agent="desk", content="Done: LK-2231 runs to 14 June."),
        TerminationEvent(reason="completed", final_output="Done: LK-2231 runs to 14 June.")))


@pytest.mark.parametrize("arguments", [{"hire_id": "LK-2231", "days": "3"},
                                       {"hire_id": "LK-2231", "days": 3, "deposit": "12.50"},
                                       {"hire_id": "LK-2231", "days": 3, "insured": "true"}])
def test_a_number_written_as_text_that_the_tool_took_is_no_mismatch(arguments):
    """A model may write 3 as "3": pydantic's lax mode, which the frameworks validate tool
    arguments with, reads it as the number, and the tool answered. The call did what the model
    meant; the app has no defect in it."""
    assert tool_argument_mismatch(_extended(arguments), _lockers()) == []


def test_the_same_text_refused_or_text_no_validator_reads_as_the_type_still_breaks_the_schema():
    refused = _extended({"hire_id": "LK-2231", "days": "3"}, status="error",
                        payload="TypeError: unsupported operand type(s) for +: 'int' and 'str'")
    [f] = tool_argument_mismatch(refused, _lockers())
    assert (f.root_cause, f.evidence) == ("Tool Specification Mismatch", (2,)) and "days: not integer" in f.description
    [f] = tool_argument_mismatch(_extended({"hire_id": "LK-2231", "days": "three"}), _lockers())
    assert "days: not integer" in f.description
    [f] = tool_argument_mismatch(_extended({"hire_id": "LK-2231", "days": "2.5"}), _lockers())
    assert "days: not integer" in f.description  # no whole number: the tool got another value
    [f] = tool_argument_mismatch(_extended({"days": "3"}), _lockers())
    assert "hire_id: required" in f.description
