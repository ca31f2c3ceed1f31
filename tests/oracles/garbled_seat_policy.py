"""The customer-service policy with a seat booking agent whose model garbles its one tool call,
in one of two ways the phrase in the customer's message picks: "garbled" writes the arguments as
text that is not JSON (what a small model does; the wire format keeps it as `_raw_arguments`),
"wrong" writes JSON that misses a required argument (the model's mistake, in the protocol)."""

from __future__ import annotations

from pathlib import Path

from masfuzz.llm.scripted import call, last_user_text, tool_results
from masfuzz.loader import load_target
from masfuzz.ownwords import RAW_ARGUMENTS

_EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "customer_service" / "policy.py"
careful = load_target(f"{_EXAMPLE}:policy").obj


def policy(request):
    text = last_user_text(request)
    if request.agent == "seat_booking_agent" and not tool_results(request, "update_seat"):
        if "garbled" in text:
            return call("update_seat", **{RAW_ARGUMENTS: "confirmation ABC123 -> seat 14C"})
        if "wrong" in text:
            return call("update_seat", new_seat="14C")
    return careful(request)
