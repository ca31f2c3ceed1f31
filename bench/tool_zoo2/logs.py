"""Operations tools as OpenAI Agents SDK `function_tool`s, for an on-call assistant.

`search_log` (seeded) documents its text as matched literally and compiles it as a regular
expression: "C++" or "[WARN" raises re.error; `search_log_fixed` escapes it. `flatten_config`
(seeded) walks a nested JSON configuration whose values its documentation says may be lists, but
calls `.items()` on every nested value: a list raises AttributeError; the fixed twin walks lists
by index. Text that is not a JSON object is rejected, as documented.
"""

from __future__ import annotations

import json
import re

from agents import function_tool

_LOG = """2024-05-01 08:00:01 INFO service started
2024-05-01 08:02:17 WARN disk 91% full on /var
2024-05-01 08:03:40 ERROR C++ exception in codec: std::bad_alloc
2024-05-01 08:05:02 ERROR [db] connection refused (retry 1/5)
2024-05-01 08:05:09 INFO connection restored"""


def _matches(pattern: re.Pattern) -> str:
    hits = [line for line in _LOG.splitlines() if pattern.search(line)]
    return "\n".join(hits) or "no matching lines"


@function_tool
def search_log(text: str) -> str:
    """Lines of today's service log that contain a text.

    Args:
        text: the text to look for, matched literally and ignoring case, e.g. "disk" or
            "connection refused".
    """
    return _matches(re.compile(text, re.IGNORECASE))  # the seeded bug: the text is a regex here


@function_tool
def search_log_fixed(text: str) -> str:
    """Lines of today's service log that contain a text.

    Args:
        text: the text to look for, matched literally and ignoring case, e.g. "disk" or
            "connection refused".
    """
    return _matches(re.compile(re.escape(text), re.IGNORECASE))


def _load(config_json: str) -> dict:
    try:
        config = json.loads(config_json)
    except json.JSONDecodeError:
        config = None
    if not isinstance(config, dict):
        raise ValueError("config_json must be a JSON object")
    return config


def _flatten(value: dict, prefix: str = "") -> list[str]:
    out = []
    for key, item in value.items():
        name = f"{prefix}{key}"
        if isinstance(item, (dict, list)):
            out += _flatten(item, f"{name}.")  # the seeded bug: a list has no .items()
        else:
            out.append(f"{name} = {json.dumps(item)}")
    return out


def _flatten_fixed(value: dict | list, prefix: str = "") -> list[str]:
    out = []
    pairs = value.items() if isinstance(value, dict) else enumerate(value)
    for key, item in pairs:
        name = f"{prefix}{key}"
        if isinstance(item, (dict, list)) and item:
            out += _flatten_fixed(item, f"{name}.")
        else:
            out.append(f"{name} = {json.dumps(item)}")
    return out


@function_tool
def flatten_config(config_json: str) -> str:
    """A service's configuration as dotted key = value lines, for diffing two deployments.

    Args:
        config_json: the configuration as a JSON object; its values may be objects, lists or
            plain values, e.g. {"db": {"hosts": ["a", "b"], "port": 5432}}. Text that is not a
            JSON object raises ValueError.
    """
    return "\n".join(_flatten(_load(config_json))) or "(empty)"


@function_tool
def flatten_config_fixed(config_json: str) -> str:
    """A service's configuration as dotted key = value lines, for diffing two deployments.

    Args:
        config_json: the configuration as a JSON object; its values may be objects, lists or
            plain values, e.g. {"db": {"hosts": ["a", "b"], "port": 5432}}. Text that is not a
            JSON object raises ValueError.
    """
    return "\n".join(_flatten_fixed(_load(config_json))) or "(empty)"
