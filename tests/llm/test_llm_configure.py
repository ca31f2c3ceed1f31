"""Process-wide client settings reach clients built elsewhere (the adapters' SUT clients)."""

import asyncio

from masfuzz.llm import ChatMessage, ChatRequest, ResponseCache
from masfuzz.llm.client import configure, get_client

from tests.conftest import ROOT

POLICY = "scripted/" + str(ROOT / "tests" / "llm" / "seat_policy.py") + ":policy"


def test_configured_cache_answers_a_client_built_without_one(tmp_path):
    cache = ResponseCache(tmp_path / "c.sqlite")
    request = ChatRequest(messages=(ChatMessage(role="user", content="move me to 14C, ABC123"),))
    try:
        configure(cache=cache, timeout=30)
        first = asyncio.run(get_client(POLICY).complete(request))
        again = asyncio.run(get_client(POLICY).complete(request))  # a new client, as adapters make
    finally:
        configure()
    assert not first.cached and again.cached and again.text == first.text
    assert again.tool_calls == first.tool_calls
    configure()
    assert not asyncio.run(get_client(POLICY).complete(request)).cached  # settings cleared
