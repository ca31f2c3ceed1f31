"""One interface over plain callables, Agents SDK, AutoGen and LangChain tools, and workflows."""

import asyncio

import pytest

from masfuzz.errors import TargetError
from masfuzz.toolfuzz.fuzzer import fuzz_tool
from masfuzz.toolfuzz.priors import call_tainted
from masfuzz.toolfuzz.targets import collect_tools
from masfuzz.toolfuzz.tools import wrap_tool


def lookup(code: str, count: int = 1) -> str:
    """Look up a product by its code, written SKU-<digits>."""
    prefix, number = code.split("SKU-")
    return f"{prefix}{int(number) * count}"


def test_plain_callable():
    tool = wrap_tool(lookup)
    assert tool.name == "lookup" and "SKU" in tool.description
    assert tool.schema["required"] == ["code"]
    assert tool.invoke({"code": "SKU-4", "count": 2}) == "8"


def test_agents_sdk_function_tool_raises_through_the_wrapped_function():
    agents = pytest.importorskip("agents")
    sdk_tool = agents.function_tool(lookup)
    tool = wrap_tool(sdk_tool)
    assert tool.kind == "openai_agents" and tool.name == "lookup"
    assert "code" in tool.schema["properties"]
    with pytest.raises(ValueError):
        tool.invoke({"code": "nope", "count": 1})
    result = fuzz_tool(tool, calls=40, seed=1)
    assert any(k.frame.startswith("test_wrappers.py:lookup") for k in result.unique)


def test_autogen_function_tool():
    pytest.importorskip("autogen_core")
    from autogen_core.tools import FunctionTool

    tool = wrap_tool(FunctionTool(lookup, description="Look up a product by code."))
    assert tool.kind == "autogen" and tool.invoke({"code": "SKU-2", "count": 3}) == "6"
    _, _, priors = call_tainted(tool.call_function, {"code": "SKU-1"})
    assert "SKU-" in priors["code"].separators


def test_langchain_tool_taints_the_underlying_function():
    pytest.importorskip("langchain_core")
    from langchain_core.tools import tool as lc_tool

    lc = lc_tool(lookup)
    tool = wrap_tool(lc)
    assert tool.kind == "langchain"
    assert tool.invoke({"code": "SKU-3"}) == "3"
    # LangChain's pydantic validation would turn a taint object into a plain str: taint the function.
    _, _, priors = call_tainted(tool.call_function, {"code": "SKU-3", "count": 1})
    assert "SKU-" in priors["code"].separators


def test_a_langchain_tool_without_args_schema_gets_no_key_its_run_cannot_take():
    pytest.importorskip("langchain_core")
    from langchain_core.tools import BaseTool

    class Keys(BaseTool):  # as JsonListKeysTool: no args_schema, LangChain infers it from _run
        name: str = "keys"
        description: str = "List the keys at a path."

        def _run(self, tool_input: str, run_manager=None) -> str:
            return ",".join(tool_input.split("."))

    tool = wrap_tool(Keys())
    assert tool.schema["additionalProperties"] is False and list(tool.schema["properties"]) == ["tool_input"]
    # an open schema drew extra keys: a TypeError through BaseTool.run, and one masfuzz's own
    # call raised (set aside) on the taint path
    result = fuzz_tool(tool, calls=40, seed=0)
    assert not [u for u in result.unique.values() if u.key.error_type == "TypeError"]


def test_a_workflow_target_yields_its_function_tools():
    agents = pytest.importorskip("agents")
    t1 = agents.function_tool(lookup)

    @agents.function_tool
    def refund(order_id: str) -> str:
        """Refund an order."""
        return order_id

    helper = agents.Agent(name="Helper", tools=[refund])
    triage = agents.Agent(name="Triage", tools=[t1], handoffs=[helper])
    tools, _ = collect_tools(triage, "app.py:triage")
    assert sorted(t.name for t in tools) == ["lookup", "refund"]


def test_a_non_tool_is_a_clear_error():
    with pytest.raises(TargetError, match="not a tool"):
        wrap_tool(42)
    with pytest.raises(TargetError, match="no tool to fuzz"):
        collect_tools([], "empty.py:TOOLS")
