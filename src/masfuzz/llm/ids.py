"""Tool-call ids that do not depend on time or chance, so the same run yields the same trace."""

from __future__ import annotations

import hashlib
import json

from masfuzz.llm.types import ChatRequest, ToolCallRequest


def deterministic_call_id(request: ChatRequest, index: int, c: ToolCallRequest) -> str:
    """Same conversation, same call, same id: runs reproduce, ids within a run stay unique."""
    payload = json.dumps(
        [
            [m.model_dump(mode="json") for m in request.messages],
            request.agent,
            index,
            c.name,
            c.arguments,
        ],
        sort_keys=True,
        default=str,
    )
    return "call_" + hashlib.sha256(payload.encode()).hexdigest()[:20]


def tool_names_by_call_id(request: ChatRequest) -> dict[str, str]:
    """Which tool each call id in the conversation called: tool messages often carry only the
    id, and a policy or a small model needs the name."""
    return {c.id: c.name for m in request.messages if m.role == "assistant" for c in m.tool_calls}
