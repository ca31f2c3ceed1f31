"""A LangGraph graph's tools fuzzed as `inspect` counts them, with the parameters LangGraph
injects (state, store, tool call id, config, ToolRuntime) bound and never fuzzed; handoff tools
are delegations, not tools (`masfuzz.adapters.langgraph.tools`)."""

from __future__ import annotations

import json
from typing import Annotated

import pytest
from langgraph.prebuilt import InjectedState

from masfuzz.cli import main
from masfuzz.loader import load_target
from masfuzz.toolfuzz.targets import collect_tools
from masfuzz.toolfuzz.tools import wrap_tool

from tests.adapters.helpers import system
from tests.conftest import ROOT

APP = "tests/adapters/langgraph_injected.py:app"


@pytest.fixture(autouse=True)
def _in_repo(monkeypatch):
    monkeypatch.chdir(ROOT)


def test_a_graphs_tools_are_found_in_its_tool_nodes_with_injected_parameters_bound():
    _, _, spec = system(APP)
    tools, notes = collect_tools(load_target(APP).obj, APP)
    by_name = {t.name: t for t in tools}
    # exactly the tools the spec's agents own; the handoff is a delegation, said in a note
    assert set(by_name) == {tool for _, tool in spec.permissions.allow} == {"lookup_order", "add_note"}
    assert any("transfer_to_billing" in n and "delegation" in n for n in notes)
    assert by_name["lookup_order"].schema["properties"].keys() == {"order_id"}
    assert by_name["add_note"].schema["properties"].keys() == {"text"}
    # the framework's path and the plain function both get a run's state, store, config, call id
    for call in (by_name["lookup_order"].invoke, by_name["lookup_order"].call_function):
        answer = call({"order_id": "A-1"})
        assert "thread masfuzz-" in answer and "call call_masfuzz_" in answer
    for call in (by_name["add_note"].invoke, by_name["add_note"].call_function):
        assert call({"text": "hi"}).startswith("noted 'hi' after 'masfuzz to'")
    with pytest.raises(ValueError):  # the tool's own bug still raises
        by_name["lookup_order"].invoke({"order_id": "#x"})


def test_tools_command_fuzzes_a_graph_and_finds_only_the_tools_own_bug(capsys, tmp_path):
    code = main(["tools", APP, "--calls", "40", "--seed", "3", "--format", "json",
                 "--store", str(tmp_path / "t.db")])
    data = json.loads(capsys.readouterr().out)
    assert code == 0
    found = {t["tool"]: t for t in data["tools"]}
    assert set(found) == {"lookup_order", "add_note"} and found["lookup_order"]["calls"] == 40
    errors = [(t["tool"], e["error_type"], e["attribution"]) for t in data["tools"] for e in t["errors"]]
    assert errors == [("lookup_order", "ValueError", "sut")]  # nothing about the injected values


def _plain(query: str, state: Annotated[dict, InjectedState]) -> str:
    """Count the conversation's messages."""
    return f"{query}: {len(state['messages'])} message(s)"


def test_a_plain_function_named_alone_gets_its_injected_state_bound_not_fuzzed():
    tool = wrap_tool(_plain)
    assert tool.schema["properties"].keys() == {"query"}
    assert tool.invoke({"query": "q"}) == tool.call_function({"query": "q"}) == "q: 1 message(s)"
    assert any("state is a guess" in n for n in tool.notes)
