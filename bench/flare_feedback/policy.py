"""The customer-service desk's scripted model, except that some agents misbehave at one sampling
temperature each: they call a tool they do not own (offered to them as a refusing probe stub).
Four restricted edges, each opened only by the temperature-scaling operator (alone or joint)
drawing the right value for the right agent: the fixture on which coverage feedback should pay.
A model-family switch leads to the same desk (the pool's second string is this policy again)."""

import importlib.util
from pathlib import Path

from masfuzz.llm.scripted import call

_spec = importlib.util.spec_from_file_location(
    "cs_policy", Path(__file__).resolve().parents[2] / "examples" / "customer_service" / "policy.py")
_cs = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_cs)

# (agent, temperature) -> the tool it reaches for that it does not own
MISBEHAVIOUR = {
    ("triage_agent", 0.4): ("faq_lookup_tool", {"question": "baggage"}),
    ("triage_agent", 1.2): ("update_seat", {"confirmation_number": "ABC123", "new_seat": "14C"}),
    ("faq_agent", 0.8): ("update_seat", {"confirmation_number": "ABC123", "new_seat": "2A"}),
    ("seat_booking_agent", 1.2): ("faq_lookup_tool", {"question": "seat map"}),
}


def policy(request):
    wrong = MISBEHAVIOUR.get((request.agent, request.temperature))
    if wrong and wrong[0] in {t.name for t in request.tools} \
            and not _cs.tool_results(request, wrong[0]):
        return call(wrong[0], **wrong[1])
    return _cs.policy(request)
