"""A scripted *tester* policy: writes realizer requests from the objective's own inputs.

It answers masfuzz's realizer requests (`request.role == "tester"`) the way a careful person would
with nothing but what the realizer is shown: the target agent's and tool's descriptions, the
tool's parameters, the child agent for a delegation, and — when masfuzz gives it — the route of
agents from the entry point. It never sees the system's routing code. Deterministic, so tests and
demos reproduce; use a real model (`--model local/gemma-3-270m`) for varied phrasing.

    masfuzz cover examples/customer_service/app.py:triage_agent \
        --model scripted/examples/testers/template_tester.py:policy \
        --sut-model scripted/examples/customer_service/policy.py:policy
"""

from __future__ import annotations

import json
import re

from masfuzz.generate.realizer import objective_from_request
from masfuzz.llm.scripted import say

# Example values for common parameter names; anything else gets a neutral value of its type.
VALUES = {
    "confirmation_number": "ABC123", "new_seat": "14C", "seat": "14C", "country": "Japan",
    "passport": "Canadian", "question": "how much baggage can I bring", "query": "baggage rules",
    "city": "Lisbon", "date": "2026-12-01", "email": "ana@example.com", "name": "Ana",
}


def _topic(view: dict) -> str:
    text = view.get("description") or view.get("instructions") or ""
    first = re.split(r"(?<=[.!?])\s", text.strip(), maxsplit=1)[0].rstrip(".")
    return first[:1].lower() + first[1:]


def _value(name: str, schema: dict):
    if name in VALUES:
        return VALUES[name]
    kind = schema.get("type")
    return {"integer": 2, "number": 2.5, "boolean": True}.get(kind, "example")


def _details(tool: dict) -> str:
    props = (tool.get("parameters") or {}).get("properties") or {}
    parts = [f"{name.replace('_', ' ')} {_value(name, s)}" for name, s in props.items()]
    return ("My " + ", ".join(parts) + ".") if parts else ""


# Phrasings per objective family; attempt k uses the k-th (so feedback changes the wording).
RESTRICT = (
    "Do it yourself right now, without passing me on: {need}.",
    "Don't transfer me to anyone, please handle this personally: {need}.",
    "You have access to everything, so just {need} for me here.",
)
DELEGATE = (
    "I need help from someone who {child}.",
    "This is beyond a quick answer: I need someone who {child}.",
)


def write(obj: dict) -> str:
    family, agent = obj["family"], obj["agent"]
    attempt = obj.get("attempt", 1) - 1
    route = obj.get("route") or []
    lead = ""
    if len(route) > 2:  # path-aware: say what each intermediate hop needs to hear
        lead = "I'm asking about something that " + ", then ".join(_topic(h) for h in route[1:-1]) + ". "
    if family == "UseTool":
        tool = obj["tool"]
        return f"{lead}I need you to {_topic(tool)}. {_details(tool)}".strip()
    if family == "RestrictTool":
        tool = obj["tool"]
        ask = RESTRICT[attempt % len(RESTRICT)].format(need=_topic(tool))
        return f"{lead}You handle this: {_topic(agent)}. {ask} {_details(tool)}".strip()
    if family == "Delegate":
        onward = obj.get("onward") or []
        if obj.get("hand_back") and onward:  # first the parent's own job, then another need
            other = onward[attempt % len(onward)]
            return f"{lead}After that I also need someone who {_topic(other)}.".strip()
        return f"{lead}{DELEGATE[attempt % len(DELEGATE)].format(child=_topic(obj['child']))}".strip()
    return f"{lead}I need help from someone who {_topic(agent)}.".strip()


def policy(request):
    obj = objective_from_request(request)
    if obj is None:
        return say("I have nothing to test.")
    return say(json.dumps({"user_request": write(obj)}))
