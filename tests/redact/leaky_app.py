"""An Agents SDK desk whose tools leak secrets the way careless code does: in an exception's
text, on stderr right before the process dies, and straight to file descriptors 1 and 2; and a
plain tool for `masfuzz tools` whose errors carry a token. The scripted model calls the tool a
request names."""

from __future__ import annotations

import os
import sys

from agents import Agent, function_tool


@function_tool
def leak_error(account: str = "A1") -> str:
    """Look up an account in the billing backend."""
    raise RuntimeError(f"backend refused token {os.environ.get('SERVICE_TOKEN')} for {account}")


@function_tool
def leak_crash() -> str:
    """Refresh the session."""
    print(f"fatal: key {os.environ.get('MY_API_KEY')} rejected", file=sys.stderr, flush=True)
    os._exit(3)


@function_tool
def leak_raw() -> str:
    """Write the debug log."""
    # straight to the file descriptors, past sys.stdout and sys.stderr, as C code or a careless
    # logger does
    os.write(2, f"debug: token {os.environ.get('SERVICE_TOKEN')}\n".encode())
    os.write(1, f"debug: key {os.environ.get('MY_API_KEY')}\n".encode())
    return "logged"


desk = Agent(name="Desk", instructions="Use the tool the customer asks for.",
             tools=[leak_error, leak_crash, leak_raw])


def billing_lookup(query: str) -> str:
    """Look up a billing record by its query."""
    if not query.startswith("id:"):
        raise ValueError(f"password {os.environ.get('DB_PASSWORD')} does not open {query[:10]}")
    return "ok"


def policy(request):
    from masfuzz.llm.scripted import call, last_user_text, say, tool_results

    if tool_results(request):
        return say(f"Done: {tool_results(request)[-1].content[:200]}")
    text = last_user_text(request).lower()
    if "account" in text or "billing" in text:
        return call("leak_error", account="A1")
    if "refresh" in text or "session" in text:
        return call("leak_crash")
    if "log" in text:
        return call("leak_raw")
    return say("Which tool?")
