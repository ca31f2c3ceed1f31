"""Where in the user's source each agent and tool is defined (file:line), found after the fact.

An `Agent(...)` call leaves no trace of its call site on the object, so agents are located in
the source text: the modules whose globals hold the agent are parsed, and the agent is matched to
the `X = Agent(...)` assignment of the variable that holds it, else to an `Agent(name="...")`
(or `.clone(name="...")`) call with its name. Function tools are located by their Python
function; `as_tool` tools by their `.as_tool(tool_name="...")` call; hosted tools by the call
that builds them in their owner's file.
"""

from __future__ import annotations

import ast
import inspect
import os
import sys
import sysconfig
from functools import lru_cache
from pathlib import Path
from typing import Any

from masfuzz.spec.model import SourceLocation

_AGENT_FACTORIES = {"Agent", "clone"}


def relative(file: str | os.PathLike[str]) -> str:
    """A path relative to the working directory when it is below it (specs and reports must
    not carry machine-specific absolute paths for files of the project under test)."""
    p = Path(file)
    try:
        return p.resolve().relative_to(Path.cwd().resolve()).as_posix()
    except (ValueError, OSError):
        return str(p)


def source_of_callable(fn: Any) -> tuple[str, str, int] | None:
    """(source text, file, first line) of a function, or None if Python cannot tell."""
    fn = inspect.unwrap(fn)
    try:
        file = inspect.getsourcefile(fn)
        lines, first = inspect.getsourcelines(fn)
    except (OSError, TypeError):
        return None
    if not file:
        return None
    import textwrap

    return textwrap.dedent("".join(lines)), file, first


@lru_cache(maxsize=256)
def _parse(file: str) -> ast.Module | None:
    try:
        return ast.parse(Path(file).read_text(encoding="utf-8"), filename=file)
    except (OSError, SyntaxError, UnicodeDecodeError, ValueError):
        return None


def _callee(node: ast.Call) -> str | None:
    f = node.func
    if isinstance(f, ast.Subscript):  # Agent[Context](...)
        f = f.value
    if isinstance(f, ast.Attribute):
        return f.attr
    if isinstance(f, ast.Name):
        return f.id
    return None


def _kw_literal(node: ast.Call, name: str) -> Any:
    for kw in node.keywords:
        if kw.arg == name and isinstance(kw.value, ast.Constant):
            return kw.value.value
    return None


class Locator:
    def __init__(self, module: Any = None) -> None:
        self.module = module
        self._stdlib = {os.path.realpath(p) for p in (sysconfig.get_paths().get("stdlib", ""),
                                                      sysconfig.get_paths().get("purelib", ""),
                                                      sysconfig.get_paths().get("platlib", ""))
                        if p}
        self._bindings: dict[int, list[tuple[str, str]]] | None = None
        self._used: set[tuple[str, int]] = set()

    # --- agents ----------------------------------------------------------------------------

    def agent(self, agent: Any, tools: list[Any]) -> SourceLocation | None:
        name = getattr(agent, "name", None)
        bindings = self._agent_bindings().get(id(agent), [])
        for file, var in bindings:
            line = self._assignment_line(file, var, name)
            if line is not None:
                self._used.add((file, line))
                return SourceLocation(file=relative(file), line=line)
        files = [f for f, _ in bindings] + self._candidate_files(tools)
        for file in dict.fromkeys(files):
            for line in self._named_calls(file, name):
                if (file, line) not in self._used:  # two agents with one name: next call
                    self._used.add((file, line))
                    return SourceLocation(file=relative(file), line=line)
        if files:
            return SourceLocation(file=relative(files[0]))
        return None

    def _user_file(self, file: str | None) -> bool:
        if not file or not file.endswith(".py"):
            return False
        real = os.path.realpath(file)
        return not any(real.startswith(p + os.sep) for p in self._stdlib)

    def _agent_bindings(self) -> dict[int, list[tuple[str, str]]]:
        """id(agent) -> [(file, global name)] over the user's loaded modules (not the stdlib or
        site-packages), computed once per extraction."""
        if self._bindings is None:
            from masfuzz.adapters.openai_agents import sdk

            agent_cls = sdk.require().Agent
            found: dict[int, list[tuple[str, str]]] = {}
            for mod in list(sys.modules.values()):
                file = getattr(mod, "__file__", None)
                if not self._user_file(file) or "/masfuzz/" in (file or ""):
                    continue
                try:
                    items = list(vars(mod).items())
                except TypeError:
                    continue
                for var, value in items:
                    if isinstance(value, agent_cls):
                        found.setdefault(id(value), []).append((file, var))
            # The target's own module first: its binding is the one the user named.
            own = getattr(self.module, "__file__", None)
            for pairs in found.values():
                pairs.sort(key=lambda fv: fv[0] != own)
            self._bindings = found
        return self._bindings

    def _candidate_files(self, tools: list[Any]) -> list[str]:
        from masfuzz.adapters.openai_agents import sdk

        files = []
        own = getattr(self.module, "__file__", None)
        if own:
            files.append(own)
        for tool in tools:
            fn = sdk.tool_function(tool) if sdk.is_function_tool(tool) else None
            try:
                file = inspect.getsourcefile(inspect.unwrap(fn)) if fn else None
            except TypeError:
                file = None
            if file and self._user_file(file):
                files.append(file)
        return files

    @staticmethod
    def _assignment_line(file: str, var: str, name: Any) -> int | None:
        tree = _parse(file)
        if tree is None:
            return None
        lines = []
        for node in ast.walk(tree):
            if isinstance(node, (ast.Assign, ast.AnnAssign)) and isinstance(node.value, ast.Call):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                if any(isinstance(t, ast.Name) and t.id == var for t in targets):
                    named = _kw_literal(node.value, "name")
                    lines.append((named != name, node.value.lineno))
        return min(lines)[1] if lines else None

    @staticmethod
    def _named_calls(file: str, name: Any) -> list[int]:
        tree = _parse(file)
        if tree is None or name is None:
            return []
        return sorted(
            node.lineno for node in ast.walk(tree)
            if isinstance(node, ast.Call) and _callee(node) in _AGENT_FACTORIES
            and _kw_literal(node, "name") == name
        )

    # --- tools -----------------------------------------------------------------------------

    def function_tool(self, tool: Any) -> SourceLocation | None:
        from masfuzz.adapters.openai_agents import sdk

        fn = sdk.tool_function(tool)
        if fn is None:
            return None
        fn = inspect.unwrap(fn)
        try:
            file = inspect.getsourcefile(fn)
        except TypeError:
            return None
        code = getattr(fn, "__code__", None)
        if not file:
            return None
        return SourceLocation(file=relative(file), line=code.co_firstlineno if code else None)

    def as_tool(self, tool_name: str, inner: Any) -> SourceLocation | None:
        files = [f for f, _ in self._agent_bindings().get(id(inner), [])]
        own = getattr(self.module, "__file__", None)
        for file in dict.fromkeys(([own] if own else []) + files):
            tree = _parse(file)
            if tree is None:
                continue
            for node in ast.walk(tree):
                if (isinstance(node, ast.Call) and _callee(node) == "as_tool"
                        and _kw_literal(node, "tool_name") == tool_name):
                    return SourceLocation(file=relative(file), line=node.lineno)
        return self.agent(inner, []) if inner is not None else None

    def hosted(self, tool: Any, owner: Any) -> SourceLocation | None:
        """The first call building a tool of this class in the owner's files."""
        cls = type(tool).__name__
        own = getattr(self.module, "__file__", None)
        files = ([own] if own else []) + [f for f, _ in self._agent_bindings().get(id(owner), [])]
        for file in dict.fromkeys(files):
            tree = _parse(file)
            if tree is None:
                continue
            lines = sorted(n.lineno for n in ast.walk(tree)
                           if isinstance(n, ast.Call) and _callee(n) == cls)
            if lines:
                return SourceLocation(file=relative(file), line=lines[0])
        return SourceLocation(file=relative(files[0])) if files else None
