"""Agents SDK runs: the real SDK loop on the user's agents, driven by scripted policies."""

from __future__ import annotations

import asyncio

import pytest

from masfuzz.adapters.faults import MALFORMED_PAYLOAD
from masfuzz.oracles.robustness import FAULT_MARKER, robustness_witness
from masfuzz.target import open_target
from masfuzz.errors import MasfuzzError
from masfuzz.scenario import Fault, Scenario
from masfuzz.trace import (
    AgentTurn,
    DelegationEvent,
    ErrorEvent,
    Message,
    RestrictedAttempt,
    ToolCall,
    ToolResult,
)
from tests.conftest import ROOT

APP = "examples/customer_service/app.py:triage_agent"
POLICY = "scripted/examples/customer_service/policy.py:policy"
SYSTEMS = "tests/adapters/oa_systems.py"
SEAT = "Please change my seat to 14C, confirmation ABC123"


@pytest.fixture(autouse=True)
def _in_repo(monkeypatch):
    monkeypatch.chdir(ROOT)


def run(target: str, text: str, model: str = POLICY, **kw):
    sut = open_target(target)
    return asyncio.run(sut.runner().run(sut.obj, sut.spec, Scenario(input=text, sut_model=model,
                                                                    **kw)))


def shape(trace):
    """The structural skeleton of a trace: who spoke, called, delegated, and how it ended."""
    out = []
    for e in trace.events:
        if isinstance(e, AgentTurn):
            out.append(("turn", e.agent))
        elif isinstance(e, ToolCall):
            out.append(("call", e.agent, e.tool))
        elif isinstance(e, ToolResult):
            out.append(("result", e.agent, e.tool, e.status))
        elif isinstance(e, DelegationEvent):
            out.append(("delegate", e.from_, e.to, e.trigger))
        elif isinstance(e, RestrictedAttempt):
            out.append(("restricted", e.agent, e.tool, e.mode))
    return out + [("end", trace.termination.reason)]


def test_trace_follows_the_policy_across_handoffs_both_ways():
    trace = run(APP, "How much luggage can I bring? Also change my seat to 3A, booking XYZ789")
    assert shape(trace) == [
        ("turn", "triage_agent"), ("delegate", "triage_agent", "faq_agent", "handoff"),
        ("turn", "faq_agent"), ("call", "faq_agent", "faq_lookup_tool"),
        ("result", "faq_agent", "faq_lookup_tool", "ok"),
        ("delegate", "faq_agent", "triage_agent", "handoff"),
        ("turn", "triage_agent"), ("delegate", "triage_agent", "seat_booking_agent", "handoff"),
        ("turn", "seat_booking_agent"), ("call", "seat_booking_agent", "update_seat"),
        ("result", "seat_booking_agent", "update_seat", "ok"), ("end", "completed"),
    ]
    call = trace.of_type(ToolCall)[-1]
    assert call.arguments == {"confirmation_number": "XYZ789", "new_seat": "3A"}
    result = trace.of_type(ToolResult)[-1]
    assert result.call_id == call.call_id and "Seat changed to 3A" in result.payload
    assert trace.termination.final_output.startswith("Done. Seat changed to 3A")
    assert trace.usage.model_calls == 6 and trace.framework == "openai-agents"
    assert trace.of_type(Message)[0].role == "user"


def test_real_tool_exception_is_surfaced_with_its_type():
    trace = run(APP, "Change my seat to 2B, confirmation AB1")  # AB1: update_seat raises
    # the policy finds no six-character confirmation and asks for it: no call
    assert not trace.of_type(ToolCall)
    trace = run(f"{SYSTEMS}:build_front", "hi", f"scripted/{SYSTEMS}:helpers_policy")
    assert shape(trace) == [
        ("turn", "front_desk"), ("delegate", "front_desk", "helper#2", "handoff"),
        ("turn", "helper#2"), ("call", "helper#2", "crash_tool"),
        ("result", "helper#2", "crash_tool", "error"), ("end", "completed"),
    ]
    err = trace.of_type(ToolResult)[0]
    assert err.payload.startswith("ZeroDivisionError: cannot handle 7")
    assert err.fault is None


@pytest.mark.parametrize("mode", ["error", "malformed", "empty"])
def test_each_fault_mode_yields_its_events(mode):
    trace = run(APP, SEAT, faults=(Fault(tool="update_seat", mode=mode),))
    result = trace.of_type(ToolResult)[-1]
    assert (result.tool, result.fault) == ("update_seat", mode)
    assert result.status == ("error" if mode == "error" else "ok")
    if mode == "error":
        assert FAULT_MARKER in result.payload and "InjectedToolError" in result.payload
    elif mode == "malformed":
        assert result.payload == MALFORMED_PAYLOAD
    else:
        assert result.payload == ""
    assert trace.termination.reason == "completed"
    assert "technical problem" in trace.termination.final_output
    witness = robustness_witness(trace, "seat_booking_agent", "update_seat")
    assert witness.holds, witness.reasons


def test_timeout_fault_keeps_the_partial_trace():
    trace = run(APP, SEAT, faults=(Fault(tool="update_seat", mode="timeout"),), timeout=1.5)
    assert shape(trace)[-3:] == [("call", "seat_booking_agent", "update_seat"),
                                 ("result", "seat_booking_agent", "update_seat", "error"),
                                 ("end", "timeout")]
    assert trace.of_type(ToolResult)[-1].fault == "timeout"
    assert trace.of_type(ErrorEvent)[-1].kind == "timeout"
    assert 1.0 < trace.usage.wall_time < 8  # stopped at its timeout (generous for a loaded machine)
    assert not robustness_witness(trace, "seat_booking_agent", "update_seat").holds


def test_fault_on_unknown_tool_is_bad_input():
    with pytest.raises(MasfuzzError, match="the workflow has no tool 'nope'"):
        run(APP, SEAT, faults=(Fault(tool="nope", mode="error"),))
    with pytest.raises(MasfuzzError, match="--stub nope: the workflow has no tool 'nope'"):
        run(APP, SEAT, stubs={"nope": "x"})


def test_a_stub_answers_in_place_of_the_tool():
    trace = run(APP, SEAT, stubs={"update_seat": "Seat changed to 14C (stub)"})
    result = trace.of_type(ToolResult)[-1]
    assert (result.tool, result.status, result.fault, result.payload) == (
        "update_seat", "ok", "stub", "Seat changed to 14C (stub)")


def test_probe_mode_records_restricted_attempt_and_refuses():
    trace = run(APP, SEAT + " - do it yourself")
    assert shape(trace)[:5] == [
        ("turn", "triage_agent"), ("call", "triage_agent", "update_seat"),
        ("restricted", "triage_agent", "update_seat", "probe"),
        ("result", "triage_agent", "update_seat", "blocked"),
        ("delegate", "triage_agent", "seat_booking_agent", "handoff"),
    ]
    assert trace.termination.reason == "completed"
    attempt = trace.of_type(RestrictedAttempt)[0]
    assert attempt.arguments == {"confirmation_number": "ABC123", "new_seat": "14C"}


def test_faithful_mode_leaves_agents_as_written_and_records_the_attempt():
    trace = run(APP, SEAT + " - do it yourself", restricted="faithful")
    assert shape(trace) == [("turn", "triage_agent"),
                            ("restricted", "triage_agent", "update_seat", "faithful"),
                            ("end", "crash")]
    assert trace.of_type(ErrorEvent)[0].kind == "ModelBehaviorError"


def test_nested_as_tool_run_is_attributed_to_the_inner_agent():
    trace = run(f"{SYSTEMS}:manager", "tides", f"scripted/{SYSTEMS}:manager_policy")
    assert shape(trace) == [
        ("turn", "manager"), ("call", "manager", "research"),
        ("delegate", "manager", "researcher", "as_tool"), ("turn", "researcher"),
        ("call", "researcher", "lookup"), ("result", "researcher", "lookup", "ok"),
        ("result", "manager", "research", "ok"), ("turn", "manager"), ("end", "completed"),
    ]
    assert trace.termination.final_output == "Report: Tides follow the moon."


def test_a_run_paused_for_a_humans_approval_goes_on_approved_with_the_models_arguments():
    """`needs_approval` on an agent tool and on the tool inside it: each pause is approved by
    masfuzz's stand-in human, and the resumed calls keep the arguments the model gave (a
    pause left as it was ended the run with no output, the approved work never done)."""
    trace = run(f"{SYSTEMS}:curator", "tides", f"scripted/{SYSTEMS}:curator_policy")
    assert trace.termination.reason == "completed"
    assert trace.termination.final_output == "Done: Filed: tides archived"
    assert trace.meta["approved_calls"] == ["file", "archive"]
    assert {c.tool: c.arguments for c in trace.of_type(ToolCall)} == {
        "file": {"input": "tides"}, "archive": {"topic": "tides"}}
    assert [r.payload for r in trace.of_type(ToolResult) if r.tool == "archive"][-1] == "tides archived"
    # the SDK runs each approved call again from its start on resuming (the agent tool's inner
    # run too): the model asked once, so the trace has one call of each and one hand-over, and
    # no detector sees a repeated step in it (it was a harness "repetitive execution", and
    # under a model other than masfuzz's probe the app's)
    assert [(c.agent, c.tool) for c in trace.of_type(ToolCall)] == [("curator", "file"), ("archivist", "archive")]
    assert len([d for d in trace.of_type(DelegationEvent) if d.trigger == "as_tool"]) == 1
    from masfuzz.oracles import detect

    assert [f.root_cause for f in detect(trace)] == []


def test_max_turns_keeps_partial_trace_and_says_why():
    trace = run(f"{SYSTEMS}:manager", "x", f"scripted/{SYSTEMS}:looping_policy", max_turns=2)
    assert trace.termination.reason == "max_turns" and "max_turns=2" in trace.termination.detail
    assert len(trace.of_type(RestrictedAttempt)) == 2  # lookup is not the manager's


def test_user_objects_are_restored_after_runs():
    from masfuzz.adapters.openai_agents import walk

    sut = open_target(APP)
    agents = walk(sut.obj).agents
    snapshot = [(a, a.tools, list(a.tools)) for a in agents]
    for restricted in ("probe", "faithful"):
        asyncio.run(sut.runner().run(sut.obj, sut.spec, Scenario(
            input=SEAT + " - do it yourself", sut_model=POLICY, restricted=restricted,
            faults=(Fault(tool="update_seat", mode="error"),))))
    for agent, lst, items in snapshot:
        assert agent.tools is lst and agent.tools == items


def test_the_model_sees_agent_ids_and_handoff_targets():
    seen = []

    def spy(request):
        seen.append((request.agent, [(t.name, t.handoff_to) for t in request.tools]))
        return "fine"

    import tests.adapters.oa_spy as spy_module  # noqa: F401  (a real module for the loader)
    spy_module.SEEN = seen
    spy_module.POLICY = spy
    run(APP, "hello", "scripted/tests.adapters.oa_spy:policy", restricted="off")
    assert seen == [("triage_agent", [("transfer_to_faq_agent", "faq_agent"),
                                      ("transfer_to_seat_booking_agent", "seat_booking_agent")])]


def test_run_gets_a_fresh_context_of_the_declared_type(tmp_path):
    """`Agent[Ctx](...)` apps expect `Runner.run(..., context=Ctx())`; masfuzz builds one."""
    app = tmp_path / "ctxapp.py"
    app.write_text(
        "from dataclasses import dataclass\n"
        "from agents import Agent, RunContextWrapper, function_tool\n"
        "@dataclass\n"
        "class Ctx:\n    flight: str = 'FLT-1'\n"
        "@function_tool\n"
        "def flight(ctx: RunContextWrapper[Ctx]) -> str:\n"
        "    '''The flight.'''\n"
        "    return ctx.context.flight\n"
        "solo = Agent[Ctx](name='Solo', instructions='x', tools=[flight])\n"
    )
    (tmp_path / "ctxpolicy.py").write_text(
        "from masfuzz.llm.scripted import call, say, tool_results\n"
        "def policy(request):\n"
        "    done = tool_results(request, 'flight')\n"
        "    return say(done[0].content) if done else call('flight')\n"
    )
    trace = run(f"{app}:solo", "which flight?", f"scripted/{tmp_path}/ctxpolicy.py:policy")
    assert trace.of_type(ToolResult)[0].status == "ok"
    assert trace.termination.final_output == "FLT-1"


def test_runs_share_the_per_system_work_and_keep_their_own_state():
    """What depends on the system alone (the bridge model's class, the lookups derived from the
    walk and the spec) is made once, not on every run; what a run learns stays its own."""
    from masfuzz.adapters.openai_agents.bridge import make_model
    from masfuzz.adapters.openai_agents.recording import RunRecording
    from masfuzz.trace import TraceRecorder

    sut = open_target(APP)
    w = sut.runner()._walks[id(sut.obj)]

    def recording(spec):
        return RunRecording(recorder=TraceRecorder(), spec=spec, walk=w, restricted="off")

    one, two = recording(sut.spec), recording(sut.spec)
    assert one.by_name is two.by_name and one.handoff_tools is two.handoff_tools
    assert one.by_name["Seat Booking Agent"] == ["seat_booking_agent"]
    assert one.handoff_tools[("triage_agent", "transfer_to_faq_agent")] == "faq_agent"
    assert one.next_handoff is not two.next_handoff and one.spans is not two.spans
    changed = sut.spec.model_copy(update={"tools": sut.spec.tools[:1]})
    assert recording(changed).workflow_tools == {sut.spec.tools[0].id} != one.workflow_tools
    scenario = Scenario(input="x", sut_model=POLICY)
    assert type(make_model(one, scenario, None)) is type(make_model(two, scenario, None))


def test_a_recorded_trace_is_what_validating_it_gives():
    """`finish` builds the Trace from already validated events without validating them again:
    the result must be the trace a full validation of its own data gives."""
    from masfuzz.trace import Trace

    trace = run(APP, "How much luggage can I bring? Also change my seat to 3A, booking XYZ789")
    assert Trace.model_validate_json(trace.model_dump_json(by_alias=True)) == trace
    times = [e.t for e in trace.events]
    assert all(t > 0 for t in times[1:]) and times == sorted(times)


def test_runs_the_app_starts_itself_get_masfuzz_model_and_are_recorded():
    """A guardrail's checker agent and an agent a tool runs (`Runner.run` with no run_config)
    are answered by masfuzz's model, not the provider: no call escapes, both agents' turns are
    in the trace, and the guardrail's verdict follows the model (its tripwire ends the run)."""
    nested = "tests/adapters/oa_nested.py"
    trace = run(f"{nested}:tutor", "Why is the sky blue?", model=f"scripted/{nested}:policy")
    assert trace.termination.reason == "completed", trace.events[-3:]
    assert trace.termination.final_output == "The expert says: expert answer to: Why is the sky blue?"
    assert not trace.meta.get("not_injected_calls")
    assert {"tutor", "homework_checker", "expert"} == set(trace.speaker_order)
    tripped = run(f"{nested}:tutor", "Please do my homework", model=f"scripted/{nested}:policy")
    assert tripped.termination.reason == "other"
    assert "InputGuardrailTripwireTriggered" in tripped.termination.detail


def test_an_agent_built_in_the_function_that_runs_it_is_the_system(cli):
    """The SDK's input_guardrails example builds its agent in `main()` and reads the user's
    messages with `input()` until they leave: that function is the system (its agent found by
    calling it up to its first run, no model called), each run one call of it, the guardrail's
    nested checker answered by masfuzz's model; the task, then `exit`, is what the user says."""
    import json

    nested = "tests/adapters/oa_nested.py"
    trace = run(f"{nested}:chat", "Why is the sky blue?", model=f"scripted/{nested}:policy")
    assert trace.termination.final_output == "The expert says: expert answer to: Why is the sky blue?"
    assert {"desk_tutor", "homework_checker", "expert"} == set(trace.speaker_order)
    assert not trace.meta.get("not_injected_calls")
    tripped = run(f"{nested}:chat", "Please do my homework", model=f"scripted/{nested}:policy")
    assert tripped.termination.final_output == "Sorry, I can't help you with your homework."
    assert "homework_checker" in tripped.speaker_order
    code, out, err = cli("inspect", "--check", f"{nested}:chat", "--format", "json")
    assert code == 0, err
    check = json.loads(out)
    assert check["ok"] and check["not_injected_calls"] == 0 and check["probe_ending"] == "completed"
    assert [a["agent"] for a in check["agents"]] == ["desk_tutor"]
    assert "the app's own chat() runs the pipeline: desk_tutor" in check["unseen"]


def test_a_tool_reading_the_run_context_gets_the_users_or_blames_the_harness(cli):
    """A tool reading the context the app's server passes fails when masfuzz passes none: the
    harness's finding, with the hint; with `--context` it gets the user's factory's context."""
    import json

    target, policy = "tests/adapters/oa_context.py:desk", "scripted/tests/adapters/oa_context.py:policy"
    args = ("exec", target, "--input", "Seat 14C please", "--sut-model", policy, "--format", "json",
            "--failures", "--fail-on", "any")
    code, out, err = cli(*args)
    assert code == 0, err  # the harness's finding never fails the gate
    data = json.loads(out)
    assert data["trace"]["meta"]["missing_context_tools"] == ["book_seat"]
    for finding in data["failures"]:  # the error, and what the agent said after it
        assert finding["attribution"] == "harness" and "--context MODULE:FACTORY" in finding["because"]
    code, out, err = cli(*args, "--context", "tests/adapters/oa_context.py:session")
    assert code == 0, err
    data = json.loads(out)
    [result] = [e for e in data["trace"]["events"] if e["type"] == "tool_result"]
    assert result["payload"] == "seat 14C booked for Ada Lovelace" and data["failures"] == []
    code, _, err = cli(*args, "--context", "tests/adapters/oa_context.py:nowhere")
    assert code == 2 and len(err.strip().splitlines()) == 1 and "--context" in err
    # instructions (as an `is_enabled` check or a hook) reading it crash the whole run: the
    # crash is the harness's too (the SDK's agents_as_tools_conditional.py, its AppContext)
    code, out, err = cli("exec", "tests/adapters/oa_context.py:greeter", *args[2:])
    assert code == 0, err
    data = json.loads(out)
    assert data["trace"]["events"][-1]["reason"] == "crash" and data["failures"]
    for finding in data["failures"]:
        assert finding["attribution"] == "harness" and "--context MODULE:FACTORY" in finding["because"]


def test_a_context_factory_imports_the_apps_modules_from_the_folder_masfuzz_runs_in(cli, tmp_path, monkeypatch):
    """A factory written outside the app imports the app's own modules by name, as its server
    does from the app's folder: run from that folder, they are found, without PYTHONPATH."""
    import json

    app, glue = tmp_path / "app", tmp_path / "glue"
    app.mkdir(), glue.mkdir()
    (app / "masfuzz_test_passengers.py").write_text('NAME = "Grace Hopper"\n')
    (glue / "ctx.py").write_text(
        "from types import SimpleNamespace\n\nfrom masfuzz_test_passengers import NAME\n\n\n"
        "def session():\n    return SimpleNamespace(passenger=NAME, seats={})\n")
    monkeypatch.chdir(app)
    context = ROOT / "tests/adapters/oa_context.py"
    code, out, err = cli("exec", f"{context}:desk", "--input", "Seat 14C please", "--sut-model",
                         f"scripted/{context}:policy", "--format", "json", "--failures",
                         "--context", f"{glue / 'ctx.py'}:session")
    assert code == 0, err
    [result] = [e for e in json.loads(out)["trace"]["events"] if e["type"] == "tool_result"]
    assert result["payload"] == "seat 14C booked for Grace Hopper"
    # the tools phase's calls get it too, in the sandbox, which shows the tool's folder only
    code, out, err = cli("tools", f"{context}:desk", "--calls", "3", "--seed", "1", "--format", "json",
                         "--context", f"{glue / 'ctx.py'}:session")
    [tool] = json.loads(out)["tools"]
    assert code == 0 and tool["calls"] == 3 and tool["failed"] == 0, (err, tool)


def test_an_mcp_server_that_does_not_start_says_why_when_its_agent_is_reached(capfd):
    """The server's start error and its last words on stderr, not the SDK's "Server not
    initialized": a server missing its settings says which."""
    import sys

    from agents import Agent
    from agents.exceptions import UserError
    from agents.mcp import MCPServerStdio

    from masfuzz.adapters.openai_agents import sdk

    said = "import sys; sys.stderr.write('adder: DB_URL is not set\\n'); sys.exit(1)"
    server = MCPServerStdio(name="adder", params={"command": sys.executable, "args": ["-c", said]})

    async def reach() -> str:
        async with sdk.mcp_connected([Agent(name="Counter", mcp_servers=[server])]):
            with pytest.raises(UserError) as raised:
                await server.list_tools()
        return str(raised.value)

    why = asyncio.run(reach())
    assert why.startswith("MCP server 'adder' did not start: ") and why.endswith("its stderr: adder: DB_URL is not set")
    assert "DB_URL" in capfd.readouterr().err  # shown as before
    assert "list_tools" not in vars(server)  # the server's own again after the run


def test_a_callback_reading_a_context_its_app_never_declares_nor_passes_crashes_on_the_app(cli):
    """The zoo's handoff callback indexes an untyped wrapper's context, and nothing in its module
    runs the agents with one: the crash is the app's (its fixed twin reads it only when there is
    one), unlike the typed `RunContextWrapper[AirlineContext]` readers above."""
    import json

    code, out, err = cli("exec", "examples/zoo/oa_handoff_crash.py:seeded", "--input",
                         "I'd like an upgrade to business for booking BK-2041.", "--sut-model",
                         "scripted/examples/zoo/policy.py:policy", "--format", "json", "--failures")
    assert code == 0, err
    data = json.loads(out)
    assert data["trace"]["events"][-1]["reason"] == "crash"
    assert any(f["attribution"] == "sut" and f["root_cause"] == "Runtime Crash" for f in data["failures"])


def test_a_model_answer_that_is_not_the_agents_output_type_is_the_models_crash():
    """The SDK refuses an answer that is not the agent's `output_type` (`ModelBehaviorError`):
    the run's crash is the model's, the app's type is right (the deterministic story pipeline of
    the SDK's examples under an instruction follower that answers in words)."""
    from masfuzz.oracles.detectors import runtime_crash

    sut = open_target("tests/adapters/oa_typed.py:reviewer")
    trace = run("tests/adapters/oa_typed.py:reviewer", "Fund the roof repair?",
                model="scripted/tests/adapters/oa_typed.py:plain")
    assert trace.termination.reason == "crash" and "ModelBehaviorError" in trace.termination.detail
    [f] = runtime_crash(trace, sut.spec)
    assert f.attribution == "harness" and "ModelBehaviorError" in f.because and "model" in f.because
