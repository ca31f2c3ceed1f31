"""The customer-service policy with a sloppy seat booking agent: its first call of `update_seat`
leaves out the required confirmation number (a tool specification mismatch)."""

from __future__ import annotations

from pathlib import Path

from masfuzz.llm.scripted import call, tool_results
from masfuzz.loader import load_target

_EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "customer_service" / "policy.py"
careful = load_target(f"{_EXAMPLE}:policy").obj


def policy(request):
    if request.agent == "seat_booking_agent" and not tool_results(request, "update_seat"):
        return call("update_seat", new_seat="14C")
    return careful(request)
