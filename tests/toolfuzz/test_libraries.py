"""Tool objects of smolagents, llama-index, agno, PydanticAI and CrewAI, on each library's own
shipped tools (examples/tools/library_tools.py, crewai_tools.py): the schema the library states,
its calling path, and its error convention (a rejection or retry is a returned error, an
exception of the tool's code a finding)."""

import json
import os
import subprocess
from pathlib import Path

import pytest

from masfuzz.loader import load_target
from masfuzz.toolfuzz.fuzzer import fuzz_tool
from masfuzz.toolfuzz.targets import collect_tools
from masfuzz.toolfuzz.tools import FuzzTool, ReturnedError

ROOT = Path(__file__).resolve().parents[2]
LIBRARY_TOOLS = ROOT / "examples" / "tools" / "library_tools.py"


def shipped(name: str) -> dict[str, FuzzTool]:
    for module in ("smolagents", "llama_index.core", "agno", "pydantic_ai", "markdownify"):
        pytest.importorskip(module)
    tools, _ = collect_tools(load_target(f"{LIBRARY_TOOLS}:{name}").obj, name)
    return {t.name: t for t in tools}


def test_smolagents_default_tools():
    tools = shipped("SMOLAGENTS")
    python = tools["python_interpreter"]
    assert python.kind == "smolagents" and set(tools) == {"python_interpreter", "final_answer"}
    assert python.schema["required"] == ["code"] and python.schema["properties"]["code"]["type"] == "string"
    assert "42" in python.invoke({"code": "print(6 * 7)"})
    # smolagents' own validation refuses a number for a string: the model is told, nothing raised
    refused = python.invoke({"code": 3})
    assert isinstance(refused, ReturnedError) and "should be 'string'" in refused
    assert isinstance(python.call_function({"code": 3}), ReturnedError)  # tainting follows it too
    with pytest.raises(Exception) as raised:  # the interpreter's error is raised, as to its agent
        python.invoke({"code": "1 / 0"})
    assert type(raised.value).__name__ == "InterpreterError"
    assert python.source_file.endswith("smolagents/default_tools.py")


def test_llama_index_query_engine_and_retriever_tools():
    tools = shipped("LLAMA_INDEX")
    query, passages = tools["capitals"], tools["capital_passages"]
    assert query.kind == passages.kind == "llama_index"
    assert query.schema["required"] == ["input"]  # its metadata.fn_schema
    assert "text" in str(query.invoke({"input": "What is the capital of France?"}))  # MockLLM's answer
    assert "Paris" in str(passages.invoke({"input": "France"}))
    # an exception inside call_tool, which llama-index's agents turn into ToolOutput(is_error), is raised
    from llama_index.core.tools import FunctionTool

    def shout(text: str) -> str:
        """Shout the text."""
        return text.upper() + "!" * int(text)

    tool = collect_tools(FunctionTool.from_defaults(shout))[0][0]
    with pytest.raises(ValueError):
        tool.invoke({"text": "hey"})
    assert tool.invoke({"text": "2"}) == "2!!"


def test_agno_calculator_toolkit():
    tools = shipped("AGNO")
    assert {"add", "divide", "factorial", "exponentiate", "square_root"} <= set(tools)
    divide = tools["divide"]
    assert divide.kind == "agno" and divide.schema["properties"]["b"]["type"] == "number"
    assert json.loads(divide.invoke({"a": 1, "b": 4}))["result"] == 0.25
    refused = divide.invoke({"a": "one", "b": 4})  # agno's validate_call, before the tool runs
    assert isinstance(refused, ReturnedError) and "valid number" in refused
    with pytest.raises(ValueError, match="integer string conversion"):  # logged and lost by agno
        tools["factorial"].invoke({"n": 2000})
    result = fuzz_tool(tools["exponentiate"], calls=8, seed=1)
    assert [(k.error_type, k.frame) for k in result.unique] == [
        ("OverflowError", "agno/tools/calculator.py:exponentiate:100")]


def test_pydantic_ai_web_fetch_and_a_toolset_with_run_context():
    tools = shipped("PYDANTIC_AI")
    fetch = tools["web_fetch"]
    assert fetch.kind == "pydantic_ai" and fetch.schema["required"] == ["url"]
    retry = fetch.invoke({"url": "ftp://example.org/x"})  # its own ModelRetry: a returned error
    assert isinstance(retry, ReturnedError) and "not allowed" in retry
    assert isinstance(fetch.invoke({"url": 7}), ReturnedError)  # the function's validator
    assert isinstance(fetch.call_function({"url": "nope"}), ReturnedError)
    from pydantic_ai import RunContext
    from pydantic_ai.toolsets import FunctionToolset

    toolset = FunctionToolset()

    @toolset.tool
    def scaled(ctx: RunContext[None], x: int) -> int:
        """Scale x by the run's retry count plus one."""
        return 100 // (x * (ctx.retry + 1))

    tool = collect_tools(toolset)[0][0]
    assert "ctx" not in tool.schema["properties"]  # the run context is bound, not fuzzed
    assert tool.invoke({"x": 5}) == 20 and tool.call_function({"x": 4}) == 25
    with pytest.raises(ZeroDivisionError):
        tool.invoke({"x": 0})


def test_pydantic_ai_plain_function_gets_its_declared_models_as_the_library_hands_them():
    """The tainted path calls the plain function: it gets a JSON object as the model the
    function declares, as PydanticAI's validator hands it, never the dict (which would raise
    an AttributeError of masfuzz's making on `item.unit`)."""
    pytest.importorskip("pydantic_ai")
    from pydantic import BaseModel
    from pydantic_ai import Tool

    class Item(BaseModel):
        name: str
        unit: str | None = None

    def units(items: list[Item], note: str = "") -> str:
        """The units of the items."""
        return ",".join((i.unit or "-") for i in items) + note

    tool = collect_tools(Tool(units, name="units"))[0][0]
    assert tool.call_function({"items": [{"name": "egg"}, {"name": "flour", "unit": "g"}]}) == "-,g"
    assert isinstance(tool.call_function({"items": [{"unit": "g"}]}), ReturnedError)  # the validator's refusal
    taint = type("T", (str,), {})("!")
    assert tool.call_function({"items": [], "note": taint}) == "!"


def crewai_python() -> Path:
    python = Path(os.environ.get("MASFUZZ_CREWAI_PYTHON", ROOT / ".venv-crewai" / "bin" / "python"))
    if not python.exists():
        pytest.skip("no CrewAI environment (make crewai builds .venv-crewai)")
    return python


def test_crewai_cache_and_read_file_tools():
    """CrewAI cannot share this environment: its tools are fuzzed by masfuzz run there."""
    python = crewai_python()
    out = subprocess.run(
        [str(python), "-c", "from masfuzz.cli import run; run()", "tools", f"{ROOT}/examples/tools/crewai_tools.py:TOOLS",
         "--calls", "8", "--seed", "1", "--format", "json"],
        capture_output=True, text=True, timeout=600, cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT / "src")})
    assert out.returncode in (0, 1), out.stderr[-2000:]
    report = {t["tool"]: t for t in json.loads(out.stdout)["tools"]}
    assert {t["kind"] for t in report.values()} == {"crewai"}
    hit = report["hit_cache"]  # reads key.split("tool:")[1]: any key without that prefix breaks it
    assert [e["key"] for e in hit["errors"]] == [
        "IndexError: list index out of range @ crewai/tools/cache_tools/cache_tools.py:hit_cache:26"]
    assert hit["errors"][0]["attribution"] == "sut" and report["read_file"]["unique_errors"] == 0
