"""The video team as a user would run it: the team is built inside `async main()`.

    python -m video_team.app "A 30-second short about the water cycle"   (from examples/)

masfuzz captures the team while this module's `main` runs (`masfuzz exec
examples/video_team/app.py ...`), without ever running the team itself.
"""

from __future__ import annotations

import asyncio
import sys

from autogen_agentchat.ui import Console

from .team import build_team, default_model_client


async def main(task: str = "Make a 30-second short video about the water cycle.") -> None:
    team = build_team(default_model_client(), "selector")
    await Console(team.run_stream(task=task))


if __name__ == "__main__":
    asyncio.run(main(*sys.argv[1:2]))
