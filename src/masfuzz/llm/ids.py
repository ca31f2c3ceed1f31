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
