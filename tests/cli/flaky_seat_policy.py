"""The customer-service policy, except that on every other run (an odd execution nonce, which
masfuzz sends as the request's seed) the seat booking agent forgets to call `update_seat`."""

from __future__ import annotations

from pathlib import Path

from masfuzz.llm.scripted import say
from masfuzz.loader import load_target

_EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "customer_service" / "policy.py"
careful = load_target(f"{_EXAMPLE}:policy").obj


def policy(request):
    if request.agent == "seat_booking_agent" and (request.seed or 0) % 2 == 1:
        return say("Your seat is changed.")  # without calling the tool
    return careful(request)
