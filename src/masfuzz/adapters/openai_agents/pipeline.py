"""The order in which an app's plain-Python code runs its Agents SDK agents.

A manager that awaits `Runner.run(outline_agent, ...)`, then `Runner.run(checker, ...)`, then,
past a quality gate, `Runner.run(story_agent, ...)` has no graph in its objects; its code is
the graph. `read_order` reads it from the module's source (the AST, nothing is run): each
function's `Runner.run` / `run_sync` / `run_streamed` calls (a PydanticAI app's `agent.run(...)`)
in the order the code runs them,
following calls to the module's own functions and to `self.<method>` of the same class, so a
step written in a helper counts where the helper is called. Consecutive runs are sequence edges;
a loop whose body runs agents adds a loop-back edge from the body's last agent to its first (a
revise-until-good loop); an `if` that leaves (`exit`, `return`, `raise`, `break`) between two runs
is a gate, recorded as a condition of the edge after it. The agent a call runs is the object its
expression names in the module, compared by identity with the agents the target named.

Several functions that run the named agents in different orders are several candidate systems:
the reader says so and does not pick one (the user states the graph with `--link`).

An app that builds its agent inside the function that runs it (`main()` makes the agent, with
its guardrails, then loops over the user's messages) has no agent at the top to read an order
over: `built_pipeline` calls that function once with the SDK's runner stopping it at its first
run (no model is called), and the agent that run starts is the pipeline's; every run of the
system is a call of the app's function, which builds its agent afresh as it does for its users.
"""

from __future__ import annotations

import ast
import inspect
from dataclasses import dataclass, field
from typing import Any

from masfuzz.errors import TargetError

RUN_METHODS = ("run", "run_sync", "run_streamed")
SELF_RUN_METHODS = ("run_stream", "run_stream_events", "iter")  # PydanticAI's others
_DEPTH = 3  # helper calls followed from a function


@dataclass(frozen=True)
class Step:
    agent: int  # index into the named agents
    line: int
    loops: tuple[int, ...]  # the loops (by line) the call sits in, outermost first
    gate: str = ""  # the condition of an `if` that leaves before this step
    choices: tuple[int, ...] = ()  # the agents the app's code chooses between for this run, if it does


@dataclass
class Order:
    """Where the order was read (`main()`), the steps, and the edges they give."""

    function: str
    steps: list[Step]
    edges: list[tuple[int, int, str]] = field(default_factory=list)  # (from, to, why)

    @property
    def chosen(self) -> list[int]:
        """The agents the function chooses between for one of its runs (`agent = refunds if
        "refund" in text else shipping`): its code routes the request, as a graph's router does."""
        return list(dict.fromkeys(a for s in self.steps for a in s.choices))


def read_order(module: Any, agents: list[Any], only: str | None = None) -> Order | None:
    """The order of the module's pipeline over `agents` (in the function named `only`, if
    given); None when no function of the module runs two of them (the code does not say, or
    cannot be read)."""
    try:
        tree = ast.parse(inspect.getsource(module))
    except (OSError, TypeError, SyntaxError):
        return None
    functions = _functions(tree)
    values = vars(module)
    orders: list[Order] = []
    called = {name for f in functions.values() for name in _callees(f)}
    for name, fn in functions.items():
        if only is not None and name != only or _is_tool(fn):
            continue
        gates: dict[Any, str] = {"now": ""}
        steps = _steps(fn, functions | _nested(fn), values, agents, _DEPTH, (), gates,
                       _local_agents(fn, values, agents))
        if len({a for s in steps for a in s.choices or (s.agent,)}) < 2:
            continue
        orders.append(Order(f"{name}()", steps, _edges(steps, gates)))
    roots = [o for o in orders if o.function[:-2].split(".")[-1] not in called] or orders
    distinct = {tuple((a, b) for a, b, _ in o.edges): o for o in roots}
    if len(distinct) > 1:
        raise TargetError(
            f"{', '.join(o.function for o in distinct.values())} each run these agents, in "
            "different orders: state the graph to test with --link FROM->TO")
    return next(iter(distinct.values()), None)


def _functions(tree: ast.Module) -> dict[str, ast.AST]:
    """Top-level functions by name, methods as `Class.method`."""
    out: dict[str, ast.AST] = {}
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            out[node.name] = node
        elif isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    out[f"{node.name}.{item.name}"] = item
    return out


# Decorators that make a function an agent's tool (PydanticAI's `@agent.tool`, `@agent.tool_plain`,
# the Agents SDK's `@function_tool`): the agents it runs are its owner's delegations.
TOOL_DECORATORS = ("tool", "tool_plain", "function_tool")


def _is_tool(fn: ast.AST) -> bool:
    """A function registered as a tool where it is defined: the model calls it, the code does not."""
    return any(ast.unparse(d).split("(")[0].split(".")[-1] in TOOL_DECORATORS
               for d in getattr(fn, "decorator_list", ()))


def _nested(fn: ast.AST) -> dict[str, ast.AST]:
    """The functions a function defines in its body, by name: each runs where the function
    calls it, not where it is defined (a tool registered on an agent, `@front.tool async def
    ask(...)`, runs when that agent's model calls it: a delegation, not a step of the code)."""
    return {n.name: n for n in ast.walk(fn)
            if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n is not fn}


def _callees(fn: ast.AST) -> set[str]:
    return {n for call in ast.walk(fn) if isinstance(call, ast.Call) and (n := _callee(call.func))}


def _callee(func: ast.AST) -> str | None:
    """`helper(...)` -> helper; `self.method(...)` -> method."""
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "self":
        return func.attr
    return None


def _steps(node: ast.AST, functions: dict[str, ast.AST], values: dict[str, Any], agents: list[Any],
           depth: int, loops: tuple[int, ...], gate: dict[Any, str],
           local: dict[str, tuple[int, ...]] | None = None) -> list[Step]:
    """The runs under `node` in execution order. `gate["now"]` carries the last leaving `if`
    seen since the last run; `gate[line]` keeps the one that ends the loop at that line after
    its last run (the condition on which the loop does not go round again)."""
    out: list[Step] = []
    for child in _in_order(node):
        if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue  # defined here, run where it is called (`_nested`), if ever
        if isinstance(child, (ast.For, ast.AsyncFor, ast.While)):
            inner = loops + (child.lineno,)
            body = ast.Module(body=[*child.body, *child.orelse], type_ignores=[])  # its statements
            out += _steps(body, functions, values, agents, depth, inner, gate, local)
            gate[child.lineno], gate["now"] = gate["now"], ""  # a `break` gate ends this loop
            continue
        if isinstance(child, ast.If) and _leaves(child):
            cond = ast.unparse(child.test)  # several gates in a row: any of them leaves
            gate["now"] = f"{gate['now']} or {cond}" if gate["now"] else cond
        if isinstance(child, ast.Call):
            index, choices = _run_of(child, values, agents), _chosen_run(child, local or {})
            if index is None and choices:
                index = choices[0]
            if index is not None:
                out.append(Step(index, child.lineno, loops, gate["now"], choices))
                gate["now"] = ""
                continue
            name = _callee(child.func)
            target = _function_named(functions, name) if name else None
            if target is not None and depth > 0:
                out += _steps(target, functions | _nested(target), values, agents, depth - 1, loops, gate,
                              _local_agents(target, values, agents))
            for arg in [*child.args, *(k.value for k in child.keywords)]:  # create_task(self._f())
                out += _steps(ast.Expr(value=arg), functions, values, agents, depth, loops, gate, local)
            continue
        out += _steps(child, functions, values, agents, depth, loops, gate, local)
    return out


def _in_order(node: ast.AST) -> list[ast.AST]:
    children = list(ast.iter_child_nodes(node))
    return sorted(children, key=lambda n: (getattr(n, "lineno", 0), getattr(n, "col_offset", 0)))


def _leaves(branch: ast.If) -> bool:
    """An `if` whose body ends the pipeline: exit(), sys.exit(), return, raise, break."""
    for node in branch.body:
        if isinstance(node, (ast.Return, ast.Raise, ast.Break)):
            return True
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Call):
            name = ast.unparse(node.value.func)
            if name in ("exit", "sys.exit", "quit", "os._exit"):
                return True
    return False


def _function_named(functions: dict[str, ast.AST], name: str) -> ast.AST | None:
    if name in functions:
        return functions[name]
    return next((f for key, f in functions.items() if key.endswith(f".{name}")), None)


def _run_of(call: ast.Call, values: dict[str, Any], agents: list[Any]) -> int | None:
    """The index of the named agent a call runs, if it is one: `Runner.run(agent, ...)` (the
    Agents SDK), or `agent.run(...)` of an agent that runs itself (PydanticAI)."""
    func = call.func
    if not (isinstance(func, ast.Attribute) and func.attr in RUN_METHODS + SELF_RUN_METHODS):
        return None
    if isinstance(func.value, ast.Name) and func.value.id == "Runner":
        obj = _resolve(call.args[0], values) if call.args and func.attr in RUN_METHODS else None
    else:
        obj = _resolve(func.value, values)
    return next((i for i, a in enumerate(agents) if a is obj), None)


def _chosen_run(call: ast.Call, local: dict[str, tuple[int, ...]]) -> tuple[int, ...]:
    """The agents a `Runner.run(agent, ...)` may run when `agent` is a variable of the function
    that its code sets to one of two agents or more (`_local_agents`)."""
    func = call.func
    if isinstance(func, ast.Attribute) and func.attr in RUN_METHODS and isinstance(func.value, ast.Name) \
            and func.value.id == "Runner" and call.args and isinstance(call.args[0], ast.Name):
        return local.get(call.args[0].id, ())
    return ()


def _local_agents(fn: ast.AST, values: dict[str, Any], agents: list[Any]) -> dict[str, tuple[int, ...]]:
    """A function's variables its code sets to one of two named agents or more: in the branches of
    an `if` (`agent = refunds` / `agent = shipping`), in a conditional expression (`refunds if
    "refund" in text else shipping`), or from a table of agents (`DESKS[topic]`, `{...}.get(k,
    shipping)`). The code picks which one runs: it routes the request."""
    def options(expr: ast.AST) -> list[int]:
        if isinstance(expr, ast.IfExp):
            return options(expr.body) + options(expr.orelse)
        if isinstance(expr, ast.Subscript):
            return options(expr.value)
        if isinstance(expr, ast.Call) and isinstance(expr.func, ast.Attribute) and expr.func.attr == "get":
            return options(expr.func.value) + [i for a in expr.args[1:] for i in options(a)]
        if isinstance(expr, ast.Dict):
            return [i for v in expr.values if v is not None for i in options(v)]
        obj = _resolve(expr, values)
        if isinstance(obj, dict):
            return [i for v in obj.values() for i, a in enumerate(agents) if a is v]
        return [i for i, a in enumerate(agents) if a is obj]

    found: dict[str, list[int]] = {}
    for node in ast.walk(fn):
        if isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if len(targets) == 1 and isinstance(targets[0], ast.Name) and node.value is not None:
                found.setdefault(targets[0].id, []).extend(options(node.value))
    return {name: tuple(dict.fromkeys(ids)) for name, ids in found.items() if len(set(ids)) > 1}


def _resolve(expr: ast.AST, values: dict[str, Any]) -> Any:
    """The module-level object a name or dotted name denotes (None when it is no such name)."""
    parts: list[str] = []
    while isinstance(expr, ast.Attribute):
        parts.insert(0, expr.attr)
        expr = expr.value
    if not isinstance(expr, ast.Name) or expr.id not in values:
        return None
    obj = values[expr.id]
    for part in parts:
        obj = getattr(obj, part, None)
    return obj


def _edges(steps: list[Step], gates: dict[Any, str]) -> list[tuple[int, int, str]]:
    """Sequence edges between consecutive runs, loop-back edges of loops that run agents."""
    out: dict[tuple[int, int], str] = {}
    for before, after in zip(steps, steps[1:]):
        if before.agent != after.agent:
            why = f"line {before.line} then line {after.line}"
            out.setdefault((before.agent, after.agent), why + (f", unless {after.gate}" if after.gate else ""))
    for loop in sorted({line for s in steps for line in s.loops}):
        body = [s for s in steps if loop in s.loops]
        first, last = body[0], body[-1]
        if first.agent != last.agent:
            until = f", unless {gates[loop]}" if gates.get(loop) else ""
            out.setdefault((last.agent, first.agent), f"the loop at line {loop} runs again{until}")
    return [(a, b, why) for (a, b), why in out.items()]


@dataclass
class Pipeline:
    """An app's own function that runs its agents one after another: the system a run calls.

    `agents` are the agents its code runs (indices of `order`'s steps), `function` the app's
    function, called with the scenario's input as its one argument, or with none, the input
    then being what the app's `input()` reads. Its runs reach masfuzz's model through the SDK's
    default runner (`nested`), each its own `Runner.run`, as the app wrote them."""

    function: Any
    agents: list[Any]
    order: Order

    @property
    def roots(self) -> list[Any]:
        """The agents, the first one the code runs first."""
        first = self.agents[self.order.steps[0].agent]
        return [first, *(a for a in self.agents if a is not first)]

    @property
    def name(self) -> str:
        return getattr(self.function, "__name__", "pipeline")

    async def start(self, task: str) -> Any:
        """Run the app's function on `task`; what it returns. `exit()` in the app (a gate that
        stops the pipeline) ends it as the app's author meant: with no result, as does the
        end of masfuzz's answers to its `input()` (a chat loop asking for the next message)."""
        import asyncio
        import builtins
        import contextlib
        import functools
        import sys

        takes_task = bool(_required(self.function))
        asked = builtins.input
        if not takes_task:
            builtins.input = _answers(task)  # the app's own prompt for its task
        try:
            with contextlib.redirect_stdout(sys.stderr):  # masfuzz's stdout is its own output
                call = functools.partial(self.function, task) if takes_task else self.function
                # a plain function runs its agents with `Runner.run_sync`, which starts an event
                # loop of its own and refuses to run inside masfuzz's: it runs in a thread, with
                # this run's context (its recorder) copied in, as it runs under the app's own main
                result = call() if inspect.iscoroutinefunction(self.function) else await asyncio.to_thread(call)
                if inspect.isawaitable(result):
                    result = await result
        except SystemExit as exc:
            if exc.code not in (None, 0):
                raise RuntimeError(f"the app exited with status {exc.code}") from None
            return None
        except NoMoreInput:
            return INPUT_ENDED
        finally:
            builtins.input = asked
        return result


class NoMoreInput(EOFError):
    """masfuzz's answers to the app's `input()` ran out: the user has no more to say."""


INPUT_ENDED = object()  # what `Pipeline.start` gives when the app asked for more than that


def _answers(task: str) -> Any:
    """The app's `input()`: the task, then `exit` once (which ends the usual `while True:
    input()` chat loops), then end of file, as a closed stdin gives (AG2 programs get the
    same, `masfuzz.adapters.ag2.live`)."""
    asked = [0]

    def read(prompt: str = "") -> str:
        asked[0] += 1
        if asked[0] == 1:
            return task
        if asked[0] == 2:
            return "exit"
        raise NoMoreInput("masfuzz: no more scripted input")

    return read


def _required(function: Any) -> list[str]:
    try:
        params = inspect.signature(function).parameters.values()
    except (TypeError, ValueError):
        return []
    return [p.name for p in params if p.default is p.empty
            and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]


def runnable(module: Any, order: Order) -> Any:
    """The module-level function the order was read from, when a run can call it: with the
    task as its one required argument, or with none (None: a method, or more arguments)."""
    name = order.function.removesuffix("()")
    function = vars(module).get(name)
    if not inspect.isfunction(function) or len(_required(function)) > 1:
        return None
    return function


def pipeline_of(obj: Any, is_agent: Any) -> Pipeline | None:
    """The pipeline a module or a function of an app is: the agents its code runs in order
    (over the module's top-level agents), when its function can be called with the task. None
    when it runs no two agents one after another; several orders are asked about (TargetError)."""
    module = obj if inspect.ismodule(obj) else inspect.getmodule(obj)
    if module is None:
        return None
    agents = list({id(v): v for v in vars(module).values() if is_agent(v)}.values())
    only = None if inspect.ismodule(obj) else getattr(obj, "__name__", None)
    order = read_order(module, agents, only) if len(agents) > 1 else None
    if order is None:
        return None
    used = [agents[i] for i in dict.fromkeys(a for s in order.steps for a in (s.agent, *s.choices))]  # the code's
    order = read_order(module, used, order.function.removesuffix("()"))
    function = runnable(module, order) if order is not None else None
    return Pipeline(function, used, order) if function is not None and order is not None else None


class _Started(BaseException):
    """The first run a function starts, stopped before any model call (a BaseException, so
    the app's own `except Exception` does not swallow it)."""

    def __init__(self, agent: Any) -> None:
        super().__init__()
        self.agent = agent


def built_pipeline(obj: Any) -> Pipeline | None:
    """The pipeline of a function that builds its agent and runs it (`obj`, or the module's one
    such function), its agent the one its first run starts; None when there is none. The
    function is called once, its first `Runner.run` stopped (no model is called): a factory
    that only returns an agent runs nothing and is not such a function."""
    import asyncio

    from masfuzz.adapters.openai_agents import sdk
    from masfuzz.adapters.syncrun import run_coroutine_sync

    module = obj if inspect.ismodule(obj) else inspect.getmodule(obj)
    if module is None:
        return None
    candidates = [obj] if inspect.isfunction(obj) else [
        v for v in vars(module).values() if inspect.isfunction(v) and v.__module__ == module.__name__]
    found = [(f, line) for f in candidates if (line := _builds_and_runs(f)) is not None]
    if len(found) != 1 or len(_required(found[0][0])) > 1:
        return None
    function, line = found[0]
    run_module = sdk.require().run
    before = run_module.get_default_agent_runner()

    class Stop(run_module.AgentRunner):  # type: ignore[misc, name-defined]
        async def run(self, starting_agent: Any, input: Any, **kwargs: Any) -> Any:
            raise _Started(starting_agent)

        def run_sync(self, starting_agent: Any, input: Any, **kwargs: Any) -> Any:
            raise _Started(starting_agent)

        def run_streamed(self, starting_agent: Any, input: Any, **kwargs: Any) -> Any:
            raise _Started(starting_agent)

    order = Order(f"{function.__name__}()", [Step(0, line, ())])
    run_module.set_default_agent_runner(Stop())
    try:
        run_coroutine_sync(Pipeline(function, [], order).start("masfuzz check"))
    except _Started as started:
        return Pipeline(function, [started.agent], order)
    except (Exception, asyncio.CancelledError):  # it failed before running an agent: not one
        return None
    finally:
        run_module.set_default_agent_runner(before)
    return None


def _builds_and_runs(function: Any) -> int | None:
    """The line of the first `Runner.run` of a function whose own body builds an `Agent`."""
    try:
        tree = ast.parse(inspect.getsource(function).lstrip())
    except (OSError, TypeError, SyntaxError):
        return None
    builds = runs = None
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        name = ast.unparse(node.func)
        if name.split("[")[0] in ("Agent", "agents.Agent"):
            builds = True
        elif isinstance(node.func, ast.Attribute) and node.func.attr in RUN_METHODS and \
                ast.unparse(node.func.value) in ("Runner", "agents.Runner"):
            runs = node.lineno if runs is None else min(runs, node.lineno)
    if not builds or runs is None:
        return None
    return runs + function.__code__.co_firstlineno - 1
