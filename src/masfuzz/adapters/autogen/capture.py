"""Capture a team that an app builds inside `async main()`.

Many AgentChat apps have no module-level team: `main()` builds one and runs it. masfuzz runs
that coroutine with the team constructors wrapped: every team built is remembered, and the first
call of `run`/`run_stream` raises a private exception that stops `main()` before any agent
speaks. The team it was called on is the system under test (an outer team, not a nested one).
"""

from __future__ import annotations

import builtins
import contextlib
import inspect
import threading
from typing import Any, Iterator

from autogen_agentchat.teams import BaseGroupChat

from masfuzz.adapters.syncrun import run_coroutine_sync
from masfuzz.errors import TargetError


class _Captured(BaseException):
    """Raised from a wrapped `run`/`run_stream`; a BaseException so `except Exception` in the
    user's code does not swallow it."""

    def __init__(self, team: Any) -> None:
        super().__init__("team captured")
        self.team = team


_lock = threading.Lock()  # the wrapping is process-wide: one capture at a time


@contextlib.contextmanager
def _wrapped_constructors(built: list[Any]) -> Iterator[None]:
    original_init = BaseGroupChat.__init__
    original_run, original_stream = BaseGroupChat.run, BaseGroupChat.run_stream

    def init(self: Any, *args: Any, **kwargs: Any) -> None:
        original_init(self, *args, **kwargs)
        built.append(self)

    def stop(self: Any, *args: Any, **kwargs: Any) -> Any:
        raise _Captured(self)

    def task(prompt: Any = "") -> str:
        # a chat loop (`while True: task = input(...)`) asks for its task before running the
        # team: answer, so the loop reaches `run` and the team is captured, never the terminal
        return "masfuzz capture"

    with _lock:
        BaseGroupChat.__init__ = init  # type: ignore[method-assign]
        BaseGroupChat.run = stop  # type: ignore[method-assign]
        BaseGroupChat.run_stream = stop  # type: ignore[method-assign]
        original_input, builtins.input = builtins.input, task
        try:
            yield
        finally:
            builtins.input = original_input
            BaseGroupChat.__init__ = original_init  # type: ignore[method-assign]
            BaseGroupChat.run = original_run  # type: ignore[method-assign]
            BaseGroupChat.run_stream = original_stream  # type: ignore[method-assign]


def capture_team(func: Any, target: str) -> Any:
    """Run `func` (an async function, or a plain one) until it runs a team; return that team."""
    built: list[Any] = []
    name = getattr(func, "__qualname__", "main")
    with _wrapped_constructors(built):
        try:
            result = func()
            if inspect.isawaitable(result):
                result = run_coroutine_sync(result)
        except _Captured as captured:
            return captured.team
        except TargetError:
            raise
        except Exception as exc:
            if built:  # it failed after building a team (e.g. opening a UI): the team is enough
                return built[-1]
            raise TargetError(
                f"{target}: running {name}() to capture its team failed: {type(exc).__name__}: {exc}"
            ) from None
    if isinstance(result, BaseGroupChat):
        return result
    if built:
        return built[-1]
    raise TargetError(f"{target}: {name}() finished without building an AutoGen team")


def find_team(module: Any, target: str) -> Any | None:
    """A module-level team, else the team `main()` builds; None if the module has neither."""
    teams = [v for v in vars(module).values() if isinstance(v, BaseGroupChat)]
    if teams:
        return teams[0]
    main = getattr(module, "main", None)
    if callable(main) and getattr(main, "__module__", None) == module.__name__:
        return capture_team(main, target)
    return None
