"""Where a Python function of the user's is defined, as a `SourceLocation` for the spec.

Paths are shown relative to the working directory when below it, else as the bare file name:
specs and reports never carry machine-specific absolute paths.
"""

from __future__ import annotations

import inspect
from pathlib import Path
from typing import Any

from masfuzz.spec.model import SourceLocation


def display_path(file: str) -> str:
    try:
        return str(Path(file).resolve().relative_to(Path.cwd()))
    except ValueError:
        return Path(file).name


def function_site(func: Any) -> SourceLocation | None:
    if func is None:
        return None
    try:
        func = inspect.unwrap(func)
        file = inspect.getsourcefile(func)
        line = inspect.getsourcelines(func)[1]
    except (TypeError, OSError):
        return None
    return SourceLocation(file=display_path(file), line=line) if file else None
