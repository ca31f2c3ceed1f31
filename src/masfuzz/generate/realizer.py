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
REQUEST_CHARS = 400  # what `request_in_reply` keeps of a reply
# Tokens a reply may take: a message of two or three sentences (about 250 characters). With 200,
# Gemma 3 270M went on past the request (155 tokens a Delegate reply on average, measured in the
# demo), the rest cut away unread; with 100 it still wrote 83 tokens of an invented itinerary
# where one sentence would do, each token a second of a loaded 2-core machine.
REQUEST_TOKENS = 64

# The realizer's prompt: one line of task, three worked examples, the objective as one "Goal"
# line. Gemma 3 270M, asked with a paragraph about the agent and a task after it, wrote requests
# off the task ("I have an important message for you", a list of form fields); with one example,
# half of its replies and of SmolLM2's were still off it: the goal line copied in the system's
# words ("move the passenger with this confirmation number"), or the assistant's voice ("I'd be
# happy to help you change your seat"). The examples show the three kinds of goal line `goal`
# writes (a tool's need with its values; an agent's topic; two agents' in turn) each turned into
# the user's own words with values that look real, naming no agent or tool. Their domains are
# none a system under test is likely to share, so that a copy is told apart (`off_task`); they
# are one prefix for every objective, which the embedded model keeps read (docs/local-model.md).
TASK = ("For each goal, write the message a user sends to an AI assistant to get it done: one or two "
        "sentences in the user's own words, with concrete values (names, numbers, dates), naming no "
        "assistant, agent or tool.")
EXAMPLES = (
    ("renew the member's borrowed book (needs: card number - the member's library card number; "
     "title - the book's title)",
     'Hi, could you renew "The Hobbit" on my library card 4417-2208 for two more weeks?'),
    ("help from one who answers questions about opening hours, parking and lockers at the gym",
     "Is the gym open before 7 on Sundays, and can I leave my bag in a locker overnight?"),
    ("help from one who books tennis courts, then help from one who answers questions about lessons",
     "Please book me a tennis court for Saturday at 10:00, and do you have lessons for beginners?"),
)


def sentence(text: str) -> str:
    """The first sentence of `text`, lower-cased at the start, without its final stop."""
    first = re.split(r"(?<=[.!?])\s", " ".join(text.split()), maxsplit=1)[0].rstrip(".!?")
    return first[:1].lower() + first[1:]


def spelled(name: str) -> str:
    return re.sub(r"(?<=[a-z])(?=[A-Z])", " ", name).replace("_", " ").replace("-", " ").strip().lower()


def topic(view: dict[str, Any], fallback: str = "") -> str:
    """What an agent or tool is for, in its own words; its name spelled out when it has none."""
    text = view.get("description") or (view.get("instructions") or "")[:300]
    return sentence(text) if text.strip() else spelled(view.get("id") or fallback)


def need(tool: dict[str, Any]) -> str:
    """An imperative from a tool's description ("Search the web for X" -> "search the web for
    X"), or "use <tool name spelled out>"."""
    text = tool.get("description") or ""
    return sentence(text) if text.strip() else "use " + spelled(tool.get("id") or "the tool")


def needs(tool: dict[str, Any]) -> str:
    """The values a tool's call takes, each with its own description's first sentence."""
    props = (tool.get("parameters") or {}).get("properties") or {}
    parts = [spelled(name) + (f" - {sentence(said)}" if (said := (spec or {}).get("description")) else "")
             for name, spec in props.items()]
    return f" (needs: {'; '.join(parts)})" if parts else ""


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
    """Realizers on masfuzz's own model layer: one prompt in a small model's reach (the task,
    three worked examples, the objective as a goal line), answered in plain text."""

    name = "native"
    concurrent = True  # stateless between calls: proposals for different bundles may overlap

    def __init__(self, client: ModelClient, *, seed: int | None = None,
                 temperature: float = 0.7) -> None:
        self.client, self.seed, self.temperature = client, seed, temperature

    def request(self, inputs: ObjectiveInputs, history: list[Feedback], *, retry: int = 0) -> ChatRequest:
        # The worked examples are turns of the conversation: a base model reads the request as a
        # "User: ... / Assistant: ..." transcript (`toolprompt.transcript_prompt`) and goes on in
        # its pattern; a chat model takes it as a few-shot turn. Plain text, not a JSON grammar:
        # small base models write far better prose than JSON content.
        ask = [f"Tried before, did not work ({fb.verdict}): {fb.text!r}"
               for fb in history[-2:]]  # the latest tries: a small model loses the thread in more
        ask.append(f"Goal: {goal(inputs)}")
        objective = {**inputs.as_json(), "attempt": len(history) + 1,
                     "history": [{"text": f.text, "verdict": f.verdict} for f in history]}
        examples = [ChatMessage(role=role, content=text) for example_goal, message in EXAMPLES
                    for role, text in (("user", f"Goal: {example_goal}"), ("assistant", message))]
        return ChatRequest(
            messages=(ChatMessage(role="system", content=TASK), *examples,
                      ChatMessage(role="user", content="\n".join(ask))),
            temperature=self.temperature,
            # a rephrasing is sampled with a seed of its own (and so is not the cached reply)
            seed=None if self.seed is None and not retry else (self.seed or 0) + len(history) + 1000 * retry,
            max_tokens=REQUEST_TOKENS, role="tester", agent=f"realizer:{inputs.family}",
            metadata={OBJECTIVE_TAG: objective},
        )

    async def propose(self, inputs: ObjectiveInputs, history: list[Feedback]) -> Candidate:
        # An off-task reply costs one more tester call here, and an execution of the system
        # (several model calls) if it went on: asked once more, with another seed.
        text = ""
        for retry in range(REPHRASE + 1):
            reply = await self.client.complete(self.request(inputs, history, retry=retry))
            text = request_in_reply(reply.text or "")
            if off_task(text, inputs) is None:
                break
        return Candidate(text, model_calls=retry + 1)


def goal(inputs: ObjectiveInputs) -> str:
    """The objective as what the user needs, in one line (the route and the parent are the
    system's business: the message only needs what the last agent does)."""
    if inputs.family == "UseTool" and inputs.tool:
        return need(inputs.tool) + needs(inputs.tool)
    if inputs.family == "RestrictTool" and inputs.tool:
        # asked of the agent that may not do it itself, within that agent's own domain
        return f"{need(inputs.tool)}{needs(inputs.tool)}, asked while dealing with one who {topic(inputs.agent)}"
    if inputs.family == "Delegate" and inputs.child:
        if inputs.hand_back and inputs.onward:  # the parent's own job first, then another need
            return f"help from one who {topic(inputs.agent)}, then help from one who {topic(inputs.onward[0])}"
        when = inputs.trigger if inputs.trigger not in ("", "handoff", "delegate", "as_tool") else ""
        return f"help from one who {topic(inputs.child)}" + (f" (passed on when: {sentence(when)})" if when else "")
    return f"help from one who {topic(inputs.agent)}"


# How often an off-task reply is asked for again (`NativeRealizer.propose`).
REPHRASE = 1
_STOP_WORDS = frozenset("""about after again also any assistant before being could does doing each
from have here into just like made make many more most need only other over please should some
such than that their them then there these they this those through under very want what when
where which while will with would your yours""".split())


def _content_words(text: str) -> set[str]:
    """The words of `text` that carry its topic, by their first five letters (book/booking,
    change/changes meet)."""
    return {w[:5] for w in re.findall(r"[a-z]{4,}", text.lower()) if w not in _STOP_WORDS}


def plausible(text: str) -> bool:
    """Cheap screen before spending an execution: a request has at least three real words.
    Small models sometimes answer with punctuation or a placeholder ('... (user_request)')."""
    words = [w for w in re.findall(r"[A-Za-z]{2,}", text) if w.lower() != "user_request"]
    return len(words) >= 3


# An assistant's offer of help: a chat-tuned model answering the goal instead of writing the
# user's message ("I'd be happy to help you change your seat", "I'm sorry for any confusion, but
# I'm just an AI": SmolLM2-135M, 7 of 20 replies with one worked example).
_ASSISTANT_VOICE = re.compile(
    r"\b(?:I(?:'d| would) (?:be )?(?:happy|glad|love) to (?:help|assist)|I'?m (?:happy|glad|here) to "
    r"(?:help|assist)|how (?:can|may) I (?:help|assist)|I'?m (?:just )?an AI|sorry for any confusion|"
    r"what do you want)\b", re.IGNORECASE)


def off_task(text: str, inputs: ObjectiveInputs) -> str | None:
    """Why `text` cannot be the objective's request, or None: too few words to be a request, a
    copy of one of the prompt's examples, the assistant's voice, or not one word in common with
    what the objective is about (its agents', tool's and parameters' own words): "I have an
    important message for you"."""
    if not plausible(text):
        return "not a user request (too few words)"
    mine = _content_words(text)
    if any(len(mine & _content_words(message)) >= 3 for _goal, message in EXAMPLES):
        return "copied the prompt's example"
    if _ASSISTANT_VOICE.search(text):
        return "the assistant's voice, not the user's"
    about = json.dumps([inputs.agent, inputs.tool, inputs.child, inputs.onward, inputs.route, inputs.trigger])
    if not mine & _content_words(about.replace("_", " ")):
        return "off the objective (no word in common with its agent, tool or need)"
    return None


_SPEAKER = re.compile(r"^\s*(?:[A-Z][\w ]{0,20}agent|assistant|agent|parent|child|system)\s*:",
                      re.IGNORECASE | re.MULTILINE)


def request_in_reply(text: str) -> str:
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
