"""Load the object a user names as a target: `path/to/file.py:attr`, `pkg.mod:attr`, or
`file.py:factory("arg")`.

Rules (docs/architecture.md, "Loading a target"), each one a lesson from real apps:
- A file inside a regular package is imported by its dotted name from the first ancestor folder
  that is not a package, with that folder on `sys.path`. The file's own folder is never put at
  the front of `sys.path`: an app folder named `agents/` would shadow the Agents SDK. A plain
  script's folder is appended at the end, so its sibling modules import and nothing is shadowed.
  A module a file imports by a name nothing provides is looked for in the file's ancestors,
  then in the folder masfuzz runs in (the app's, for a `--context` factory kept outside it),
  and that folder is appended.
- A plain script is loaded under a name other than `__main__`, so its `if __name__ ==
  "__main__"` block never runs.
- The agent frameworks the file imports are imported first, from site-packages.
- A Jupyter notebook (`nb.ipynb:team`) is imported from its code cells, written to
  `.masfuzz/notebooks/<name>.py` beside it (`notebook_script`) so that tracebacks and code
  coverage name real lines. A cell's first statement that `await`s at top level, or starts a task
  on the notebook's event loop (`asyncio.create_task(...)`), is the notebook running its system
  (`await Console(team.run_stream(...))`): it and the rest of its cell are left out (masfuzz
  runs the system); the definitions before it stay.
"""

from __future__ import annotations

import ast
import contextlib
import functools
import getpass
import importlib
import importlib.util
import io
import os
import re
import signal
import sys
import threading
import traceback
from dataclasses import dataclass
from pathlib import Path
from collections.abc import Iterator
from typing import Any, Callable

from masfuzz.errors import TargetError

# Frameworks imported before the user's file, keyed by the top-level name the file imports.
FRAMEWORKS = _FRAMEWORKS = ("agents", "autogen_agentchat", "autogen_core", "autogen", "langgraph", "langchain_core")


@dataclass
class LoadedTarget:
    obj: Any
    target: str  # as the user wrote it
    module: Any
    attr: str | None
    file: Path | None


def split_target(target: str) -> tuple[str, str | None]:
    """`a/b.py:attr` -> ("a/b.py", "attr"); a Windows drive colon is not a separator."""
    head, sep, tail = target.rpartition(":")
    if not sep or not head or "/" in tail or "\\" in tail:
        return target, None
    return head, tail


def load_target(target: str, *, call_factories: bool = False) -> LoadedTarget:
    where, attr_expr = split_target(target)
    module, file = _import(where, target)
    if attr_expr is None:
        return LoadedTarget(module, target, module, None, file)
    obj = _resolve_attr(module, attr_expr, target)
    return LoadedTarget(obj, target, module, attr_expr, file)


def load_callable(ref: str, option: str) -> Any:
    """The function `ref` names (`MODULE:NAME` or `FILE.py:NAME`) for an option that takes one
    (`--context`, `--setup`): one line naming the option when it is not there or not callable."""
    where, attr = split_target(ref)
    if attr is None:
        raise TargetError(f"{option} {ref}: name a function as MODULE:FUNCTION or FILE.py:FUNCTION")
    try:
        obj = load_target(ref).obj
    except TargetError as exc:
        raise TargetError(f"{option} {exc}") from None
    if not callable(obj):
        raise TargetError(f"{option} {ref}: {attr} is not a function")
    return obj


# The folder a relative file path names a file from, while it is not the current folder: a
# sandboxed worker runs the system in its scratch folder (`masfuzz.exec.sandbox.running`), where
# a file the user named (`--context FILE.py:NAME`, loaded as the run starts) still means what it
# meant in the folder masfuzz ran in.
_RELATIVE_TO: list[str] = []

# Where a file the user named (as named) really is, for a sandboxed worker that cannot follow
# the name: the sandbox may not show the folder masfuzz ran in, nor a link on the way, so such a
# target is found at its real path (`masfuzz.exec.sandbox.Plan.real_paths`).
REAL_PATHS: dict[str, str] = {}


@contextlib.contextmanager
def paths_relative_to(folder: str) -> Iterator[None]:
    _RELATIVE_TO.append(folder)
    try:
        yield
    finally:
        _RELATIVE_TO.pop()


def _import(where: str, target: str) -> tuple[Any, Path | None]:
    looks_like_file = where.endswith((".py", ".ipynb")) or "/" in where or "\\" in where
    if not looks_like_file:
        try:
            return call_user(importlib.import_module, where, failed=f"{target}: importing {where} failed",
                             let=(ModuleNotFoundError,)), None
        except ModuleNotFoundError as exc:
            if exc.name and where.startswith(exc.name):
                raise TargetError(f"{target}: no module named {where!r}") from None
            raise TargetError(f"{target}: importing {where} failed: {_describe(exc, None)}") from None
    path = Path(REAL_PATHS.get(where, where)).expanduser()
    if not path.is_absolute() and _RELATIVE_TO:
        path = Path(_RELATIVE_TO[-1]) / path
    if not path.exists():
        raise TargetError(f"{target}: no such file {where!r}")
    if path.is_dir():
        raise TargetError(f"{target}: {where!r} is a folder; name a .py file")
    path = path.resolve()
    _import_frameworks_first(path)
    root, dotted = package_root(path)
    with _Interrupts() as interrupts:
        return _import_user_file(path, root, dotted, target, interrupts), path


def _import_user_file(path: Path, root: Path, dotted: str | None, target: str,
                      interrupts: "_Interrupts") -> Any:
    try:
        return _import_file(path, root, dotted)
    except ModuleNotFoundError as exc:
        # A script inside a project often imports the project's packages by absolute name
        # (`from examples.helpers import x`) and is meant to run from the project root. Find
        # the ancestor holding that package and append it, as the user's PYTHONPATH would.
        home = _ancestor_providing(path, exc.name)
        if home is None:
            raise TargetError(f"{target}: importing {path.name} failed: {_describe(exc, path)}") from None
        sys.path.append(str(home))
        try:
            return _import_file(path, root, dotted)
        except BaseException as again:
            interrupts.reraise_if_the_users(again)
            raise TargetError(f"{target}: importing {path.name} failed: {_describe(again, path)}") from None
    except TargetError:
        raise
    except SyntaxError as exc:
        raise TargetError(f"{target}: syntax error at {exc.filename}:{exc.lineno}: {exc.msg}") from None
    except BaseException as exc:  # SystemExit, and a KeyboardInterrupt the module raises itself
        interrupts.reraise_if_the_users(exc)
        raise TargetError(f"{target}: importing {path.name} failed: {_describe(exc, path)}") from None


class _Interrupts:
    """Tells a Ctrl-C of the user's from a `KeyboardInterrupt` the target's own code raises
    (`raise KeyboardInterrupt` at import, in a factory): the first interrupts masfuzz, the second
    is a load error of the target like any other exception. While it is entered, SIGINT raises
    through a handler that notes it; a handler other than Python's default is left alone, and
    then every KeyboardInterrupt counts as the user's."""

    def __init__(self) -> None:
        self.signalled = False
        self._saved: Any = None

    def __enter__(self) -> "_Interrupts":
        if threading.current_thread() is threading.main_thread() \
                and signal.getsignal(signal.SIGINT) is signal.default_int_handler:
            self._saved = signal.signal(signal.SIGINT, self._handler)
        else:
            self.signalled = signal.getsignal(signal.SIGINT) is not signal.SIG_IGN
        return self

    def _handler(self, signum: int, frame: Any) -> None:
        self.signalled = True
        raise KeyboardInterrupt

    def __exit__(self, *exc: object) -> None:
        if self._saved is not None:
            signal.signal(signal.SIGINT, self._saved)

    def reraise_if_the_users(self, exc: BaseException) -> None:
        """Raise `exc` again when it is the user's Ctrl-C (or no exception at all: a generator
        closing, an exit of masfuzz's own)."""
        if isinstance(exc, KeyboardInterrupt) and self.signalled:
            raise exc
        if isinstance(exc, GeneratorExit):
            raise exc


def call_user(fn: Callable[..., Any], *args: Any, failed: str,
              let: tuple[type[BaseException], ...] = (), **kwargs: Any) -> Any:
    """`fn(*args, **kwargs)` of the target's (a factory, a property): anything it raises, a
    `SystemExit` or a `KeyboardInterrupt` of its own too, is a `TargetError` reading
    `<failed>: Type: message (file:line)`; the exception types in `let` pass through."""
    with _Interrupts() as interrupts:
        try:
            return fn(*args, **kwargs)
        except let:
            raise
        except TargetError:
            raise
        except BaseException as exc:
            interrupts.reraise_if_the_users(exc)
            raise TargetError(f"{failed}: {_describe(exc, None)}") from None


def _import_file(path: Path, root: Path, dotted: str | None) -> Any:
    # A file that reads its task with input() as it loads reads end of file, as under a closed
    # terminal: masfuzz never waits on the user's keyboard, or on a worker's request channel.
    saved, sys.stdin = sys.stdin, io.StringIO("")
    asked, getpass.getpass = getpass.getpass, functools.partial(_no_secret_prompt, path)
    try:
        if path.suffix == ".ipynb":
            return _import_script(notebook_script(path, notebook_source(path, imported=True)),
                                  preset=NOTEBOOK_BUILTINS)
        if dotted is not None:
            if str(root) not in sys.path:
                sys.path.insert(0, str(root))
            module = importlib.import_module(dotted)
            if _is_file(module, path):
                return module
            # that name is another folder's module (loaded first, or ahead on the path: two
            # `policies/scripted.py` of two projects): this file, by its path, under its own name
        return _import_script(path)
    finally:
        sys.stdin = saved
        getpass.getpass = asked


def _is_file(module: Any, path: Path) -> bool:
    where = getattr(module, "__file__", None)
    return where is not None and Path(where).resolve() == path


def _no_secret_prompt(path: Path, prompt: str = "Password: ", stream: Any = None) -> str:
    """A file asking for a secret as it loads (a notebook's `getpass("Please provide your
    X_API_KEY")` when the variable is unset): getpass reads the terminal, not stdin, so it would
    wait on it or fail with a bare EOFError. Say what it asked and the way out."""
    raise TargetError(
        f"{path.name} asks for a secret as it loads (getpass: {str(prompt).strip()!r}) and masfuzz "
        "answers no prompt: set the variable it asks for in the environment (a sandboxed run "
        "also needs --pass-env NAME, or a dummy value when masfuzz's model replaces the one it is for)")


def _ancestor_providing(path: Path, name: str | None) -> Path | None:
    """The nearest ancestor folder of `path` that holds the top-level module `name`, else the
    folder masfuzz runs in when it holds it: a file written outside the app (a `--context`
    factory) imports the app's own modules by name, as the app does from its own folder."""
    if not name:
        return None
    top = name.split(".")[0]
    for folder in (*path.parents, Path.cwd()):
        if str(folder) in sys.path:
            continue
        if (folder / top).is_dir() or (folder / f"{top}.py").is_file():
            return folder
    return None


def package_root(path: Path) -> tuple[Path, str | None]:
    """The first ancestor that is not a regular package, and the file's dotted name from it."""
    # A package's own `__init__.py` is the package itself, not a module named `pkg.__init__`.
    parts = [] if path.stem == "__init__" else [path.stem]
    folder = path.parent
    while (folder / "__init__.py").exists():
        parts.insert(0, folder.name)
        folder = folder.parent
    if len(parts) == 1 and path.stem != "__init__":
        return folder, None
    return folder, ".".join(parts)


def _import_script(path: Path, preset: dict[str, Any] | None = None) -> Any:
    name = "masfuzz_target_" + re.sub(r"\W", "_", str(path.with_suffix("")).strip("/"))
    if name in sys.modules:
        return sys.modules[name]
    folder = str(path.parent)
    if folder not in sys.path:
        sys.path.append(folder)  # siblings import; nothing installed is shadowed
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise TargetError(f"{path}: cannot be imported as Python")
    module = importlib.util.module_from_spec(spec)
    module.__dict__.update(preset or {})
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        sys.modules.pop(name, None)
        raise
    return module


# What Jupyter gives every notebook's code: `display` (written to stderr, never masfuzz's stdout).
NOTEBOOK_BUILTINS: dict[str, Any] = {"display": lambda *objs, **_: print(*objs, file=sys.stderr)}


def notebook_script(path: Path, source: str) -> Path:
    """Where a notebook's code runs from: `.masfuzz/notebooks/<name>.py` beside the notebook
    (masfuzz's own folder), so that tracebacks and code coverage name real lines of a real
    Python file. When that folder cannot be written (a read-only checkout; the sandbox, which
    shows the notebook's folder read-only and hides its dot-folders) the temporary folder's."""
    import tempfile

    for folder in (path.parent / ".masfuzz" / "notebooks", Path(tempfile.gettempdir()) / "masfuzz-notebooks"):
        script = folder / f"{path.stem}.py"
        try:
            if not script.is_file() or script.read_text(encoding="utf-8") != source:
                script.parent.mkdir(parents=True, exist_ok=True)
                part = script.with_suffix(f".{os.getpid()}.part")
                part.write_text(source, encoding="utf-8")
                os.replace(part, script)  # whole, even with several workers writing it
            return script
        except OSError:
            continue
    return path


def _awaits_at_top_level(code: str) -> bool:
    try:
        compile(code, "<cell>", "exec")
        return False
    except SyntaxError:
        try:
            compile(code, "<cell>", "exec", flags=ast.PyCF_ALLOW_TOP_LEVEL_AWAIT)
            return True
        except SyntaxError:
            return False  # a plain syntax error: the import reports it


_TASK_STARTS = {"create_task", "ensure_future"}


def _starts_a_task(code: str) -> bool:
    """A statement that starts the system on the notebook's running event loop
    (`run = asyncio.create_task(Console(team.run_stream(...)))`, then stopped or cancelled
    later): Jupyter gives it a loop, a script has none ("no running event loop")."""
    try:
        tree = compile(code, "<cell>", "exec", flags=ast.PyCF_ONLY_AST | ast.PyCF_ALLOW_TOP_LEVEL_AWAIT)
    except SyntaxError:
        return False
    todo: list[ast.AST] = list(tree.body)
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            continue  # defined here, run later (or never)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and node.func.attr in _TASK_STARTS:
            return True
        todo.extend(ast.iter_child_nodes(node))
    return False


def _runs_at_top_level(code: str) -> bool:
    return _awaits_at_top_level(code) or _starts_a_task(code)


def _without_the_run(cell: str) -> str:
    """A cell that awaits at top level, left out from its first statement that does so: that is
    the notebook running its system, and what follows it reads the run's result. What comes
    before it stays: the AgentChat docs build a team and run it in one cell
    (`research_team = Swarm(...)` then `await Console(research_team.run_stream(...))`)."""
    flags = ast.PyCF_ONLY_AST | ast.PyCF_ALLOW_TOP_LEVEL_AWAIT
    text = cell.splitlines()
    cut = 0  # unparsable after all: leave the whole cell out
    try:
        for statement in compile(cell, "<cell>", "exec", flags=flags).body:
            start, end = statement.lineno - 1, statement.end_lineno or statement.lineno
            if _runs_at_top_level("\n".join(text[start:end])):
                cut = start
                break
    except SyntaxError:
        pass
    return "\n".join(text[:cut] + ["# (masfuzz: left out, it runs the system at top level) " + ln
                                    for ln in text[cut:]])


def notebook_source(path: str | Path, *, imported: bool = False) -> str:
    """A Jupyter notebook's code cells as one script, the way `jupyter nbconvert --to script`
    runs them: IPython magics and shell escapes (`%pip`, `!pip`) are left out; so is, when the
    notebook is `imported` for its objects, each cell's run of the system (`_without_the_run`)."""
    import json

    try:
        cells = json.loads(Path(path).read_text(encoding="utf-8")).get("cells", [])
    except (OSError, ValueError, AttributeError) as exc:
        raise TargetError(f"{path}: not a readable Jupyter notebook: {exc}") from None
    lines: list[str] = []
    for cell in cells:
        if cell.get("cell_type") != "code":
            continue
        source = cell.get("source", "")
        text = "".join(source) if isinstance(source, list) else str(source)
        kept = "\n".join(ln for ln in text.splitlines() if not ln.lstrip().startswith(("%", "!")))
        if imported and _runs_at_top_level(kept):
            kept = _without_the_run(kept)
        lines += [kept, ""]
    return "\n".join(lines)


def imported_modules(path: str | Path) -> set[str]:
    """The top-level modules a file (or a notebook's code) imports, read without running it."""
    try:
        text = notebook_source(path) if str(path).endswith(".ipynb") else \
            Path(path).read_text(encoding="utf-8")
        tree = ast.parse(text)
    except (OSError, SyntaxError, UnicodeDecodeError, TargetError):
        return set()  # the real import reports it
    wanted: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            wanted.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            wanted.add(node.module.split(".")[0])
    return wanted


def _import_frameworks_first(path: Path) -> None:
    wanted = imported_modules(path)
    for name in _FRAMEWORKS:
        if name in wanted and name not in sys.modules:
            try:
                importlib.import_module(name)
            except Exception:
                pass  # not installed: the user's import fails with the real message


def _resolve_attr(module: Any, expr: str, target: str) -> Any:
    try:
        node = ast.parse(expr, mode="eval").body
    except SyntaxError:
        raise TargetError(f"{target}: {expr!r} is not an attribute name or a call") from None
    call = node if isinstance(node, ast.Call) else None
    ref = call.func if call else node
    dotted = _dotted_name(ref)
    if dotted is None:
        raise TargetError(f"{target}: {expr!r} is not an attribute name or a call")
    obj: Any = module
    for part in dotted.split("."):  # a property or __getattr__ of the user's may raise
        obj = call_user(_attribute, obj, part, module, dotted, target,
                        failed=f"{target}: reading {dotted} failed")
    if call is None:
        return obj
    try:
        args = [ast.literal_eval(a) for a in call.args]
        kwargs = {k.arg: ast.literal_eval(k.value) for k in call.keywords if k.arg}
    except ValueError:
        raise TargetError(f"{target}: factory arguments must be literals") from None
    return call_user(obj, *args, failed=f"{target}: calling {dotted}(...) failed", **kwargs)


def _attribute(obj: Any, part: str, module: Any, dotted: str, target: str) -> Any:
    """`obj.part`, importing a submodule of a package the package itself does not import."""
    if not hasattr(obj, part) and hasattr(obj, "__path__"):
        # `pkg/__init__.py:sub.agent`: a submodule the package does not import itself is
        # imported, as the app's own `import pkg.sub` would.
        try:
            importlib.import_module(f"{obj.__name__}.{part}")
        except ModuleNotFoundError as exc:
            if exc.name != f"{obj.__name__}.{part}":
                raise TargetError(f"{target}: importing {obj.__name__}.{part} failed: "
                                  f"{_describe(exc, None)}") from None
    if not hasattr(obj, part):
        names = sorted(n for n in vars(module) if not n.startswith("_"))[:12]
        raise TargetError(
            f"{target}: no attribute {dotted!r} in {module.__name__} "
            f"(it defines: {', '.join(names) or 'nothing'})"
        )
    return getattr(obj, part)


def _dotted_name(node: ast.AST) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        base = _dotted_name(node.value)
        return f"{base}.{node.attr}" if base else None
    return None


def _describe(exc: BaseException, path: Path | None) -> str:
    """`Type: message (file:line)` for the innermost frame in the user's code."""
    where = ""
    frames = traceback.extract_tb(exc.__traceback__)
    user = [f for f in frames if "importlib" not in f.filename and "/masfuzz/" not in f.filename]
    if user:
        f = user[-1]
        where = f" ({Path(f.filename).name}:{f.lineno})"
    msg = str(exc).splitlines()[0] if str(exc) else ""
    return f"{type(exc).__name__}: {msg}{where}" if msg else f"{type(exc).__name__}{where}"
