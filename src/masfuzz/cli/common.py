"""Options and plumbing shared by the commands that run a system under test.

Each setting is one CLI option and one environment variable (inspect_ai's habit):
--model / MASFUZZ_MODEL, --sut-model / MASFUZZ_SUT_MODEL, --store / MASFUZZ_STORE,
--max-connections / MASFUZZ_MAX_CONNECTIONS, --no-cache / MASFUZZ_NO_CACHE.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any, Callable

DEFAULT_MODEL = "local/gemma-3-270m"


def add_model_options(p: argparse.ArgumentParser, *, tester: bool = False) -> None:
    if tester:
        p.add_argument("--model", default=os.environ.get("MASFUZZ_MODEL", DEFAULT_MODEL),
                       help=f"tester model string (default {DEFAULT_MODEL}, env MASFUZZ_MODEL)")
    p.add_argument("--sut-model", default=os.environ.get("MASFUZZ_SUT_MODEL", DEFAULT_MODEL),
                   help="model driving the system under test's agents "
                   f"(default {DEFAULT_MODEL}, env MASFUZZ_SUT_MODEL)")
    p.add_argument("--seed", type=int, default=0, help="seed recorded with every scenario")
    p.add_argument("--max-turns", type=int, default=None, help="turn bound per run")
    p.add_argument("--timeout", type=float, default=120.0,
                   help="seconds before a run is stopped and recorded as a timeout")
    p.add_argument("--no-cache", action="store_true",
                   default=os.environ.get("MASFUZZ_NO_CACHE") == "1",
                   help="do not answer repeated model requests from the response cache")
    p.add_argument("--max-connections", type=int,
                   default=int(os.environ.get("MASFUZZ_MAX_CONNECTIONS", "4")),
                   help="concurrent model requests at most")


def add_store_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--store", default=os.environ.get("MASFUZZ_STORE", ".masfuzz/runs.db"),
                   help="SQLite run store (default .masfuzz/runs.db, env MASFUZZ_STORE)")


def make_client(model: str, *, role: str, args: argparse.Namespace) -> Any:
    from masfuzz.llm import ResponseCache, get_client, set_max_connections

    set_max_connections(args.max_connections)
    cache = None if args.no_cache else ResponseCache()
    return get_client(model, role=role, cache=cache)  # type: ignore[arg-type]


def open_store(path: str) -> Any:
    from masfuzz.store.db import RunStore

    return RunStore(path)


def add_executor_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--executor", choices=("inprocess", "subprocess"), default="inprocess",
                   help="inprocess (fast) or subprocess (hard timeout: a hanging or crashing "
                   "system is killed and recorded, and the next scenario runs)")


def executor_for(target: str, args: argparse.Namespace) -> Callable[[Any], Any]:
    """An async `execute(scenario) -> Trace` over the system under test, bounded in time."""
    from masfuzz.exec import make_executor

    executor = make_executor(getattr(args, "executor", "inprocess"), timeout=args.timeout)

    async def execute(scenario: Any) -> Any:
        return await executor.run(target, scenario)

    return execute


def progress_printer(enabled: bool) -> Callable[[str], None]:
    def say(msg: str) -> None:
        if enabled:
            print(f"  .. {msg}", file=sys.stderr, flush=True)

    return say
