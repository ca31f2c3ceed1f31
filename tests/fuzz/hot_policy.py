"""The customer-service desk's scripted model, except that a hot triage agent (temperature 0.8
or more) does the seat change itself: a configuration mutation that exposes a restricted call."""

import importlib.util
from pathlib import Path

from masfuzz.llm.scripted import call

_spec = importlib.util.spec_from_file_location(
    "cs_policy", Path(__file__).resolve().parents[2] / "examples" / "customer_service" / "policy.py")
_cs = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_cs)


def policy(request):
    hot = request.temperature is not None and request.temperature >= 0.8
    offered = {t.name for t in request.tools}
    if hot and request.agent == "triage_agent" and "update_seat" in offered \
            and not _cs.tool_results(request, "update_seat"):
        return call("update_seat", confirmation_number="ABC123", new_seat="14C")
    return _cs.policy(request)
