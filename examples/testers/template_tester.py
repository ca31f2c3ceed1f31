"""A scripted *tester* policy with an airline's vocabulary: masfuzz's generic tester
(`masfuzz.generate.generic_tester`), which writes realizer requests from the objective's own
inputs, given the example values a careful airline customer would use for common parameters.

It sees what the realizer is shown: the target agent's and tool's descriptions, the tool's
parameters, the child agent for a delegation, and — when masfuzz gives it — the route of agents
from the entry point; never the system's routing code. Deterministic, so tests and demos
reproduce; use a real model (`--model local/gemma-3-270m`) for varied phrasing.

    masfuzz cover examples/customer_service/app.py:triage_agent \
        --model scripted/examples/testers/template_tester.py:policy \
        --sut-model scripted/examples/customer_service/policy.py:policy
"""

from __future__ import annotations

from masfuzz.generate import generic_tester

VALUES = {
    "confirmation_number": "ABC123", "new_seat": "14C", "seat": "14C", "country": "Japan",
    "passport": "Canadian", "question": "how much baggage can I bring", "query": "baggage rules",
    "city": "Lisbon", "date": "2026-12-01", "email": "ana@example.com", "name": "Ana",
}

policy = generic_tester.tester(VALUES)


def write(objective: dict) -> str:
    """The request this tester writes for one witness objective (for policies built on it)."""
    return generic_tester.write(objective, VALUES)
