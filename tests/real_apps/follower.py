"""A generic instruction-following scripted model for public apps masfuzz did not write.

Used for docs/real-apps.md's runs as `--sut-model scripted/$MASFUZZ/tests/real_apps/follower.py:policy`:
no key, no network, and no bug seeded. It routes and calls from what the app itself says: the latest user request is matched, by
content words, against the offered tools' names and descriptions (hand-off descriptions
included) and the agent's own instructions; the best-matching function tool is called with
arguments read from the request (asking the user for one it cannot find), the best-matching
hand-off taken once; a tool's result is reported; a speaker selector picks the participant whose
description shares most words with the request; a typed answer gets its schema's plainest value.
An agent whose instructions speak of delegating, handing off or routing hands off first; a tool
its instructions never speak of is not called (an offered `--restricted probe` stub included,
unless its words are in the instructions). It is a word matcher, not a model: what it gets wrong
is the model's error, and masfuzz's findings say so where the app's spec points the right way.
"""
from __future__ import annotations

import json
import re

from masfuzz.control import probe
from masfuzz.llm.scripted import call, say

STOP = set("the a an and or to of for in on at is are be my me i you your it this that with can "
           "please want would like do does help about from by as any all some what how when who "
           "agent agents tool tools transfer handoff hand off use question questions user".split())


def words(text: str) -> set[str]:
    out = set()
    for w in re.findall(r"[a-z]+", (text or "").lower().replace("_", " ")):
        if w in STOP or len(w) < 3:
            continue
        out.add(re.sub(r"(?:ing|ed|es|s)$", "", w) if len(w) > 5 else w.rstrip("s"))
    return out


def _user(request) -> str:
    for m in reversed(request.messages):
        if m.role == "user" and (m.content or "").strip():
            return m.content
    return ""


def _since_user(request):
    out = []
    for m in reversed(request.messages):
        if m.role == "user":
            break
        out.append(m)
    return out[::-1]


def _hands(name: str, request) -> bool:
    return name.startswith("transfer_") or any(t.name == name and t.handoff_to for t in request.tools)


def _argument(name: str, schema: dict, text: str):
    kind = schema.get("type")
    if kind in ("integer", "number"):
        n = re.search(r"-?\d+(?:\.\d+)?", text)
        return (int(float(n.group())) if kind == "integer" else float(n.group())) if n else None
    if kind == "boolean":
        return True
    if "enum" in schema:
        return schema["enum"][0]
    if kind == "array":
        return []
    low = name.lower()
    pats = [r"\b\d{1,2}[A-F]\b"] if "seat" in low else []
    pats += [r"\b[A-Z]{2,3}-?\d{2,6}\b", r"\b[A-Z0-9]{6}\b"] if any(
        k in low for k in ("number", "id", "code", "confirmation", "flight")) else []
    pats += [r"https?://\S+"] if "url" in low else []
    for p in pats:
        m = re.search(p, text)
        if m:
            return m.group()
    if any(k in low for k in ("question", "query", "text", "topic", "task", "request", "message",
                              "input", "content", "prompt", "description")):
        return text
    return None


def policy(request):
    text = _user(request)
    recent = _since_user(request)
    sys_text = "\n".join(m.content or "" for m in request.messages if m.role == "system")
    if request.response_schema or (not request.tools and re.search(r"\[('[\w .-]+'(?:, '[\w .-]+')+)\]",
                                                                    "\n".join(m.content or "" for m in request.messages))):
        return probe(request)  # a typed answer or a speaker selection
    asked = words(text)
    used = {c.name for m in request.messages for c in m.tool_calls}
    recent_used = {c.name for m in recent for c in m.tool_calls}
    handoffs = {c.id for m in recent for c in m.tool_calls if _hands(c.name, request)}
    results = [m for m in recent if m.role == "tool" and m.tool_call_id not in handoffs]
    done = " TERMINATE" if "TERMINATE" in sys_text else ""
    if results:
        return say(f"Here is what I found: {(results[-1].content or '')[:300]}{done}")
    best, score = None, 0
    delegating = re.search(r"\b(?:delegat|hand|handoff|transfer|route|routing|triag|direct)", sys_text, re.I)
    tools = list(request.tools)
    if delegating:  # the agent's instructions say it passes work on: hand-offs first
        tools.sort(key=lambda t: not (t.handoff_to or t.name.startswith("transfer_")))
    for t in tools:
        if t.name in recent_used or (t.handoff_to or t.name.startswith("transfer_")) and t.name in used:
            continue
        s = len(asked & words(f"{t.name} {t.description}"))
        if s and not (t.handoff_to or t.name.startswith("transfer_")) and not (
                words(t.name) & words(sys_text) or t.name in sys_text):
            continue  # a tool its instructions never speak of: not its own to call
        if s > score and not (delegating and best is not None and (best.handoff_to or best.name.startswith("transfer_"))):
            best, score = t, s
    if best is None:
        return say("Happy to help: could you tell me more about what you need?")
    if best.handoff_to or best.name.startswith("transfer_"):
        return call(best.name)
    props = (best.parameters or {}).get("properties") or {}
    args, missing = {}, []
    for name, schema in props.items():
        v = _argument(name, schema if isinstance(schema, dict) else {}, text)
        if v is None:
            if name in ((best.parameters or {}).get("required") or ()):
                missing.append(name)
        else:
            args[name] = v
    if missing:
        to_user = next((t for t in request.tools if t.name in ("transfer_to_user", "handoff_to_user")), None)
        if to_user is not None:  # its instructions: ask, then hand off to the user
            return call(to_user.name)
        return say(f"To do that I need your {', '.join(m.replace('_', ' ') for m in missing)}.")
    return call(best.name, **args)
