"""The model options every command that calls a model shares, as a `ModelSettings`.

    --no-cache  --cache PATH  --max-connections N  --model-timeout S  --retries N  --api-key-env NAME

Each also reads an environment variable (MASFUZZ_NO_CACHE=1, MASFUZZ_CACHE,
MASFUZZ_MAX_CONNECTIONS, MASFUZZ_MODEL_TIMEOUT, MASFUZZ_RETRIES, MASFUZZ_API_KEY_ENV).

Keys are read from the environment variable a user names, never from the command line, where
they would land in shell history and process listings.
"""

from __future__ import annotations

import argparse
import os

from masfuzz.errors import MasfuzzError
from masfuzz.llm.accounting import Ledger
from masfuzz.llm.cache import DEFAULT_PATH
from masfuzz.llm.client import DEFAULT_MAX_CONNECTIONS, ManagedClient
from masfuzz.llm.retry import DEFAULT_MAX_RETRIES
from masfuzz.llm.settings import ModelSettings
from masfuzz.llm.types import Role


def add_model_options(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("model options")
    env = os.environ.get
    group.add_argument("--no-cache", action="store_true", default=env("MASFUZZ_NO_CACHE") == "1",
                       help="do not read or write the response cache (env MASFUZZ_NO_CACHE=1)")
    group.add_argument("--cache", metavar="PATH", default=env("MASFUZZ_CACHE", str(DEFAULT_PATH)),
                       help="response cache file (default: %(default)s, env MASFUZZ_CACHE)")
    group.add_argument("--max-connections", type=int, metavar="N",
                       default=int(env("MASFUZZ_MAX_CONNECTIONS", DEFAULT_MAX_CONNECTIONS)),
                       help="concurrent requests to networked providers (default: %(default)s)")
    group.add_argument("--model-timeout", type=float, default=float(env("MASFUZZ_MODEL_TIMEOUT", 120)), metavar="S",
                       help="seconds one model call may take (default: %(default)s)")
    group.add_argument("--retries", type=int, default=int(env("MASFUZZ_RETRIES", DEFAULT_MAX_RETRIES)), metavar="N",
                       help="retries on rate limits, timeouts and 5xx (default: %(default)s)")
    group.add_argument("--api-key-env", metavar="NAME", default=env("MASFUZZ_API_KEY_ENV"),
                       help="environment variable holding the API key (default: OPENAI_API_KEY "
                       "for openai/, OPENAI_COMPATIBLE_API_KEY for openai-compatible/)")


def settings_from_args(args: argparse.Namespace) -> ModelSettings:
    """The command's model settings; they travel to every executor and worker."""
    if args.retries < 0:
        raise MasfuzzError(f"--retries must be 0 or more, not {args.retries}")
    if args.max_connections < 1:
        raise MasfuzzError(f"--max-connections must be at least 1, not {args.max_connections}")
    settings = ModelSettings(cache=None if args.no_cache else args.cache,
                             timeout=args.model_timeout, retries=args.retries,
                             api_key_env=args.api_key_env or None,
                             max_connections=args.max_connections)
    settings.api_key()  # a named variable that is not set is bad input, said now
    return settings


def client_from_args(
    args: argparse.Namespace, model_string: str, *, role: Role = "sut", ledger: Ledger | None = None
) -> ManagedClient:
    return settings_from_args(args).client(model_string, role=role, ledger=ledger)
