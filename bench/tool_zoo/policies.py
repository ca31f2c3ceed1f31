"""Scripted models for `masfuzz tools --correctness` on the tool zoo: a *tester* and an *agent*
that know nothing of any one tool and act on what its documentation says.

    masfuzz tools bench/tool_zoo/marine.py --correctness --calls 5 \
        --model scripted/bench/tool_zoo/policies.py:tester \
        --sut-model scripted/bench/tool_zoo/policies.py:agent

The tester works from the documentation's `Example: tool(args) -> "result"` line: its template
names each argument with a mask, its infills are synonymous renderings of the example's value
(a date in other written forms, a name in other letter cases, a number as digits and words), its
expected answer to a question is the example's result when the question asks for the example's
values (and "unknown" otherwise), and its oracle scores an answer by whether it carries the
expectation's figures. A tool with no example gets a question on the first value its
documentation quotes and no firm expectation (a tester that cannot know does not fail an answer).

The agent fills each argument from the request, as written, unless the argument's documentation
prescribes a form: a date documented as YYYY-MM-DD is rewritten so, a number documented as a
number is parsed. So synonymous requests reach a tool whose documentation names its format as
one call, and a tool whose documentation leaves it open as several.
"""

from __future__ import annotations

import ast
import json
import re
from datetime import datetime

from dateutil import parser as dateparser

from masfuzz.llm.scripted import call, last_user_text, say, tool_results

_EXAMPLE = re.compile(r"Example:\s*(\w+)\((.*?)\)\s*->\s*(\"[^\"]*\"|'[^']*')")
_DOC = re.compile(r"^You are emulating the following tool: (.*?)\nGive the tool's", re.S)
_PAIR = re.compile(r'(\w+) "([^"]*)"')
_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
          "nine": 9, "ten": 10, "twelve": 12, "twenty": 20}


def _parts(doc: str) -> tuple[str, str, dict]:
    """(name, description, schema) of a tool_doc text."""
    head, _, schema = doc.partition("\narguments (JSON schema): ")
    name, _, description = head.partition(": ")
    try:
        return name.strip(), description, json.loads(schema.splitlines()[0]) if schema else {}
    except json.JSONDecodeError:
        return name.strip(), description, {}


def _example(description: str, schema: dict) -> tuple[dict[str, object], str] | None:
    """The documented example's arguments by name, and its result."""
    m = _EXAMPLE.search(description)
    if m is None:
        return None
    try:
        values = ast.literal_eval(f"({m.group(2)},)")
    except (SyntaxError, ValueError):
        return None
    names = list(schema.get("properties", {}))
    return dict(zip(names, values)), ast.literal_eval(m.group(3))


def _quoted_value(description: str) -> str | None:
    m = re.search(r'e\.g\. "([^"]+)"', description) or re.search(r"one of ([A-Z]{2})\b", description)
    return m.group(1) if m else None


# --- the tester ----------------------------------------------------------------------------


def tester(request):
    text = last_user_text(request)
    if "Generate **template questions**" in text:
        doc = text.split("The tool is described as follows: ", 1)[1].rsplit("\nUse placeholders", 1)[0]
        return json.dumps({"templates": _templates(doc)})
    if "Generate infills" in text:
        return json.dumps({"infills": _infills(text)})
    m = _DOC.search(text)
    if m:
        return json.dumps({"answer": _expected(m.group(1), text.rsplit("in one sentence: ", 1)[-1])})
    if text.startswith("You are assessing an agent RESPONSE"):
        return json.dumps(_oracle(text))
    return json.dumps({})


def _templates(doc: str) -> list[str]:
    name, description, schema = _parts(doc)
    example = _example(description, schema)
    params = list(example[0]) if example else list(schema.get("properties", {}))[:1]
    masks = " and ".join(f'{p} "[{chr(65 + i)}]"' for i, p in enumerate(params))
    return [f"Using {name}, what do I get for {masks}?"]


def _infills(text: str) -> dict[str, list[str]]:
    template = text.split("For the following template question: '", 1)[1].split("'\nGenerate", 1)[0]
    doc = text.split("relevant to this tool: ", 1)[1].rsplit("\nAnswer as JSON", 1)[0]
    _, description, schema = _parts(doc)
    example = _example(description, schema)
    out = {}
    for param, mask in re.findall(r'(\w+) "\[([A-Z])\]"', template):
        value = example[0].get(param) if example else _quoted_value(description)
        out[mask] = _synonyms(value)
    return out


def _synonyms(value: object) -> list[str]:
    if value is None:
        return ["something"]
    if isinstance(value, (int, float)):
        words = {v: k for k, v in _WORDS.items()}
        return [str(value), f"{float(value):.1f}"] + ([words[value]] if value in words else [])
    text = str(value)
    day = _date(text)
    if day is not None:
        with_year = bool(re.search(r"\b\d{4}\b", text))
        forms = ["%B %-d, %Y", "%-d %B %Y", "%-d %b %Y"] if with_year else ["%-d %B", "%b %-d", "%B %-dth"]
        return [text] + [day.strftime(f) for f in forms]
    return [text, text.lower(), text.upper()]


def _date(text: str) -> datetime | None:
    if not re.search(r"\d", text) or not re.search(r"\d{4}-\d\d-\d\d|[A-Za-z]{3,}", text):
        return None
    try:
        return dateparser.parse(text, default=datetime(2024, 1, 1))
    except (ValueError, OverflowError):
        return None


def _same(a: object, b: object) -> bool:
    da, db = _date(str(a)), _date(str(b))
    if da is not None and db is not None:
        return (da.month, da.day) == (db.month, db.day)
    return str(a).strip().lower() == str(b).strip().lower()


def _expected(doc: str, question: str) -> str:
    _, description, schema = _parts(doc)
    example = _example(description, schema)
    asked = dict(_PAIR.findall(question))
    if example and asked and all(_same(asked.get(k), v) for k, v in example[0].items()):
        return example[1]
    return "unknown: the documentation gives no answer for this"


def _oracle(text: str) -> dict:
    response = text.split("Agent response:", 1)[1].split("\nExpectations:", 1)[0]
    expectation = text.rsplit("\n2. ", 1)[-1].split("\nAnswer as JSON", 1)[0]
    figures = re.findall(r"\d+(?::\d+)?", expectation)
    if expectation.startswith("unknown") or not figures:
        return {"reason": "no firm expectation", "correctness_degree": 6}
    missing = [f for f in figures if f not in response]
    if missing:
        return {"reason": f"the answer lacks {missing}", "correctness_degree": 2}
    return {"reason": "the answer carries the expected figures", "correctness_degree": 9}


# --- the agent -----------------------------------------------------------------------------


def agent(request):
    tool = request.tools[0] if request.tools else None
    done = tool_results(request)
    if done:
        out = done[-1].content
        if out.startswith("Error") or "Error:" in out[:60]:
            return say(f"Sorry, the tool failed: {out}")
        return say(f"Here is what I found: {out}")
    if tool is None:
        return say("I cannot help with that.")
    text = last_user_text(request)
    m = re.search(r"with exactly these arguments:\n(.*)\nIf these", text, re.S)
    if m:  # the sanity check: make the call asked for
        return call(tool.name, **json.loads(m.group(1)))
    props = tool.parameters.get("properties", {})
    args = {}
    for name, value in _PAIR.findall(text):
        if name in props:
            args[name] = _as_documented(value, props[name], _param_doc(tool.description, name))
    return call(tool.name, **args)


def _param_doc(description: str, name: str) -> str:
    m = re.search(rf"^\s*{re.escape(name)}: (.*)$", description, re.M)
    return m.group(1) if m else ""


def _as_documented(value: str, schema: dict, doc: str):
    doc = f"{schema.get('description', '')} {doc}"
    if schema.get("type") in ("integer", "number"):
        number = _WORDS.get(value.strip().lower())
        if number is None:
            try:
                number = float(value)
            except ValueError:
                return value
        return int(number) if schema["type"] == "integer" else number
    if "YYYY-MM-DD" in doc:
        day = _date(value)
        if day is not None:
            return day.strftime("%Y-%m-%d")
    return value
