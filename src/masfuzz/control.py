"""The control check (`masfuzz inspect --check`): is the system under test under masfuzz's control?

A result is only worth trusting when masfuzz answered every model request of the app's agents,
saw every tool they can call, and says what it cannot see. The check shows, agent by agent:

- where the adapter puts masfuzz's model in place of the agent's own (`Adapter.model_places`);
  none found is no fault by itself (a LangGraph router node, an AgentChat code executor speak
  without a model);
- what a probe run shows: one execution, in its own worker process like any other, driven by
  `probe`, a scripted policy of masfuzz's that calls every tool it is offered once, with
  placeholder arguments (a model client built inside a tool is the usual one masfuzz cannot
  replace; `--stub` stands in for a tool that must not run), and hands off to every agent it is
  offered, so that as many agents as the app lets it reach ask their model. When agents are left
  unreached (a tool that crashed on its placeholder arguments ends a run), a second run hands
  off first. An agent's request that reached masfuzz's model layer is counted
  (`meta.agent_settings`); a call of a model client masfuzz did not replace met the refusal of
  `masfuzz.sutenv` and is "model not injected", named by agent where the trace tells;
- the tools each agent may call, and what is out of masfuzz's sight (hosted tools, MCP servers,
  nested graphs: the extraction's notes).

The check fails (exit 1) on evidence: a model call that was not injected, or a probe that
ended in a crash or a timeout before it reached agents that have a model (their calls were not
checked at all, so "ok" would claim what was never seen). A crash after every such agent was
reached is said, and the check still holds.
"""

from __future__ import annotations

import asyncio
import collections
import json
import re
from dataclasses import dataclass, field
from typing import Any

from masfuzz.llm.scripted import say
from masfuzz.llm.types import ChatRequest
from masfuzz.ownwords import PROBE_MODELS
from masfuzz.placeholders import placeholder_value, placeholders
from masfuzz.scenario import Scenario
from masfuzz.trace import Trace, carries_refusal

PROBE_INPUT = "masfuzz control check: please reply in one short sentence."
PROBE_TIMEOUT = 120.0  # s; the probe model answers at once, so only the app's own work takes time
PROBE_REPLY = "masfuzz control check: reply received."
_picked: collections.Counter[str] = collections.Counter()  # selections made in this process


def probe(request: ChatRequest) -> Any:
    """The probe run's model: call each tool offered once, then hand off to each agent offered;
    as a group chat's speaker selector, pick the participants in turn; else answer in one
    sentence, or, when the answer must fit a JSON schema, with the schema's plainest value."""
    return _probe(request, tools_first=True)


def probe_handoffs_first(request: ChatRequest) -> Any:
    """The second probe run's model, when the first left agents unreached (a tool that crashed
    on its placeholder arguments ends a run): hand off first, then call the tools."""
    return _probe(request, tools_first=False)


def _probe(request: ChatRequest, *, tools_first: bool) -> Any:
    from masfuzz.llm.scripted import call

    used = {c.name for m in request.messages for c in m.tool_calls}
    fresh = [t for t in request.tools if t.name not in used]
    # a client built inside a tool is one that masfuzz cannot replace: each tool is called once
    ordered = sorted(fresh, key=lambda t: _hands_off(t) == tools_first)
    for tool in ordered:
        return call(tool.name, **({} if _hands_off(tool) else placeholders(tool.parameters)))
    text = "\n".join(m.content or "" for m in request.messages)
    candidates = _participants(text)
    if candidates:  # a selector's prompt lists the participants as a Python list
        # the least picked, then the least named (a prompt may also describe each role as
        # "name: ..."), so that the selections rotate through every participant
        pick = min(candidates, key=lambda c: (_picked[c], text.count(f"{c}:")))
        _picked[pick] += 1
        return say(pick)
    if request.response_schema:  # a typed answer (an Agents SDK `output_type`): the reply is its JSON
        return say(json.dumps(placeholder_value(request.response_schema)))
    return say(PROBE_REPLY)


def _hands_off(tool: Any) -> bool:
    return bool(tool.handoff_to) or tool.name.startswith("transfer_")


def _participants(text: str) -> list[str]:
    found = re.search(r"\[('[\w .-]+'(?:, '[\w .-]+')+)\]", text)
    return re.findall(r"'([\w .-]+)'", found.group(1)) if found else []


@dataclass
class AgentControl:
    agent: str
    model_places: list[str]  # where masfuzz's model goes ([]: none found)
    tools: list[str]
    probe_calls: int = 0  # model requests that reached masfuzz in the probe run
    not_injected: bool = False  # a refused call of the app's own client, made by this agent
    ran: bool = False  # it took a turn in a probe run (a workflow agent runs without a model)

    @property
    def status(self) -> str:
        if self.not_injected:
            return ("MODEL NOT INJECTED: a model client in its code or tools called the provider"
                    + (f" (masfuzz's model answered its other {self.probe_calls})" if self.probe_calls else ""))
        if self.probe_calls:
            return f"masfuzz's model answered ({self.probe_calls} call{'s' if self.probe_calls != 1 else ''})"
        if self.model_places:
            return "replaced; not reached in the probe run"
        if self.ran:
            return "no model found (none, or one masfuzz cannot reach); ran in the probe run without asking one"
        return "no model found (none, or one masfuzz cannot reach); not reached in the probe run"


@dataclass
class ControlReport:
    system: str
    framework: str
    agents: list[AgentControl]
    unseen: list[str] = field(default_factory=list)
    not_injected_calls: int = 0
    unattributed: bool = False  # refused calls the trace does not tie to an agent
    probe_ending: str = ""
    probe_broke: bool = False  # every probe run ended in a crash or a timeout

    @property
    def unchecked(self) -> list[str]:
        """Agents with a model that a broken probe never reached: nothing is known of them."""
        if not self.probe_broke:
            return []
        return [a.agent for a in self.agents if a.model_places and not a.probe_calls and not a.not_injected]

    @property
    def ok(self) -> bool:
        return self.not_injected_calls == 0 and not self.unchecked

    def as_dict(self) -> dict[str, Any]:
        return {
            "system": self.system, "framework": self.framework, "ok": self.ok,
            "agents": [{"agent": a.agent, "model_places": a.model_places, "tools": a.tools,
                        "probe_calls": a.probe_calls, "not_injected": a.not_injected, "status": a.status}
                       for a in self.agents],
            "unseen": self.unseen, "not_injected_calls": self.not_injected_calls,
            "probe_ending": self.probe_ending, "unchecked": self.unchecked,
        }

    def summary(self) -> str:
        """One line for a campaign's progress."""
        answered = sum(1 for a in self.agents if a.probe_calls)
        line = f"control check: masfuzz's model answered {answered} of {len(self.agents)} agent(s)"
        if self.ok:
            return line + "; no model call escaped masfuzz"
        if not self.not_injected_calls:
            return line + "; " + self._unchecked_line()
        who = ", ".join(a.agent for a in self.agents if a.not_injected) or "an agent masfuzz could not tell"
        return (line + f"; MODEL NOT INJECTED for {who} ({self.not_injected_calls} call(s) refused): "
                "what those agents do is the app's own client's, not masfuzz's model's "
                "(masfuzz inspect --check shows where)")

    def _unchecked_line(self) -> str:
        return (f"NOT CHECKED: the probe run ended in {self.probe_ending} before "
                f"{', '.join(self.unchecked)} asked a model: whether masfuzz's model answers them "
                "is unknown")

    def render(self) -> str:
        width = max((len(a.agent) for a in self.agents), default=5) + 2
        lines = [f"control check of {self.system} ({self.framework})"]
        for a in self.agents:
            lines.append(f"  {a.agent:<{width}}{a.status}")
            if a.model_places:
                lines.append(f"  {'':<{width}}  model replaced at: {'; '.join(a.model_places)}")
            lines.append(f"  {'':<{width}}  tools: {', '.join(a.tools) or 'none'}")
        lines.append("notes (what masfuzz cannot see, and how it read the app): " + ("none" if not self.unseen else ""))
        lines += [f"  - {u}" for u in self.unseen]
        lines.append(f"probe run: {self.probe_ending}")
        if self.not_injected_calls:
            who = [a.agent for a in self.agents if a.not_injected]
            lines.append(f"FAILED: {self.not_injected_calls} model call(s) not injected"
                         + (f" ({', '.join(who)})" if who else "")
                         + (" and not tied to an agent" if self.unattributed else "")
                         + ": those agents' results would not be masfuzz's model's")
        if self.unchecked:
            lines.append("FAILED: " + self._unchecked_line())
        if self.ok:
            lines.append("ok: no model call escaped masfuzz")
        return "\n".join(lines) + "\n"


def unseen(spec: Any) -> list[str]:
    """What masfuzz cannot see or control in the workflow: hosted tools, and the extraction's notes."""
    out = [f"hosted tool {t.id!r}: it runs at the model provider, its calls are not the app's"
           if t.kind == "hosted" else f"MCP tool {t.id!r}: it runs in its server's process, not the app's"
           for t in spec.tools if t.kind in ("hosted", "mcp")]
    return out + list(spec.notes)


def report(system: Any, traces: list[Trace]) -> ControlReport:
    """The control report of an opened system from its probe runs' traces."""
    spec = system.spec
    places = system.runner().model_places(system.obj, spec)
    calls: collections.Counter[str] = collections.Counter()
    for trace in traces:
        calls.update({a: int(s.get("calls", 0)) for a, s in (trace.meta.get("agent_settings") or {}).items()})
    refused_by = {e.agent for t in traces for e in t.events if carries_refusal(e) and e.agent}
    ran = {a for t in traces for a in t.speaker_order}
    owned: dict[str, list[str]] = {}
    for agent, tool in spec.permissions.allow:
        owned.setdefault(agent, []).append(tool)
    agents = [AgentControl(agent=a.id, model_places=places.get(a.id, []), tools=owned.get(a.id, []),
                           probe_calls=calls[a.id], not_injected=a.id in refused_by, ran=a.id in ran)
              for a in spec.agents]
    refused = sum(int(t.meta.get("not_injected_calls") or 0) for t in traces)
    return ControlReport(
        system=spec.system.id, framework=spec.system.framework, agents=agents, unseen=unseen(spec),
        not_injected_calls=refused, unattributed=bool(refused) and not refused_by,
        probe_ending="; then ".join(_ending(t) for t in traces),
        probe_broke=bool(traces) and all(t.termination is not None and t.termination.reason in
                                         ("crash", "timeout") for t in traces),
    )


def _ending(trace: Trace) -> str:
    end = trace.termination
    return end.reason + (f" ({end.detail})" if end.detail else "") if end else "no ending recorded"


async def check(target: Any, *, stubs: dict[str, str] | None = None, timeout: float = PROBE_TIMEOUT,
                max_turns: int | None = None, executor: str = "pool", sandbox: Any = None,
                context: str | None = None) -> ControlReport:
    """Open `target`, run the probe (in a worker process, by default, in the OS sandbox
    `sandbox` says: `masfuzz.exec.sandbox.SandboxSettings`) and, when agents with a model were
    left unreached, once more handing off first; report. `context`: the run context factory
    (`--context`), so the probe runs as the app's server would run it."""
    from masfuzz.exec import make_executor

    system = target.open()
    spec = system.spec
    bound = max_turns or 3 * len(spec.agents) + len(spec.tools) + 4
    runner = make_executor(executor, timeout=timeout, sandbox=sandbox)
    traces: list[Trace] = []
    try:
        for model in PROBE_MODELS:
            scenario = Scenario(input=spec.system.task or PROBE_INPUT, sut_model=model, restricted="off",
                                timeout=timeout, stubs=stubs or {}, max_turns=bound, context=context)
            traces.append(await runner.run(target, scenario))
            if all(a.probe_calls or a.not_injected for a in report(system, traces).agents):
                break
    finally:
        await runner.aclose()
    return report(system, traces)


def run_check(target: Any, **keywords: Any) -> ControlReport:
    return asyncio.run(check(target, **keywords))

