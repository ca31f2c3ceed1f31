"""A chat front-end that starts one framework run per customer message: the trace holds the
user's messages as they were said (each once, in order, with the agents' turns between them),
not the task as one opening message, nor again each time the app replays the history."""

from __future__ import annotations

import asyncio

import pytest

from masfuzz.exec import make_executor
from masfuzz.scenario import Scenario

from masfuzz.trace import AgentTurn, DelegationEvent, Message, ToolCall
from tests.adapters.helpers import run_scenario

pytest.importorskip("agents")
pytest.importorskip("pydantic_ai")

TASK = "Hi, booking BK-4471, please move it\nFriday works"


def conversation(trace):
    """Who spoke, in order: the user's messages by their words, the agents by their turns."""
    out = []
    for e in trace.events:
        if isinstance(e, Message) and e.role == "user":
            out.append(("user", e.content))
        elif isinstance(e, AgentTurn):
            out.append(("turn", e.agent))
        elif isinstance(e, DelegationEvent):
            out.append(("delegate", e.from_, e.to, e.trigger))
        elif isinstance(e, ToolCall):
            out.append(("call", e.agent, e.tool))
    return out


@pytest.mark.parametrize("loop", ["chat", "chat_in_session", "chat_sync", "chat_streamed"])
def test_agents_sdk_runs_one_per_message_record_each_message_once_in_order(loop):
    app = "tests/adapters/oa_session.py"
    trace = run_scenario(f"{app}:{loop}", input=TASK, sut_model=f"scripted/{app}:policy")
    assert conversation(trace) == [
        ("user", "Hi, booking BK-4471, please move it"), ("turn", "desk"),
        ("user", "Friday works"),
        # the handoff's agent starts at the top of the SDK's trace: not also a `sequence` edge
        ("delegate", "desk", "bookings", "handoff"), ("turn", "bookings"),
        ("call", "bookings", "move_booking"),
    ]
    assert trace.termination.final_output == "Moved: BK-4471 moved to Friday"


def test_pydantic_ai_runs_with_message_history_record_each_message_once_in_order():
    app = "tests/adapters/pai_session.py"
    trace = run_scenario(f"{app}:chat", input=TASK, sut_model=f"scripted/{app}:policy")
    assert conversation(trace) == [
        ("user", "Hi, booking BK-4471, please move it"), ("turn", "desk"),
        ("user", "Friday works"),
        ("delegate", "desk", "bookings", "sequence"), ("turn", "bookings"),
    ]


def test_an_agents_answer_the_app_passes_on_is_not_the_users():
    """A pipeline handing the writer's draft to the reviewer, and the reviewer's verdict back
    (`f"Revise it: {verdict}"`): the app's words, not the user's, who said the task once."""
    trace = asyncio.run(make_executor("inprocess").run("tests/adapters/pipeline_app.py:writer,reviewer", Scenario(
        input="a poem about tides", sut_model="scripted/masfuzz.control:probe")))
    assert [e.content for e in trace.of_type(Message) if e.role == "user"] == ["a poem about tides"]
    assert len(trace.of_type(DelegationEvent)) == 6
