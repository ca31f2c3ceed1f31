"""The SUT model bridge: a CrewAI `BaseLLM` (CrewAI's own custom-LLM interface) that answers an
agent's model calls through masfuzz.

A run sets one `MasfuzzLLM` as the `llm` of every agent it reaches (and as the crew's
`manager_llm` when CrewAI makes its own manager), so no call can leave for a provider. It says
it supports function calling, so CrewAI's executor hands it the agent's tools as OpenAI-style
function schemas and takes its tool calls back in the same form (CrewAI runs the tools itself);
every `ChatRequest` names the agent asking (`from_agent`, the object CrewAI passes), and is
answered by the client of the model string `Scenario.model_for(agent)` names. CrewAI's call is
synchronous, inside its own threads: the bridge runs the client's coroutine on the run's event
loop and waits for it.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
from typing import Any

from masfuzz.adapters.crewai.extract import DELEGATION_TOOLS
from masfuzz.adapters.faults import RunEnded
from masfuzz.errors import ModelError
from masfuzz.llm.types import ChatMessage, ChatReply, ChatRequest, ToolCallRequest, ToolDef

_bridge_class: Any = None


def bridge_class() -> Any:
    """`MasfuzzLLM`, made on first use so that importing masfuzz never imports CrewAI."""
    global _bridge_class
    if _bridge_class is not None:
        return _bridge_class
    from crewai import BaseLLM

    class MasfuzzLLM(BaseLLM):
        """The model of one run: `agent_of` names the agent asking."""

        llm_type: str = "masfuzz"
        scenario: Any = None
        clients: Any = None  # model string -> masfuzz ModelClient
        agent_of: Any = None  # CrewAI agent object -> agent id
        on_reply: Any = None  # (agent, request, reply, task) -> None
        extra_tools: dict[str, Any] = {}  # agent id -> restricted-tool probes offered to it
        loop: Any = None  # the run's event loop
        roles: dict[str, str] = {}  # agent id -> its CrewAI role (whom a delegation tool names)
        ended: Any = None  # threading.Event: the run's time is up, no call is answered
        dropped: Any = frozenset()  # (agent, coworker) pairs a mutant took away
        redirect: dict[Any, str] = {}  # (agent, coworker) -> the coworker a mutant sends it to

        def supports_function_calling(self) -> bool:
            # CrewAI's converter (a task's output_json / output_pydantic) asks this too, and on
            # True hands the text to `instructor`, which makes a client of its own from the model
            # name: a call no one would answer for masfuzz. Said False there, the conversion is
            # a `call` of this model like any other.
            return _converter(sys._getframe(1)) is None

        def supports_stop_words(self) -> bool:
            return False

        def get_context_window_size(self) -> int:
            return 128_000

        def get_input_tokens_count(self, messages: Any, tools: Any = None,
                                   response_model: Any = None) -> int:
            """CrewAI's preflight of a request's size: masfuzz's own estimate (CrewAI's
            fallback warns at every call that it has none)."""
            from masfuzz.llm.scripted import estimate_tokens

            return sum(estimate_tokens(m.content or "") for m in _messages(messages))

        def call(self, messages: Any, tools: Any = None, callbacks: Any = None,
                 available_functions: Any = None, from_task: Any = None, from_agent: Any = None,
                 response_model: Any = None, **_: Any) -> Any:
            if self.ended.is_set():  # an abandoned thread of a run that timed out: unwind it
                raise RunEnded("the run ended (its time limit) before this model call")
            agent = self.agent_of(from_agent)
            converter = _converter(sys._getframe(1))
            # the converter's call asks for JSON of the task's output model: said as its schema
            wanted = response_model or getattr(converter, "model", None)
            request = chat_request(agent, messages, tools, self.extra_tools.get(agent, ()),
                                   temperature=self.temperature, response_model=wanted,
                                   roles={i: r for i, r in self.roles.items()
                                          if (agent, i) not in self.dropped})
            model_string = self.scenario.model_for(agent)
            if not model_string:
                raise ModelError(f"no model for agent {agent!r}: give --sut-model")
            reply: ChatReply = asyncio.run_coroutine_threadsafe(
                self.clients(model_string).complete(request), self.loop).result()
            if self.ended.is_set():
                raise RunEnded("the run ended (its time limit) during this model call")
            self.on_reply(agent, request, reply, from_task)
            if reply.tool_calls:
                task = next((m.content or "" for m in request.messages if m.role == "user"), "")
                sent = {b: self.roles[c] for (a, b), c in self.redirect.items() if a == agent}
                calls = [crewai_call(c.name, dict(c.arguments), request.tools, task, sent)
                         for c in reply.tool_calls]
                return [{"id": c.id or f"call_{i}", "type": "function",
                         "function": {"name": name, "arguments": json.dumps(args)}}
                        for i, (c, (name, args)) in enumerate(zip(reply.tool_calls, calls))]
            if response_model is not None and reply.text:
                try:
                    return response_model.model_validate_json(reply.text)
                except ValueError:  # text, as from a model without structured output: CrewAI
                    pass  # converts it (a call of its converter, answered here too)
            if reply.text and converter is not None:
                try:  # the converter json.dumps what it gets: the object, not its text
                    return json.loads(reply.text)
                except ValueError:
                    pass
            return reply.text or ""

    _bridge_class = MasfuzzLLM
    return MasfuzzLLM


def _converter(frame: Any) -> Any:
    """CrewAI's output converter (crewai/utilities/converter.py) the call comes from, directly
    or through BaseLLM's wrappers around `call` (its retry policy); None for any other call."""
    for _ in range(6):
        if frame is None:
            return None
        if frame.f_code.co_filename.endswith(os.path.join("utilities", "converter.py")):
            return frame.f_locals.get("self")
        frame = frame.f_back
    return None


def make_llm(*, model: str, temperature: float | None, **fields: Any) -> Any:
    return bridge_class()(model=model or "masfuzz", temperature=temperature, **fields)


def chat_request(agent: str, messages: Any, tools: Any, probes: tuple[ToolDef, ...], *,
                 temperature: float | None, response_model: Any,
                 roles: dict[str, str]) -> ChatRequest:
    defs: list[ToolDef] = []
    for t in tools or ():
        if not (isinstance(t, dict) and "function" in t):
            continue
        f = t["function"]
        params = f.get("parameters") or {"type": "object", "properties": {}}
        if f["name"] in DELEGATION_TOOLS:
            defs += _delegation_tools(f["name"], f.get("description", ""), params, roles)
        else:
            defs.append(ToolDef(name=f["name"], description=f.get("description", ""),
                                parameters=params))
    offered = {d.name for d in defs}
    # probes only beside the agent's own tools: CrewAI takes tool calls back (native function
    # calling) only from an agent that has some; from one without, a call would be its answer
    defs += [p for p in probes if p.name not in offered] if defs else []
    return ChatRequest(
        messages=tuple(_messages(messages, roles)), tools=tuple(defs),
        response_schema=response_model.model_json_schema() if response_model is not None else None,
        temperature=temperature, role="sut", agent=agent)


def _delegation_tools(name: str, description: str, params: dict[str, Any],
                      roles: dict[str, str]) -> list[ToolDef]:
    """CrewAI's one delegation tool (a `coworker` argument naming a role) as one tool per
    coworker it names (`delegate_work_to_<agent>`, `ask_question_to_<agent>`, `handoff_to` set),
    so a policy can ask for a hand-over to one agent by name; `crewai_call` turns it back."""
    verb = name.removesuffix("_coworker")
    rest = {k: v for k, v in (params.get("properties") or {}).items() if k != "coworker"}
    schema = {**params, "properties": rest,
              "required": [r for r in params.get("required", []) if r != "coworker"]}
    # CrewAI's description lists the coworkers, their roles joined by ", " (a role from YAML
    # may end in a newline): the agents this tool reaches
    listed = description.split("coworkers:", 1)[-1].split("\nThe input to this tool", 1)[0]
    reached = {r.strip().lower() for r in listed.split(",")}
    head = description.split("coworkers:", 1)[0].strip()
    return [ToolDef(name=f"{verb}_{ident}", description=f"{head} Coworker: {role.strip()}.",
                    parameters=schema, handoff_to=ident)
            for ident, role in roles.items() if role.strip().lower() in reached]


def crewai_call(name: str, args: dict[str, Any], offered: tuple[ToolDef, ...],
                task: str, redirect: dict[str, str] | None = None) -> tuple[str, dict[str, Any]]:
    """A tool call of masfuzz's model as CrewAI takes it: `delegate_work_to_<agent>` is CrewAI's
    `delegate_work_to_coworker` naming the agent's role (a hand-over that says no more hands
    over the agent's own task), or the role `redirect` gives that agent (a mutant's)."""
    for tool in offered:
        if tool.name == name and tool.handoff_to is not None:
            verb = name.removesuffix(f"_{tool.handoff_to}")
            role = (redirect or {}).get(tool.handoff_to) or \
                tool.description.rsplit("Coworker: ", 1)[-1].removesuffix(".")
            key = "question" if verb.startswith("ask") else "task"
            return f"{verb}_coworker", {key: task, "context": "", **args, "coworker": role}
    return name, args


def _messages(messages: Any, roles: dict[str, str] | None = None) -> list[ChatMessage]:
    by_role = {r.strip().lower(): i for i, r in (roles or {}).items()}
    names: dict[str, str] = {}  # call id -> the tool name the model saw
    if isinstance(messages, str):
        return [ChatMessage(role="user", content=messages)]
    out = []
    for m in messages:
        role = m.get("role", "user")
        content = m.get("content")
        if isinstance(content, list):  # multimodal parts: their text
            content = "\n".join(p.get("text", "") for p in content if isinstance(p, dict))
        calls = tuple(_shown(ToolCallRequest(id=c.get("id", ""), name=c["function"]["name"],
                                             arguments=_arguments(c["function"].get("arguments"))),
                             by_role)
                      for c in m.get("tool_calls") or ())
        names.update({c.id: c.name for c in calls})
        out.append(ChatMessage(role=role if role in ("system", "user", "assistant", "tool") else "user",
                               content=content, tool_calls=calls,
                               name=names.get(m.get("tool_call_id") or "", m.get("name")),
                               tool_call_id=m.get("tool_call_id")))
    return out


def _shown(call: ToolCallRequest, by_role: dict[str, str]) -> ToolCallRequest:
    """A delegation call in the history as masfuzz's model made it (`delegate_work_to_<agent>`)."""
    ident = by_role.get(str(call.arguments.get("coworker", "")).strip().lower())
    if call.name not in DELEGATION_TOOLS or ident is None:
        return call
    args = {k: v for k, v in call.arguments.items() if k != "coworker"}
    return call.model_copy(update={"name": f"{call.name.removesuffix('_coworker')}_{ident}",
                                   "arguments": args})


def _arguments(raw: Any) -> dict[str, Any]:
    if isinstance(raw, dict):
        return raw
    try:
        value = json.loads(raw or "{}")
    except ValueError:
        return {"_raw": raw}
    return value if isinstance(value, dict) else {"_raw": value}

