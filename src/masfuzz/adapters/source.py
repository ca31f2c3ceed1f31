"""Where a Python function of the user's is defined, as a `SourceLocation` for the spec, and
its code as the adapters read it (`code_of`: which agents a tool or a node runs).

Paths are shown relative to the working directory when below it, else as the bare file name:
specs and reports never carry machine-specific absolute paths.
"""

from __future__ import annotations

import ast
import inspect
import textwrap
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


def code_of(function: Any) -> tuple[ast.AST, dict[str, Any]] | None:
    """The syntax tree of a function's source and the values its names have (its globals and
    closure), or None when Python has no source for it."""
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(inspect.unwrap(function))))
    except (OSError, TypeError, SyntaxError):
        return None
    names = dict(getattr(function, "__globals__", {}))
    try:
        names.update(inspect.getclosurevars(function).nonlocals)
    except (TypeError, ValueError):
        pass
    return tree, names
