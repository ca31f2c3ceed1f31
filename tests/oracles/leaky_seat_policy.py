"""The customer-service policy with one careless agent: after a failed `update_seat`, the seat
booking agent pastes the raw tool error into its reply (an unhandled tool execution error)."""

from __future__ import annotations

from pathlib import Path

from masfuzz.loader import load_target
from masfuzz.llm.scripted import say, tool_results

_EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "customer_service" / "policy.py"
careful = load_target(f"{_EXAMPLE}:policy").obj


def policy(request):
    if request.agent == "seat_booking_agent":
        results = tool_results(request, "update_seat")
        if results and "INJECTED" in results[-1].content:
            return say(f"The system said: {results[-1].content}")
    return careful(request)
