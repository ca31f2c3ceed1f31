"""An AG2 script's tools fuzzed as `inspect` lists them (the functions its agents execute), with
the parameters AG2 injects (a ChatContext, a Depends value) bound and never fuzzed
(`masfuzz.adapters.ag2.tools`)."""

from __future__ import annotations

import json
from typing import Literal

import pytest
from pydantic import BaseModel

from masfuzz.adapters.base import program_target
from masfuzz.api import call_tool
from masfuzz.cli import main
from masfuzz.toolfuzz.targets import collect_tools

from tests.conftest import ROOT

SCRIPT = "tests/adapters/fixtures_ag2/booking.py"


@pytest.fixture(autouse=True)
def _in_repo(monkeypatch):
    monkeypatch.chdir(ROOT)


def test_a_scripts_executed_functions_are_its_tools_with_injected_parameters_bound():
    _, program = program_target(SCRIPT)
    [tool], notes = collect_tools(program, SCRIPT)
    assert tool.name == "book_room" and tool.kind == "ag2"
    assert set(tool.schema["properties"]) == {"room", "nights"}  # not the chat, not the prices
    # the chat context and the Depends value are bound on both paths; the result is not
    # serialised to text by AG2's wrapper
    assert tool.invoke({"room": "double", "nights": 3}) == "double for 3 nights: 320 EUR (0 chats)"
    assert tool.call_function({"room": "single", "nights": 2}) == "single for 2 nights: 120 EUR (0 chats)"
    with pytest.raises(ZeroDivisionError):  # the tool's own bug, not swallowed into "Error: ..."
        tool.invoke({"room": "double", "nights": 0})
    # the reproducer a finding prints reads the script as a program too
    assert call_tool(SCRIPT, "book_room", '{"room": "double", "nights": 1}').startswith("double for 1")


def test_run_fuzzes_an_ag2_scripts_tools_in_its_tools_phase(capsys, tmp_path):
    code = main(["run", SCRIPT, "--phases", "tools", "--calls", "20", "--seed", "1",
                 "--input", "Book a room", "--sut-model", "scripted/masfuzz.control:probe",
                 "--store", str(tmp_path / "r.db"), "--format", "json"])
    data = json.loads(capsys.readouterr().out)
    [tool] = data["tools"]["session"]["tools"]
    assert code == 1 and tool["tool"] == "book_room" and tool["calls"] == 20
    assert [(e["error_type"], e["attribution"]) for e in tool["errors"]] == [("ZeroDivisionError", "sut")]


def test_context_variables_the_model_is_not_asked_for_are_the_agents_own():
    import autogen
    from autogen.agentchat.group import ContextVariables

    def remember(fact: str, context_variables: ContextVariables) -> str:
        """Remember a fact for the conversation."""
        context_variables["facts"] = [*context_variables.get("facts", []), fact]
        return f"{len(context_variables['facts'])} fact(s)"

    agent = autogen.ConversableAgent("keeper", llm_config=False, human_input_mode="NEVER",
                                     context_variables=ContextVariables(data={"facts": ["a"]}))
    agent.register_function({"remember": remember})
    [tool], _ = collect_tools(agent, "keeper")
    assert set(tool.schema["properties"]) == {"fact"}
    assert tool.invoke({"fact": "b"}) == "2 fact(s)"  # the agent's own variables, not a fuzzed dict


class Task(BaseModel):
    topic: str
    priority: Literal["low", "high"]


def plan(tasks: list[Task]) -> str:
    """Plan the tasks."""
    return ", ".join(f"{t.topic}:{t.priority}" for t in tasks)


plan.__annotations__ = {"tasks": list[Task], "return": str}  # not strings: AG2 builds its schema


def test_a_parameter_of_pydantic_models_is_fuzzed_with_its_definitions_resolvable():
    """AG2 offers a `list[Model]` parameter as pydantic's schema of that parameter alone, its
    `$defs` inside the parameter and its `$ref`s pointing at the root: the triage-with-tasks
    cookbook app's `initiate_tasks` was not fuzzed ("Unresolvable JSON pointer")."""
    import autogen
    import jsonschema

    config = {"config_list": [{"model": "gpt-4o-mini", "api_key": "sk-unused"}]}
    planner = autogen.AssistantAgent("planner", llm_config=config)
    autogen.register_function(plan, caller=planner, executor=planner, description="Plan the tasks.")
    [tool], _ = collect_tools(planner, "planner")
    assert "Task" in tool.schema["$defs"] and "$defs" not in tool.schema["properties"]["tasks"]
    arguments = {"tasks": [{"topic": "solar", "priority": "high"}]}
    jsonschema.validate(arguments, tool.schema)  # every $ref resolves
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"tasks": [{"topic": "solar", "priority": "urgent"}]}, tool.schema)
    assert tool.invoke(arguments) == "solar:high"


def test_a_tool_reading_a_variable_another_tool_sets_in_a_run_fails_on_the_harness():
    """AG2's e-commerce example: the order tools read `user_info`, which the login tool sets in a
    run before any order agent can be reached; called alone they raised KeyError, blamed on the
    app. A variable no tool of the app sets stays the tool's own failure."""
    import autogen
    from autogen.agentchat.group import ContextVariables

    from masfuzz.toolfuzz.grouping import attribution
    from masfuzz.toolfuzz.sandbox import CallOutcome

    def login(context_variables: ContextVariables) -> str:
        """Log the customer in."""
        context_variables["user_info"] = {"orders": ["A1"]}
        return "logged in"

    def orders(context_variables: ContextVariables) -> str:
        """The customer's orders."""
        return ", ".join(context_variables["user_info"]["orders"])

    def coupon(context_variables: ContextVariables) -> str:
        """The customer's coupon."""
        return context_variables["coupon"]

    agent = autogen.ConversableAgent("desk", llm_config=False, human_input_mode="NEVER",
                                     context_variables=ContextVariables(data={"shop": "x"}))
    agent.register_function({"login": login, "orders": orders, "coupon": coupon})
    tools = {t.name: t for t in collect_tools(agent, "desk")[0]}
    with pytest.raises(RuntimeError, match="reads context variable 'user_info', which login sets") as exc:
        tools["orders"].invoke({})
    failed = CallOutcome(status="error", error_type="RuntimeError", message=str(exc.value))
    assert attribution(failed)[0] == "harness"
    with pytest.raises(KeyError):
        tools["coupon"].invoke({})
