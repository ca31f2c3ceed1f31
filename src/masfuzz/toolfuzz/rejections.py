"""Documented rejections: a tool refusing, as its documentation says it does, input it does not
take. `raise ValueError("hour must be between 8 and 17")` under a docstring that says "an hour
outside office hours raises ValueError" is the tool's error handling — the agent is told what
it did wrong and asks again — not a runtime error: it is shown with the returned error
messages, never counted as a unique error.

A raised exception is a documented rejection only when all of these hold, so that a bug is never
hidden behind one:
- the tool's own code raised it, by a `raise` statement of that very exception type on the line
  that raised (a `ValueError` out of `float()` or `date.fromisoformat()` is a library refusing
  what the tool failed to handle: a finding);
- the tool's documentation (its description, or an argument's) says it raises that type;
- the input refused is not one the documentation says is valid (`refuses_documented_input`): a
  tool refusing its own documented example (`e.g. "+44 20 7946 0958"`), an hour inside its
  documented "8 to 17", a date in its documented YYYY-MM-DD, is broken whatever it says. The
  input refused is the arguments the message names, by name or by quoting their value (all of
  them when it names none): one refusing the hour 0 of a call whose room is the documented
  "Fjord" is a rejection; one refusing the hour 17 is a bug.
An MCP tool's raise reaches masfuzz as the server's error text, with no code to read
(`mcp.escaped_exception`): there it is a refusal when the input refused has a number outside
its documented range, or when the documentation says the tool refuses input and the input
refused is not documented as valid (`documented_refusal`).
"""

from __future__ import annotations

import functools
import json
import linecache
import math
import os
import re
from datetime import datetime
from typing import Any

from masfuzz.toolfuzz.priors import (Range, SyntaxPrior, arg_paragraph, doc_priors, doc_ranges,
                                     refused_examples)
from masfuzz.toolfuzz.sandbox import CallOutcome
from masfuzz.toolfuzz.tools import FuzzTool


def documented_rejection(tool: FuzzTool, outcome: CallOutcome, arguments: dict[str, Any]) -> bool:
    """Whether this failed call is the tool refusing, as documented, input it does not take."""
    if outcome.status != "error" or not outcome.frames or not outcome.error_type.isidentifier():
        return False
    if tool.kind == "mcp":  # no code to read: the server's text of what its tool raised
        if outcome.error_type == "RemoteFailure":
            return False  # the server died or broke the protocol: never a refusal
        if outcome.error_type in _UNNAMED:
            return documented_refusal(tool, outcome.message or "", arguments)
        return _says_it_raises(tool, outcome.error_type) and not refuses_documented_input(
            tool, outcome.message or "", arguments)
    root = tool.own_code_root
    own = [f for f in outcome.frames if root and (f[0] == root or f[0].startswith(root + os.sep))]
    if not own or not _says_it_raises(tool, outcome.error_type):
        return False
    filename, line, _ = outcome.frames[-1]
    if own[-1] == outcome.frames[-1] and _raises_here(filename, line, outcome.error_type):
        return not refuses_documented_input(tool, outcome.message or "", arguments)
    return _library_refusal(tool, outcome.message or "", arguments)


# What Python's number parsers say refusing text (`int("2.5")`, `float("$5")`)
_NUMBER_PARSE = re.compile(r"invalid literal for int\(\)|could not convert string to float")
# A number as people and documents write it: a currency sign or code, thousands separators,
# decimals, a unit or percent after it ("$1,250.00", "2.5", "19.99 EUR", "12%")
_WRITTEN_NUMBER = re.compile(r"(?:[^\w\s]{1,3}|[A-Z]{3})?\s?[+-]?(?:\d{1,3}(?:[,\u00a0 ]\d{3})+|\d+)(?:[.,]\d+)?"
                             r"\s?(?:%|[^\w\s]{1,3}|[A-Za-z]{1,5}(?:/[A-Za-z]{1,5})?)?")


def _library_refusal(tool: FuzzTool, message: str, arguments: dict[str, Any]) -> bool:
    """Whether a library call in the tool's code (`int(text)`, `datetime.strptime`,
    `date.fromisoformat`), raising the type the documentation says the tool raises, refuses what
    the documentation says is refused ("text that is not a number raises ValueError", "another
    form raises ValueError"): the documentation's clause covers a refusal whoever raises it, as
    long as the input refused is the agent's and outside what is documented. So: the message
    quotes the value refused (what the library refused is the input the agent sent, not a value
    the tool built), no value it quotes is documented valid (an example, a date in a documented
    format), and a number parser's refusal is of text holding no number as people write one: a
    documentation saying "not a number raises" does not cover `int("2.5")` or `float("$1,250")`,
    the tool not reading a number it was given."""
    ranges = _documented(tool)[1]
    quoted = {k for k, v in arguments.items() if isinstance(v, str) and _quoted(message, v, ranges.get(k))}
    if not quoted:
        return False
    if _NUMBER_PARSE.search(message) and any(_WRITTEN_NUMBER.fullmatch(arguments[k].strip()) for k in quoted):
        return False
    priors, _, refused = _documented(tool)
    return not any(_valid(arguments[k], priors.get(k), ranges.get(k), refused) for k in quoted)


# The MCP SDK's names of an exception its server did not name (`mcp.escaped_exception`)
_UNNAMED = ("ToolError", "UnexpectedToolError")


def _says_it_raises(tool: FuzzTool, error_type: str) -> bool:
    return re.search(rf"\b(?i:raise[sd]?)\b[^.;]{{0,40}}\b{re.escape(error_type)}\b", documentation(tool)) is not None


# What documentation says of a tool that refuses input with an error: "raises ValueError",
# "another form is an error", "is rejected".
_REFUSES = re.compile(r"\b(?:raise[sd]?\s+(?:an?\s+)?\w*(?:Error|Exception)\b|(?:is|are|gives?|returns?)\s+an?\s+error"
                      r"|(?:is|are)\s+(?:rejected|refused)|rejects?\b|refuses?\b)", re.I)


def documented_refusal(tool: FuzzTool, message: str, arguments: dict[str, Any]) -> bool:
    """Whether an error whose type and code are unseen (an MCP server's text of an exception
    its tool raised) is the tool refusing, as documented, input it does not take: its
    documentation says it refuses some input and the input refused is not documented valid, or
    the input refused has a number outside the range its documentation gives (`page: from 1`
    refusing page 0: the server answers the model why, as its SDK means an error result to)."""
    refused = _refused(tool, message, arguments)
    priors, ranges, examples = _documented(tool)
    if any(_outside(arguments[k], ranges.get(k)) for k in refused):
        return True
    # The excuse must cover the argument refused: a clause saying `last` is refused ("another
    # number raises ValueError") excuses no crash on `sensor`, whose documentation promises an
    # answer ("no such sensor") for a name it lacks.
    refusing = _refusing_arguments(tool)
    return any(k in refusing and not _valid(arguments[k], priors.get(k), ranges.get(k), examples)
               for k in refused)


def _refusing_arguments(tool: FuzzTool) -> set[str]:
    """The arguments whose documentation says they may be refused: those whose own lines (their
    schema description, their paragraph of the description) say so, and every one when the
    description says so of none in particular, or the tool takes one argument."""
    props = tool.schema.get("properties") or {}
    description = tool.description or ""
    general = description
    out = set()
    for arg, prop in props.items():
        own = arg_paragraph(description, arg)
        general = general.replace(own, " ") if own else general
        said = prop.get("description") if isinstance(prop, dict) else None
        text = f"{said if isinstance(said, str) else ''} {own}"
        if _REFUSES.search(text):
            out.add(arg)
    if len(props) == 1 or _REFUSES.search(general):
        return set(props) if _REFUSES.search(documentation(tool)) else set()
    return out


def _outside(value: Any, bounds: Range | None) -> bool:
    """Whether a number is outside its documented range."""
    if bounds is None or isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    return not (isinstance(value, int) or math.isfinite(value)) or not bounds.holds(value)


def refuses_documented_input(tool: FuzzTool, message: str, arguments: dict[str, Any]) -> bool:
    """Whether the arguments an error refuses (those its message names or quotes; all of them
    when it names none) are each one the documentation says is valid: a value it quotes as an
    example or lists ("one of DE, FR"), a date in a format it gives, a number in its range."""
    if not arguments:
        return False
    priors, ranges, refused_examples = _documented(tool)
    refused = _refused(tool, message, arguments)
    return all(_valid(arguments[k], priors.get(k), ranges.get(k), refused_examples) for k in refused)


def _refused(tool: FuzzTool, message: str, arguments: dict[str, Any]) -> set[str]:
    """The arguments an error refuses: those its message names or quotes, all when it names none."""
    ranges = _documented(tool)[1]
    named = {k for k, v in arguments.items()
             if re.search(rf"(?<!\w){re.escape(k)}(?!\w)", message) or _quoted(message, v, ranges.get(k))}
    return named or set(arguments)


def _quoted(message: str, value: Any, bounds: Range | None = None) -> bool:
    """Whether the message quotes the value (as its repr, or a number as itself: not one that
    is a bound of its documented range, which a message states as the range refused)."""
    if isinstance(value, str):
        return repr(value) in message or (len(value.strip()) >= 3 and value.strip() in message)
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > 10**100:
        return False  # too long to be quoted (and past what str() of an int may give)
    if bounds is not None and value in (bounds.low, bounds.high):
        return False
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        forms = {str(value)} | ({str(int(value))} if isinstance(value, float) and value.is_integer() else set())
        return any(re.search(rf"(?<![\d.]){re.escape(f)}(?![\d.])", message) for f in forms)
    return False


def _valid(value: Any, prior: SyntaxPrior | None, bounds: Range | None, refused: set[str]) -> bool:
    """Whether the documentation says `value` is one the argument takes (False: it does not,
    or it says nothing that decides). `refused`: values it quotes as ones it refuses."""
    if isinstance(value, bool):
        return False
    if isinstance(value, (int, float)):
        finite = isinstance(value, int) or math.isfinite(value)  # an int of any size compares exactly
        return bounds is not None and finite and bounds.holds(value)
    if isinstance(value, list):
        return bool(value) and all(_valid(v, prior, bounds, refused) for v in value)
    if not isinstance(value, str) or prior is None:
        return False
    text = value.strip()
    if text in refused:
        return False
    if text in prior.constants:
        return True
    for fmt in prior.date_formats:
        try:
            datetime.strptime(text, fmt)
            return True
        except ValueError:
            continue
    return False


def _documented(tool: FuzzTool) -> tuple[dict[str, SyntaxPrior], dict[str, Range], set[str]]:
    return _read(tool.description or "", json.dumps(tool.schema, sort_keys=True, default=str), documentation(tool))


@functools.lru_cache(maxsize=256)
def _read(description: str, schema: str, text: str) -> tuple[dict[str, SyntaxPrior], dict[str, Range], set[str]]:
    """What the documentation says each argument takes, read once a tool."""
    return doc_priors(description, json.loads(schema)), doc_ranges(description, json.loads(schema)), refused_examples(text)

def documentation(tool: FuzzTool) -> str:
    """What the agent reads about the tool: its description and its arguments' descriptions."""
    parts = [tool.description or ""]

    def walk(node: Any, depth: int = 0) -> None:
        if depth > 8:
            return
        if isinstance(node, dict):
            if isinstance(node.get("description"), str):
                parts.append(node["description"])
            for v in node.values():
                walk(v, depth + 1)
        elif isinstance(node, list):
            for v in node:
                walk(v, depth + 1)

    walk(tool.schema)
    return " ".join(" ".join(p.split()) for p in dict.fromkeys(parts))


def _raises_here(filename: str, line: int, error_type: str) -> bool:
    """Whether the statement at `line` (or one begun a few lines above it, a `raise` spread over
    several lines) raises `error_type` by name."""
    for n in range(line, max(0, line - 3), -1):
        text = linecache.getline(filename, n).strip()
        if text.startswith("raise "):
            return re.match(rf"raise\s+(?:\w+\.)*{re.escape(error_type)}\b", text) is not None
        if n < line and text.endswith((")", ":")) and not text.endswith("("):
            return False  # an earlier, finished statement: the line that raised is not a raise
    return False
