"""The taint fuzzer (§4.1, Figure 1.1A): fuzz one tool in isolation, collect the arguments that
break it, grouped into unique runtime errors.

Rounds alternate learning and exploiting: each round draws a batch of arguments from the
schema-and-prior strategy (seeded with `seed + round`), runs them in the sandbox, some of them
tainted, and merges what the taint observed into the priors the next round draws from. Tainted
calls go to the plain function; the rest go through the framework's own calling path, so
validation errors an agent would meet there are found too.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from masfuzz.toolfuzz.generate import DEFAULT_WEIGHTS, PARTS, documented_calls, draw_mixture
from masfuzz.toolfuzz.grouping import ErrorKey, attribution, error_key, normalise_message
from masfuzz.toolfuzz.priors import Priors, SyntaxPrior, doc_priors, doc_ranges, static_priors
from masfuzz.toolfuzz.rejections import documented_rejection
from masfuzz.toolfuzz.sandbox import CallOutcome, Sandbox, SandboxLimits
from masfuzz.toolfuzz.tools import FuzzTool


@dataclass
class UniqueError:
    key: ErrorKey
    status: str  # error | timeout | crash
    message: str  # the first raw message
    arguments: dict[str, Any]  # the reproducer: the arguments of the call whose message is shown
    first_call: int  # 1-based index of the call that first hit it
    count: int = 0
    examples: list[dict[str, Any]] = field(default_factory=list)  # up to 5 distinct failing inputs
    shortest: dict[str, Any] | None = None  # the shortest input that hit it too, when shorter
    output: str = ""  # the tail of what the first call wrote to stdout/stderr
    # Filled by the runtime pipeline's model stages (None: not run).
    sanity: str | None = None  # accepted | refused
    user_request: str | None = None
    confirmed: bool | None = None
    agent_arguments: dict[str, Any] | None = None
    agent_error: str | None = None
    # Whose failure it is (`grouping.attribution`): the tool's, masfuzz's or the settings'.
    attribution: str = "sut"
    because: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "key": str(self.key), "error_type": self.key.error_type, "message": self.message,
            "frame": self.key.frame, "status": self.status, "arguments": self.arguments,
            "first_call": self.first_call, "count": self.count, "sanity": self.sanity,
            "user_request": self.user_request, "confirmed": self.confirmed,
            "agent_arguments": self.agent_arguments, "agent_error": self.agent_error,
            "attribution": self.attribution, "because": self.because,
            "shortest": self.shortest, "output": self.output,
        }


@dataclass
class HandledError:
    """An error message the tool returned instead of raising: its own error handling, shown
    apart from the findings and never counted as a unique runtime error."""
    message: str  # normalised: the group's key
    example: str  # the first raw message
    arguments: dict[str, Any]  # the input of the call that got `example`
    first_call: int
    count: int = 0
    shortest: dict[str, Any] | None = None  # the shortest input that got it too, when shorter
    output: str = ""  # the tail of what the first call wrote to stdout/stderr

    def to_dict(self) -> dict[str, Any]:
        return {"message": self.message, "example": self.example, "arguments": self.arguments,
                "first_call": self.first_call, "count": self.count, "shortest": self.shortest,
                "output": self.output}


@dataclass
class FuzzResult:
    tool: str
    seed: int
    calls: int = 0
    ok: int = 0
    failed: int = 0
    blocked: int = 0
    blocked_reasons: dict[str, int] = field(default_factory=dict)
    unique: dict[ErrorKey, UniqueError] = field(default_factory=dict)
    handled: dict[str, HandledError] = field(default_factory=dict)  # returned error messages
    priors: Priors = field(default_factory=dict)
    network_isolation: str = "unknown"
    parts: dict[str, dict[str, int]] = field(default_factory=dict)  # part -> drawn, novel calls
    stopped: str | None = None  # why fewer calls than asked were made (a caller's budget)
    # Every arc of the tool's own code some call ran (`CallOutcome.reached`).
    reached: set[tuple[str, int, int]] = field(default_factory=set)

    def tool_errors(self) -> list[UniqueError]:
        """The unique errors that are the tool's own: what UE, TC/UE and Chao1 count. One
        masfuzz's calling code or the sandbox's settings caused is shown apart, never counted."""
        return [u for u in self.unique.values() if u.attribution == "sut"]

    def abundances(self) -> list[int]:
        return [u.count for u in self.tool_errors()]

    def lines_reached(self) -> int:
        """How many lines of the tool's own code the calls ran."""
        return len({(rel, n) for rel, a, b in self.reached for n in (a, b) if n > 0})


def _size(arguments: dict[str, Any]) -> int:
    return len(json.dumps(arguments, default=str, ensure_ascii=False))


def record(result: FuzzResult, tool: FuzzTool, arguments: dict[str, Any], outcome: CallOutcome) -> ErrorKey | None:
    """Count one call's outcome; the unique error it hit, if any."""
    result.calls += 1
    result.reached |= outcome.reached
    for arg, found in outcome.priors.items():
        prior = result.priors.setdefault(arg, SyntaxPrior())
        for slot, values in found.items():
            getattr(prior, slot).update(values)
    if outcome.status == "ok":
        result.ok += 1
        return None
    rejected = documented_rejection(tool, outcome, arguments)
    if outcome.status == "handled" or rejected:
        result.ok += 1  # the tool returned, or refused as documented: its error handling
        shown = f"{outcome.error_type}: {outcome.message}" if rejected else outcome.message
        message = normalise_message(shown, arguments=arguments)
        group = result.handled.get(message)
        if group is None:
            group = result.handled[message] = HandledError(message, shown[:300],
                                                           dict(arguments), result.calls,
                                                           output=outcome.output)
        elif _size(arguments) < _size(group.shortest or group.arguments):
            group.shortest = dict(arguments)
        group.count += 1
        return None
    if outcome.status == "blocked":
        result.blocked += 1
        reason = normalise_message(outcome.message)
        result.blocked_reasons[reason] = result.blocked_reasons.get(reason, 0) + 1
        return None
    result.failed += 1
    key = error_key(outcome, tool.own_code_root, arguments)
    found_err = result.unique.get(key)
    if found_err is None:
        whose, because = attribution(outcome)
        found_err = result.unique[key] = UniqueError(key, outcome.status, outcome.message,
                                                     dict(arguments), result.calls,
                                                     attribution=whose, because=because,
                                                     output=outcome.output)
    elif _size(arguments) < _size(found_err.shortest or found_err.arguments):
        found_err.shortest = dict(arguments)  # the message shown stays the first call's
    if len(found_err.examples) < 5 and all(e != arguments for e in found_err.examples):
        found_err.examples.append(dict(arguments))
    found_err.count += 1
    return key


class Steering:
    """Which generation part to draw from, adapted to what each part found (a simple bandit).

    A call is novel when it ran code of the tool's own that no call had run before (a new arc:
    a line or a branch, `CallOutcome.reached`), or hit a unique error or a kind of returned
    error message not seen before. A part's weight is its default share times
    (1/2 + 4 x its smoothed novel rate), so the budget goes to the parts that keep reaching new
    behaviour and none is ever starved. It depends only on the calls' outcomes (what code a
    call runs included), so a seed still reproduces a run."""

    def __init__(self, base: dict[str, float] | None = None) -> None:
        self.base = dict(base or DEFAULT_WEIGHTS)
        self.drawn = {p: 0 for p in PARTS}
        self.novel = {p: 0 for p in PARTS}
        self.new_code = {p: 0 for p in PARTS}  # the novel calls that ran new code

    def weights(self) -> dict[str, float]:
        return {p: self.base.get(p, 0.0) * (0.5 + 4 * (self.novel[p] + 1) / (self.drawn[p] + 2))
                for p in PARTS}

    def credit(self, part: str, new_finding: bool, new_code: bool) -> None:
        self.drawn[part] += 1
        self.novel[part] += int(new_finding or new_code)
        self.new_code[part] += int(new_code)

    def to_dict(self) -> dict[str, dict[str, int]]:
        return {p: {"drawn": self.drawn[p], "novel": self.novel[p], "new_code": self.new_code[p]}
                for p in PARTS}


# Tools fuzzed at once (`masfuzz tools --workers N`) take turns at generating arguments while
# their sandboxed calls overlap: CPython 3.11's AST constructor, which Hypothesis uses to describe
# a filter's lambda and `static_priors` to read a tool's source, keeps its recursion depth per
# interpreter, not per thread (gh-106905), and two threads in it at once raise SystemError.
GENERATING = threading.Lock()


def fuzz_tool(tool: FuzzTool, *, calls: int = 200, seed: int = 0, batch: int = 25,
              limits: SandboxLimits | None = None, sandbox: Sandbox | None = None,
              stop: Callable[[], str | None] | None = None,
              time_left: Callable[[], float | None] | None = None,
              weights: dict[str, float] | None = None, steering: bool = True) -> FuzzResult:
    """Fuzz `tool` with `calls` calls. Reproducible: the same seed draws the same arguments.

    Arguments come from the generation parts (`generate.PARTS`) in shares `weights` (default
    `generate.DEFAULT_WEIGHTS`), steered by what each part finds unless `steering` is False.

    A caller with a budget passes `stop` (why no more calls may be made, or None; asked before
    each call) and `time_left` (seconds, or None): a call is then bounded by the time left, and
    a call the caller's time cut short is dropped, not counted as the tool's timeout. Either
    ends the fuzzing early with the reason in `result.stopped`."""
    arg_names = list((tool.schema.get("properties") or {}).keys())
    with GENERATING:
        priors = static_priors(tool.function, arg_names)
    result = FuzzResult(tool.name, seed)
    documented = doc_priors(tool.description, tool.schema)
    ranges = doc_ranges(tool.description, tool.schema)
    for found in (priors, documented):
        for name, prior in found.items():
            result.priors.setdefault(name, SyntaxPrior()).merge(prior)
    own = sandbox is None
    box = sandbox or Sandbox(tool, limits)
    steer = Steering(weights)
    try:
        round_no = 0
        while result.calls < calls:
            want = min(batch, calls - result.calls)
            with GENERATING:
                examples = draw_mixture(tool.schema, result.priors, want, seed * 1009 + round_no,
                                        steer.weights() if steering else steer.base,
                                        skip_simplest=round_no > 0, ranges=ranges)
            if not examples:
                break
            if round_no == 0:  # the documentation's own examples first (`documented_calls`)
                first = next((a for p, a in examples if p == "semantic"), examples[0][1])
                examples = ([("semantic", a) for a in documented_calls(tool.schema, documented, first, ranges, code=priors)]
                            + examples)[:want]
            # Learn hard in the first round, then taint one call in four.
            every = 2 if round_no == 0 else 4
            for i, (part, arguments) in enumerate(examples):
                taint = tool.function is not None and i % every == 0
                why = stop() if stop is not None else None
                left = time_left() if time_left is not None else None
                if why is None and left is not None and left <= 0:
                    why = "no time left"
                if why is not None:
                    result.stopped = why
                    break
                cut = left is not None and left < box.limits.time_s
                outcome = box.call(arguments, taint=taint, time_s=left if cut else None)
                if cut and outcome.status == "timeout":  # the caller's time ended, not the tool's
                    result.stopped = (stop() if stop is not None else None) or "no time left"
                    break
                seen, ran = len(result.unique) + len(result.handled), len(result.reached)
                record(result, tool, arguments, outcome)
                steer.credit(part, len(result.unique) + len(result.handled) > seen,
                             len(result.reached) > ran)
            if result.stopped is not None:
                break
            round_no += 1
        result.network_isolation = box.network_isolation
        result.parts = steer.to_dict()
    finally:
        if own:
            box.close()
    return result
