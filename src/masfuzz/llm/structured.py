"""Asking the tester model for JSON: one request, a response schema, a lenient parse.

Weak local models are steered by the schema (constrained decoding) and may still wrap or break
the JSON, so the parse takes the first JSON object in the text and the caller validates fields.
"""

from __future__ import annotations

import json
from typing import Any

from masfuzz.llm.types import ChatMessage, ChatRequest, ModelClient


async def ask_json(client: ModelClient, prompt: str, schema: dict[str, Any], *,
                   seed: int | None = None, agent: str = "toolfuzz-tester") -> dict[str, Any]:
    reply = await client.complete(ChatRequest(
        messages=(ChatMessage(role="user", content=prompt),), response_schema=schema,
        role="tester", agent=agent, seed=seed))
    return parse_json_object(reply.text or "")


def parse_json_object(text: str) -> dict[str, Any]:
    """The JSON object in `text`, whole or between its first "{" and its last "}" ({} if there
    is none). Sliced, not searched with a pattern: `{.*}` rescans a reply full of "{" from every
    one of them (a 10 MB reply would stall the campaign)."""
    text = text.strip()
    first, last = text.find("{"), text.rfind("}")
    for candidate in (text, text[first:last + 1] if 0 <= first < last else ""):
        try:
            value = json.loads(candidate, strict=False)
        except (ValueError, TypeError):
            continue
        if isinstance(value, dict):
            return value
    return {}
