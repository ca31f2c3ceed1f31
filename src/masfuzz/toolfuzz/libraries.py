"""Tool objects of smolagents, llama-index, agno, CrewAI and PydanticAI, each taken as its library
states it and called the way an agent of that library calls it.

For each library: the parameter schema is the one the library gives the model (smolagents'
`get_tool_json_schema`, llama-index's `metadata.get_parameters_dict()`, agno's processed
`Function.parameters`, CrewAI's `args_schema`, PydanticAI's `function_schema.json_schema`);
`invoke` runs the library's own argument validation and calling path (sync or async); and the
library's error convention decides what is a finding:

- a rejection by the library's own argument validation is what its agent hands the model to
  correct (smolagents' `AgentToolCallError`, agno's and PydanticAI's pydantic `ValidationError`,
  CrewAI's args_schema check): a returned error, never a finding — like an MCP server's
  "invalid params";
- a tool's own way of asking the model to try again (PydanticAI's `ModelRetry`, agno's
  `RetryAgentRun`/`StopAgentRun`, a llama-index `ToolOutput(is_error=True)` the tool returns
  itself) is its error handling: a returned error;
- an exception of the tool's code is a finding, even where the library's agent would catch it
  into a text (llama-index's `call_tool` and agno's `FunctionCall.execute` do): that exception is
  re-raised as the tool raised it, traceback and all, as the Agents SDK's wrapped function is
  called (masfuzz.toolfuzz.tools).

`function` is the plain code under test (smolagents' `forward`, llama-index's `real_fn`, agno's
undecorated entrypoint, CrewAI's `_run`, PydanticAI's function with its run context bound),
which the priors read and tainting calls.

Objects are recognised by the modules of their classes, so no library is imported unless the
object is that library's; CrewAI is never imported at all (it cannot share an environment with
the Agents SDK): its tools are pydantic models whose own `args_schema` and `run` are all an
agent of CrewAI uses.
"""

from __future__ import annotations

import inspect
from typing import Any, Callable

from masfuzz.toolfuzz.tools import FuzzTool, ReturnedError, as_declared, call_needing_context, settle


def _plain(fn: Callable[..., Any], schema: dict[str, Any], retry: tuple[type[BaseException], ...] = (),
           bind: Callable[[], list[Any]] | None = None, *, declared: bool = False) -> Callable[..., Any]:
    """The plain code under test as tainting calls it, under its library's rules: arguments
    that library's validation refuses are refused here too, checked against the tool's schema
    without converting them (a tainted string must stay tainted), and the library's ways of
    asking the model to retry (`retry`) are returned errors. `bind`: the values the library
    passes before the model's arguments (a run context). `declared`: the library hands the
    function its arguments as their declared types (PydanticAI validates them into the
    function's models), so they are converted so too (`tools.as_declared`, strings kept as
    given): a tool's code never sees a dict where it declares a model."""
    from jsonschema import Draft202012Validator

    validator = Draft202012Validator(schema)
    signature = inspect.signature(fn)

    def call(**arguments: Any) -> Any:
        refused = next(iter(validator.iter_errors(arguments)), None)
        if refused is not None:
            return ReturnedError(f"Error: invalid arguments: {refused.message}")
        ahead = bind() if bind else []
        try:  # an argument the function does not take: each library refuses or drops it
            signature.bind(*ahead, **arguments)
        except TypeError as exc:
            return ReturnedError(f"Error: invalid arguments: {exc}")
        if declared:
            from pydantic import ValidationError

            try:
                arguments = as_declared(fn, arguments)
            except ValidationError as exc:
                return ReturnedError(f"Error: invalid arguments: {exc}")
        try:
            return settle(fn(*ahead, **arguments))
        except retry as exc:
            return ReturnedError(f"Error: {type(exc).__name__}: {exc}")

    call.__wrapped__ = fn  # type: ignore[attr-defined]  # its source, frame and return type
    return call


def _classes(obj: Any) -> list[tuple[str, str]]:
    return [(c.__module__ or "", c.__name__) for c in type(obj).__mro__]


def _is(obj: Any, module: str, *names: str) -> bool:
    """Whether `obj` is an instance of a class named one of `names` in a module under `module`."""
    return any(m.startswith(module) and n in names for m, n in _classes(obj))


def library_of(obj: Any) -> str | None:
    """Which of the five libraries a tool object is of (None: none of them)."""
    if _is(obj, "smolagents", "Tool", "BaseTool") and hasattr(obj, "inputs"):
        return "smolagents"
    if _is(obj, "llama_index.core.tools", "BaseTool") and hasattr(obj, "metadata"):
        return "llama_index"
    if _is(obj, "agno.tools", "Function") and hasattr(obj, "entrypoint"):
        return "agno"
    if _is(obj, "crewai", "BaseTool", "CrewStructuredTool") and hasattr(obj, "args_schema"):
        return "crewai"
    if _is(obj, "pydantic_ai", "Tool") and hasattr(obj, "function_schema"):
        return "pydantic_ai"
    return None


def collection_tools(obj: Any) -> list[Any] | None:
    """The tools a library's collection holds: an agno `Toolkit`, a llama-index `BaseToolSpec`,
    a PydanticAI `FunctionToolset`, a smolagents `ToolCollection` (None: not one of them)."""
    if _is(obj, "agno.tools", "Toolkit"):
        return list(obj.get_functions().values())
    if _is(obj, "llama_index.core.tools", "BaseToolSpec"):
        return list(obj.to_tool_list())
    if _is(obj, "pydantic_ai.toolsets", "FunctionToolset"):
        return list(obj.tools.values())
    if _is(obj, "smolagents", "ToolCollection"):
        return list(obj.tools)
    return None


def library_tool(obj: Any, context: Callable[[], Any] | None = None) -> FuzzTool | None:
    """The tool object of one of the five libraries as a FuzzTool (None: not one of them)."""
    library = library_of(obj)
    return None if library is None else _LOADERS[library](obj, context)


def _smolagents(tool: Any, context: Callable[[], Any] | None) -> FuzzTool:
    from smolagents.models import get_tool_json_schema
    from smolagents.tools import validate_tool_arguments

    schema = get_tool_json_schema(tool)["function"]["parameters"]
    if not getattr(tool, "is_initialized", True):
        tool.setup()  # what the tool's first call does; done once here, not in every call's fork

    def invoke(arguments: dict[str, Any]) -> Any:
        # `MultiStepAgent.execute_tool_call`: the arguments are checked against `inputs`, a
        # rejection goes back to the model as an AgentToolCallError; then the tool is called
        # with the agent's input and output handling.
        try:
            validate_tool_arguments(tool, arguments)
        except (ValueError, TypeError) as exc:
            return ReturnedError(f"Error: invalid arguments for tool {tool.name!r}: {exc}")
        return tool(**arguments, sanitize_inputs_outputs=True)

    return FuzzTool(tool.name, tool.description or "", schema, invoke, _plain(tool.forward, schema),
                    "smolagents")


def _llama_index(tool: Any, context: Callable[[], Any] | None) -> FuzzTool:
    from llama_index.core.tools.calling import call_tool

    schema = dict(tool.metadata.get_parameters_dict())

    def invoke(arguments: dict[str, Any]) -> Any:
        # `call_tool` is how llama-index's agents call a tool (one argument passed bare when the
        # tool takes one); it turns any exception into an error output, which is re-raised here.
        out = call_tool(tool, arguments)
        if getattr(out, "is_error", False):
            if out.exception is not None:
                raise out.exception
            return ReturnedError(str(out.content))
        return out.raw_output

    fn = getattr(tool, "_real_fn", None)  # a FunctionTool's; a query engine's tool has none
    return FuzzTool(tool.metadata.get_name(), tool.metadata.description or "", schema, invoke,
                    fn and _plain(fn, schema), "llama_index")


def _agno(function: Any, context: Callable[[], Any] | None) -> FuzzTool:
    from agno.exceptions import AgentRunException
    from agno.tools.function import FunctionCall
    from pydantic_core import ValidationError

    raw = function.entrypoint  # before agno wraps it in its validation
    function = function.model_copy(deep=False)  # as an agent does: the toolkit's own stays as it was
    function.process_entrypoint(strict=False)
    validated = function.entrypoint
    raised: list[BaseException] = []

    def recording(*args: Any, **kwargs: Any) -> Any:
        try:
            return validated(*args, **kwargs)
        except Exception as exc:  # agno's FunctionCall keeps only its text: keep the exception
            raised.append(exc)
            raise

    function.entrypoint = recording
    raw_code = getattr(inspect.unwrap(raw), "__code__", None)

    def invoke(arguments: dict[str, Any]) -> Any:
        raised.clear()
        try:
            outcome = FunctionCall(function=function, arguments=arguments).execute()
        except AgentRunException as exc:  # the tool's way to make the agent retry or stop
            return ReturnedError(f"Error: {type(exc).__name__}: {exc}")
        if outcome.status == "success":
            result = outcome.result
            return "".join(map(str, result)) if inspect.isgenerator(result) else result
        if raised:
            exc = raised[-1]
            if isinstance(exc, ValidationError) and not _ran(raw_code, exc):
                # agno's validate_call refused the arguments before the tool ran
                return ReturnedError(f"Error: {exc}")
            raise exc
        return ReturnedError(f"Error: {outcome.error}")

    schema = dict(function.parameters)
    return FuzzTool(function.name, function.description or "", schema, invoke,
                    _plain(raw, schema, (AgentRunException,)), "agno")


def _ran(code: Any, exc: BaseException) -> bool:
    """Whether a frame of `code` is in the exception's traceback: the tool's own code ran."""
    tb = exc.__traceback__
    while tb is not None:
        if tb.tb_frame.f_code is code:
            return True
        tb = tb.tb_next
    return False


def _crewai(tool: Any, context: Callable[[], Any] | None) -> FuzzTool:
    """A CrewAI `BaseTool` or the `CrewStructuredTool` its agents call (`BaseTool.to_structured_tool`,
    `@tool`, a `CacheTools().tool()`), through its own methods: crewai itself is never imported."""
    from pydantic import ValidationError

    schema_model = tool.args_schema
    schema = schema_model.model_json_schema()
    schema.pop("title", None)
    structured = _is(tool, "crewai", "CrewStructuredTool")

    def invoke(arguments: dict[str, Any]) -> Any:
        # CrewAI checks the model's arguments against the tool's args_schema and hands the
        # model the rejection ("Arguments validation failed"); a ToolFailure the tool returns
        # (its usage limit) is a returned error too.
        try:
            schema_model.model_validate(arguments)
        except ValidationError as exc:
            return ReturnedError(f"Error: arguments validation failed: {exc}")
        result = tool.invoke(input=arguments) if structured else tool.run(**arguments)
        if _is(result, "crewai", "ToolFailure"):
            return ReturnedError(f"Error: {getattr(result, 'message', result)}")
        return result

    fn = tool.func if structured else tool._run
    return FuzzTool(tool.name, tool.description or "", schema, invoke, _plain(fn, schema), "crewai")


def _pydantic_ai(tool: Any, context: Callable[[], Any] | None) -> FuzzTool:
    from pydantic import ValidationError
    from pydantic_ai.exceptions import ModelRetry

    fs = tool.function_schema
    schema = dict(fs.json_schema)

    def run_context() -> Any:
        if context is not None:
            return context()
        from pydantic_ai import RunContext
        from pydantic_ai.models.test import TestModel
        from pydantic_ai.usage import RunUsage

        return RunContext(deps=None, model=TestModel(), usage=RunUsage())  # a run with no deps

    def invoke(arguments: dict[str, Any]) -> Any:
        # The tool manager validates the arguments with the function's own validator and hands
        # a ValidationError or a ModelRetry back to the model as a retry prompt.
        try:
            valid = fs.validator.validate_python(arguments)
        except ValidationError as exc:
            return ReturnedError(f"Error: invalid arguments: {exc}")
        ctx = run_context() if fs.takes_ctx else None

        def call() -> Any:
            return settle(fs.call(valid, ctx))

        try:  # a tool that fails on the deps a run of its app would give it: masfuzz gave none
            return call_needing_context(tool.name, ctx.deps, call) if fs.takes_ctx else call()
        except ModelRetry as exc:
            return ReturnedError(f"Error: retry: {exc.message}")

    def bound(*ctx: Any, **kwargs: Any) -> Any:
        call = lambda: settle(tool.function(*ctx, **kwargs))  # noqa: E731
        return call_needing_context(tool.name, ctx[0].deps, call) if ctx else call()

    bound.__wrapped__ = tool.function  # type: ignore[attr-defined]
    function = _plain(bound, schema, (ModelRetry,), (lambda: [run_context()]) if fs.takes_ctx else None,
                      declared=True)
    return FuzzTool(tool.name, tool.description or "", schema, invoke, function, "pydantic_ai")


_LOADERS: dict[str, Callable[[Any, Callable[[], Any] | None], FuzzTool]] = {
    "smolagents": _smolagents, "llama_index": _llama_index, "agno": _agno, "crewai": _crewai,
    "pydantic_ai": _pydantic_ai,
}

