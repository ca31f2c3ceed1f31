"""An OpenAI-compatible loopback endpoint that answers with the SUT model and records calls.

    from masfuzz.serve import ModelServer
    async with ModelServer(get_client("scripted/app_policy.py:policy")) as server:
        ...  # run the app with OPENAI_BASE_URL=server.url
    server.recording.calls  # [CallRecord, ...]
"""

from masfuzz.serve.server import SELECTOR_AGENT, AgentNamer, CallRecord, ModelServer, Recording

__all__ = ["SELECTOR_AGENT", "AgentNamer", "CallRecord", "ModelServer", "Recording"]
