"""A skip-hire yard's desk on PydanticAI whose tool documents a size with a unit's superscript
(`like "6 m³"`, as the yard's price list prints it): `yard_y` hires a skip with `hire_skip`.

`old_parser_desk` reads the size with a parser written for the price list's old "m3": the
superscript is left on, the number does not parse, and the tool answers that it cannot read the
size, quoting it back and naming no parameter: the documentation and the behaviour disagree.
`new_parser_desk` reads either spelling. Run them with `scripted/tests/oracles/unit_sign_apps.py:
policy`, a model that fills each parameter with the stretch of the request shaped like the
example its description quotes, unit and all.
"""

from __future__ import annotations

import json
import re

from pydantic_ai import Agent

from masfuzz.llm.scripted import call, say, tool_results


def _size_old(size: str) -> float:
    return float(size.removesuffix(" m3"))  # the old price list wrote "m3"


def _size_new(size: str) -> float:
    return float(re.sub(r"\s*m(?:3|³)$", "", size.strip()))


def _desk(read_size) -> Agent:
    desk = Agent("openai:gpt-4o-mini", name="yard_y",
                 instructions="You hire out skips for Tollgate Yard.\nHire the skip with hire_skip.")

    @desk.tool_plain
    def hire_skip(postcode: str, size: str) -> dict:
        """Hire a skip delivered to a customer's drive.

        Args:
            postcode: Where the skip goes, like "TR1 2AB".
            size: The skip's size as our price list prints it, like "6 m³".
        """
        try:
            cubic = read_size(size)
        except ValueError:
            return {"ok": False, "message": f"cannot read '{size}'"}
        return {"ok": True, "hire": f"SK-{int(cubic * 100)}", "postcode": postcode}

    return desk


old_parser_desk = _desk(_size_old)
new_parser_desk = _desk(_size_new)


def _quoted_example(description: str) -> str | None:
    m = re.search(r"\"([^\"]+)\"", description)
    return m.group(1) if m else None


def _shaped_like(example: str, text: str) -> str | None:
    """The stretch of `text` shaped like the example: its numbers any number, its capitals any
    capital, its other characters as written (so "6 m³" asks for a number, a space and "m³")."""
    pattern = "".join(r"\d+(?:\.\d+)?" if part[0] in "0123456789" else "[A-Z]" if "A" <= part <= "Z"
                      else re.escape(part) for part in re.findall(r"[0-9]+(?:\.[0-9]+)?|.", example))
    m = re.search(pattern, text)
    return m.group(0) if m else None


def policy(request):
    """Calls the tools the instructions name, in their order, each once, with the arguments read
    off the request by the examples their descriptions quote; then says what the last one
    answered, yes or no."""
    system = " ".join(m.content or "" for m in request.messages if m.role == "system")
    asked = " ".join(m.content or "" for m in request.messages if m.role == "user")
    named = sorted((system.find(t.name), t) for t in request.tools if t.name in system)
    for _, tool in named:
        if tool_results(request, tool.name):
            continue
        arguments = {}
        for param, schema in (tool.parameters.get("properties") or {}).items():
            example = _quoted_example(str(schema.get("description") or ""))
            value = _shaped_like(example, asked) if example else None
            if value is None:
                return say(f"Could you tell me the {param} for {tool.name}?")
            arguments[param] = value
        return call(tool.name, **arguments)
    done = tool_results(request)
    if not done:
        return say("How can I help?")
    answer = json.loads(done[-1].content)
    if answer.get("ok"):
        return say(f"All set: your hire reference is {answer.get('hire')}.")
    return say(f"I'm afraid that didn't work; the yard's system said: {answer.get('message')}")
