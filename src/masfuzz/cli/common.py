"""Options and plumbing shared by the commands that run a system under test.

Each setting is one CLI option and one environment variable (inspect_ai's habit):
--model / MASFUZZ_MODEL, --sut-model / MASFUZZ_SUT_MODEL, --store / MASFUZZ_STORE, and the
model-call options of `masfuzz.llm.options` (--no-cache, --cache, --max-connections, ...).
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any, Callable

DEFAULT_MODEL = "local/gemma-3-270m"


def add_model_options(p: argparse.ArgumentParser, *, tester: bool = False) -> None:
    """Which models play which role, and the run bounds; the model-call options (cache,
    connections, retries, key) come from `masfuzz.llm.options`."""
    from masfuzz.llm.options import add_model_options as add_call_options

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
    add_call_options(p)


def add_store_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--store", default=os.environ.get("MASFUZZ_STORE", ".masfuzz/runs.db"),
                   help="SQLite run store (default .masfuzz/runs.db, env MASFUZZ_STORE)")


def make_client(model: str, *, role: str, args: argparse.Namespace) -> Any:
    from masfuzz.llm.options import client_from_args

    return client_from_args(args, model, role=role)  # type: ignore[arg-type]


def open_store(path: str) -> Any:
    from masfuzz.store.db import RunStore

    return RunStore(path)


def add_executor_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--executor", choices=("inprocess", "subprocess"), default="inprocess",
                   help="inprocess (fast) or subprocess (hard timeout: a hanging or crashing "
                   "system is killed and recorded, and the next scenario runs)")


def executor_for(target: str, args: argparse.Namespace) -> Callable[[Any], Any]:
    """An async `execute(scenario) -> Trace` over the system under test, bounded in time."""
    from masfuzz.adapters.orchestration import from_args
    from masfuzz.exec import make_executor
    from masfuzz.llm.options import settings_from_args

    executor = make_executor(getattr(args, "executor", "inprocess"), timeout=args.timeout,
                             orchestration=from_args(args), models=settings_from_args(args))

    async def execute(scenario: Any) -> Any:
        return await executor.run(target, scenario)

    return execute


def progress_printer(enabled: bool) -> Callable[[str], None]:
    def say(msg: str) -> None:
        if enabled:
            print(f"  .. {msg}", file=sys.stderr, flush=True)

    return say


def print_analysis(analysis: Any, fmt: str, *, obligations: bool = False,
                   fail_under: float | None = None) -> int:
    """Render an analysis in the chosen format; exit 1 when `--fail-under` fails it."""
    from masfuzz.report import REPORTERS

    print(REPORTERS[fmt]().render(analysis, obligations=obligations), end="")
    why = analysis.gate(fail_under)
    if why:
        print(f"masfuzz: {why}", file=sys.stderr)
        return 1
    return 0
