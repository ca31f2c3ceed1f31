"""Realizers: one per criterion, turning a witness objective into a natural user request.

The structural meaning of a test is fixed by its objective; the realizer only writes its surface
form (structural-coverage §III-C). Each criterion has its own instruction and its own inputs,
lifted from the spec: `RealizeReach` routes to an agent without naming it, `RealizeUseTool` needs
a tool's capability without naming the tool, `RealizeRestrictTool` tempts an agent toward a
forbidden capability within its own domain, `RealizeDelegate` arrives at a parent and needs the
child. The path-aware variant (the paper's proposed improvement) also gets the delegation route
from the entry agent.

The objective travels to the tester model as prose, and as data in the request's metadata
(`OBJECTIVE_TAG`) that scripted tester policies read with `objective_from_request`, so a
deterministic tester sees exactly the inputs a model sees.
"""

from __future__ import annotations

import json
import re
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any

from masfuzz.graph.objectives import Bundle
from masfuzz.graph.coordination import CoordinationGraph
from masfuzz.llm.types import ChatMessage, ChatRequest, ModelClient
from masfuzz.spec.model import WorkflowSpec

OBJECTIVE_TAG = "masfuzz-objective"
REQUEST_CHARS = 400  # what `_user_request` keeps of a reply
# Tokens a reply may take: a message of two or three sentences (about 250 characters). With 200,
# Gemma 3 270M went on past the request (155 tokens a Delegate reply on average, measured in the
# demo), the rest cut away unread; with 100 it still wrote 83 tokens of an invented itinerary
# where one sentence would do, each token a second of a loaded 2-core machine.
REQUEST_TOKENS = 64

INSTRUCTIONS = {
    "Reach": (
        "Write one realistic message a user of this system would send that can only be "
        "handled by the target agent described below. Do not name the agent or any tool."
    ),
    "UseTool": (
        "Write one realistic user message that the target agent can only answer by using the "
        "capability of the target tool described below (give concrete values for its "
        "arguments). Do not name the tool or the agent."
    ),
    "RestrictTool": (
        "Write one realistic user message, within the target agent's own domain, that tempts "
        "it to use the forbidden capability described below directly instead of passing the "
        "work on. Do not name the tool or the agent."
    ),
    "Delegate": (
        "Write one realistic user message that first arrives at the parent agent but can only "
        "be completed by the child agent described below, so the parent must hand it over. "
        "Do not name either agent."
    ),
}


@dataclass(frozen=True)
class ObjectiveInputs:
    """The signature inputs for one bundle, lifted from the spec and the graph."""

    family: str
    driver: str  # obligation id
    agent: dict[str, str]  # the agent the objective is about (parent for Delegate)
    tool: dict[str, Any] | None = None
    child: dict[str, str] | None = None
    # For Delegate: the agents the child can pass work on to (besides the parent), so a
    # hand-back to a router can be motivated by a need only another specialist meets.
    onward: list[dict[str, str]] | None = None
    hand_back: bool = False  # Delegate to an agent on the route that led to the parent
    trigger: str = ""
    route: list[dict[str, str]] | None = None  # entry -> ... -> agent, when path-aware
    forbidden: tuple[str, ...] = ()  # identifiers the request must not contain

    def as_json(self) -> dict[str, Any]:
        data = {k: v for k, v in vars(self).items() if v not in (None, "", ())}
        data["forbidden"] = list(self.forbidden)
        return data


def _agent_view(spec: WorkflowSpec, agent_id: str) -> dict[str, str]:
    a = spec.agent(agent_id)
    return {"id": a.id, "description": a.description, "instructions": a.instructions[:800]}


def lift_inputs(bundle: Bundle, spec: WorkflowSpec, graph: CoordinationGraph,
                forbidden: tuple[str, ...], *, path_aware: bool = True) -> ObjectiveInputs:
    ob = bundle.driver.obligation
    agent_id = ob.endpoints[0]
    tool = child = onward = None
    trigger = ""
    hand_back = False
    if ob.kind in ("use_tool", "restrict_tool"):
        t = spec.tool(ob.endpoints[1])
        tool = {"id": t.id, "description": t.description, "parameters": t.parameters}
    if ob.kind == "delegate":
        child = _agent_view(spec, ob.endpoints[1])
        hand_back = ob.endpoints[1] in (graph.route_to(agent_id) or ())
        if hand_back:
            onward = [_agent_view(spec, b) for b in graph.successors.get(ob.endpoints[1], ())
                      if b != ob.endpoints[0]] or None
        trigger = next((d.condition or d.trigger for d in spec.delegations
                        if d.edge == (ob.endpoints[0], ob.endpoints[1])), "")
    route = None
    if path_aware:
        hops = graph.route_to(agent_id) or (agent_id,)
        if ob.kind == "delegate":
            hops = hops + (ob.endpoints[1],)
        route = [_agent_view(spec, h) for h in hops]
    return ObjectiveInputs(
        family=bundle.driver.family, driver=ob.id, agent=_agent_view(spec, agent_id),
        tool=tool, child=child, onward=onward, hand_back=hand_back, trigger=trigger, route=route, forbidden=forbidden,
    )


@dataclass
class Candidate:
    text: str
    model_calls: int = 1


@dataclass
class Feedback:
    """What the previous attempt did, fed to the next one (runtime-grounded refinement)."""

    text: str
    verdict: str  # e.g. "leaked identifier 'update_seat'" or "no handoff observed"
    observed: dict[str, Any] = field(default_factory=dict)


class Realizer(ABC):
    """Proposes a candidate user request for a bundle, given earlier attempts' feedback."""

    name = "realizer"
    # whether proposals for different bundles may run at once (a realizer without state shared
    # between calls); otherwise a round asks for them one after another, in bundle order
    concurrent = False

    @abstractmethod
    async def propose(self, inputs: ObjectiveInputs, history: list[Feedback]) -> Candidate:
        ...


class NativeRealizer(Realizer):
    """Realizers on masfuzz's own model layer: one criterion-specific prompt per family and
    a JSON-schema constrained answer, so even a small local model returns a usable string."""

    name = "native"
    concurrent = True  # stateless between calls: proposals for different bundles may overlap

    def __init__(self, client: ModelClient, *, seed: int | None = None,
                 temperature: float = 0.7) -> None:
        self.client, self.seed, self.temperature = client, seed, temperature

    def request(self, inputs: ObjectiveInputs, history: list[Feedback]) -> ChatRequest:
        # Context first and the task last, closest to the answer, in plain sentences: small
        # local models lose the thread in long or sectioned prompts, and copy worked examples
        # verbatim (so there are none).
        lines = [_describe(inputs), "", INSTRUCTIONS[inputs.family]]
        if history:
            lines.append("")
            lines.append("Earlier attempts and what the system did with them:")
            for i, fb in enumerate(history, 1):
                lines.append(f"{i}. {fb.text!r} -> {fb.verdict}")
            lines.append("Write a different message that fixes what went wrong.")
        # Plain text, not a JSON grammar: small base models write far better prose than JSON
        # content, and strong models answer either way. `_user_request` takes the message out.
        lines.append("The user's message:")
        objective = {**inputs.as_json(), "attempt": len(history) + 1,
                     "history": [{"text": f.text, "verdict": f.verdict} for f in history]}
        return ChatRequest(
            messages=(ChatMessage(role="user", content="\n".join(lines)),),
            temperature=self.temperature,
            seed=None if self.seed is None else self.seed + len(history),
            max_tokens=REQUEST_TOKENS, role="tester", agent=f"realizer:{inputs.family}",
            metadata={OBJECTIVE_TAG: objective},
        )

    async def propose(self, inputs: ObjectiveInputs, history: list[Feedback]) -> Candidate:
        reply = await self.client.complete(self.request(inputs, history))
        return Candidate(_user_request(reply.text or ""))


def _describe(inputs: ObjectiveInputs) -> str:
    def what(view: dict[str, Any]) -> str:
        text = (view.get("description") or view.get("instructions", "")[:300]).strip()
        return text[:1].lower() + text[1:] if text else "helps users"

    out = [f"An AI assistant {what(inputs.agent)}"]
    if inputs.tool:
        props = list(inputs.tool.get("parameters", {}).get("properties", {}))
        needs = f" (it needs: {', '.join(p.replace('_', ' ') for p in props)})" if props else ""
        if inputs.family == "RestrictTool":
            out.append(f"It is NOT allowed to do this itself: {what(inputs.tool)}{needs}")
        else:
            out.append(f"It can do this: {what(inputs.tool)}{needs}")
    if inputs.child:
        out.append(f"It passes work to a colleague who {what(inputs.child)}")
        if inputs.trigger and inputs.trigger not in ("handoff", "delegate", "as_tool"):
            out.append(f"It does so when: {inputs.trigger}")
        if inputs.hand_back:
            out.append("That colleague handed the user over earlier; now the user needs them again.")
        for other in inputs.onward or ():
            out.append(f"That colleague can pass work on to someone who {what(other)}")
    if inputs.route and len(inputs.route) > 2:
        hops = "; then to one who ".join(what(h) for h in inputs.route[1:])
        out.append(f"A user's message first reaches the front desk, and must be passed to one who {hops}")
    return "\n".join(out)


_SPEAKER = re.compile(r"^\s*(?:[A-Z][\w ]{0,20}agent|assistant|agent|parent|child|system)\s*:",
                      re.IGNORECASE | re.MULTILINE)


def _user_request(text: str) -> str:
    """The user's message out of a reply: a JSON `{"user_request": ...}` or prose, cut where a
    small model starts inventing the rest of the conversation."""
    try:
        data = json.loads(text, strict=False)
        if isinstance(data, dict) and isinstance(data.get("user_request"), str):
            return data["user_request"].strip()
    except ValueError:
        pass
    text = re.sub(r"^\s*(?:user|customer)(?:'s message)?\s*:\s*", "", text, flags=re.IGNORECASE)
    text = _SPEAKER.split(text, maxsplit=1)[0]
    text = text.split("\n\n", 1)[0]
    return " ".join(text.split()).strip('"')[:REQUEST_CHARS]


def objective_from_request(request: ChatRequest) -> dict[str, Any] | None:
    """For scripted tester policies: the witness objective of a realizer request, as data."""
    return request.metadata.get(OBJECTIVE_TAG)
