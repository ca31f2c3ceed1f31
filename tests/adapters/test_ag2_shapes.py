"""AG2 / AutoGen 0.2-style depth: the shapes FLARE's benchmark apps are built from, each
extracted (agents, tools, delegations, obligations) and run (turns, delegations, nesting), with
a scripted model that answers per agent (tests/adapters/ag2_policy.py)."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("autogen.agentchat")

from masfuzz.exec import InProcessExecutor  # noqa: E402
from masfuzz.graph.coordination import CoordinationGraph  # noqa: E402
from masfuzz.scenario import Fault, Scenario  # noqa: E402
from masfuzz.trace import (  # noqa: E402
    AgentTurn, ChatEnd, ChatStart, DelegationEvent, Message, ToolCall, ToolResult, received_text, user_text,
    users_words,
)

HERE = Path(__file__).parent
SYSTEMS = HERE / "ag2_systems.py"
ONBOARDING = HERE / "fixtures_ag2" / "onboarding.py"
POLICY = f"scripted/{HERE / 'ag2_policy.py'}:policy"


def run(target: str, task: str = "A task from masfuzz"):
    ex = InProcessExecutor()
    trace = asyncio.run(ex.run(target, Scenario(input=task, sut_model=POLICY)))
    return ex.load(target).spec, trace


def edges(spec):
    return {d.edge for d in spec.delegations}


def witnessed(trace):
    return {(e.from_, e.to) for e in trace.of_type(DelegationEvent)}


def ids(spec):
    return {o.id for o in CoordinationGraph(spec).obligations()}


def test_two_agent_chat_alternates_and_stops_at_max_turns():
    spec, trace = run(f"{SYSTEMS}:comedians", "Tell a joke about compilers")
    assert [a.id for a in spec.agents] == ["joe", "cathy"]
    assert spec.system.entry_agent == "cathy"  # joe's opening is the task; cathy answers it
    assert edges(spec) == {("cathy", "joe"), ("joe", "cathy")}
    assert trace.speaker_order == ["cathy", "joe", "cathy"]
    assert witnessed(trace) == edges(spec)
    assert trace.of_type(Message)[0].role == "user"
    assert trace.of_type(Message)[0].content == "Tell a joke about compilers"
    # joe's own phrase does not stop him: only what he receives is tested
    assert trace.termination.reason == "max_turns"
    # two turns is the chat the app asked for (initiate_chat(max_turns=2)), not a round limit hit
    from masfuzz.oracles import detect

    assert trace.meta["designed_length"] == "Maximum turns (2) reached"
    assert not [f for f in detect(trace, spec) if f.category == "system_termination"]


def test_sequence_of_chats_records_carry_over_and_hands_the_work_on():
    spec, trace = run(str(ONBOARDING), "My name is Ana, from Lisbon")
    names = ["onboarding_personal_information_agent", "onboarding_topic_preference_agent",
             "customer_engagement_agent"]
    assert [a.id for a in spec.agents] == names  # the human proxy is no agent
    assert "customer_proxy_agent is a model-less proxy: speaks for the user" in spec.notes
    assert edges(spec) == {(names[0], names[1]), (names[1], names[2])}
    starts = trace.of_type(ChatStart)
    assert [(s.kind, s.carryover) for s in starts] == [
        ("chat", False), ("sequence", True), ("sequence", True)]
    assert len(trace.of_type(ChatEnd)) == 3
    assert witnessed(trace) == edges(spec)
    assert trace.of_type(Message)[0].content == "My name is Ana, from Lisbon"
    # whose words: the user said the task only. A later chat opens with the app's own message,
    # and AG2 appends the carry-over to it ("\nContext: \n" and the earlier chats' summaries,
    # the agents' words): both reach the next chat's agent in the user's role, neither is the
    # user's; what that agent received keeps the carry-over
    assert [m.content for _, m in users_words(trace)] == ["My name is Ana, from Lisbon"]
    placed = [(m.source, m.content) for m in trace.of_type(Message) if m.role == "user" and m.source]
    assert ("app", "Great! Could you tell me what topics you are interested in reading about?") in placed
    assert ("app", "Let's find something fun to read.") in placed
    carried = [text for source, text in placed if source == "carryover"]
    assert len(carried) == 2 and not any("Context:" in text for _, text in placed)
    summary = trace.of_type(ChatEnd)[0].summary
    assert summary and summary in carried[0]
    last = trace.events.index(trace.of_type(ChatStart)[2])
    assert summary in received_text(trace, names[2], last) and summary not in user_text(trace)
    reach = {f"reach::{n}" for n in names}
    assert reach <= ids(spec)
    assert {e.agent for e in trace.of_type(AgentTurn)} == set(names)
    # the app's own summary prompt is a summary call, like AG2's default one: no agent of its own
    assert set(trace.meta["agent_settings"]) <= {*names, "summarizer"}


def test_nested_review_chats_are_nested_in_the_trace():
    spec, trace = run(f"{SYSTEMS}:blog", "Write about fuzzing")
    assert edges(spec) == {("writer", "critic"), ("critic", "writer"),
                           ("critic", "seo_reviewer"), ("critic", "legal_reviewer")}
    starts = trace.of_type(ChatStart)
    outer = starts[0]
    assert outer.kind == "chat" and outer.parent is None
    nested = [s for s in starts if s.kind == "nested"]
    assert [(s.recipient, s.parent) for s in nested] == [
        ("seo_reviewer", outer.chat), ("legal_reviewer", outer.chat)]
    # the reviewers speak between their chat's start and end
    events = list(trace.events)
    for s in nested:
        begin = events.index(s)
        end = next(i for i, e in enumerate(events) if isinstance(e, ChatEnd) and e.chat == s.chat)
        assert any(isinstance(e, AgentTurn) and e.agent == s.recipient for e in events[begin:end])
    assert witnessed(trace) == edges(spec)


def test_tool_registered_on_caller_and_executor():
    spec, trace = run(f"{SYSTEMS}:currency")
    assert [a.id for a in spec.agents] == ["currency_bot"]
    assert spec.permissions.allow == (("currency_bot", "currency_calculator"),)
    assert "use_tool::currency_bot::currency_calculator" in ids(spec)
    assert not any(i.startswith("reach::user_proxy") for i in ids(spec))
    call, = trace.of_type(ToolCall)
    result, = trace.of_type(ToolResult)
    assert (call.agent, call.tool, result.agent, result.status, result.payload) == (
        "currency_bot", "currency_calculator", "currency_bot", "ok", "111.11 EUR")
    assert trace.termination.reason == "text_mention"


def _currency(**scenario):
    ex = InProcessExecutor()
    return asyncio.run(ex.run(f"{SYSTEMS}:currency", Scenario(input="A task from masfuzz",
                                                              sut_model=POLICY, **scenario)))


def test_a_stub_or_a_fault_takes_the_place_of_a_tool_the_executor_runs():
    stub = _currency(stubs={"currency_calculator": "99.99 EUR (stub)"})
    result, = stub.of_type(ToolResult)
    assert (result.status, result.fault, result.payload) == ("ok", "stub", "99.99 EUR (stub)")
    assert "99.99 EUR (stub)" in stub.termination.final_output  # the agent read the stub's answer
    broken = _currency(faults=(Fault(tool="currency_calculator", mode="error"),))
    result, = broken.of_type(ToolResult)
    assert (result.status, result.fault) == ("error", "error")
    assert "MASFUZZ_INJECTED_INTERNAL_ERROR" in result.payload
    assert _currency().of_type(ToolResult)[0].payload == "111.11 EUR"  # the tool is back


@pytest.mark.parametrize("style", ["executor", "legacy"])
def test_code_an_agent_writes_is_recorded_and_not_run_unless_the_user_says_so(style, tmp_path, monkeypatch):
    marker = tmp_path / "ran.txt"
    monkeypatch.setenv("CODER_MARKER", str(marker))
    monkeypatch.setenv("CODER_STYLE", style)
    kept = _run_coder()
    assert not marker.exists()
    [block] = kept.meta["code_not_run"]  # the runner's one auto-reply
    assert block["agent"] == "runner" and str(marker) in block["code"]
    # the proxy (a model-less executor) answers in the user's place: its report of the code is
    # the app's words, the user said the task only
    said = [(m.source, m.content) for m in kept.of_type(Message) if m.role == "user"]
    assert said[1][0] == "app" and "masfuzz did not run this code" in said[1][1]
    assert [m.content for _, m in users_words(kept)] == ["Create the marker file."]
    ran = _run_coder(run_code=True)
    assert marker.read_text() == "ran" and "code_not_run" not in ran.meta
    said = [(m.source, m.content) for m in ran.of_type(Message) if m.role == "user"]
    assert said[1][0] == "app" and "exitcode: 0" in said[1][1] and "written" in said[1][1]


def _run_coder(**scenario):
    ex = InProcessExecutor()
    return asyncio.run(ex.run(f"{SYSTEMS}:coder", Scenario(input="Create the marker file.",
                                                           sut_model=POLICY, **scenario)))


def test_round_robin_is_a_cycle_and_the_speaking_order_reaches_it():
    spec, trace = run(f"{SYSTEMS}:round_robin")
    assert spec.system.pattern == "fixed_order"
    assert edges(spec) == {("researcher", "drafter"), ("drafter", "editor"), ("editor", "researcher")}
    assert trace.speaker_order == ["researcher", "drafter", "editor"]
    ex = InProcessExecutor()
    target = f"{SYSTEMS}:round_robin"
    swapped = asyncio.run(ex.run(target, Scenario(input="go", sut_model=POLICY,
                                                  speaking_order=("editor", "drafter", "researcher"))))
    assert swapped.speaker_order == ["editor", "drafter", "researcher"]
    # a group chat the program builds as it runs takes the order too (0.2.x releases name the
    # manager's group chat only at the end of its constructor)
    built = asyncio.run(ex.run(f"{SYSTEMS}:round_robin_program", Scenario(
        input="go", sut_model=POLICY, speaking_order=("drafter", "editor", "researcher"))))
    assert built.termination.reason != "crash", built.termination.detail
    assert built.meta["speaking_order"] == ["drafter", "editor", "researcher", "user"]


def test_a_program_whose_chats_fail_is_a_crash_finding(tmp_path):
    app = tmp_path / "broken.py"
    app.write_text(
        "import autogen\n"
        "cfg = {'config_list': [{'model': 'm', 'api_key': 'sk-unused'}], 'cache_seed': None}\n"
        "a = autogen.AssistantAgent('solver', llm_config=cfg, system_message='You are Solver.')\n"
        "u = autogen.UserProxyAgent('u', human_input_mode='NEVER', code_execution_config=False,"
        " max_consecutive_auto_reply=0)\n"
        "result = u.initiate_chat(a, message='hello')\n"
        "raise RuntimeError('report writer broke: ' + result.summary[:5])\n")
    spec, trace = run(str(app))
    assert [a.id for a in spec.agents] == ["solver"]
    assert trace.termination.reason == "crash"
    assert "report writer broke" in trace.termination.detail


def _asking(tmp_path, reads: str):
    app = tmp_path / "asks.py"
    app.write_text(
        "import autogen\n"
        "cfg = {'config_list': [{'model': 'm', 'api_key': 'sk-unused'}], 'cache_seed': None}\n"
        "a = autogen.AssistantAgent('solver', llm_config=cfg, system_message='You are Solver.')\n"
        "u = autogen.UserProxyAgent('u', human_input_mode='NEVER', code_execution_config=False,"
        " max_consecutive_auto_reply=0)\n" + reads +
        "u.initiate_chat(a, message=f'{topic} / {tone}')\n")
    return run(str(app), task="A poem about rain")[1]


def test_a_program_asking_for_its_task_in_parts_gets_the_task_each_time(tmp_path):
    trace = _asking(tmp_path, "topic, tone = input('topic? '), input('tone? ')\n"
                              "assert topic == tone, (topic, tone)\n")
    assert trace.termination.reason != "crash", trace.termination.detail
    assert trace.of_type(Message)[0].content == "A poem about rain"  # the task opens the chat


def test_exec_json_on_an_ag2_program_prints_only_the_document():
    """AG2 logs and prints to stdout; under `--format json` stdout is the JSON document only."""
    proc = subprocess.run(
        [sys.executable, "-c", "from masfuzz.cli import run; run()", "exec", str(ONBOARDING),
         "--input", "My name is Ana", "--sut-model", POLICY, "--executor", "inprocess",
         "--format", "json"], capture_output=True, text=True, timeout=240)
    assert proc.returncode == 0, proc.stderr[-2000:]
    doc = json.loads(proc.stdout)
    assert doc["framework"] == "ag2"
    assert "Let's find something fun to read" in proc.stderr  # the app's own print went there


def test_nested_chats_of_a_proxy_pass_the_turn_from_the_agent_that_triggered_them():
    spec, trace = run(f"{SYSTEMS}:proxy_review")
    assert {a.id for a in spec.agents} == {"writer", "critic"}
    assert spec.system.entry_agent == "writer"
    assert edges(spec) == {("writer", "critic")}
    nested, = [s for s in trace.of_type(ChatStart) if s.kind == "nested"]
    assert (nested.sender, nested.recipient) == ("user", "critic")
    assert trace.speaker_order == ["writer", "critic", "writer"]
    assert witnessed(trace) == {("writer", "critic")}
    # the nested chat's message the proxy's function prepared ("Critique: " and the writer's
    # draft) is the app's, not the user's
    prepared = [m for m in trace.of_type(Message) if m.content.startswith("Critique: ")]
    assert prepared and all(m.role == "user" and m.source == "app" for m in prepared)
    assert [m.content for _, m in users_words(trace)] == ["A task from masfuzz"]


def test_temperature_and_model_mutations_reach_the_agents_a_program_builds():
    """A program's agents are built during the run, from its own llm_config: a scenario's
    per-agent temperature and model reach exactly the agent they name."""
    ex = InProcessExecutor()
    policy = f"scripted/{HERE / 'ag2_policy.py'}"
    scenario = Scenario(input="jokes", sut_model=f"{policy}:thermometer", temperatures={"cathy": 1.2},
                        agent_models={"joe": f"{policy}:other_family"})
    trace = asyncio.run(ex.run(f"{SYSTEMS}:comedians", scenario))
    said = {(m.agent, m.content) for m in trace.of_type(Message) if m.agent}
    assert said == {("cathy", "cathy at temperature 1.2"), ("joe", "joe answered by the other family")}
    settings = trace.meta["agent_settings"]
    assert settings["cathy"]["temperature"] == 1.2 and settings["joe"]["temperature"] is None
    assert settings["joe"]["model"].endswith(":other_family")


def test_a_programs_own_task_is_its_null_seed(cli, tmp_path):
    """FLARE's null seed: a program that carries its own task is fuzzed from it, with no
    --input and no tester-written tasks; a function target that reads its task has none."""
    spec = InProcessExecutor().load(str(ONBOARDING)).spec
    assert spec.system.task == ("Hello, I'm here to help you get started. Could you tell me "
                                "your name and location?")
    assert InProcessExecutor().load(f"{SYSTEMS}:round_robin").spec.system.task is None
    code, out, err = cli("fuzz", str(ONBOARDING), "--sut-model", POLICY, "--seed-tasks", "0",
                         "--no-spec-agent", "--no-judge", "--no-cache", "--executor", "inprocess",
                         "--rounds", "2", "--store", str(tmp_path / "n.db"), "--format", "json")
    assert code == 0, err
    data = json.loads(out)
    assert data["run"]["config"]["seeds"] == [spec.system.task]
    from masfuzz.store.db import RunStore

    sources = [s.provenance.source for _, s, _ in RunStore(str(tmp_path / "n.db")).executions(1)]
    assert sources[0] == "null" and len(sources) == 3
    # exec runs it from its own task too; a target with none still needs --input
    code, out, err = cli("exec", str(ONBOARDING), "--sut-model", POLICY, "--executor", "inprocess",
                         "--format", "json")
    assert code == 0, err
    assert [e["content"] for e in json.loads(out)["events"] if e["type"] == "message"][0] == spec.system.task
    code, _, err = cli("exec", f"{SYSTEMS}:round_robin", "--sut-model", POLICY)
    assert code == 2 and "--input TEXT is required" in err


def test_a_notebook_runs_its_code_cells_from_a_script_beside_it(tmp_path):
    """Magics and shell escapes are left out, Jupyter's `display` exists, and the cells run from
    `.masfuzz/notebooks/<name>.py` (real lines for tracebacks and code coverage)."""
    notebook = tmp_path / "lesson.ipynb"
    notebook.write_text((HERE / "fixtures_ag2" / "lesson.ipynb").read_text())
    spec, trace = run(str(notebook), "Jokes about notebooks")
    assert [a.id for a in spec.agents] == ["joe", "cathy"]
    assert spec.system.task == "I'm Joe. Cathy, let's keep the jokes rolling."
    assert trace.speaker_order == ["cathy", "joe", "cathy"]
    assert trace.termination.reason == "max_turns"
    script = tmp_path / ".masfuzz" / "notebooks" / "lesson.py"
    assert "initiate_chat" in script.read_text() and "%pip" not in script.read_text()


@pytest.mark.parametrize("message", [
    '{"role": "user", "content": "Plan a picnic for four"}',
    '{"role": "user", "content": [{"type": "text", "text": "Plan a picnic for four"}]}',
])
def test_an_opening_message_in_dict_form_is_the_programs_own_task(message, tmp_path):
    """AG2 takes an opening message as a message dict, its content a string or a list of parts:
    either way it is the program's own task (exec and fuzz need no --input)."""
    program = tmp_path / "picnic.py"
    program.write_text(
        "import autogen\n"
        "cfg = {'config_list': [{'model': 'gpt-4o-mini', 'api_key': 'sk-unused'}]}\n"
        "planner = autogen.ConversableAgent('planner', system_message='Plan it.', llm_config=cfg,\n"
        "                                   human_input_mode='NEVER')\n"
        "user = autogen.UserProxyAgent('user', human_input_mode='NEVER', code_execution_config=False)\n"
        f"user.initiate_chat(planner, message={message}, max_turns=1)\n")
    spec = InProcessExecutor().load(str(program)).spec
    assert spec.system.task == "Plan a picnic for four"


def test_a_group_patterns_delegations_are_its_hand_offs_not_every_pair():
    """AG2's group-pattern API gives its GroupChat every agent and no transition limits; the
    speakers follow the agents' hand-offs and their tools' ReplyResult targets. Read as every
    ordered pair, the agent-pattern cookbook's triage app had 30 delegations for 8 and its
    redundant app's nested-chat agents were unreachable."""
    helpdesk = str(HERE / "fixtures_ag2" / "helpdesk.py")
    ex = InProcessExecutor()
    spec = ex.load(helpdesk).spec
    assert edges(spec) == {("desk", "billing"), ("desk", "tech"), ("billing", "supervisor"),
                           ("billing", "desk"), ("tech", "desk"), ("supervisor", "reviewer")}
    assert {a.id for a in spec.agents} >= {"archivist", "reviewer"}
    assert "archivist" not in {d.to for d in spec.delegations}  # never handed to
    assert "wrapped_nested_supervisor_1 is a model-less proxy: answers with nested chats with reviewer" in spec.notes
    # a run under masfuzz's probe (every tool and hand-off it is offered) takes no other edge
    # (no restricted stubs: each refused call would take a round of the group's six)
    trace = asyncio.run(ex.run(helpdesk, Scenario(input="I want a refund of 300 EUR.", restricted="off",
                                                  sut_model="scripted/masfuzz.control:probe")))
    assert witnessed(trace) and witnessed(trace) <= edges(spec)


def test_a_group_whose_speakers_an_app_function_picks_is_routed_by_code_not_a_selector():
    """`speaker_selection_method=next_speaker` (a hand-over map): the app's code routes, as a
    graph's edges do, so no model chose the route from the members' descriptions."""
    import autogen

    from masfuzz.adapters.ag2.live import _trigger, coded_selection

    a, b = (autogen.AssistantAgent(n, llm_config=False) for n in ("intake", "booker"))

    def next_speaker(last, chat):
        return b if last is a else None

    coded = autogen.GroupChat(agents=[a, b], messages=[], speaker_selection_method=next_speaker)
    chosen = autogen.GroupChat(agents=[a, b], messages=[], speaker_selection_method="auto")
    assert coded_selection(coded) and not coded_selection(chosen)
    manager = autogen.GroupChatManager(groupchat=coded, llm_config=False)
    assert _trigger(manager, nested=False) == "sequence"
    assert _trigger(autogen.GroupChatManager(groupchat=chosen, llm_config=False), nested=False) == "selector"
