"""AG2 apps that run their chats themselves: a script (`app.py`, run as `__main__`, the way its
author runs it), a Jupyter notebook (`lesson.ipynb`, its code cells in order, as `jupyter
nbconvert --to script` would run them) or a function (`app.py:main`, sync or async).

Such an app has no one object to hand over: its structure is the chats it starts. `read` runs
the program with every chat noted and none run (`live.Session(mode="read")`), so its agents,
their nested chats and the order of its chats are known without a model; `play` runs it again
for real with its agents pointed at masfuzz's endpoint as they are built. Each run executes the
program afresh, so module-level state (a chess board, a flag, a list of results) starts clean.

A program's own `input()` gets scripted answers (`live.Session.read_line`): the scenario's input
(the task) until the program starts a chat, then `exit` (which ends the usual `while True:
input()` loops), then end of file. Running out of scripted input ends a program the way a
closed stdin would, and is not the program's failure.
"""

from __future__ import annotations

import builtins
import contextlib
import inspect
import runpy
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import autogen
from autogen.io.base import IOStream

from masfuzz.adapters.ag2 import live
from masfuzz.adapters.syncrun import run_coroutine_sync
from masfuzz.errors import TargetError
from masfuzz.loader import NOTEBOOK_BUILTINS, notebook_script, notebook_source
from masfuzz.sutenv import sut_environment

READ_TASK = "(the task masfuzz will give)"  # what a program's input() reads while it is read


@dataclass(frozen=True)
class Program:
    """A script or a function that runs AG2 chats."""

    name: str
    path: Path | None = None
    func: Any = None

    @classmethod
    def script(cls, path: str | Path) -> "Program":
        p = Path(path).resolve()
        return cls(p.stem, path=p)

    @property
    def notebook(self) -> bool:
        return self.path is not None and self.path.suffix == ".ipynb"

    @classmethod
    def function(cls, func: Any) -> "Program":
        return cls(getattr(func, "__name__", "main"), func=func)

    def start(self) -> Any:
        """Run the program once, in this thread, with whatever session is active."""
        if self.path is not None:
            folder = str(self.path.parent)
            if folder not in sys.path:
                sys.path.append(folder)  # its sibling modules import; nothing is shadowed
            saved = sys.argv
            sys.argv = [str(self.path)]
            try:
                if self.notebook:
                    return _run_notebook(self.path)
                return runpy.run_path(str(self.path), run_name="__main__")
            finally:
                sys.argv = saved
        result = self.func()
        return run_coroutine_sync(result) if inspect.isawaitable(result) else result


def _run_notebook(path: Path) -> dict[str, Any]:
    """A notebook's code cells in order, in a fresh `__main__` namespace holding what Jupyter
    gives every notebook (`display`, written to stderr here)."""
    source = notebook_source(path)
    code = compile(source, str(notebook_script(path, source)), "exec")
    namespace: dict[str, Any] = {"__name__": "__main__", "__file__": str(path), **NOTEBOOK_BUILTINS}
    exec(code, namespace)  # noqa: S102 - running the user's notebook is the point
    return namespace


def _input(original: Any) -> Any:
    def masfuzz_input(prompt: Any = "") -> str:
        s = live.current()
        return s.read_line(str(prompt)) if s is not None else original(prompt)
    masfuzz_input._masfuzz = True  # type: ignore[attr-defined]
    return masfuzz_input


def install() -> None:
    live.install()
    if not getattr(builtins.input, "_masfuzz", False):
        builtins.input = _input(builtins.input)


def _logs_to_stderr() -> None:
    """AG2's loggers write to stdout through handlers made before any redirection: point them
    at stderr (masfuzz's stdout is its own output, e.g. a JSON document)."""
    import logging

    for name, logger in list(logging.Logger.manager.loggerDict.items()):
        if not name.startswith("autogen") or not isinstance(logger, logging.Logger):
            continue
        for h in logger.handlers:
            if isinstance(h, logging.StreamHandler) and h.stream in (sys.__stdout__, sys.stdout):
                h.setStream(sys.stderr)


@contextlib.contextmanager
def session(s: live.Session) -> Any:
    """`s` active in this context, the framework's console on the session, the app's prints on
    stderr: nothing the app or AG2 prints can reach masfuzz's stdout."""
    install()
    _logs_to_stderr()
    token = live.activate(s)
    try:
        # the program runs afresh every time: it may read a key as it builds its agents
        with IOStream.set_default(live.Stream(s)), contextlib.redirect_stdout(sys.stderr), \
                sut_environment():
            yield s
    finally:
        live.deactivate(token)


def _read(program: "Program", target: str) -> tuple[live.Session, Any]:
    """Run `program` with chats noted and not run: (the session, what it returned)."""
    s = live.Session(mode="read", task_answer=READ_TASK)
    result = None
    with session(s):
        try:
            result = program.start()
        except (live.StopReading, EOFError, SystemExit):
            pass
        except Exception as exc:
            if not s.chats:
                raise TargetError(f"{target}: running {program.name} to read its chats failed: "
                                  f"{type(exc).__name__}: {exc}") from None
            # it failed after starting its chats (using a result masfuzz did not compute):
            # what it started is the plan
    return s, result


def read(program: Program, target: str) -> live.Session:
    """The chats `program` starts and the agents it builds, without running any chat."""
    s, _ = _read(program, target)
    if not s.chats:
        raise TargetError(f"{target}: {program.name} started no AG2 chat "
                          "(name the agent or group chat manager instead: file.py:attr)")
    return s


def built_by(func: Any, target: str) -> Any | None:
    """What a function target is: a factory (it returns an agent or manager and starts no
    chat: that object), a program (it starts chats: a `Program`), or neither (None). It is
    called once, with chats noted and not run, so telling them apart runs no model."""
    program = Program.function(func)
    s, result = _read(program, target)
    if s.chats:
        return program
    return result if isinstance(result, autogen.ConversableAgent) else None


def play(program: Program, s: live.Session) -> str | None:
    """Run `program` for real under the recording session `s`; the crash message, if any."""
    with session(s):
        try:
            program.start()
        except EOFError:
            if not s.top_chats:
                return "EOFError: the program read more input than masfuzz gives before any chat"
        except SystemExit as exc:
            if exc.code not in (None, 0):
                return f"SystemExit: {exc.code}"
        except Exception as exc:  # the app's own failure is a finding
            return f"{type(exc).__name__}: {exc}"
    return None
