import asyncio

import pytest

from masfuzz.errors import ModelError
from masfuzz.llm import ChatMessage, ChatRequest, ToolCallRequest, ToolDef, get_client
from masfuzz.llm.scripted import ToolResult, called, tool_results

from llmkit import HERE, UPDATE_SEAT, user


def run(coro):
    return asyncio.run(coro)


def test_policy_answers_with_a_tool_call(seat_policy):
    client = get_client(seat_policy)
    reply = run(client.complete(user("Change booking ABCDEF to seat 14C please")))
    assert reply.finish_reason == "tool_calls"
    (tc,) = reply.tool_calls
    assert tc.name == "update_seat"
    assert tc.arguments == {"confirmation_number": "ABCDEF", "new_seat": "14C"}
    assert tc.id.startswith("call_")


def test_policy_sees_tool_results_and_answers(seat_policy):
    client = get_client(seat_policy)
    first = run(client.complete(user("ABCDEF to 14C")))
    tc = first.tool_calls[0]
    request = ChatRequest(
        messages=(
            ChatMessage(role="user", content="ABCDEF to 14C"),
            ChatMessage(role="assistant", tool_calls=(tc,)),
            ChatMessage(role="tool", tool_call_id=tc.id, content="seat 14C booked"),
        ),
        tools=(UPDATE_SEAT,),
    )
    assert tool_results(request) == [ToolResult("update_seat", "seat 14C booked", tc.id)]
    assert called(request, "update_seat")
    reply = run(client.complete(request))
    assert reply.text == "Done: seat 14C booked"
    assert reply.tool_calls == ()
    assert reply.finish_reason == "stop"


def test_tool_call_ids_are_deterministic_across_clients(seat_policy):
    a = run(get_client(seat_policy).complete(user("ABCDEF to 14C")))
    b = run(get_client(seat_policy).complete(user("ABCDEF to 14C")))
    c = run(get_client(seat_policy).complete(user("ABCDEF to 15D")))
    assert a.tool_calls[0].id == b.tool_calls[0].id
    assert a.tool_calls[0].id != c.tool_calls[0].id


def test_handoff_resolves_by_handoff_to_then_by_transfer_name(seat_policy):
    client = get_client(seat_policy)
    declared = ToolDef(name="go_seats", handoff_to="Seat Booking Agent")
    by_name = ToolDef(name="transfer_to_seat_booking_agent")
    for tool in (declared, by_name):
        req = ChatRequest(messages=(ChatMessage(role="user", content="x"),), tools=(tool,), agent="Triage Agent")
        reply = run(client.complete(req))
        assert [c.name for c in reply.tool_calls] == [tool.name]


def test_handoff_to_an_agent_not_offered_is_a_clear_error(seat_policy):
    client = get_client(seat_policy)
    req = ChatRequest(messages=(ChatMessage(role="user", content="x"),), tools=(UPDATE_SEAT,), agent="Triage Agent")
    with pytest.raises(ModelError, match="handoff to 'Seat Booking Agent'.*tools offered: update_seat"):
        run(client.complete(req))


def test_async_policies_and_plain_strings():
    client = get_client(f"scripted/{HERE / 'seat_policy.py'}:async_policy")
    reply = run(client.complete(user("hi")))
    assert reply.text == "hello from an async policy"
    assert reply.usage.tokens_in > 0 and reply.usage.tokens_out > 0


def test_a_policy_may_call_a_tool_it_was_not_offered():
    from masfuzz.llm.scripted import ScriptedClient, call

    client = ScriptedClient(lambda r: [call("delete_all"), call("update_seat", new_seat="1A")], "scripted/x:y")
    reply = run(client.complete(user("x")))
    assert [c.name for c in reply.tool_calls] == ["delete_all", "update_seat"]
    assert len({c.id for c in reply.tool_calls}) == 2


@pytest.mark.parametrize(
    "attr, message",
    [
        ("broken", "the policy raised ValueError: policy bug (seat_policy.py:"),
        ("returns_none", "the policy returned NoneType"),
        ("not_callable", "not a callable"),
        ("missing", "no attribute 'missing'"),
    ],
)
def test_policy_problems_are_one_line_errors_naming_the_model_string(attr, message):
    model = f"scripted/{HERE / 'seat_policy.py'}:{attr}"
    with pytest.raises(ModelError) as info:
        run(get_client(model).complete(user("x")))
    assert str(info.value).startswith(model)
    assert message in str(info.value)


def test_policy_from_a_module_path():
    client = get_client("scripted/masfuzz.llm.scripted:last_user_text")
    assert run(client.complete(user("echo me"))).text == "echo me"


def test_explicit_reply_keeps_its_ids():
    from masfuzz.llm.scripted import ScriptedClient
    from masfuzz.llm.types import ChatReply

    fixed = ChatReply(text="t", tool_calls=(ToolCallRequest(id="mine", name="update_seat"),))
    reply = run(ScriptedClient(lambda r: fixed, "scripted/x:y").complete(user("x")))
    assert reply.tool_calls[0].id == "mine" and reply.finish_reason == "tool_calls"


def test_models_check_through_scripted_then_from_the_cache(tmp_path, seat_policy, capsys):
    from masfuzz.cli import main

    argv = ["models", "check", seat_policy, "--cache", str(tmp_path / "c.sqlite")]
    assert main(argv) == 0
    first = capsys.readouterr().out
    assert 'reply:    tool call update_seat(confirmation_number="ABC123", new_seat="14C")' in first
    assert "usage:    " in first and "latency:  " in first and "cache hit" not in first
    assert main(argv) == 0
    again = capsys.readouterr().out
    assert "latency:  0.00 s  (cache hit: no model time)" in again
    assert again.splitlines()[1] == first.splitlines()[1]  # the same parsed call, same id


def test_a_call_over_its_timeout_is_a_one_line_error():
    client = get_client(f"scripted/{HERE / 'seat_policy.py'}:slow", timeout=0.1)
    with pytest.raises(ModelError, match=r"seat_policy.py:slow: no reply within 0.1 s$"):
        run(client.complete(user("x")))
    assert client.ledger.by_role["sut"].errors == 1


def test_two_policies_of_one_module_name_in_two_folders_are_each_their_own(tmp_path):
    """`a/policies/scripted.py` and `b/policies/scripted.py` (each in a package): the dotted name
    `policies.scripted` is the first one loaded, so the second was it too; each is its file."""
    for side in ("a", "b"):
        package = tmp_path / side / "policies"
        package.mkdir(parents=True)
        (package / "__init__.py").write_text("")
        (package / "scripted.py").write_text(f"def policy(request):\n    return 'from {side}'\n")
    said = [run(get_client(f"scripted/{tmp_path}/{side}/policies/scripted.py:policy").complete(user("hi"))).text
            for side in ("a", "b", "a")]
    assert said == ["from a", "from b", "from a"]
