"""Unique runtime errors: failures grouped by what went wrong and where in the tool.

The published ToolFuzz groups by exception type only, which merges an `IndexError` from a missing
prefix with an `IndexError` from an empty result. Here a key is (exception type, normalised
message, innermost frame of the tool's own code): the message with the fuzzed values masked (so
`invalid literal for int(): 'abc'` and `...: 'xyz'` are one error), and the deepest frame inside
the tool's package or file (so the same exception raised at two places is two errors).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from typing import Any

from masfuzz.origin import origin
from masfuzz.toolfuzz.mcp import UNREACHABLE
from masfuzz.toolfuzz.sandbox import SETUP_ERROR, CallOutcome
from masfuzz.toolfuzz.tools import NO_RUN_CONTEXT

_MASKS = [
    (re.compile(r"0x[0-9a-fA-F]+"), "<addr>"),
    # a code point, named (U+20AC) or escaped outside quotes (\u20ac, \x9b, \U0001f600)
    (re.compile(r"\bU\+[0-9A-Fa-f]{4,6}\b|\\(?:x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8})"), "<cp>"),
    (re.compile(r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\""), "<str>"),
    # a quoted value cut off by the message's length limit (a long input's repr): to the end
    (re.compile(r"'(?:[^'\\]|\\.){60,}$|\"(?:[^\"\\]|\\.){60,}$"), "<str>"),
    (re.compile(r"(?<![\w<])/[^\s:,)]+"), "<path>"),
    (re.compile(r"-?\b\d+(?:\.\d+)?(?:e[-+]?\d+)?\b"), "<n>"),
    (re.compile(r"\s+"), " "),
    (re.compile(r"<(str|n|path)>(?:[ ,;:/.]*<\1>)+"), r"<\1>"),  # a list of masked values is one value
    # a printed list of values some of which were echoed: one value, however long (a long
    # message is clipped in its middle: " ... ") and whether printed whole or item by item
    (re.compile(r"<(?:str|arg)>(?:[ ,;:/.]*<(?:str|arg)>)+"), "<arg>"),
    (re.compile(r"[\[({]\s*<(?:str|arg)>\s*[\])}]"), "<arg>"),
]
_DEPTH = 50  # how deep into an argument's structure its echoed values are looked for


@dataclass(frozen=True)
class ErrorKey:
    error_type: str
    message: str
    frame: str  # "file.py:function:line" of the innermost frame in the tool's own code

    def __str__(self) -> str:
        return f"{self.error_type}: {self.message} @ {self.frame}"


def normalise_message(message: str, limit: int = 160, arguments: dict[str, Any] | None = None) -> str:
    """The message's first line with the fuzzed values masked: the call's own argument values
    (tools echo them unquoted: `no such file or directory: notes.txt`), quoted strings,
    numbers, paths and addresses."""
    text = message or ""
    printed = set(_printed(arguments or {}))
    values = sorted({v for v in _strings(arguments or {}) if v} | printed, key=len, reverse=True)
    for v in values:
        if v not in text:  # a plain search first: a long message and many values stay cheap
            continue
        if len(v) >= 2 and (v in printed or len(v) >= 4 or re.search(r"\w", v)):
            # whole occurrences only: the value "data" must not mask "database"; a short string
            # of punctuation (", ") would mask the message's own separators
            text = _mask_whole(text, v)
        else:  # a character or a few of punctuation are masked only where tools echo inputs: at the very end
            text = re.sub(r"(?<=[:\s])" + re.escape(v) + r"$", "<arg>", text)
    # The first real line (str.splitlines would also split at \x0b, \x0c, \x1e... in a value).
    text = text.split("\n")[0]
    for pattern, repl in _MASKS:
        text = pattern.sub(repl, text)
    text = text.strip()
    if text.endswith(":") and any(not v.strip() for v in _strings(arguments or {})):
        text += " <arg>"  # an empty value echoed at the end ("cannot parse: ") is the same error
    return text[:limit]


def _mask_whole(text: str, value: str) -> str:
    """`value`'s whole occurrences in `text` (not inside a word) as <arg>; by plain search, as
    a regular expression made of a long value would take seconds to compile."""
    out, at = [], 0
    while (i := text.find(value, at)) >= 0:
        end = i + len(value)
        inside = (i > 0 and _WORD.match(text[i - 1]) and _WORD.match(value[0])) or (
            end < len(text) and _WORD.match(text[end]) and _WORD.match(value[-1]))
        out.append(text[at:i] + (value if inside else "<arg>"))
        at = end
    return "".join(out) + text[at:]


_WORD = re.compile(r"\w")


def _printed(arguments: dict[str, Any]) -> list[str]:
    """The printed forms a tool's message may echo its argument values in (besides each
    string as it is): each value's repr (a list or dict printed whole, a string with its
    quotes and escapes) and a structure's JSON text."""
    import json

    found = []
    for value in _structures(arguments):  # a string's repr is masked as quoted text
            try:
                found += [repr(value), json.dumps(value, default=str, ensure_ascii=False)]
            except (RecursionError, ValueError):  # a tower nested past what repr can print
                continue
    return found


def _structures(value: Any) -> list[Any]:
    """Every list, tuple or dict inside a structure, each object once (down to a depth a
    nesting tower cannot make recurse too deep). Once: a list of one value a thousand times
    (`[tower] * 1000`, what the boundary part sends) holds one structure, not a thousand
    towers of 200 levels each printed whole, which took seconds a call."""
    found: dict[int, Any] = {}

    def walk(node: Any, depth: int) -> None:
        if depth > _DEPTH:
            return
        items = node.values() if isinstance(node, dict) else node if isinstance(node, (list, tuple)) else ()
        for item in items:
            if isinstance(item, (list, tuple, dict)) and id(item) not in found:
                found[id(item)] = item
                walk(item, depth + 1)

    walk(value, 0)
    return list(found.values())


def _strings(value: Any, depth: int = 0) -> list[str]:
    if isinstance(value, str):
        return [value, value.strip()]
    if depth > _DEPTH:
        return []
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v, depth + 1)]
    if isinstance(value, (list, tuple)):
        return [s for v in value for s in _strings(v, depth + 1)]
    return []


def innermost_own_frame(frames: list[tuple[str, int, str]], own_root: str | None) -> str:
    """The deepest frame in the tool's own code; else the deepest outside masfuzz."""
    outside = [f for f in frames if origin(f[0]) != "masfuzz"]
    own = [f for f in outside if own_root and (f[0] == own_root or f[0].startswith(own_root + os.sep))]
    pick = (own or outside or frames or [("?", 0, "?")])[-1]
    filename, line, func = pick
    if filename.startswith("<"):
        return filename  # not a source frame (an error the tool returned as its output)
    base = os.path.dirname(own_root) if own_root and own else os.path.dirname(filename)
    rel = os.path.relpath(filename, base) if base else os.path.basename(filename)
    return f"{rel}:{func}:{line}"


def error_key(outcome: CallOutcome, own_root: str | None, arguments: dict[str, Any] | None = None) -> ErrorKey:
    return ErrorKey(outcome.error_type, outcome.masked or normalise_message(outcome.message, arguments=arguments),
                    innermost_own_frame(outcome.frames, own_root))


# Failures the sandbox causes, not the tool: what its namespaces take away (a writable file
# system, the network) and the limits the options set (memory, file size, CPU seconds). A tool
# meets none of them where the app really runs, so they are never the app's findings.
_SANDBOX_MESSAGES = [
    (re.compile(r"sandbox: .* is blocked"), "harness", "the sandbox blocked what the tool tried"),
    (re.compile(r"Read-only file system"), "harness",
     "the sandbox's file system is read-only outside the call's folder"),
    (re.compile(r"Network is unreachable|Temporary failure in name resolution|Name or service "
                r"not known|Cannot assign requested address|No address associated"), "harness",
     "the sandbox has no network"),
    (re.compile(r"File too large"), "settings", "the sandbox's file size limit"),
    (re.compile("^" + re.escape(UNREACHABLE)), "settings",
     "the MCP server its URL names took no session (an earlier call may have stopped it)"),
    # what the app needs from where it is installed, which the user's settings did not give:
    # its requirements (the AutoGen company-research notebook's tool imports matplotlib), a key
    # from the environment (its search tool reads GOOGLE_API_KEY)
    (re.compile(r"^No module named "), "settings",
     "a package the tool imports is not installed where masfuzz runs it: install the app's requirements"),
    (re.compile(r"(?i)(api[ _-]?key|access[ _-]?token|secret|environment variable).{0,60}"
                r"(not (found|set|provided)|missing|required|must be set)|"
                r"(missing|no) (api[ _-]?key|access[ _-]?token)"), "settings",
     "the tool needs a key or setting from the environment that the run did not have: pass it "
     "with --pass-env, or replace the tool with --stub"),
    (re.compile(re.escape(NO_RUN_CONTEXT)), "harness",
     "the tool reads run state masfuzz could not give it: the run context the app's server passes "
     "(give it with --context), or what an earlier step of a run sets (another tool)"),
]
# A file the tool named by its absolute path that this machine has but the sandbox does not show
# (it shows the tool its own folder, the fixture and the Python install only).
_MISSING_FILE = re.compile(r"No such file or directory: '(/[^']+)'")
_LIMIT_TYPES = {"MemoryError": "the sandbox's memory limit (--memory-mb)",
                "Crash[out of memory]": "the sandbox's memory limit (--memory-mb) for all of a worker's processes",
                "Crash[SIGXCPU]": "the sandbox's CPU-time limit (--timeout)",
                "Crash[SIGXFSZ]": "the sandbox's file size limit"}


def attribution(outcome: CallOutcome) -> tuple[str, str | None]:
    """Whose failure a failed call is: the tool's own (`sut`), masfuzz's (`harness`: its
    sandbox's isolation, or an error raised in masfuzz's own calling code before the tool ran)
    or the settings' (`settings`: a resource limit of the sandbox), with the reason."""
    if outcome.error_type == SETUP_ERROR:
        return "settings", "the --fixture or --setup failed before the tool ran"
    if outcome.error_type in _LIMIT_TYPES:
        return "settings", _LIMIT_TYPES[outcome.error_type]
    for pattern, whose, why in _SANDBOX_MESSAGES:
        if pattern.search(outcome.message or ""):
            return whose, why
    missing = _MISSING_FILE.search(outcome.message or "")
    if missing and os.path.exists(missing.group(1)):  # here, in masfuzz's process: the machine's view
        return "settings", (f"{missing.group(1)} exists on this machine but not in the sandbox, "
                            "which shows a tool only its own folder, the fixture and the Python "
                            "install (give the file with --fixture)")
    # Every frame masfuzz's: the tool's code never ran (its arguments did not bind, a wrapper
    # failed). A frame of masfuzz's below the tool's (a taint object's method) does not count.
    if outcome.frames and all(origin(f[0]) == "masfuzz" for f in outcome.frames):
        return "harness", "raised in masfuzz's own calling code before the tool ran"
    # The framework's check of the arguments (AG2 validates them with pydantic before calling
    # the tool) refused what masfuzz wrote, and no line of the app ran: in a run, the model is
    # told so and writes them again
    if outcome.error_type == "ValidationError" and outcome.frames and all(
            origin(f[0]) in ("masfuzz", "installed") for f in outcome.frames):
        return "harness", ("the framework's validation refused the arguments before any of the "
                           "tool's code ran (a model is told so and writes them again)")
    return "sut", None
