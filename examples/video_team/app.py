"""The video team as a user would run it: the team is built inside `async main()`.

    python -m video_team.app "A 30-second short about the water cycle"   (from examples/)

masfuzz captures the team while this module's `main` runs (`masfuzz exec
examples/video_team/app.py ...`), without ever running the team itself.

Its model is configured the way real AgentChat apps configure theirs: with OPENAI_API_KEY set it
uses OpenAI's client, which also reads OPENAI_BASE_URL, with the model named by OPENAI_MODEL. So
the unmodified app runs black-box against masfuzz's loopback endpoint:

    masfuzz exec --blackbox "python -m video_team.app {input}" --cwd examples --input "..." \
        --sut-model scripted/examples/video_team/policy.py:policy

Without a key it runs on masfuzz's embedded model (VIDEO_TEAM_MODEL, see team.py).
"""

from __future__ import annotations

import asyncio
import os
import sys

from autogen_agentchat.ui import Console
from autogen_core.models import ChatCompletionClient

from .team import build_team, default_model_client


def model_client() -> ChatCompletionClient:
    if os.environ.get("OPENAI_API_KEY"):
        from autogen_ext.models.openai import OpenAIChatCompletionClient

        return OpenAIChatCompletionClient(model=os.environ.get("OPENAI_MODEL", "gpt-4o-mini"))
    return default_model_client()


async def main(task: str = "Make a 30-second short video about the water cycle.") -> None:
    team = build_team(model_client(), "selector")
    await Console(team.run_stream(task=task), output_stats=True)  # prints the stop reason


if __name__ == "__main__":
    asyncio.run(main(*sys.argv[1:2]))
