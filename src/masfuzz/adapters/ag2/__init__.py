"""AutoGen 0.2 / AG2 (`pip install masfuzz[ag2]`, module `autogen`): see `adapter`."""

from __future__ import annotations

import inspect
from typing import Any

try:
    import autogen
except ImportError:  # pragma: no cover - the extra is not installed
    autogen = None

if autogen is not None and hasattr(autogen, "ConversableAgent"):
    from masfuzz.adapters.ag2.adapter import AG2Adapter
    from masfuzz.adapters.ag2.program import Program, built_by
else:  # pragma: no cover
    AG2Adapter = Program = built_by = None  # type: ignore[assignment,misc]

ADAPTER = AG2Adapter


def program(path: str) -> Any | None:
    """A script named without an attribute (`app.py`) is a program: it is run as its author
    runs it, never imported by the loader (its module-level chats would run unredirected).
    Called by `masfuzz.adapters.base.program_target` for files that import `autogen`."""
    return Program.script(path) if Program is not None else None


def capture(obj: Any, target: str) -> Any | None:
    """A function target that starts AG2 chats is a `Program`; one that returns an agent or
    manager is a factory (its result). Called by `masfuzz.adapters.base.resolve`."""
    if built_by is None or not (inspect.isfunction(obj) or inspect.iscoroutinefunction(obj)):
        return None
    return built_by(obj, target)



def tools_of(obj: Any, notes: list[str]) -> list[Any]:
    """Tool fuzzing's hook: the functions the app's agents execute, with the parameters AG2
    injects bound (`tools.app_tools`); a program is read, its chats noted and none run."""
    from masfuzz.adapters.ag2.tools import app_tools

    return app_tools(obj, notes)
