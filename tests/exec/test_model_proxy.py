"""The model proxy: a pool worker's model calls are made by masfuzz's own process
(`masfuzz.llm.proxy`), which answers them with its client, and a failed call fails in the worker
as it would have failed there."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest

from masfuzz.errors import MasfuzzError
from masfuzz.exec import make_executor
from masfuzz.scenario import Scenario
from masfuzz.trace import Message

APP = str(Path(__file__).parent / "fixtures" / "misbehaving_app.py") + ":desk"
POLICY = "scripted/" + str(Path(__file__).parent / "proxy_policy.py") + ":policy"


def _run(kind: str, text: str):
    async def go():
        ex = make_executor(kind, timeout=60)
        try:
            return await ex.run(APP, Scenario(input=text, sut_model=POLICY))
        finally:
            await ex.aclose()
    return asyncio.run(go())


def test_a_workers_model_calls_are_answered_by_masfuzz():
    trace = _run("pool", "hello")
    said = [e.content for e in trace.of_type(Message) if e.content and "answered in" in e.content]
    assert said == [f"answered in process {os.getpid()} for desk"], said
    assert trace.termination.reason == "completed" and trace.usage.model_calls == 1


def test_a_failed_model_call_fails_in_the_worker_as_a_direct_one_does():
    """A policy that raises is bad input, with the same message, whichever process made the call."""
    messages = []
    for kind in ("inprocess", "subprocess"):
        with pytest.raises(MasfuzzError) as raised:
            _run(kind, "FAIL now")
        messages.append(str(raised.value))
    assert messages[0] == messages[1] and "the policy raised RuntimeError: the model is down" in messages[0]
