"""Scripted models for `masfuzz tools --correctness` on the second tool zoo: a *tester* and an
*agent* that know no tool in advance and act only on the documentation they are shown.

    masfuzz tools bench/tool_zoo2/calendar_tools.py --correctness --calls 5 \
        --model scripted/bench/tool_zoo2/policies.py:tester \
        --sut-model scripted/bench/tool_zoo2/policies.py:agent

The tester asks one question per tool naming every argument (`day = [A]`); its infills are the
documented example's values (an `Example: tool(...) -> "..."` line, else each argument's
`e.g.` value) written three ways (a date as ISO, "March 5, 2024" and "5 March 2024"; a number
as digits, with a decimal and in words). Emulating the tool, it expects the example's answer
when asked for the example's values; otherwise, where the documentation promises the answer's
date layout (DD/MM/YYYY, MM/DD/YYYY, YYYY-MM-DD), the asked date in that layout; otherwise it
cannot know. Its oracle scores an answer by whether the expectation's figures appear in it in
the same order. A real model would also work out conversions the documentation describes in
prose (litres per 100 km); this tester does not, and says "unknown" there.

The agent fills each argument from the question as written, unless the argument's
documentation prescribes a form: a number for a number, YYYY-MM-DD for a day documented so.
"""

from __future__ import annotations

import ast
import json
import re
from datetime import date

from dateutil import parser as dateparser

from masfuzz.llm.scripted import call, last_user_text, say, tool_results

_ASKED = re.compile(r"(\w+) = ([^;?]+)")
_EXAMPLE = re.compile(r"Example:\s*\w+\((.*?)\)\s*->\s*(\"[^\"]*\"|'[^']*')")
_NUMBER_WORDS = {"zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
                 "seven": 7, "eight": 8, "nine": 9, "ten": 10, "twelve": 12, "twenty": 20,
                 "thirty": 30, "fifty": 50, "hundred": 100}
_LAYOUTS = {"DD/MM/YYYY": "%d/%m/%Y", "MM/DD/YYYY": "%m/%d/%Y", "YYYY-MM-DD": "%Y-%m-%d"}


def _split_doc(doc: str) -> tuple[str, str, dict]:
    """(name, description, JSON schema) of a tool's documentation as the prompts show it."""
    head, _, rest = doc.partition("\narguments (JSON schema): ")
    name, _, description = head.partition(": ")
    try:
        schema = json.loads(rest.splitlines()[0]) if rest else {}
    except json.JSONDecodeError:
        schema = {}
    return name.strip(), description, schema


def _documented_values(description: str, schema: dict) -> tuple[dict, str | None]:
    """Each argument's documented value (the example's, else its `e.g.`), and the example's
    answer where there is one."""
    names = list(schema.get("properties", {}))
    m = _EXAMPLE.search(description)
    if m:
        try:
            values = ast.literal_eval(f"({m.group(1)},)")
            return dict(zip(names, values)), ast.literal_eval(m.group(2))
        except (SyntaxError, ValueError):
            pass
    values = {}
    for name in names:
        line = _arg_doc(description, name)
        e = re.search(r'e\.g\. ("[^"]*"|-?\d+(?:\.\d+)?)', line)
        if e:
            values[name] = ast.literal_eval(e.group(1))
    return values, None


def _arg_doc(description: str, name: str) -> str:
    """An argument's lines in the docstring (its own line and the indented ones after it)."""
    m = re.search(rf"^\s*{re.escape(name)}: (.*(?:\n\s{{6,}}.*)*)", description, re.M)
    return " ".join(m.group(1).split()) if m else ""


def _as_day(text: str) -> date | None:
    if not re.search(r"\d{4}", text):
        return None
    try:
        return dateparser.parse(text).date()
    except (ValueError, OverflowError):
        return None


# --- the tester ----------------------------------------------------------------------------


def tester(request):
    text = last_user_text(request)
    if "Generate **template questions**" in text:
        doc = text.split("The tool is described as follows: ", 1)[1].rsplit("\nUse placeholders", 1)[0]
        return json.dumps({"templates": [_template(doc)]})
    if "Generate infills" in text:
        return json.dumps({"infills": _infills(text)})
    m = re.search(r"^You are emulating the following tool: (.*?)\nGive the tool's", text, re.S)
    if m:
        return json.dumps({"answer": _emulate(m.group(1), text.rsplit("in one sentence: ", 1)[-1])})
    if text.startswith("You are assessing an agent RESPONSE"):
        return json.dumps(_judge(text))
    return json.dumps({})


def _template(doc: str) -> str:
    name, _, schema = _split_doc(doc)
    asked = "; ".join(f"{p} = [{chr(65 + i)}]" for i, p in enumerate(schema.get("properties", {})))
    return f"Please run {name} for me with {asked}?"


def _infills(text: str) -> dict[str, list[str]]:
    template = text.split("For the following template question: '", 1)[1].split("'\nGenerate", 1)[0]
    doc = text.split("relevant to this tool: ", 1)[1].rsplit("\nAnswer as JSON", 1)[0]
    _, description, schema = _split_doc(doc)
    values, _ = _documented_values(description, schema)
    return {mask: _renderings(values.get(param)) for param, mask in re.findall(r"(\w+) = \[([A-Z])\]", template)}


def _renderings(value: object) -> list[str]:
    """One value written as different people would write it."""
    if value is None:
        return ["1"]
    if isinstance(value, (int, float)):
        words = {v: k for k, v in _NUMBER_WORDS.items()}
        return [f"{value:g}", f"{float(value):.1f}"] + ([words[value]] if value in words else [])
    day = _as_day(str(value)) if re.fullmatch(r"\d{4}-\d\d-\d\d", str(value)) else None
    if day is not None:
        return [day.isoformat(), f"{day:%B} {day.day}, {day.year}", f"{day.day} {day:%B %Y}"]
    return [str(value), str(value).lower()]


def _emulate(doc: str, question: str) -> str:
    _, description, schema = _split_doc(doc)
    values, answer = _documented_values(description, schema)
    asked = {k: v.strip() for k, v in _ASKED.findall(question)}
    if answer is not None and values and all(_same(asked.get(k), v) for k, v in values.items()):
        return answer
    summary = description.split("\n\n", 1)[0]
    layout = next((f for f in _LAYOUTS if f in summary), None)
    days = [d for d in map(_as_day, asked.values()) if d is not None]
    if layout and len(days) == 1:
        return days[0].strftime(_LAYOUTS[layout])
    return "unknown: the documentation does not say what this gives"


def _same(asked: str | None, documented: object) -> bool:
    if asked is None:
        return False
    if isinstance(documented, (int, float)):
        return _number(asked) == documented
    a, d = _as_day(asked), _as_day(str(documented))
    if a is not None and d is not None:
        return a == d
    return asked.lower() == str(documented).lower()


def _number(text: str) -> float | None:
    text = text.strip().lower()
    if text in _NUMBER_WORDS:
        return _NUMBER_WORDS[text]
    try:
        return float(text)
    except ValueError:
        return None


def _judge(text: str) -> dict:
    response = text.split("Agent response:", 1)[1].split("\nExpectations:", 1)[0]
    expectation = text.rsplit("\n2. ", 1)[-1].split("\nAnswer as JSON", 1)[0]
    wanted = re.findall(r"\d+", expectation)
    if expectation.startswith("unknown") or not wanted:
        return {"reason": "the expectation is not firm", "correctness_degree": 6}
    got = re.findall(r"\d+", response)
    in_order = any(got[i:i + len(wanted)] == wanted for i in range(len(got) - len(wanted) + 1))
    if in_order:
        return {"reason": "the answer gives the expected figures in order", "correctness_degree": 9}
    return {"reason": f"the answer lacks {'/'.join(wanted)} in that order", "correctness_degree": 2}


# --- the agent -----------------------------------------------------------------------------


def agent(request):
    tool = request.tools[0] if request.tools else None
    results = tool_results(request)
    if results:
        out = results[-1].content
        if re.match(r"\s*(Error|\w+Error\b)", out):
            return say(f"The tool failed: {out}")
        return say(f"The tool answered: {out}")
    if tool is None:
        return say("I have no tool for that.")
    text = last_user_text(request)
    m = re.search(r"with exactly these arguments:\n(.*)\nIf these", text, re.S)
    if m:  # the sanity check: make exactly the call asked for
        return call(tool.name, **json.loads(m.group(1)))
    props = tool.parameters.get("properties", {})
    arguments = {name: _fill(value.strip(), props[name], _arg_doc(tool.description, name))
                 for name, value in _ASKED.findall(text) if name in props}
    return call(tool.name, **arguments)


def _fill(value: str, schema: dict, doc: str):
    if schema.get("type") in ("integer", "number"):
        number = _number(value)
        if number is None:
            return value
        return int(number) if schema["type"] == "integer" else number
    if "YYYY-MM-DD" in f"{schema.get('description', '')} {doc}":
        day = _as_day(value)
        if day is not None:
            return day.isoformat()
    return value
