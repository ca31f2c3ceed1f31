"""The customer-service policy with a sloppy seat booking agent: its first call of `update_seat`
leaves out the required confirmation number (a tool specification mismatch). Its triage agent,
told to do it itself, calls `update_seat` itself, and when refused (a `--restricted probe` stub)
asks again, three calls in all (a restricted call, and a loop the probe's refusals made)."""

from __future__ import annotations

from pathlib import Path

from masfuzz.llm.scripted import call, last_user_text, tool_results
from masfuzz.loader import load_target

_EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "customer_service" / "policy.py"
careful = load_target(f"{_EXAMPLE}:policy").obj
TRIES = 3


def policy(request):
    if request.agent == "seat_booking_agent" and not tool_results(request, "update_seat"):
        return call("update_seat", new_seat="14C")
    refused = [r for r in tool_results(request, "update_seat") if r.content.startswith("Refused")]
    if request.agent == "triage_agent" and refused and len(refused) < TRIES \
            and "do it yourself" in last_user_text(request).lower():
        [*_, last] = [c for m in request.messages for c in m.tool_calls if c.name == "update_seat"]
        return call("update_seat", **last.arguments)  # the same call again
    return careful(request)
