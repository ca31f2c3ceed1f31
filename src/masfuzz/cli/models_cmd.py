"""`masfuzz models check MODEL`: one tool-call request, to see that a model string and its
endpoint work before a campaign spends an hour on them."""

from __future__ import annotations

import argparse
import asyncio
import json

from masfuzz.options import Config, add_arguments, model_settings
from masfuzz.llm.types import ChatMessage, ChatReply, ChatRequest, ToolDef

UPDATE_SEAT = ToolDef(
    name="update_seat",
    description="Update the seat for a given confirmation number.",
    parameters={
        "type": "object",
        "properties": {
            "confirmation_number": {"type": "string", "description": "The confirmation number of the booking"},
            "new_seat": {"type": "string", "description": "The new seat, like 12A"},
        },
        "required": ["confirmation_number", "new_seat"],
        "additionalProperties": False,
    },
)

CHECK_REQUEST = ChatRequest(
    messages=(
        ChatMessage(role="system", content="You are an airline seat booking agent. Use your tools."),
        ChatMessage(role="user", content="Please move my booking ABC123 to seat 14C."),
    ),
    tools=(UPDATE_SEAT,),
    # A named tool, not "required": llama.cpp's OpenAI server answers "required" with HTTP 500.
    tool_choice="update_seat",
    temperature=0.0,
    seed=0,
    role="tester",
    agent="models-check",
)


def register(subparsers: argparse._SubParsersAction) -> None:
    models = subparsers.add_parser("models", help="check that a model string works")
    sub = models.add_subparsers(dest="models_command", metavar="ACTION")
    check = sub.add_parser("check", help="send one tool-call request and print the parsed reply")
    check.add_argument("model", metavar="MODEL", help="a model string, e.g. local/gemma-3-270m")
    add_arguments(check, "models")
    check.set_defaults(func=run_check)
    models.set_defaults(func=_no_action)


def _no_action(args: Config) -> int:
    from masfuzz.errors import MasfuzzError

    raise MasfuzzError("models: name an action: masfuzz models check MODEL")


def run_check(args: Config) -> int:
    client = model_settings(args).client(args.model, role="tester")

    async def once() -> ChatReply:
        try:
            return await client.complete(CHECK_REQUEST)
        finally:
            await client.aclose()

    reply = asyncio.run(once())
    print(f"model:    {client.model_string}")
    for call in reply.tool_calls:
        args_text = ", ".join(f"{k}={json.dumps(v)}" for k, v in call.arguments.items())
        print(f"reply:    tool call {call.name}({args_text})  [id {call.id}]")
    if reply.text:
        print(f"text:     {' '.join(reply.text.split())[:200]}")
    print(f"finish:   {reply.finish_reason}")
    print(f"latency:  {reply.latency:.2f} s" + ("  (cache hit: no model time)" if reply.cached else ""))
    print(f"usage:    {reply.usage.tokens_in} tokens in, {reply.usage.tokens_out} tokens out")
    ok = any(c.name == UPDATE_SEAT.name for c in reply.tool_calls)
    print("check:    ok, a parsed update_seat tool call" if ok else "check:    FAILED, no update_seat tool call")
    return 0 if ok else 1
