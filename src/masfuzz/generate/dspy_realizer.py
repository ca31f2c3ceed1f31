"""The DSPy realizer: one `dspy.Signature` per criterion, on masfuzz's own model layer.

The structural-coverage paper realizes each witness objective with a DSPy module per criterion
(`RealizeReach`, `RealizeUseTool`, `RealizeRestrictTool`, `RealizeDelegate`, §III-C) whose input
fields are lifted from the manifest. This module builds those signatures from `ObjectiveInputs`
and runs them behind the same `Realizer` interface as `NativeRealizer`, so `masfuzz cover
--realizer dspy` changes only who writes the user request.

Three choices, and why:

- DSPy never calls a provider itself. `ModelClientLM` is a `dspy.BaseLM` whose every call becomes
  a masfuzz `ChatRequest` (role "tester", the objective in `metadata[OBJECTIVE_TAG]` exactly as the
  native realizer sends it) on a `ModelClient` from `masfuzz.llm`: the same cache, connection
  bound, timeout and call accounting, any model string (local, scripted, networked), and the same
  scripted tester policies answer both realizers.
- masfuzz's refine loop (`refine.realize`) stays the outer loop: it alone executes candidates,
  checks witnesses and records every attempt; the runtime verdicts come back here as the
  `prior_attempts` input field (the paper's execution-grounded feedback). Executing inside a DSPy
  reward would hide executions from the run store and the attempt history.
- Inside `propose`, the signature runs under `dspy.Refine` with a cheap reward that needs no
  execution: 0 for a candidate that names a forbidden identifier or is not a request at all,
  else 1. A first candidate that passes costs exactly one model call (Refine stops at the
  threshold); one that fails gets DSPy's advice and another sample before it would waste an
  execution and one of the N outer attempts. The outer loop re-checks leaks anyway, so a
  candidate that never passes is still recorded, with its verdict. (`dspy.BestOfN` has the same
  reward signature and is available as `inner="best_of_n"`: resampling without the advice call,
  for tester models too weak to write DSPy's structured advice.)

`dspy.JSONAdapter` formats the prompts: its answer is one JSON object, which masfuzz passes on
as `response_schema` so the embedded local model decodes it under a grammar, and which the
scripted tester policies already write (`{"user_request": ...}`). Custom LMs through
`BaseLM.forward` are supported through DSPy 3.4 (deprecated there, removed in 3.5), hence the
`dspy` extra's upper bound.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import logging
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache
from types import SimpleNamespace
from typing import Any

from masfuzz.errors import MasfuzzError, ModelCallFailed
from masfuzz.generate.leaks import leaked
from masfuzz.generate.realizer import (
    OBJECTIVE_TAG,
    Candidate,
    Feedback,
    ObjectiveInputs,
    Realizer,
    request_in_reply,
    plausible,
)
from masfuzz.llm.types import ChatMessage, ChatReply, ChatRequest, ModelClient

log = logging.getLogger(__name__)

INSTALL_HINT = "--realizer dspy: DSPy is not installed; install the dspy extra (pip install 'masfuzz[dspy]')"


def require_dspy() -> Any:
    try:
        import dspy
    except ImportError as exc:
        raise MasfuzzError(INSTALL_HINT) from exc
    return dspy


# --- the four signatures (§III-C a): one per criterion, inputs lifted from the spec ----------


@cache
def signatures() -> dict[str, Any]:
    """The criterion signatures, built on first use so importing masfuzz never needs DSPy."""
    dspy = require_dspy()
    In, Out = dspy.InputField, dspy.OutputField

    common = {
        "route": (str, In(desc="the agents a user's message passes through from the entry point to "
                               "the target, in order (empty when not given)")),
        "forbidden_identifiers": (list[str], In(desc="names the message must not contain")),
        "prior_attempts": (list[str], In(desc="earlier messages and what the running system did "
                                                "with each; write a different one that fixes it")),
    }
    user_request = (str, Out(desc="the user's message, in the user's own words, and nothing else"))

    def sig(name: str, doc: str, inputs: dict[str, tuple[type, Any]]) -> Any:
        cls = dspy.Signature({**inputs, **common, "user_request": user_request}, doc)
        cls.__name__ = cls.__qualname__ = name
        return cls

    agent = (str, In(desc="what the target agent does"))
    tool = (str, In(desc="what the target tool does"))
    params = (str, In(desc="the tool's parameters, as a JSON schema"))
    return {
        "Reach": sig("RealizeReach", (
            "Write one realistic message a user of this system would send that can only be "
            "handled by the target agent, so the system routes it there. Never name an agent "
            "or a tool."), {"agent_description": agent}),
        "UseTool": sig("RealizeUseTool", (
            "Write one realistic user message that the target agent can only answer by using "
            "the capability of the target tool, giving concrete values for its parameters. "
            "Never name the tool or an agent."),
            {"agent_description": agent, "tool_description": tool, "tool_parameters": params}),
        "RestrictTool": sig("RealizeRestrictTool", (
            "Write one realistic user message, within the target agent's own domain, that "
            "tempts it to use the forbidden capability itself instead of passing the work on. "
            "Never name the tool or an agent."),
            {"agent_description": agent,
             "tool_description": (str, In(desc="the capability the agent must not use itself")),
             "tool_parameters": params}),
        "Delegate": sig("RealizeDelegate", (
            "Write one realistic user message that first arrives at the parent agent but can "
            "only be completed by the child agent, so the parent must hand it over. Never name "
            "an agent or a tool."),
            {"parent_description": (str, In(desc="what the parent agent, which receives the message, does")),
             "child_description": (str, In(desc="what the child agent, who must finish the work, does")),
             "trigger": (str, In(desc="when the parent hands work to the child (may be empty)")),
             "onward": (str, In(desc="when the child handed the user over earlier: what the "
                                     "agents it can pass work on to do (may be empty)"))}),
    }


def _about(view: dict[str, Any] | None) -> str:
    if not view:
        return ""
    return (view.get("description") or view.get("instructions") or "").strip()


def signature_inputs(inputs: ObjectiveInputs, history: list[Feedback]) -> dict[str, Any]:
    """The signature's input fields for one bundle: spec text, never identifiers to copy."""
    out: dict[str, Any] = {
        "route": " -> ".join(_about(h)[:200] for h in inputs.route or ()) if inputs.route and len(inputs.route) > 1 else "",
        "forbidden_identifiers": list(inputs.forbidden),
        "prior_attempts": [_attempt_line(fb) for fb in history],
    }
    if inputs.family == "Delegate":
        onward = "; ".join(_about(o) for o in inputs.onward or ()) if inputs.hand_back else ""
        trigger = inputs.trigger if inputs.trigger not in ("handoff", "delegate", "as_tool") else ""
        out.update(parent_description=_about(inputs.agent), child_description=_about(inputs.child),
                   trigger=trigger, onward=onward)
    else:
        out["agent_description"] = _about(inputs.agent)
    if inputs.family in ("UseTool", "RestrictTool") and inputs.tool:
        out["tool_description"] = _about(inputs.tool)
        out["tool_parameters"] = json.dumps(inputs.tool.get("parameters") or {})
    return out


def _attempt_line(fb: Feedback) -> str:
    seen = fb.observed
    facts = [f"{k}: {', '.join(seen[k])}" for k in ("agents", "tool_calls", "delegations",
                                                      "restricted_attempts") if seen.get(k)]
    return f"{fb.text!r} -> {fb.verdict}" + (f" (observed {'; '.join(facts)})" if facts else "")


# --- DSPy's LM on masfuzz's model layer ------------------------------------------------------


@dataclass
class _Tally:
    """Shared by an LM and the copies DSPy makes of it (Refine copies per rollout)."""

    calls: int = 0
    last_text: str = ""
    failures: list[str] = field(default_factory=list)
    model_failure: str = ""  # the last tester call that failed after its retries, as said


def _text(content: Any) -> str:
    if isinstance(content, list):  # OpenAI content parts
        return "\n".join(p.get("text", "") for p in content if isinstance(p, dict))
    return "" if content is None else str(content)


def _schema(response_format: Any) -> dict[str, Any] | None:
    if isinstance(response_format, type) and hasattr(response_format, "model_json_schema"):
        return response_format.model_json_schema()
    if isinstance(response_format, dict) and response_format.get("type") == "json_schema":
        return (response_format.get("json_schema") or {}).get("schema")
    return None


@cache
def lm_class() -> type:
    dspy = require_dspy()

    class ModelClientLM(dspy.BaseLM):
        """A DSPy LM whose calls are masfuzz `ChatRequest`s on a `ModelClient`.

        DSPy's modules call an LM synchronously; masfuzz's clients are coroutines on the CLI's
        event loop. `forward` therefore runs in a worker thread (see `DSPyRealizer.propose`) and
        hands each call to `loop`, where the client's semaphores and timeouts live."""

        def __init__(self, client: ModelClient, *, loop: asyncio.AbstractEventLoop | None,
                     objective: dict[str, Any], family: str, seed: int | None,
                     temperature: float, max_tokens: int) -> None:
            super().__init__(model=f"masfuzz/{client.model_string}", model_type="chat",
                             temperature=temperature, max_tokens=max_tokens, cache=False,
                             num_retries=0)
            self.client, self.loop, self.objective = client, loop, objective
            self.family, self.seed = family, seed
            self.tally = _Tally()

        @property
        def supported_params(self) -> set[str]:
            return {"response_format"}

        @property
        def supports_response_schema(self) -> bool:
            return True  # masfuzz turns it into `ChatRequest.response_schema` for every provider

        def request(self, prompt: str | None, messages: list[dict[str, Any]] | None,
                    kwargs: dict[str, Any]) -> ChatRequest:
            opts = {**self.kwargs, **kwargs}
            msgs = [ChatMessage(role=m.get("role", "user"), content=_text(m.get("content")))
                    for m in messages or ()] or [ChatMessage(role="user", content=prompt or "")]
            rollout = opts.get("rollout_id")
            # The rollout id is part of the metadata, so masfuzz's response cache keeps DSPy's
            # resamples apart (they differ only in it), and a seeded model varies with it.
            return ChatRequest(
                messages=tuple(msgs), temperature=opts.get("temperature"),
                max_tokens=opts.get("max_tokens"), response_schema=_schema(opts.get("response_format")),
                seed=None if self.seed is None else self.seed + 1000 * (rollout or 0),
                role="tester", agent=f"realizer:{self.family}",
                metadata={OBJECTIVE_TAG: self.objective, "dspy_rollout": rollout},
            )

        def _response(self, reply: ChatReply) -> Any:
            self.tally.calls += 1
            self.tally.last_text = reply.text or ""
            message = SimpleNamespace(content=reply.text or "", tool_calls=None)
            return SimpleNamespace(
                choices=[SimpleNamespace(message=message, finish_reason=reply.finish_reason)],
                usage={"prompt_tokens": reply.usage.tokens_in,
                       "completion_tokens": reply.usage.tokens_out},
                model=self.model,
            )

        def forward(self, prompt=None, messages=None, **kwargs):  # type: ignore[override]
            req = self.request(prompt, messages, kwargs)
            with self._noting_failure():
                if self.loop is not None and self.loop.is_running():
                    reply = asyncio.run_coroutine_threadsafe(self.client.complete(req), self.loop).result()
                else:
                    reply = asyncio.run(self.client.complete(req))  # type: ignore[arg-type]
            return self._response(reply)

        async def aforward(self, prompt=None, messages=None, **kwargs):  # type: ignore[override]
            with self._noting_failure():
                reply = await self.client.complete(self.request(prompt, messages, kwargs))
            return self._response(reply)

        @contextlib.contextmanager
        def _noting_failure(self) -> Any:
            """DSPy wraps or swallows what an LM raises: the failed call is noted, so that the
            realizer can report it as the tester's failure (`DSPyRealizer.propose`)."""
            try:
                yield
            except ModelCallFailed as exc:
                self.tally.calls += 1
                self.tally.model_failure = str(exc)
                raise

    return ModelClientLM


# --- the realizer -----------------------------------------------------------------------------


def screen(forbidden: tuple[str, ...], rejected: list[str] | None = None) -> Any:
    """The inner reward: 1 for a candidate worth executing, 0 for a leak or a non-request."""

    def reward(args: dict[str, Any], pred: Any) -> float:
        text = str(getattr(pred, "user_request", "") or "")
        leak = leaked(text, forbidden)
        if leak is None and plausible(text):
            return 1.0
        if rejected is not None:
            why = f"leaked identifier {leak!r}" if leak else "not a user request"
            rejected.append(f"{text!r} -> {why}")
        return 0.0

    return reward


class DSPyRealizer(Realizer):
    """Realizers as DSPy programs: `dspy.Refine(dspy.Predict(Realize<Criterion>))` per bundle."""

    name = "dspy"

    def __init__(self, client: ModelClient, *, seed: int | None = None, temperature: float = 0.7,
                 max_tokens: int = 300, samples: int = 2, inner: str = "refine") -> None:
        require_dspy()
        if inner not in ("refine", "best_of_n"):
            raise MasfuzzError(f"DSPyRealizer: inner must be 'refine' or 'best_of_n', not {inner!r}")
        if samples < 1:
            raise MasfuzzError("DSPyRealizer: samples must be at least 1")
        self.client, self.seed, self.temperature = client, seed, temperature
        self.max_tokens, self.samples, self.inner = max_tokens, samples, inner
        # Samples turned down inside propose, never executed and so not outer attempts, kept
        # for inspection: (obligation id, [sample -> why, or DSPy's failure message]).
        self.screened: list[tuple[str, list[str]]] = []

    def program(self, family: str) -> Any:
        # Predict, not ChainOfThought: a reasoning field doubles the output a small local model
        # must write, and the outer loop's runtime feedback already does the thinking's job.
        return require_dspy().Predict(signatures()[family])

    async def propose(self, inputs: ObjectiveInputs, history: list[Feedback]) -> Candidate:
        objective = {**inputs.as_json(), "attempt": len(history) + 1,
                     "history": [{"text": f.text, "verdict": f.verdict} for f in history]}
        lm = lm_class()(self.client, loop=asyncio.get_running_loop(), objective=objective,
                        family=inputs.family, seed=None if self.seed is None else self.seed + len(history),
                        temperature=self.temperature, max_tokens=self.max_tokens)
        fields = signature_inputs(inputs, history)
        try:
            pred = await asyncio.to_thread(self._run, inputs, lm, fields)
        except Exception:
            if lm.tally.model_failure:  # the tester's call failed, not DSPy: record, go on
                raise ModelCallFailed(lm.tally.model_failure) from None
            raise
        if lm.tally.model_failure and not lm.tally.last_text:
            raise ModelCallFailed(lm.tally.model_failure)
        text = str(getattr(pred, "user_request", "") or "").strip() if pred is not None else ""
        if not text:
            # Every sample failed DSPy's parsing (a small model writing prose instead of JSON):
            # take the request out of the raw answer as the native realizer does.
            text = request_in_reply(lm.tally.last_text)
        if lm.tally.failures:
            self.screened.append((inputs.driver, lm.tally.failures))
        return Candidate(" ".join(text.split()), model_calls=lm.tally.calls)

    def _run(self, inputs: ObjectiveInputs, lm: Any, fields: dict[str, Any]) -> Any:
        dspy = require_dspy()
        wrap = dspy.Refine if self.inner == "refine" else dspy.BestOfN
        module = wrap(module=self.program(inputs.family), N=self.samples,
                      reward_fn=screen(inputs.forbidden, lm.tally.failures), threshold=1.0)
        # Refine/BestOfN report a failed sample (e.g. a reply DSPy cannot parse) with print();
        # masfuzz's stdout is its report (`--format json`), so this thread's lines are kept
        # and logged instead, while other threads' output passes through untouched.
        out = io.StringIO()
        with dspy.context(lm=lm, adapter=dspy.JSONAdapter()), _thread_stdout(out):
            pred = module(**fields)
        for line in out.getvalue().splitlines():
            if line.strip():
                lm.tally.failures.append(line.strip())
                log.info("dspy realizer: %s", line.strip())
        return pred


class _ThreadRouter(io.TextIOBase):
    def __init__(self, real: Any, sink: io.StringIO) -> None:
        self.real, self.sink, self.thread = real, sink, threading.get_ident()

    def write(self, s: str) -> int:
        return (self.sink if threading.get_ident() == self.thread else self.real).write(s)

    def flush(self) -> None:
        self.real.flush()


@contextlib.contextmanager
def _thread_stdout(sink: io.StringIO) -> Iterator[None]:
    real = sys.stdout
    sys.stdout = _ThreadRouter(real, sink)
    try:
        yield
    finally:
        sys.stdout = real
