"""The customer-service desk's scripted model with a chained misbehaviour: coverage that only
stacked configuration mutations reach (three agents' settings changed at once).

The input asks both a question and a seat change, so every run passes through all three agents
(triage, FAQ, back to triage, seat booking). Each agent misbehaves at one temperature, and only
once the conversation shows the misbehaviour before it, as a model that follows bad examples in
its context does:

1. a triage agent at 1.2 tries `update_seat` itself (it does not own it: a restricted edge);
2. an FAQ agent at 0.4 that sees one such refused call tries `update_seat` too;
3. a seat booking agent at 0.8 that sees two refused seat changes reaches for `faq_lookup_tool`.

A mutant changes one agent's setting, so the third edge needs a mutant of a mutant of a mutant.
"""

import importlib.util
from pathlib import Path

from masfuzz.llm.scripted import call

_spec = importlib.util.spec_from_file_location(
    "cs_policy", Path(__file__).resolve().parents[2] / "examples" / "customer_service" / "policy.py")
_cs = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_cs)

SEAT_CHANGE = {"confirmation_number": "ABC123", "new_seat": "14C"}


def _refused(request, tool: str) -> int:
    """How many calls of `tool` the conversation shows refused (an agent that does not own it)."""
    return sum(1 for r in _cs.tool_results(request, tool) if r.content.startswith("Refused"))


def policy(request):
    offered = {t.name for t in request.tools}
    t, agent = request.temperature, request.agent
    if agent == "triage_agent" and t == 1.2 and "update_seat" in offered \
            and not _refused(request, "update_seat"):
        return call("update_seat", **SEAT_CHANGE)
    if agent == "faq_agent" and t == 0.4 and "update_seat" in offered \
            and _refused(request, "update_seat") == 1:
        return call("update_seat", **SEAT_CHANGE)
    if agent == "seat_booking_agent" and t == 0.8 and "faq_lookup_tool" in offered \
            and _refused(request, "update_seat") >= 2 and not _refused(request, "faq_lookup_tool"):
        return call("faq_lookup_tool", question="seat map")
    return _cs.policy(request)
