"""AutoGen 0.2 / AG2 (`pip install masfuzz[ag2]`, module `autogen`): extraction and run.

Extraction reads the objects the app built: a `GroupChatManager` (its group chat's agents,
`max_round`, speaker selection method, allowed/disallowed speaker transitions) or a single
`ConversableAgent`; each agent's system message, model and `max_consecutive_auto_reply`; the
functions registered with `register_function` — proposed by the caller (tool schema in its
`llm_config`), run by the executor (its `function_map`).

A run points every agent's model client at a loopback `ModelServer` answering with the SUT
model (AG2 speaks the OpenAI API, so nothing else of the app changes), starts the chat from the
first agent without a model (the user proxy) as the app would, and reads the trace from the
group chat's own message history. Agents without a model (user proxies) speak for the human
and execute tools: their messages are the user's input and tool results, not agent turns.

A group chat's agents are put in the scenario's speaking order for the run
(`masfuzz.adapters.ordering`): a round robin speaks in it, and an "auto" selection shows its
model the roles and candidates in it (the model still chooses).
"""

from __future__ import annotations

import asyncio
from typing import Any

from masfuzz.adapters.base import Adapter
from masfuzz.adapters.ordering import in_speaking_order
from masfuzz.llm.openai_format import parse_arguments
from masfuzz.errors import TargetError
from masfuzz.scenario import Scenario
from masfuzz.spec.model import (
    AgentSpec, Delegation, Permissions, SystemInfo, Termination, ToolSpec, WorkflowSpec,
)
from masfuzz.trace import ErrorEvent, Message, TerminationReason, ToolCall, ToolResult, Trace, TraceRecorder

try:
    import autogen
except ImportError:  # pragma: no cover - the extra is not installed
    autogen = None


def _require() -> Any:
    if autogen is None or not hasattr(autogen, "ConversableAgent"):
        raise TargetError("AG2 apps need the ag2 extra: pip install 'masfuzz[ag2]'")
    return autogen


def _cfg(agent: Any) -> dict[str, Any]:
    cfg = agent.llm_config
    if not cfg:
        return {}
    return cfg if isinstance(cfg, dict) else cfg.model_dump()


def _parts(obj: Any) -> tuple[list[Any], Any | None]:
    """(agents, group chat or None)."""
    group = getattr(obj, "groupchat", None)
    if group is not None:
        return list(group.agents), group
    return [obj], None


class AG2Adapter(Adapter):
    framework = "ag2"
    extra = "ag2"

    @classmethod
    def accepts(cls, obj: Any) -> bool:
        return autogen is not None and isinstance(obj, autogen.ConversableAgent)

    def extract(self, obj: Any, *, target: str = "") -> WorkflowSpec:
        _require()
        agents, group = _parts(obj)
        specs, tools, allow = [], {}, []
        for a in agents:
            cfg = _cfg(a)
            models = [c.get("model") for c in cfg.get("config_list", ()) if c.get("model")]
            specs.append(AgentSpec(
                id=a.name, description=getattr(a, "description", "") or "",
                instructions=a.system_message if cfg else "", model=models[0] if models else None,
                model_settings={"max_consecutive_auto_reply": a.max_consecutive_auto_reply(),
                                "human_input_mode": getattr(a, "human_input_mode", None),
                                "has_model": bool(cfg)}))
            for t in [*(cfg.get("tools") or ()), *(cfg.get("functions") or ())]:
                fn = t.get("function", t)
                tools[fn["name"]] = ToolSpec(id=fn["name"], description=fn.get("description", ""),
                                             parameters=fn.get("parameters", {}))
                allow.append((a.name, fn["name"]))
        executors = sorted(f"{t} runs in {a.name}" for a in agents for t in a.function_map if t in tools)
        entry = next((a.name for a in agents if not _cfg(a)), agents[0].name)
        delegations, pattern, term = [], "orchestrated", Termination()
        if group is not None:
            method = group.speaker_selection_method
            pattern = "fixed_order" if method == "round_robin" else "selector"
            for src, dsts in group.allowed_speaker_transitions_dict.items():
                for d in dsts:
                    if d is not src:
                        delegations.append(Delegation(**{"from": src.name, "to": d.name},
                                                      trigger="selector"))
            conds = ["is_termination_msg"] if obj._is_termination_msg else []
            term = Termination(conditions=tuple(conds + [f"max_round={group.max_round}"]),
                               max_turns=group.max_round)
        return WorkflowSpec(
            system=SystemInfo(id=getattr(obj, "name", "ag2"), entry_agent=entry,
                              framework="ag2", pattern=pattern),
            agents=tuple(specs), tools=tuple(tools.values()),
            permissions=Permissions(allow=tuple(allow)), delegations=tuple(delegations),
            termination=term, notes=tuple(executors),
        )

    async def run(self, obj: Any, spec: WorkflowSpec, scenario: Scenario) -> Trace:
        from masfuzz.adapters.blackbox import DUMMY_KEY, _PerAgentModels
        from masfuzz.serve.server import ModelServer

        agents, group = _parts(obj)
        everyone = agents + ([obj] if group is not None else [])
        known = {a.name: a.system_message for a in agents if _cfg(a)}
        rec = TraceRecorder(scenario_id=scenario.id, system_id=spec.system.id, framework="ag2")
        order = in_speaking_order(agents, scenario.speaking_order, lambda a: a.name)
        async with ModelServer(_PerAgentModels(scenario), agents=known) as server:
            saved = {id(a): (a.llm_config, a.client) for a in everyone}
            try:
                if group is not None:
                    # In place: the manager runs on a copy of the group chat that shares this
                    # list (AG2 copies a reply's config). Restored below.
                    group.agents[:] = order
                    rec.meta["speaking_order"] = [a.name for a in order]
                for a in everyone:
                    cfg = _cfg(a)
                    if cfg:
                        cfg["config_list"] = [{"model": "masfuzz-sut", "api_key": DUMMY_KEY,
                                               "base_url": server.url}]
                        cfg["cache_seed"] = None
                        a.llm_config = a._validate_llm_config(cfg)
                        a.client = a._create_client(a.llm_config)
                if group is not None:
                    group.messages.clear()
                starter = next((a for a in agents if not _cfg(a)), agents[0])
                other = obj if group is not None else agents[0]
                try:
                    await asyncio.to_thread(starter.initiate_chat, other, message=scenario.input,
                                            max_turns=scenario.max_turns, silent=True)
                    crash = None
                except Exception as exc:  # the app's own failure is a finding
                    crash = f"{type(exc).__name__}: {exc}"
                rec.usage.model_calls = len(server.recording.calls)
            finally:
                for a in everyone:
                    a.llm_config, a.client = saved[id(a)]
                if group is not None:
                    group.agents[:] = agents
        history = group.messages if group is not None else starter.chat_messages.get(other, [])
        return _trace(rec, history, {a.name for a in agents if _cfg(a)}, group, obj, crash)


def _trace(rec: TraceRecorder, history: list[dict[str, Any]], llm_agents: set[str], group: Any,
           manager: Any, crash: str | None) -> Trace:
    calls: dict[str, ToolCall] = {}
    last_text = None
    for i, m in enumerate(history):
        name = m.get("name") or ""
        if i == 0 or name not in llm_agents:
            for r in m.get("tool_responses") or ():
                call = calls.get(r.get("tool_call_id", ""))
                if call is not None:
                    rec.add(ToolResult(agent=call.agent, tool=call.tool, call_id=call.call_id,
                                       payload=str(r.get("content", ""))))
            if i == 0:
                rec.add(Message(role="user", content=str(m.get("content") or "")))
            continue
        rec.turn(name)
        if m.get("content") and str(m["content"]) != "None":  # AG2 keeps None as text
            rec.add(Message(agent=name, content=str(m["content"])))
            last_text = str(m["content"])
        for tc in m.get("tool_calls") or ():
            fn = tc.get("function", {})
            call = ToolCall(agent=name, tool=fn.get("name", ""),
                            arguments=parse_arguments(fn.get("arguments")), call_id=tc.get("id", ""))
            calls[call.call_id] = call
            rec.add(call)
    if crash:
        rec.add(ErrorEvent(kind="crash", message=crash))
        return rec.finish("crash", detail=crash, final_output=last_text)
    reason: TerminationReason = "completed"
    is_term = getattr(manager, "_is_termination_msg", None)
    if history and is_term is not None and is_term(history[-1]):
        reason = "text_mention"
    elif group is not None and len(history) >= group.max_round:
        reason = "message_limit"
    return rec.finish(reason, final_output=last_text)


ADAPTER = AG2Adapter
