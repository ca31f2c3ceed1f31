"""Tool calls from a model too small to have learned them: few-shot prompting plus a JSON
schema that constrains decoding, and validation of whatever comes out.

Measured on Gemma 3 270M (docs/architecture.md, "Models"): free-form prompting gives 0 of 10 tool calls;
worked examples plus a grammar with one `anyOf` branch per tool give the right tool 10 of 10.
The model answers one JSON object, `{"tool": NAME, "arguments": {...}}`; when it may answer in
words (`tool_choice="auto"`) one extra branch, `{"tool": "reply", "arguments": {"text": ...}}`,
lets it. The output is never trusted: it is parsed leniently (`strict=False`: raw newlines in
strings), checked against the offered tools and their JSON schemas, and retried by the caller.
"""

from __future__ import annotations

import copy
import json
import re
from typing import Any

from masfuzz.llm.ids import tool_names_by_call_id
from masfuzz.llm.types import ChatMessage, ChatRequest, ToolCallRequest, ToolDef
from masfuzz.ownwords import ANSWER_INSTRUCTION, WORKED_EXAMPLES


class InvalidOutput(ValueError):
    """The model's output is not a valid answer to the request."""


def reply_name(tools: tuple[ToolDef, ...]) -> str:
    names = {t.name for t in tools}
    return next(n for n in ("reply", "reply_to_user", "__reply__") if n not in names)


def allowed_tools(request: ChatRequest) -> tuple[ToolDef, ...]:
    choice = request.tool_choice
    if choice in ("auto", "required", "none"):
        return request.tools
    return tuple(t for t in request.tools if t.name == choice) or request.tools


def may_reply(request: ChatRequest) -> bool:
    """With `tool_choice="auto"`, may the model answer in words? Offered a reply branch on a
    user's turn, Gemma 270M replies 5 times out of 5 and never calls a tool (measured); so a
    small model answers in words only once a tool result is in front of it, and one that did
    work for the user's last message: a handoff's result only says who has the conversation
    now. (Counted as a result, a handoff let the agent it handed to answer at once, in words:
    the FAQ agent of the customer-service example never looked anything up.)"""
    if request.tool_choice != "auto":
        return False
    last = next((m for m in reversed(request.messages) if m.role != "system"), None)
    if last is None or last.role != "tool":
        return False
    names = tool_names_by_call_id(request)
    handoffs = {t.name for t in request.tools if t.handoff_to}
    for m in reversed(request.messages):
        if m.role == "user":
            return False
        if m.role == "tool" and not _is_handoff(_tool_of(m, names), handoffs):
            return True
    return False


def _is_handoff(name: str, handoffs: set[str]) -> bool:
    """A tool that hands control to another agent: one the adapter marked so (`handoff_to`), or
    named as the Agents SDK and AutoGen's Swarm name theirs (an earlier agent's handoff is not
    among this agent's tools)."""
    return name in handoffs or name.startswith("transfer_to_")


# --- the grammar ------------------------------------------------------------------------


# Characters the grammar lets a reply's text and a free string argument have. Unbounded, a tiny
# model's string runs to the call's token limit, the JSON never closes, and the call is retried
# twice more: minutes of a loaded machine for nothing. Only the grammar is bounded: what comes
# out is still validated against the tool's own schema.
REPLY_CHARS = 240
ARGUMENT_CHARS = 120


def choice_schema(tools: tuple[ToolDef, ...], reply: str | None) -> dict[str, Any]:
    """One `anyOf` branch per tool (and one for a text reply), each a fixed tool name plus that
    tool's own argument schema; `$defs` of every tool are hoisted to the root, renamed apart."""
    defs: dict[str, Any] = {}
    branches = [_branch(t.name, bounded_strings(_hoist(t.name, t.parameters, defs))) for t in tools]
    defs = {name: bounded_strings(sub) for name, sub in defs.items()}
    if reply:
        text = {"type": "object", "properties": {"text": {"type": "string", "maxLength": REPLY_CHARS}},
                "required": ["text"], "additionalProperties": False}
        branches.append(_branch(reply, text))
    schema: dict[str, Any] = {"anyOf": branches}
    if defs:
        schema["$defs"] = defs
    return bounded_integers(schema)


def bounded_integers(node: Any) -> Any:
    """llama.cpp's schema-to-grammar ignores minimum/maximum, and a tiny model then writes
    `"days": 3000000000000000` (measured): a small bounded integer range becomes an enum."""
    if isinstance(node, list):
        return [bounded_integers(v) for v in node]
    if not isinstance(node, dict):
        return node
    out = {k: bounded_integers(v) for k, v in node.items()}
    low, high = out.get("minimum"), out.get("maximum")
    if out.get("type") == "integer" and isinstance(low, int) and isinstance(high, int) and 0 <= high - low <= 256:
        rest = {k: v for k, v in out.items() if k not in ("type", "minimum", "maximum")}
        return {**rest, "enum": list(range(low, high + 1))}
    return out


def bounded_strings(node: Any) -> Any:
    """Every free string of a schema (no length, enum, const, pattern or format of its own) at
    most ARGUMENT_CHARS characters long."""
    if isinstance(node, list):
        return [bounded_strings(v) for v in node]
    if not isinstance(node, dict):
        return node
    out = {k: bounded_strings(v) for k, v in node.items()}
    if out.get("type") == "string" and not {"maxLength", "enum", "const", "pattern", "format"} & out.keys():
        out["maxLength"] = ARGUMENT_CHARS
    return out


def _branch(name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": {"tool": {"const": name}, "arguments": arguments},
        "required": ["tool", "arguments"],
        "additionalProperties": False,
    }


def _hoist(tool: str, schema: dict[str, Any], defs: dict[str, Any]) -> dict[str, Any]:
    schema = copy.deepcopy(schema or {"type": "object"})
    prefix = re.sub(r"\W", "_", tool) + "__"
    local = {**schema.pop("$defs", {}), **schema.pop("definitions", {})}

    def rename(node: Any) -> Any:
        if isinstance(node, dict):
            out = {k: rename(v) for k, v in node.items()}
            ref = out.get("$ref")
            if isinstance(ref, str):
                out["$ref"] = re.sub(r"^#/(\$defs|definitions)/", f"#/$defs/{prefix}", ref)
            return out
        if isinstance(node, list):
            return [rename(v) for v in node]
        return node

    for name, sub in local.items():
        defs[prefix + name] = rename(sub)
    schema = rename(schema)
    if schema.get("type") is None and "properties" in schema:
        schema["type"] = "object"
    return schema


# --- the prompt -------------------------------------------------------------------------

# Without a reply branch, the same examples minus the tool result and the reply.
_EXAMPLES_TOOLS_ONLY = "\n".join(
    line for line in WORKED_EXAMPLES.splitlines() if not line.startswith(("Result of", 'Answer: {"tool": "REPLY"'))
) + "\n"


def tool_prompt(request: ChatRequest, tools: tuple[ToolDef, ...], reply: str | None) -> str:
    """The whole request as one user turn: instructions, tools, worked examples, conversation."""
    system = "\n".join(m.content for m in request.messages if m.role == "system" and m.content)
    how = ANSWER_INSTRUCTION + ': {"tool": NAME, "arguments": {...}} to call a tool'
    how += f', or {{"tool": "{reply}", "arguments": {{"text": ...}}}} to answer the user.' if reply else "."
    parts = [system.strip(), how, "", (WORKED_EXAMPLES.replace("REPLY", reply) if reply else _EXAMPLES_TOOLS_ONLY)]
    parts += ["Tools:"] + [_signature(t) for t in tools] + ["", "Conversation:"]
    names = tool_names_by_call_id(request)
    parts += [_transcript_line(m, reply, names) for m in request.messages if m.role != "system"]
    parts.append("Answer:")
    return "\n".join(p for p in parts if p is not None).strip()


def _signature(tool: ToolDef) -> str:
    props = (tool.parameters or {}).get("properties") or {}
    args = ", ".join(f"{name}: {_type_name(spec)}" for name, spec in props.items())
    desc = " ".join((tool.description or "").split())
    return f"- {tool.name}({args})" + (f": {desc}" if desc else "")


def _type_name(spec: Any) -> str:
    if not isinstance(spec, dict):
        return "any"
    if "enum" in spec:
        return " | ".join(json.dumps(v) for v in spec["enum"])
    t = spec.get("type")
    if isinstance(t, list):
        return " | ".join(str(x) for x in t)
    return str(t or "any")


def _tool_of(m: ChatMessage, names: dict[str, str]) -> str:
    return m.name or names.get(m.tool_call_id or "") or "the tool"


def _transcript_line(m: ChatMessage, reply: str | None, names: dict[str, str]) -> str:
    if m.role == "user":
        speaker = m.name or "User"
        return f"{speaker}: {m.content or ''}"
    if m.role == "tool":
        return f"Result of {_tool_of(m, names)}: {m.content or ''}"
    lines = [
        "Answer: " + json.dumps({"tool": c.name, "arguments": c.arguments}, default=str)
        for c in m.tool_calls
    ]
    if m.content:
        text = json.dumps({"tool": reply, "arguments": {"text": m.content}}) if reply else m.content
        lines.insert(0, f"Answer: {text}")
    return "\n".join(lines)


def transcript_prompt(request: ChatRequest) -> str:
    """The conversation as a plain transcript for a base model to continue after "Assistant:"."""
    names = tool_names_by_call_id(request)
    system = "\n".join(m.content for m in request.messages if m.role == "system" and m.content).strip()
    lines = [system, ""] if system else []
    for m in request.messages:
        if m.role == "user":
            lines.append(f"{m.name or 'User'}: {m.content or ''}")
        elif m.role == "tool":
            lines.append(f"Result of {_tool_of(m, names)}: {m.content or ''}")
        elif m.role == "assistant" and m.content:
            lines.append(f"Assistant: {m.content}")
    lines.append("Assistant:")
    return "\n".join(lines)


def text_messages(request: ChatRequest, fold_system: bool) -> list[dict[str, str]]:
    """The conversation as plain user/assistant turns for a chat template: tool calls and tool
    results become text, consecutive turns of one role merge, and for templates that drop
    system messages (Gemma's) the system text leads the first user turn."""
    out: list[dict[str, str]] = []
    system: list[str] = []
    names = tool_names_by_call_id(request)
    for m in request.messages:
        if m.role == "system":
            if fold_system:
                system.append(m.content or "")
                continue
            role, text = "system", m.content or ""
        elif m.role == "tool":
            role, text = "user", f"Result of {_tool_of(m, names)}: {m.content or ''}"
        elif m.role == "assistant":
            calls = [json.dumps({"tool": c.name, "arguments": c.arguments}, default=str) for c in m.tool_calls]
            role, text = "assistant", "\n".join([m.content or ""] + calls).strip()
        else:
            role, text = "user", (f"{m.name}: " if m.name else "") + (m.content or "")
        if out and out[-1]["role"] == role and role != "system":
            out[-1]["content"] += "\n\n" + text
        else:
            out.append({"role": role, "content": text})
    if system:
        lead = "\n".join(s for s in system if s).strip()
        first_user = next((m for m in out if m["role"] == "user"), None)
        if first_user is None:
            out.insert(0, {"role": "user", "content": lead})
        elif lead:
            first_user["content"] = f"{lead}\n\n{first_user['content']}"
    return out


# --- reading the answer -----------------------------------------------------------------


def parse_json(text: str) -> Any:
    try:
        return json.loads(text, strict=False)
    except ValueError as exc:
        raise InvalidOutput(f"not JSON ({exc.msg} at character {exc.pos})") from None


def parse_choice(
    text: str, tools: tuple[ToolDef, ...], reply: str | None
) -> tuple[str | None, ToolCallRequest | None]:
    """(reply text, None) or (None, tool call without id); InvalidOutput says what is wrong."""
    value = parse_json(text)
    if not isinstance(value, dict) or not isinstance(value.get("arguments"), dict):
        raise InvalidOutput('expected {"tool": NAME, "arguments": {...}}')
    name, args = value.get("tool"), value["arguments"]
    if reply and name == reply:
        said = args.get("text")
        if not isinstance(said, str):
            raise InvalidOutput("a reply needs a text")
        return said, None
    tool = next((t for t in tools if t.name == name), None)
    if tool is None:
        raise InvalidOutput(f"{name!r} is not an offered tool")
    validate(args, tool.parameters, f"arguments of {name}")
    return None, ToolCallRequest(name=name, arguments=args)


def validate(value: Any, schema: dict[str, Any] | None, what: str) -> None:
    if not schema:
        return
    try:
        import jsonschema
    except ImportError:  # the local extra installs it; without it, check the required keys
        missing = [k for k in schema.get("required", ()) if not isinstance(value, dict) or k not in value]
        if missing:
            raise InvalidOutput(f"{what}: missing {', '.join(missing)}") from None
        return
    try:
        jsonschema.validate(value, schema)
    except jsonschema.ValidationError as exc:
        raise InvalidOutput(f"{what}: {exc.message}") from None
    except jsonschema.SchemaError:
        return  # a tool's own schema is broken: that is the tool's finding, not the model's
