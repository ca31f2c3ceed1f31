"""The AG2 adapter: extraction and runs for AutoGen 0.2-style apps (`pip install masfuzz[ag2]`).

A target is either an object the app built — a `GroupChatManager` (its group chat, started by
its first model-less member as the app would) or one agent (answering a stand-in user) — or a
program that starts its own chats (`program.Program`: a script run as `__main__`, or a
function). Either way the plan is a list of chats (`extract.Plan`) and a run records what
happens inside the framework (`live`): every chat with its nesting, every turn, tool call and
result, and a delegation for every speaker change.

Each agent's model client points at a loopback `ModelServer` answering with the SUT model (AG2
speaks the OpenAI API; nothing else of the app changes). The server tells agents apart by their
system prompts, so a scenario's per-agent model and temperature reach each agent's `llm_config`
calls (`masfuzz.llm.sampling`). A group chat's members are put in the scenario's speaking order:
a round robin speaks in it, an "auto" selection shows its model the candidates in it.
Code that the agents write for a `code_execution_config` executor is recorded and not run
unless the scenario says `run_code` (`live._CodeStandIn`); tools take the scenario's faults and
stubs in the executor's function map.
"""

from __future__ import annotations

import asyncio
from typing import Any

import autogen

from masfuzz.adapters.ag2 import live
from masfuzz.adapters.ag2.extract import Plan, extract
from masfuzz.adapters.ag2.program import READ_TASK, Program, play, read, session
from masfuzz.adapters.base import Adapter, system_lock
from masfuzz.adapters.faults import tool_faults
from masfuzz.adapters.probes import restricted_probes
from masfuzz.adapters.ordering import in_speaking_order
from masfuzz.scenario import Scenario
from masfuzz.spec.model import WorkflowSpec
from masfuzz.trace import ANSWERS_EXHAUSTED, APP_BOUND, DESIGNED_LENGTH, HARNESS_CAUSE, HUMAN_PROMPTS, ErrorEvent, Message, TerminationReason, Trace, TraceRecorder, run_ended

# How AG2 words the end of a chat -> masfuzz's termination reasons.
_REASONS: tuple[tuple[str, TerminationReason], ...] = (
    ("Termination message condition", "text_mention"),
    ("Maximum turns", "max_turns"),
    ("Maximum rounds", "message_limit"),
    ("Maximum number of consecutive auto-replies", "max_turns"),
    ("User requested to end", "handoff_to_user"),
)


class AG2Adapter(Adapter):
    framework = "ag2"
    model_setting = "llm_config"
    extra = "ag2"

    @classmethod
    def accepts(cls, obj: Any) -> bool:
        return isinstance(obj, (autogen.ConversableAgent, Program))

    def extract(self, obj: Any, *, target: str = "") -> WorkflowSpec:
        plan = plan_of(obj, target)
        own = plan.chats[0].message if isinstance(obj, Program) and plan.chats else ""
        # a task the program read with input() is not its own (masfuzz gave it while reading)
        return extract(plan, task=own if own and own != READ_TASK else None)

    async def run(self, obj: Any, spec: WorkflowSpec, scenario: Scenario) -> Trace:
        from masfuzz.adapters.blackbox import DUMMY_KEY, PerAgentModels
        from masfuzz.serve.server import ModelServer

        rec = TraceRecorder(scenario_id=scenario.id, system_id=spec.system.id, framework="ag2")
        # (name, prompt) pairs, and every agent the program builds adds its own as it is built:
        # the endpoint tells apart agents an app redefines, or builds only in some runs
        known = [(a.id, a.instructions) for a in spec.agents if a.instructions]
        # `--restricted probe`: each model agent's model is also offered the workflow's tools the
        # agent may not use; a call of one is recorded and refused (`live.Session.probes`)
        probes = restricted_probes(spec) if scenario.restricted == "probe" else {}
        async with system_lock(obj), ModelServer(PerAgentModels(scenario), agents=known) as server:
            server.on_request = lambda agent, kind, request: kind == "agent" and rec.received(agent, request.messages)
            def redirect(agent: Any) -> None:
                prompt = getattr(agent, "system_message", "")
                if live.has_model(agent) and prompt and (agent.name, prompt) not in known:
                    known.append((agent.name, prompt))
                cfg = live.llm_config(agent)
                # a price (none: the model is masfuzz's) keeps AG2 from warning on every call
                # that it cannot cost a model it does not know
                cfg["config_list"] = [{"model": "masfuzz-sut", "api_key": DUMMY_KEY,
                                       "base_url": server.url, "price": [0, 0]}]
                cfg["cache_seed"] = None
                offered = {t.get("function", {}).get("name") for t in cfg.get("tools") or ()}
                stubs = [{"type": "function", "function": {"name": t.name, "description": t.description,
                                                           "parameters": t.parameters}}
                         for t in probes.get(agent.name, ()) if t.name not in offered]
                if stubs:
                    cfg["tools"] = [*(cfg.get("tools") or ()), *stubs]
                _configure(agent, cfg)

            def arrange(group: Any) -> None:
                names = {m.name for m in group.agents}
                order = [n for n in scenario.speaking_order if n in names]
                group.agents[:] = in_speaking_order(group.agents, order, lambda a: a.name)
                rec.meta["speaking_order"] = [a.name for a in group.agents]  # the last group's

            s = live.Session(mode="record", rec=rec, redirect=redirect, arrange=arrange,
                             summary_prompt=server.namer.summaries.append,
                             task=scenario.input or None,
                             task_answer=scenario.input or None,
                             injections=tool_faults(scenario, [t.id for t in spec.tools]),
                             probes={a: {t.name for t in ts} for a, ts in probes.items()},
                             run_code=scenario.run_code)
            if isinstance(obj, Program):
                crash = await asyncio.to_thread(play, obj, s)
            else:
                crash = await asyncio.to_thread(_play_object, obj, s, scenario, redirect, arrange)
            rec.usage.model_calls = len(server.recording.calls)
        rec.meta[HUMAN_PROMPTS] = s.human_prompts
        if s.code_not_run:  # what the code executors' stand-in was given and did not run
            rec.meta["code_not_run"] = s.code_not_run
        # masfuzz bounds only the chat it starts itself (`initiate_chat(max_turns=...)`)
        return _finish(rec, s, crash, None if isinstance(obj, Program) else scenario.max_turns)


def _configure(agent: Any, cfg: dict[str, Any]) -> None:
    """Give `agent` this llm_config and a client made from it, as its constructor would."""
    if hasattr(agent, "_validate_llm_config") and hasattr(agent, "_create_client"):
        agent.llm_config = agent._validate_llm_config(cfg)
        agent.client = agent._create_client(agent.llm_config)
    else:  # 0.2.x releases
        agent.llm_config = cfg
        agent.client = autogen.OpenAIWrapper(**cfg)


def plan_of(obj: Any, target: str = "") -> Plan:
    if isinstance(obj, Program):
        s = read(obj, target or obj.name)
        return Plan.of(obj.name, s.chats, s.direct)
    starter, other = _opening(obj)
    return Plan.of(obj.name, [live.ChatCall(starter, other, "", None)])


def _opening(obj: Any) -> tuple[Any, Any]:
    """Who starts the chat with an object target, and with whom."""
    group = getattr(obj, "groupchat", None)
    if isinstance(obj, autogen.GroupChatManager) and group is not None:
        members = list(group.agents)
        return next((a for a in members if not live.has_model(a)), members[0]), obj
    return _stand_in_user(), obj


def _stand_in_user() -> Any:
    """The user of a lone agent: a model-less proxy that sends the task and says nothing more."""
    return autogen.UserProxyAgent("user", human_input_mode="NEVER", code_execution_config=False,
                                  max_consecutive_auto_reply=0, default_auto_reply="")


def _play_object(obj: Any, s: live.Session, scenario: Scenario, redirect: Any, arrange: Any) -> str | None:
    plan = plan_of(obj)
    starter, other = plan.chats[0].sender, plan.chats[0].recipient
    everyone = plan.everyone()
    saved = {id(a): (a.llm_config, a.client) for a in everyone}
    groups = {id(g.groupchat): (g.groupchat, list(g.groupchat.agents)) for g in plan.groups}
    ours: dict[int, Any] = {}  # the client each agent was given for this run
    try:
        with session(s):
            for a in everyone:
                live.watch_termination(a)
                if a.llm_config:
                    redirect(a)
                    ours[id(a)] = a.client
            for g in plan.groups:
                # in place: the manager runs on a copy of the group chat sharing this list
                arrange(g.groupchat)
                g.groupchat.messages.clear()
            try:
                starter.initiate_chat(other, message=scenario.input, max_turns=scenario.max_turns,
                                      silent=True)
            except Exception as exc:  # the app's own failure is a finding
                return f"{type(exc).__name__}: {exc}"
    finally:
        # A run abandoned at its time limit ends here later, when a later run may hold the same
        # agents: what that run gave them (its endpoint, its speaking order) is its own to undo
        later = run_ended() is not None
        for a in everyone:
            if not later or ours.get(id(a), a.client) is a.client:
                a.llm_config, a.client = saved[id(a)]
        for group, members in groups.values() if not later else ():
            group.agents[:] = members
    return None


def _finish(rec: TraceRecorder, s: live.Session, crash: str | None, ours: int | None) -> Trace:
    final = next((e.content for e in reversed(rec.events)
                  if isinstance(e, Message) and e.agent), None)
    if crash:
        if crash.startswith("EOFError"):  # masfuzz's answers ran out, see program.play
            rec.meta[HARNESS_CAUSE] = ANSWERS_EXHAUSTED
        rec.add(ErrorEvent(kind="crash", message=crash))
        return rec.finish("crash", detail=crash, final_output=final)
    reason: TerminationReason = "completed"
    for words, mapped in _REASONS:
        if s.last_reason.startswith(words):
            reason = mapped
            break
    if s.last_reason.startswith("Maximum turns"):  # initiate_chat(max_turns=N): its length
        rec.meta[DESIGNED_LENGTH] = s.last_reason
    if reason in ("max_turns", "message_limit") and not s.last_reason.startswith(f"Maximum turns ({ours})"):
        # the app's own bound (a group's max_round, an agent's max_consecutive_auto_reply, the
        # max_turns of a chat its code starts), not the one masfuzz gave the chat it started
        rec.meta[APP_BOUND] = f"AG2: {s.last_reason}"
    return rec.finish(reason, detail=s.last_reason, final_output=final)
