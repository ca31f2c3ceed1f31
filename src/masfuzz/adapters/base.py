"""What every framework adapter provides, and how masfuzz picks one for a loaded object.

An adapter is the only code that imports an agent framework. It turns the user's object into a
`WorkflowSpec` (`extract`) and runs one `Scenario` on the user's unmodified agents with a model
masfuzz controls, recording a `Trace` (`run`). Adapters are found by the module the object's
type comes from, so detection never imports a framework that the target does not use.
"""

from __future__ import annotations

import asyncio
import importlib
import weakref
import inspect
import sys
from abc import ABC, abstractmethod
from typing import Any, ClassVar, Iterator

from masfuzz.errors import TargetError
from masfuzz.scenario import Scenario
from masfuzz.spec.model import WorkflowSpec
from masfuzz.trace import Trace


class Adapter(ABC):
    framework: ClassVar[str]
    extra: ClassVar[str]  # the pyproject extra that installs the framework

    @classmethod
    @abstractmethod
    def accepts(cls, obj: Any) -> bool:
        """True if `obj` (already loaded) is something this adapter understands."""

    @abstractmethod
    def extract(self, obj: Any, *, target: str = "") -> WorkflowSpec:
        """The static structure of the system, without running it."""

    @abstractmethod
    async def run(self, obj: Any, spec: WorkflowSpec, scenario: Scenario) -> Trace:
        """Execute one scenario. A crash of the system under test is recorded in the trace,
        never raised; only masfuzz's own bugs and bad input escape."""

    # Where a run puts masfuzz's model for an agent that has one (its framework's model setting).
    model_setting: ClassVar[str] = "the agent's model setting"

    def prepare(self, obj: Any) -> None:
        """Build what a run would build once per process and keep (a framework's trace
        provider and the HTTP client it opens): a pool worker calls it before it forks each
        run from its state (`masfuzz.exec.worker`), so that a run does not pay it every time.
        Nothing of a run's own state."""

    def model_places(self, obj: Any, spec: WorkflowSpec) -> dict[str, list[str]]:
        """Agent -> where a run puts masfuzz's model in place of the agent's own; [] when masfuzz
        found no model of the agent's to replace (an agent that speaks without one, or one whose
        model masfuzz cannot reach: the control check tells them apart by running)."""
        return {a.id: [self.model_setting] if a.model else [] for a in spec.agents}


    # Workflow mutation (`masfuzz mutate`): the operators this adapter applies to the live
    # objects for one run (`Scenario.mutant`); none by default, so a mutant never runs unmutated.
    @property
    def mutation_operators(self) -> frozenset[str]:
        return frozenset()

    def mutation_problem(self, obj: Any, spec: WorkflowSpec, mutation: Any) -> str | None:
        """Why `mutation` cannot apply to this system (None: it applies)."""
        if mutation.operator not in self.mutation_operators:
            return f"not applicable on {spec.system.framework}"
        return None


class WalkingAdapter(Adapter):
    """An adapter whose extraction walks the framework's objects: the walk is kept per object
    for the runs and mutation checks that follow, and made afresh (`fresh_walk`) for an object
    this adapter never extracted (a worker that runs a system it was handed)."""

    def __init__(self) -> None:
        self._walks: dict[int, Any] = {}

    def keep_walk(self, obj: Any, walk: Any) -> None:
        self._walks[id(obj)] = walk

    def walk_of(self, obj: Any, spec: WorkflowSpec) -> Any:
        return self._walks.get(id(obj)) or self.fresh_walk(obj, spec)

    @abstractmethod
    def fresh_walk(self, obj: Any, spec: WorkflowSpec) -> Any:
        """The walk of `obj`, made now."""


async def execute(adapter: Adapter, obj: Any, spec: WorkflowSpec, scenario: Scenario) -> Trace:
    """Run one scenario with its sampling in force (`masfuzz.llm.sampling`): the one way every
    run starts, so whatever the framework its trace records in `meta["agent_settings"]` the
    model and temperature each agent's calls actually ran with."""
    from masfuzz.llm.sampling import sampling

    if scenario.mutant is not None and scenario.mutant.operator not in adapter.mutation_operators:
        raise TargetError(f"mutant {scenario.mutant.label}: not applicable on "
                          f"{spec.system.framework}")
    with sampling(scenario) as ran:
        trace = await adapter.run(obj, spec, scenario)
    return trace.model_copy(update={"meta": {**trace.meta, "agent_settings": ran.as_meta()}})


# framework adapter module -> type-module prefixes of objects it accepts
ADAPTERS: dict[str, tuple[str, ...]] = {
    "openai_agents": ("agents",),
    "autogen": ("autogen_agentchat",),
    "langgraph": ("langgraph",),
    "ag2": ("autogen", "ag2"),
    "pydantic_ai": ("pydantic_ai", "pydantic_graph"),
    "adk": ("google.adk",),
    "crewai": ("crewai",),
}


def numbered(base: str, taken: Any) -> str:
    """`base`, or `base#2`, `base#3`... whichever `taken` does not hold yet: agents of one name
    are told apart by their order of discovery, in every adapter alike."""
    ident, n = base, 1
    while ident in taken:
        n += 1
        ident = f"{base}#{n}"
    return ident


def resolve(obj: Any, target: str = "") -> tuple[Adapter, Any]:
    """(adapter, object to hand it). A zero-argument factory is called once to get the system."""
    found = _find(obj)
    if found is not None:
        return found, obj
    captured = _capture(obj, target)
    if captured is not None:
        return captured
    if callable(obj) and not isinstance(obj, type):
        from masfuzz.loader import call_user

        try:
            built = call_user(obj, failed=f"{target}: calling the factory failed", let=(TypeError,))
        except TypeError:
            built = None  # not a zero-argument factory
        if inspect.iscoroutine(built):  # an `async def` that no capture recognised: never run
            built.close()  # (closed, not left to warn on stderr when collected)
            built = None
        found = _find(built) if built is not None else None
        if found is not None:
            return found, built
    if inspect.ismodule(obj):
        return _one_system_of(obj, target)
    raise TargetError(
        f"{target}: a {type(obj).__module__}.{type(obj).__qualname__} is not a system masfuzz "
        "can test (expected an Agents SDK Agent, an AutoGen AgentChat team or agent, a "
        "LangGraph graph, an AG2 agent, a PydanticAI Agent, a Google ADK agent, a CrewAI crew, or a zero-argument "
        "function returning one)"
    )


def _one_system_of(module: Any, target: str) -> tuple[Adapter, Any]:
    """A file named without `:NAME`: the one testable system among its top-level names, or one
    line naming them all, so the user can say which (an Agents SDK app defines every agent at
    the top, and only the user knows which one a conversation starts with)."""
    names = [name for name, value in vars(module).items()
             if not name.startswith("_") and not inspect.ismodule(value) and _find(value) is not None]
    root = vars(module).get("root_agent")
    if "root_agent" in names and _find(root).framework == "adk":  # ADK's own convention (`adk run`)
        return _find(root), root  # type: ignore[return-value]
    if len(names) == 1:
        value = getattr(module, names[0])
        builders = _functions_building(module, type(value).__name__)
        if builders:
            raise TargetError(
                f"{target}: its one top-level system is {names[0]}, but {', '.join(builders)} "
                f"build{'s' if len(builders) == 1 else ''} more {type(value).__name__} objects (a "
                f"guardrail's checker at the top, the app's agent made in main()?): name the "
                f"system to test as {target}:NAME, or a zero-argument function returning it")
        return _find(value), value  # type: ignore[return-value]
    if names:
        raise TargetError(f"{target}: name the system to test as {target}:NAME; its top-level "
                          f"systems: {', '.join(names)}")
    raise TargetError(f"{target}: no system masfuzz can test at its top level (an Agents SDK "
                      "Agent, an AutoGen AgentChat team or agent, a LangGraph graph, an AG2 "
                      "agent, a PydanticAI Agent, a Google ADK agent, a CrewAI crew); name one as FILE:NAME, or a "
                      "zero-argument function returning one")


def _functions_building(module: Any, class_name: str) -> list[str]:
    """The top-level functions of `module` whose bodies construct `class_name` objects
    (`Agent(...)`, `agents.Agent(...)`): where an app builds the system it runs, so a single
    top-level object of that class need not be it."""
    import ast

    try:
        tree = ast.parse(inspect.getsource(module))
    except (OSError, TypeError, SyntaxError):
        return []
    out = []
    for fn in tree.body:
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        for node in ast.walk(fn):
            func = getattr(node, "func", None) if isinstance(node, ast.Call) else None
            name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
            if name == class_name:
                out.append(f"{fn.name}()")
                break
    return out


def _hooks(present: Any, name: str) -> Iterator[tuple[Any, Any]]:
    """(adapter module, its hook `name`) for each adapter whose framework is in `present` (the
    modules a file imports, or those already imported) and that defines the hook."""
    for adapter, prefixes in ADAPTERS.items():
        if not any(p in present for p in prefixes):
            continue
        try:
            module = importlib.import_module(f"masfuzz.adapters.{adapter}")
        except ModuleNotFoundError:
            continue
        hook = getattr(module, name, None)
        if hook is not None and module.ADAPTER is not None:
            yield module, hook


def program_target(ref: str) -> tuple[Adapter, Any] | None:
    """A script named without an attribute whose framework runs it as a program (AG2 apps
    start their chats at module level): the adapter module's `program(path)` hook, offered only
    for files importing that framework. None otherwise: the loader imports it as usual."""
    from masfuzz.loader import imported_modules, split_target

    where, attr = split_target(ref)
    if attr is not None or not where.endswith((".py", ".ipynb")):
        return None
    for module, program in _hooks(imported_modules(where), "program"):
        built = program(where)
        if built is not None and module.ADAPTER.accepts(built):
            return module.ADAPTER(), built
    return None


def _capture(obj: Any, target: str) -> tuple[Adapter, Any] | None:
    """Apps that build or run their system inside a function (common with AutoGen): a module
    or a function is offered to the adapters whose framework is already imported and that
    define `capture(obj, target)`, which runs it far enough to get the system (or, for AG2, to
    see that it is a program starting chats)."""
    if not (inspect.ismodule(obj) or inspect.isfunction(obj) or inspect.iscoroutinefunction(obj)):
        return None
    from masfuzz.loader import call_user

    for module, capture in _hooks(_frameworks_of(obj), "capture"):
        # the app's own code runs here: its sys.exit or KeyboardInterrupt is a load error of
        # the target, not masfuzz's exit (its exceptions stay the adapters' to describe)
        built = call_user(capture, obj, target, failed=f"{target}: running it to find its system",
                          let=(Exception,))
        found = _find(built) if built is not None else None
        if found is None and built is not None and module.ADAPTER.accepts(built):
            found = module.ADAPTER()  # an adapter's own wrapper (an AG2 program)
        if found is not None:
            return found, built
    return None


def _frameworks_of(obj: Any) -> set[str]:
    """The top-level packages the module of `obj` uses (its imported modules and the modules of
    what it imported), so that a function is offered only to the adapters of its own framework:
    after an AutoGen run in the same process, an Agents SDK file's `main()` must not be run to
    capture a team. A module that uses no framework itself (an app split across files) is
    offered to every framework already imported, as before."""
    module = obj if inspect.ismodule(obj) else inspect.getmodule(obj)
    used: set[str] = set()
    for value in vars(module).values() if module is not None else ():
        name = value.__name__ if inspect.ismodule(value) else getattr(value, "__module__", None)
        if isinstance(name, str):
            used.add(name.split(".")[0])
    known = {p for prefixes in ADAPTERS.values() for p in prefixes}
    return used if used & known else set(sys.modules)


def _belongs(module: str, adapter: str, prefixes: tuple[str, ...]) -> bool:
    """An object of this type module is the adapter's: a framework's object, or the adapter's
    own wrapper of an app (an AG2 program, an Agents SDK plain-Python pipeline)."""
    return any(module == p or module.startswith(p + ".") for p in prefixes) or \
        module.startswith(f"masfuzz.adapters.{adapter}.")


def _framework_module(obj: Any) -> str:
    """The module of the object's type, or of its nearest framework base class: an app's own
    subclass of a framework's agent (an ADK custom agent) is that framework's object."""
    known = [p for prefixes in ADAPTERS.values() for p in prefixes]
    for cls in type(obj).__mro__:
        mod = cls.__module__ or ""
        if mod.startswith("masfuzz.adapters.") or any(mod == p or mod.startswith(p + ".") for p in known):
            return mod
    return type(obj).__module__ or ""


def _find(obj: Any) -> Adapter | None:
    mod = _framework_module(obj)
    for name, prefixes in ADAPTERS.items():
        if _belongs(mod, name, prefixes):
            try:
                module = importlib.import_module(f"masfuzz.adapters.{name}")
            except ModuleNotFoundError as exc:
                if exc.name == f"masfuzz.adapters.{name}":
                    continue
                raise
            cls = module.ADAPTER
            if cls.accepts(obj):
                return cls()
    return _plugin_adapter(obj)


def _plugin_adapter(obj: Any) -> Adapter | None:
    """The adapter a plugin adds (`masfuzz.adapters` entry points, `masfuzz.plugins`) that
    accepts `obj`, asked after the built-in ones."""
    from masfuzz.plugins import load_all, not_a

    for name, cls in load_all("masfuzz.adapters"):
        if not (isinstance(cls, type) and issubclass(cls, Adapter)):
            raise not_a("masfuzz.adapters", name, cls)
        if cls.accepts(obj):
            return cls()
    return None


def instantiate(adapter: "str | Adapter") -> Adapter:
    """An adapter from its name (`pkg.mod:Class`, `file.py:Class`) or itself."""
    from masfuzz.loader import load_target

    if isinstance(adapter, Adapter):
        return adapter
    obj = load_target(adapter).obj
    if isinstance(obj, type) and issubclass(obj, Adapter):
        return obj()
    if isinstance(obj, Adapter):
        return obj
    raise TargetError(f"{adapter}: not a masfuzz Adapter class")


_locks: "weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[int, asyncio.Lock]]" = \
    weakref.WeakKeyDictionary()


def system_lock(system: Any) -> asyncio.Lock:
    """The one lock of a system under test on this event loop: a run patches the user's objects
    (models, tools) for its duration, so runs of one system take turns."""
    per_loop = _locks.setdefault(asyncio.get_running_loop(), {})
    return per_loop.setdefault(id(system), asyncio.Lock())


def discover_tools(obj: Any, notes: list[str]) -> list[Any] | None:
    """The tool objects of a workflow, from the hook (`tools_of(obj, notes)`) of the adapter
    whose framework `obj` belongs to; None when `obj` is no workflow an adapter knows."""
    hook = _hook(obj, "tools_of")
    return hook(obj, notes) if hook is not None else None


def discover_tool_context(obj: Any, factory: str | None = None) -> Any:
    """What a workflow's tools receive as their run context when called directly, as a
    function of the tool making a fresh one per call (the adapter's `tool_context(obj, factory)`
    hook: the Agents SDK's `RunContextWrapper` around the context a run of `obj` gets, made by
    the user's `--context` factory when given); None when the framework passes none."""
    hook = _hook(obj, "tool_context")
    return hook(obj, factory) if hook is not None else None


def _hook(obj: Any, name: str) -> Any:
    mod = _framework_module(obj)
    for adapter, prefixes in ADAPTERS.items():
        if _belongs(mod, adapter, prefixes):
            try:
                module = importlib.import_module(f"masfuzz.adapters.{adapter}")
            except ModuleNotFoundError:
                return None
            hook = getattr(module, name, None)
            if hook is not None and module.ADAPTER.accepts(obj):
                return hook
            return None
    return None
