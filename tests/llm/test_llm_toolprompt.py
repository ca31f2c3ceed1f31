"""How a small local model is asked for tool calls and how its answer is checked (no model)."""

import pytest

from llmkit import UPDATE_SEAT
from masfuzz.llm import ChatMessage, ChatRequest, ToolCallRequest, ToolDef
from masfuzz.llm import toolprompt as tp

PYDANTIC_STYLE = ToolDef(
    name="book",
    parameters={
        "type": "object",
        "properties": {"passenger": {"$ref": "#/$defs/Passenger"}, "nights": {"type": "integer", "minimum": 1, "maximum": 3}},
        "required": ["passenger", "nights"],
        "$defs": {"Passenger": {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}},
    },
)


def test_one_branch_per_tool_with_hoisted_defs_and_bounded_integers():
    schema = tp.choice_schema((UPDATE_SEAT, PYDANTIC_STYLE), "reply")
    names = [b["properties"]["tool"]["const"] for b in schema["anyOf"]]
    assert names == ["update_seat", "book", "reply"]
    book_args = schema["anyOf"][1]["properties"]["arguments"]
    assert book_args["properties"]["passenger"] == {"$ref": "#/$defs/book__Passenger"}
    assert book_args["properties"]["nights"] == {"enum": [1, 2, 3]}
    assert "book__Passenger" in schema["$defs"]


def test_the_grammar_compiles_in_llama_cpp():
    llama_cpp = pytest.importorskip("llama_cpp")
    import json

    schema = tp.choice_schema((UPDATE_SEAT, PYDANTIC_STYLE), "reply")
    assert llama_cpp.LlamaGrammar.from_json_schema(json.dumps(schema), verbose=False) is not None


def test_answer_is_validated_against_the_offered_tools_and_their_schemas():
    tools = (UPDATE_SEAT,)
    said, call = tp.parse_choice('{"tool": "update_seat", "arguments": {"confirmation_number": "A", "new_seat": "1A"}}', tools, None)
    assert said is None and call == ToolCallRequest(name="update_seat", arguments={"confirmation_number": "A", "new_seat": "1A"})
    assert tp.parse_choice('{"tool": "reply", "arguments": {"text": "line\nbreak"}}', tools, "reply") == ("line\nbreak", None)
    for bad, why in [
        ('{"tool": "update_seat", "arguments": {"new_seat": "1A"}}', "'confirmation_number' is a required property"),
        ('{"tool": "delete_all", "arguments": {}}', "'delete_all' is not an offered tool"),
        ('{"tool": "update_seat", "arguments": {"confirmation_number": "A", "new_s', "not JSON"),
        ('{"tool": "reply", "arguments": {"text": "hi"}}', "'reply' is not an offered tool"),
    ]:
        with pytest.raises(tp.InvalidOutput, match=why):
            tp.parse_choice(bad, tools, None)


def test_words_allowed_only_with_auto_and_a_tool_result_in_front():
    ask = ChatRequest(messages=(ChatMessage(role="user", content="x"),), tools=(UPDATE_SEAT,))
    after = ask.model_copy(update={"messages": ask.messages + (
        ChatMessage(role="assistant", tool_calls=(ToolCallRequest(id="c", name="update_seat"),)),
        ChatMessage(role="tool", tool_call_id="c", content="ok"))})
    assert not tp.may_reply(ask)
    assert tp.may_reply(after)
    assert not tp.may_reply(after.model_copy(update={"tool_choice": "required"}))
    # handed over by another agent: the handoff's result is no work done for the user yet
    handed = ask.model_copy(update={"messages": ask.messages + (
        ChatMessage(role="assistant", tool_calls=(ToolCallRequest(id="h", name="transfer_to_seat_agent"),)),
        ChatMessage(role="tool", tool_call_id="h", content='{"assistant": "Seat Agent"}'))})
    assert not tp.may_reply(handed)
    # handed back after the work was done: the result is in front of it, it may answer
    back = after.model_copy(update={"messages": after.messages + handed.messages[1:]})
    assert tp.may_reply(back)
    # a handoff the adapter marked, whatever its name
    marked = ToolDef(name="route", handoff_to="seat_agent")
    routed = ask.model_copy(update={"tools": (UPDATE_SEAT, marked), "messages": ask.messages + (
        ChatMessage(role="assistant", tool_calls=(ToolCallRequest(id="r", name="route"),)),
        ChatMessage(role="tool", tool_call_id="r", content="ok"))})
    assert not tp.may_reply(routed)
    named = ask.model_copy(update={"tools": (UPDATE_SEAT, PYDANTIC_STYLE), "tool_choice": "book"})
    assert tp.allowed_tools(named) == (PYDANTIC_STYLE,)
    assert tp.reply_name((ToolDef(name="reply"),)) == "reply_to_user"


def test_prompt_carries_system_text_tools_and_conversation():
    req = ChatRequest(
        messages=(ChatMessage(role="system", content="You book seats."), ChatMessage(role="user", content="ABC123 to 2B")),
        tools=(UPDATE_SEAT,),
    )
    prompt = tp.tool_prompt(req, req.tools, None)
    assert prompt.startswith("You book seats.")
    assert "- update_seat(confirmation_number: string, new_seat: string): Update the seat" in prompt
    assert prompt.endswith("User: ABC123 to 2B\nAnswer:")
    assert "REPLY" not in prompt and "Result of" not in prompt


def test_gemma_turns_fold_system_text_into_the_first_user_turn():
    req = ChatRequest(messages=(
        ChatMessage(role="system", content="Be brief."),
        ChatMessage(role="user", content="hi"),
        ChatMessage(role="assistant", tool_calls=(ToolCallRequest(id="c", name="t", arguments={"a": 1}),)),
        ChatMessage(role="tool", name="t", tool_call_id="c", content="42"),
        ChatMessage(role="user", content="thanks"),
    ))
    assert tp.text_messages(req, fold_system=True) == [
        {"role": "user", "content": "Be brief.\n\nhi"},
        {"role": "assistant", "content": '{"tool": "t", "arguments": {"a": 1}}'},
        {"role": "user", "content": "Result of t: 42\n\nthanks"},
    ]
    assert tp.text_messages(req, fold_system=False)[0] == {"role": "system", "content": "Be brief."}


def test_a_long_conversation_is_cut_to_the_context_keeping_the_task_and_the_latest_turns():
    from masfuzz.llm.local import TEMPLATE_TOKENS, fit_context

    turns = [ChatMessage(role="system", content="You book seats."),
             ChatMessage(role="user", content="Move booking ABC123 to seat 14C.")]
    for i in range(40):
        turns += [ChatMessage(role="assistant", content=f"step {i}: " + "let me check " * 20),
                  ChatMessage(role="tool", content=f"result {i}: " + "x" * (300 if i != 7 else 1_000_000))]
    request = ChatRequest(messages=tuple(turns))

    def count(r):  # tokens as a model might count them: one per four characters
        return sum(len(m.content or "") for m in r.messages) // 4

    room = 1000
    fitted = fit_context(request, count, room)
    assert count(fitted) <= room - TEMPLATE_TOKENS
    kept = [m.content for m in fitted.messages]
    assert kept[:2] == ["You book seats.", "Move booking ABC123 to seat 14C."]  # the task
    assert kept[-1] == turns[-1].content and kept[-2] == turns[-2].content  # the latest turns
    assert all(len(k) < 20_000 for k in kept)  # a 1 MB tool result cut before anything is counted
    short = ChatRequest(messages=tuple(turns[:4]))
    assert fit_context(short, count, 4096) == short


def test_free_strings_are_bounded_in_the_grammar_only():
    schema = tp.choice_schema((UPDATE_SEAT, PYDANTIC_STYLE), "reply")
    seat_args = schema["anyOf"][0]["properties"]["arguments"]["properties"]
    assert {p["maxLength"] for p in seat_args.values()} == {tp.ARGUMENT_CHARS}
    assert schema["$defs"]["book__Passenger"]["properties"]["name"]["maxLength"] == tp.ARGUMENT_CHARS
    assert schema["anyOf"][2]["properties"]["arguments"]["properties"]["text"]["maxLength"] == tp.REPLY_CHARS
    kept = {"type": "object", "properties": {"code": {"type": "string", "pattern": "^[A-Z]{6}$"},
                                             "kind": {"type": "string", "enum": ["a", "b"]},
                                             "note": {"type": "string", "maxLength": 9}}}
    assert tp.bounded_strings(kept) == kept
    assert "maxLength" not in str(UPDATE_SEAT.parameters)  # the tool's own schema, as validated
    long = '{"tool": "update_seat", "arguments": {"confirmation_number": "%s", "new_seat": "1A"}}' % ("A" * 500)
    assert tp.parse_choice(long, (UPDATE_SEAT,), None)[1].arguments["confirmation_number"] == "A" * 500
