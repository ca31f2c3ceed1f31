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


def code_objects(code: Any) -> list[Any]:
    """A function's code and the code of the functions, lambdas and comprehensions inside it,
    outermost first (depth first, in the order the code holds them)."""
    out = [code]
    for const in code.co_consts:
        if inspect.iscode(const):
            out += code_objects(const)
    return out


def code_names(code: Any) -> list[str]:
    """The global and attribute names a function's code uses, the functions inside it included."""
    return [n for c in code_objects(code) for n in c.co_names]


def code_strings(code: Any) -> set[str]:
    """The string constants of a function's code, the functions inside it included."""
    return {x for c in code_objects(code) for x in c.co_consts if isinstance(x, str)}
