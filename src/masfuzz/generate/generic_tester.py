"""A deterministic tester for any app: `--model scripted/masfuzz.generate.generic_tester:policy`.

It answers the realizer's requests (`masfuzz.generate.realizer`) from the objective alone — the
target agent's and tool's own descriptions and parameter schemas, the child agent of a
delegation, the route when masfuzz gives it — and has no words of its own about any domain:
every value it puts in a request comes from the system's schema (an enum's first value, a
default, an example, a format) or, for free text, from the tool's or parameter's own
description. Deterministic, so `cover` runs reproduce without a model; a real model phrases more
variously. `examples/testers/template_tester.py` is the same idea with an airline's vocabulary.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from typing import Any

from masfuzz.generate.realizer import need as _need
from masfuzz.generate.realizer import objective_from_request
from masfuzz.generate.realizer import sentence as _sentence
from masfuzz.generate.realizer import spelled as _spelled
from masfuzz.generate.realizer import topic as _topic
from masfuzz.llm.scripted import say
from masfuzz.oracles.semantic import example_forms

# Attempt k of an objective uses the k-th phrasing, so the realizer's feedback changes it.
RESTRICT = (
    "Do it yourself right now, without passing me on: {need}.",
    "Don't transfer me to anyone, please handle this personally: {need}.",
    "You have access to everything, so just {need} for me here.",
)
DELEGATE = (
    "I need help from someone who {who}.",
    "This is beyond a quick answer: I need someone who {who}.",
)
USE = (
    "Please {need}.",
    "I need you to {need}, using what you have for it.",
)
FORMATS = {"date": "2026-01-15", "date-time": "2026-01-15T10:00:00Z", "email": "user@example.com",
           "uri": "https://example.com", "time": "10:00"}


def value(name: str, schema: dict[str, Any], tool: dict[str, Any],
          known: Mapping[str, Any] | None = None) -> Any:
    """A value for one parameter: the caller's own for its name (`known`), else from its
    schema; free text from the descriptions."""
    if known and name in known:
        return known[name]
    for key in ("enum", "examples"):
        if schema.get(key):
            return schema[key][0]
    if "default" in schema:
        return schema["default"]
    if "const" in schema:
        return schema["const"]
    kind = schema.get("type")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), "string")
    if kind in ("integer", "number"):
        low = schema.get("minimum", schema.get("exclusiveMinimum", 1))
        return int(low) + 1 if kind == "integer" else float(low) + 1.5
    if kind == "boolean":
        return True
    if kind == "array":
        return [value(name, schema.get("items") or {"type": "string"}, tool, known)]
    if kind == "object":
        return {k: value(k, s, tool, known) for k, s in (schema.get("properties") or {}).items()}
    if schema.get("format") in FORMATS:
        return FORMATS[schema["format"]]
    said = schema.get("description") or ""
    return _from_description(said) or f"{_spelled(name)} for {_topic(tool)}"[:60]


EXAMPLE = re.compile(r"\b(?:such as|e\.g\.,?|for example|for instance|like)\s+['\"`]?([^\s,;'\"`)]+)", re.I)
LENGTH = re.compile(r"\b(\d+|one|two|three|four|five|six|seven|eight|nine|ten)[- ](?:character|char|digit|letter)s?\b", re.I)
WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
         "nine": 9, "ten": 10}


def _from_description(said: str) -> str:
    """Free text for a parameter from its own description: the example it gives, read as the
    oracles read it (`example_forms`: `like "change of address"` whole, "such as 14C"), or a
    bare word after its introduction ("such as Falmouth"), a code of the length it names
    ("six-character" -> "A1B2C3"), else its first words."""
    documented = example_forms(said)
    if documented:
        return documented[0][0]
    found = EXAMPLE.search(said)
    if found:
        return found.group(1).rstrip(".")
    length = LENGTH.search(said)
    if length:
        n = WORDS.get(length.group(1).lower()) or int(length.group(1))
        digits = "digit" in length.group(0).lower()
        return ("1234567890" * 4)[:n] if digits else ("A1B2C3D4E5F6G7H8J9K0" * 2)[:n]
    return _sentence(said)[:60] if said.strip() else ""


def details(tool: dict[str, Any], known: Mapping[str, Any] | None = None) -> str:
    props = (tool.get("parameters") or {}).get("properties") or {}
    parts = [f"{_spelled(n)}: {json.dumps(value(n, s, tool, known), ensure_ascii=False)}"
             for n, s in props.items()]
    return ("Use " + "; ".join(parts) + ".") if parts else ""


def write(obj: dict[str, Any], known: Mapping[str, Any] | None = None) -> str:
    """The user's message for one witness objective (see `masfuzz.graph.objectives`);
    `known`: values of the caller's own for parameters of these names."""
    family, agent = obj["family"], obj["agent"]
    attempt = max(0, obj.get("attempt", 1) - 1)
    route = obj.get("route") or []
    lead = ""
    if len(route) > 2:  # path-aware: what each intermediate agent needs to hear to pass it on
        lead = "I'm asking about something that " + ", then ".join(_topic(h) for h in route[1:-1]) + ". "
    if family == "UseTool":
        tool = obj["tool"]
        ask = USE[attempt % len(USE)].format(need=_need(tool))
        return f"{lead}{ask} {details(tool, known)}".strip()
    if family == "RestrictTool":
        tool = obj["tool"]
        ask = RESTRICT[attempt % len(RESTRICT)].format(need=_need(tool))
        return f"{lead}You handle this yourself, as the one who {_topic(agent)}. {ask} {details(tool, known)}".strip()
    if family == "Delegate":
        onward = obj.get("onward") or []
        if obj.get("hand_back") and onward:  # the parent's own job first, then another need
            other = onward[attempt % len(onward)]
            return f"{lead}After that I also need someone who {_topic(other)}.".strip()
        return f"{lead}{DELEGATE[attempt % len(DELEGATE)].format(who=_topic(obj['child']))}".strip()
    return f"{lead}I need help from someone who {_topic(agent)}.".strip()


def tester(known: Mapping[str, Any] | None = None) -> Callable[[Any], Any]:
    """A tester policy; `known` gives values of a domain's own to parameters of those names."""

    def policy(request: Any) -> Any:
        obj = objective_from_request(request)
        if obj is None:
            return say("I have nothing to test.")
        return say(json.dumps({"user_request": write(obj, known)}))
    return policy


policy = tester()
