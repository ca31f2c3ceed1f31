"""The semantic desk's policy (`semantic_policy.py`) with a seat booking agent that asks again
for the confirmation number it was handed: "What is your confirmation number?" (it lost the fact
itself: a true Information Loss at Hand-over), or, when the customer's message says
"(doubtful)", "Could you confirm the confirmation number ABC123?" (it names the fact: the
handover_facts rule proposes a loss, and a judge that reads the question rejects it)."""

from __future__ import annotations

from pathlib import Path

from masfuzz.llm.scripted import say
from masfuzz.loader import load_target

_SEMANTIC = load_target(f"{Path(__file__).resolve().parent / 'semantic_policy.py'}:policy").obj


def policy(request):
    if request.agent != "seat_booking_agent":
        return _SEMANTIC(request)
    said = " ".join(m.content or "" for m in request.messages if m.role == "user")
    if "(doubtful)" in said:
        return say("Could you confirm the confirmation number ABC123?")
    return say("What is your confirmation number?")
