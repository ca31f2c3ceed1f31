"""`masfuzz serve --sut-model MODEL [--port N]`: an OpenAI-compatible endpoint on loopback that
answers every chat completion with MODEL and records each call."""

from __future__ import annotations

import argparse
import asyncio

from masfuzz.options import Config, add_arguments


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "serve",
        help="serve the SUT model as an OpenAI-compatible endpoint on 127.0.0.1",
        description="Answer /v1/chat/completions (tools, legacy functions, JSON mode, "
        "streaming) and /v1/models with the SUT model, on loopback only. Point an app at it "
        "with OPENAI_BASE_URL=http://127.0.0.1:PORT/v1 and any OPENAI_API_KEY.",
    )
    add_arguments(p, "serve")
    p.set_defaults(func=run)


def run(args: Config) -> int:
    from masfuzz.errors import MasfuzzError
    from masfuzz.llm import get_client
    from masfuzz.serve import ModelServer

    agents = {}
    for item in args.agent:
        name, sep, prompt = item.partition("=")
        if not sep or not name:
            raise MasfuzzError(f"--agent {item!r}: expected NAME=PROMPT")
        agents[name] = prompt
    client = get_client(args.sut_model, role="sut")

    async def serve() -> None:
        async with ModelServer(client, port=args.port, agents=agents, record=args.record) as srv:
            print(f"masfuzz: serving {args.sut_model} at {srv.url} (Ctrl-C stops)", flush=True)
            await asyncio.Event().wait()

    try:
        asyncio.run(serve())
    except KeyboardInterrupt:
        pass
    return 0
