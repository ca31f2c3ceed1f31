"""The swallowed-error oracle: a tool that catches an exception, logs it and returns an empty or
default value (None, "", [], {}, 0, False) has failed as surely as one that raised, but the
agent sees a plausible "nothing" and goes on with it. The call's process records the exceptions
the tool logs (`logging` with exc_info: `logger.exception(...)`, and `traceback.print_exc()`);
a call that returned such a value after logging one is a finding of its own (`SwallowedError`),
keyed by the logged exception's type, message and frames like a raised one. A tool that logs
and then returns an error message is handling the error, and is not this.
"""

from __future__ import annotations

import logging
import traceback
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

SWALLOWED_ERROR = "SwallowedError"  # error_type of such a finding


@dataclass
class Logged:
    error_type: str
    message: str
    frames: list[tuple[str, int, str]]


class _Recorder(logging.Handler):
    def __init__(self, found: list[Logged]) -> None:
        super().__init__(logging.NOTSET)
        self.found = found

    def emit(self, record: logging.LogRecord) -> None:
        if record.exc_info and record.exc_info[1] is not None:
            self.found.append(_logged(record.exc_info[1]))


def _logged(exc: BaseException) -> Logged:
    frames = [(f.filename, f.lineno or 0, f.name) for f in traceback.extract_tb(exc.__traceback__)]
    return Logged(type(exc).__name__, str(exc), frames)


@contextmanager
def logged_exceptions() -> Iterator[list[Logged]]:
    """The exceptions logged or printed with their traceback while the block runs. Only in a
    call's own process (it patches `traceback` for the call)."""
    found: list[Logged] = []
    recorder = _Recorder(found)
    root = logging.getLogger()
    root.addHandler(recorder)
    printing = traceback.print_exception

    def recorded(exc: Any, *args: Any, **kwargs: Any) -> None:
        value = exc if isinstance(exc, BaseException) else (args[0] if args else None)
        if isinstance(value, BaseException):
            found.append(_logged(value))
        printing(exc, *args, **kwargs)

    traceback.print_exception = recorded  # print_exc() calls it too
    try:
        yield found
    finally:
        traceback.print_exception = printing
        root.removeHandler(recorder)


def is_default(value: Any) -> bool:
    """An empty or default return: what a function gives when it gave up."""
    if isinstance(value, bool) or value is None:
        return value is None or value is False
    if isinstance(value, (int, float)):
        return value == 0
    if isinstance(value, (str, bytes, list, tuple, dict, set)):
        return len(value.strip() if isinstance(value, (str, bytes)) else value) == 0
    return False


def swallowed(result: Any, logged: list[Logged]) -> Logged | None:
    """The exception a call swallowed: the last one it logged, when it then returned an empty
    or default value (None: it did not)."""
    if not logged or not is_default(result):
        return None
    return logged[-1]
