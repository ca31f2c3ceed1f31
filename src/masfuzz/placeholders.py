"""Placeholder arguments: the plainest values a tool's JSON schema accepts.

The control check's probe model (`masfuzz.control.probe`) calls every tool it is offered with
them, and the Agents SDK adapter runs a handoff's input hook on them (its placeholder input):
both want to see where a tool's code reaches, not to test it. Here, below both, so the adapter
does not import the check.
"""

from __future__ import annotations

import re
from typing import Any


def placeholders(schema: dict[str, Any], defs: dict[str, Any] | None = None, depth: int = 0) -> dict[str, Any]:
    """Arguments a tool's JSON schema accepts, made of the plainest values: the probe is to
    see where a tool's code reaches, not to test it. An object inside is filled the same way
    (the Agents SDK wraps a dataclass answer as `{"response": {...}}`: `{}` failed it), and an
    array holds as many plain items as it must."""
    defs = {**(defs or {}), **(schema.get("$defs") or {}), **(schema.get("definitions") or {})}
    props = schema.get("properties") or {}
    return {name: _placeholder(name, _resolved(props.get(name) or {}, defs), defs, depth)
            for name in schema.get("required") or list(props)}


def placeholder_value(schema: dict[str, Any]) -> Any:
    """The plainest value of any JSON schema: an object's placeholders, or a plain string,
    number, list... (an answer typed `str`, as an ADK agent's `output_schema=str` asks)."""
    if schema.get("type", "object") == "object" or "properties" in schema:
        return placeholders(schema)
    return _placeholder("", schema, {**(schema.get("$defs") or {})})


def _placeholder(name: str, prop: dict[str, Any], defs: dict[str, Any], depth: int = 0) -> Any:
    plain = {"string": "masfuzz check", "integer": 1, "number": 1, "null": None}
    kind = prop.get("type")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), "string")
    if "enum" in prop and prop["enum"]:
        return prop["enum"][0]
    if "const" in prop:
        return prop["const"]
    if kind == "boolean":
        return _lets_through(name, prop)
    if depth > 6:  # a schema that refers to itself: stop with the plainest value
        return {} if kind == "object" else [] if kind == "array" else plain.get(kind or "string", "masfuzz check")
    if kind == "object" or (kind is None and "properties" in prop):
        return placeholders(prop, defs, depth + 1)
    if kind == "array":
        item = _resolved(prop.get("items") or {}, defs)
        return [_placeholder(name, item, defs, depth + 1) for _ in range(int(prop.get("minItems") or 0))]
    return plain.get(kind or "string", "masfuzz check")


# What a check's boolean says when the input may go on: a guardrail agent's verdict (the airline
# demo's `is_relevant`, `is_safe`; the SDK examples' `is_homework`, `is_math_homework`) trips
# the wire on one value, and a probe that trips every guardrail reaches no agent behind them.
# A flag named for something good is true, one named for something bad (or anything else) false.
_GOOD = {"relevant", "safe", "valid", "allowed", "appropriate", "ok", "okay", "approved", "passed",
         "pass", "acceptable", "permitted", "compliant", "legitimate", "benign", "success",
         "successful", "correct", "complete", "on"}
_BAD = {"unsafe", "irrelevant", "invalid", "jailbreak", "harmful", "malicious", "toxic", "offensive",
        "violation", "violates", "blocked", "forbidden", "inappropriate", "injection", "attack",
        "abuse", "abusive", "off", "not", "no", "homework", "spam", "sensitive", "pii", "risky",
        "flagged", "triggered", "tripwire", "unrelated", "disallowed"}
_WORD = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])")


def _lets_through(name: str, prop: dict[str, Any]) -> bool:
    """A boolean answer that lets a check pass, from the field's name (its description when the
    name says nothing either way): `is_relevant`, `is_safe` true; `is_jailbreak`, `is_homework`
    false; a flag that says neither false, the plainest value."""
    for text in (name, prop.get("description") or ""):
        words = {w.lower() for w in _WORD.findall(text)}
        if words & _BAD:
            return False
        if words & _GOOD:
            return True
    return False


def _resolved(prop: dict[str, Any], defs: dict[str, Any]) -> dict[str, Any]:
    """A property as its definition: a `$ref` into the schema's `$defs` (pydantic's enums and
    models), or the first branch of an `anyOf`/`oneOf` that is not null (an `Optional`)."""
    for _ in range(8):  # a reference to a reference, not a cycle
        ref = prop.get("$ref")
        branches = [b for b in prop.get("anyOf") or prop.get("oneOf") or [] if b.get("type") != "null"]
        if isinstance(ref, str) and ref.rsplit("/", 1)[-1] in defs:
            prop = defs[ref.rsplit("/", 1)[-1]]
        elif branches and "type" not in prop:
            prop = branches[0]
        else:
            break
    return prop
