"""The settings of the execution in force reach clients built elsewhere (the adapters' SUT
clients), without any process-wide configuration."""

import asyncio

from masfuzz.llm import ChatMessage, ChatRequest
from masfuzz.llm.settings import ModelSettings, current, sut_client, use

from tests.conftest import ROOT

POLICY = "scripted/" + str(ROOT / "tests" / "llm" / "seat_policy.py") + ":policy"


def test_settings_in_force_answer_a_client_the_adapters_build(tmp_path):
    settings = ModelSettings(cache=str(tmp_path / "c.sqlite"), timeout=30)
    request = ChatRequest(messages=(ChatMessage(role="user", content="move me to 14C, ABC123"),))
    with use(settings):
        first = asyncio.run(sut_client(POLICY).complete(request))
        again = asyncio.run(sut_client(POLICY).complete(request))
        assert sut_client(POLICY).timeout == 30
    assert not first.cached and again.cached and again.text == first.text
    assert again.tool_calls == first.tool_calls
    assert current() == ModelSettings()  # scoped: nothing stays configured after the run
    with use(ModelSettings(cache=None)):
        assert not asyncio.run(sut_client(POLICY).complete(request)).cached
