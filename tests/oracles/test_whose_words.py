"""Whose words a message is (`masfuzz.trace.said_by_user`, `received_text`), end to end on real
frameworks with scripted models: what the user said is the user's messages alone, not text
that reaches an agent in the user's role from someone else; what an agent received is all of
it.

- AG2 `initiate_chats`: a later chat opens with the app's own message and the carry-over AG2
  appends (the earlier chats' summaries). Neither is the user's; the next chat's agent received
  both. The zoo's framer (examples/zoo/ag2_frame_mount_order.py) cuts the mount to the size the
  bench measured, carried over, not to the customer's guess: no fact was lost (its fixed twin),
  and the seeded twin keeps its speaking-order finding.
- LangGraph: a node's `HumanMessage` is the node's words. A reference only it wrote is no fact
  the user gave, so an agent asking for one lost nothing the user said.
"""

from __future__ import annotations

import asyncio
import json

import pytest

from masfuzz.exec import InProcessExecutor
from masfuzz.oracles.semantic import handover_facts
from masfuzz.scenario import Scenario
from masfuzz.trace import ChatStart, DelegationEvent, Message, received_text, said_by_user, user_text, users_words

POLICY = "scripted/examples/zoo/policy.py:policy"
FRAMER = "examples/zoo/ag2_frame_mount_order.py"
ARTWORK = ("Hi, I dropped off my grandmother's watercolour of Whitby harbour yesterday - order fr-318. It's "
           "roughly 40 x 50 cm. I'd like an ivory mount and the oak 20 frame we talked about. Any idea when "
           "it'll be ready? Thanks, Helen Mabey")
DESK = "tests/oracles/whose_words_app.py:desk"


def _run(target: str, text: str, model: str):
    ex = InProcessExecutor()
    trace = asyncio.run(ex.run(target, Scenario(input=text, sut_model=model)))
    return ex.load(target).spec, trace


@pytest.mark.usefixtures("in_repo")
def test_an_ag2_carry_over_is_what_the_next_chat_received_not_what_the_user_said(cli):
    pytest.importorskip("autogen.agentchat")
    spec, trace = _run(f"{FRAMER}:fixed", ARTWORK, POLICY)
    assert [m.content for _, m in users_words(trace)] == [ARTWORK]
    carried = [m for m in trace.of_type(Message) if m.source == "carryover"]
    assert carried and "41 x 52 cm" in carried[0].content and "41 x 52 cm" not in user_text(trace)
    opened = [m for m in trace.of_type(Message) if m.source == "app"]
    assert [m.content for m in opened] == ["Next step for this order, please."]
    assert not any(said_by_user(m) for m in (*carried, *opened))
    second = trace.events.index(trace.of_type(ChatStart)[1])
    assert "41 x 52 cm" in received_text(trace, "cutter_m", second)
    # the measured size reached the cutter with the hand-over: no fact the user gave was lost
    assert handover_facts(trace, spec) == []
    for twin, found in (("fixed", []), ("seeded", ["instructed_order"])):
        code, out, err = cli("exec", f"{FRAMER}:{twin}", "--input", ARTWORK, "--sut-model", POLICY,
                             "--executor", "inprocess", "--no-cache", "--format", "json", "--failures")
        assert code in (0, 1), err
        assert [f["detector"] for f in json.loads(out)["failures"] if f["attribution"] == "sut"] == found


@pytest.mark.usefixtures("in_repo")
def test_a_langgraph_nodes_human_message_gives_no_fact_of_the_users():
    pytest.importorskip("langgraph")
    spec, trace = _run(DESK, "Hi, I think I was charged twice last month, can you help?",
                       "scripted/tests/oracles/whose_words_app.py:policy")
    note = next(m for m in trace.of_type(Message) if m.role == "user" and m.agent == "notes")
    assert "CN-48213" in note.content and not said_by_user(note)
    assert "CN-48213" not in user_text(trace)
    hand = next(i for i, e in enumerate(trace.events) if isinstance(e, DelegationEvent) and e.to == "billing")
    assert "CN-48213" in received_text(trace, "billing", hand - 1)
    # billing asks for a reference the caller never gave: nothing of the user's was lost
    assert handover_facts(trace, spec) == []
