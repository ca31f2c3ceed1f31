"""The `masfuzz` command: a plain synchronous front over the async insides.

Each subcommand lives in its own module under `masfuzz.cli` and exposes `register(subparsers)`,
which adds its parser and sets `func(args) -> int`. Modules are imported lazily by name so that
`masfuzz inspect` never pays for importing a model runtime or an agent framework.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from typing import NoReturn

from masfuzz import __version__
from masfuzz.errors import MasfuzzError

# subcommand name -> module under masfuzz.cli that registers it
COMMANDS: dict[str, str] = {
    "inspect": "inspect_cmd",
    "models": "models_cmd",
    "exec": "exec_cmd",
    "tools": "tools_cmd",
    "serve": "serve_cmd",
    "cover": "cover_cmd",
    "replay": "replay_cmd",
    "report": "report_cmd",
    "fuzz": "fuzz_cmd",
    "judge": "judge_cmd",
    "run": "run_cmd",
    "mutate": "mutate_cmd",
}


class Parser(argparse.ArgumentParser):
    """argparse, except that a usage error is one line and exit status 2 like every other
    bad input (argparse prints the whole usage first)."""

    def error(self, message: str) -> NoReturn:
        raise MasfuzzError(f"{self.prog}: {message}")


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    parser = Parser(
        prog="masfuzz",
        description="Test LLM multi-agent systems and the tools their agents call.",
    )
    parser.add_argument("--version", action="version", version=f"masfuzz {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, module in COMMANDS.items():
        if only is not None and name != only:
            sub.add_parser(name, help=f"(see `masfuzz {name} --help`)", add_help=False)
            continue
        try:
            mod = importlib.import_module(f"masfuzz.cli.{module}")
        except ModuleNotFoundError as exc:
            if exc.name == f"masfuzz.cli.{module}":
                continue  # a command not built yet in this checkout
            raise
        mod.register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run one command; everything it prints passes through `masfuzz.redact`. A process the
    system under test left running (a daemon that escaped its process group) is ended with the
    command (`masfuzz.proc.Adopted`), and said."""
    from masfuzz.proc import Adopted
    from masfuzz.redact import RedactingStream

    out, err = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = RedactingStream(out), RedactingStream(err)
    adopted = Adopted()
    try:
        with adopted:
            return _main(argv)
    finally:
        if adopted.ended:
            print(f"masfuzz: note: ended {len(adopted.ended)} process(es) still running when the "
                  f"command ended (started by the system under test or its tools): "
                  f"{', '.join(adopted.ended[:5])}", file=sys.stderr)
        sys.stdout, sys.stderr = out, err


def _main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    # Register only the chosen command's module: the others may import heavy things.
    chosen = next((a for a in argv if not a.startswith("-")), None)
    parser = build_parser(chosen if chosen in COMMANDS else None)
    try:
        args = parser.parse_args(argv)
        if not getattr(args, "func", None):
            parser.print_help()
            return 2
        from masfuzz.options import resolve
        from masfuzz.redact import add_secret_names

        config = resolve(args.command, args)
        add_secret_names(config.secret_env)
        return int(args.func(config) or 0)
    except MasfuzzError as exc:
        print(f"masfuzz: error: {exc}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        print("masfuzz: interrupted", file=sys.stderr)
        return 130


def run() -> None:
    try:
        code = main()
        sys.stdout.flush()
    except BrokenPipeError:
        # the reader went away (`masfuzz exec ... | head`): what it wanted it has; no traceback,
        # and nothing more written to the closed pipe when Python flushes at exit
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        code = 1  # the output was cut short (Python's advice for a closed pipe)
    sys.exit(code)
