"""Run a coroutine to completion from synchronous code, even when an event loop is running.

Framework code sometimes calls back synchronously into masfuzz from inside an event loop (a
LangChain model's sync `invoke` in a node; an app's `async main()` captured while masfuzz's own
loop runs). `asyncio.run` refuses there, so the coroutine gets a helper thread with its own loop,
and the caller's context: a run's sampling and settings (`masfuzz.llm.sampling`) are context
variables, which a new thread would otherwise start without.
"""

from __future__ import annotations

import asyncio
import contextvars
import threading
from typing import Any, Coroutine


def run_coroutine_sync(coro: Coroutine[Any, Any, Any]) -> Any:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(coro)
    box: dict[str, Any] = {}
    context = contextvars.copy_context()

    def work() -> None:
        try:
            box["value"] = context.run(asyncio.run, coro)
        except BaseException as exc:  # re-raised in the caller's thread
            box["error"] = exc

    thread = threading.Thread(target=work, name="masfuzz-sync-run")
    thread.start()
    thread.join()
    if "error" in box:
        raise box["error"]
    return box.get("value")
