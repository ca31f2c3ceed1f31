"""The bounded refine loop (structural-coverage Algorithm 1, lines 18–40).

For one bundle: propose a candidate, reward 0 if it leaks an identifier, else execute it and
reward 1 only if the trace holds every witness of the bundle; feed the verdict and the observed
trace back to the next attempt; stop at the first success or after N attempts. Every attempt is
kept, so an unrealized bundle is reported with all it tried.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from masfuzz.coverage.structural import Observation, observe
from masfuzz.errors import ModelCallFailed
from masfuzz.generate.leaks import leaked
from masfuzz.graph.objectives import Bundle
from masfuzz.generate.realizer import Feedback, ObjectiveInputs, Realizer, off_task
from masfuzz.graph.obligations import Obligation
from masfuzz.scenario import Provenance, Scenario
from masfuzz.trace import Trace

Execute = Callable[[Scenario], Awaitable[Trace]]


@dataclass
class Attempt:
    number: int
    text: str
    reward: int
    verdict: str
    leaked: str | None = None
    scenario: Scenario | None = None
    trace: Trace | None = None
    witnessed: dict[str, bool] = field(default_factory=dict)
    model_calls: int = 0
    model_error: bool = False  # the tester's call failed; nothing was executed


@dataclass
class Realization:
    bundle: Bundle
    attempts: list[Attempt]

    @property
    def passed(self) -> bool:
        return bool(self.attempts) and self.attempts[-1].reward == 1

    @property
    def accepted(self) -> Attempt | None:
        return self.attempts[-1] if self.passed else None

    @property
    def model_calls(self) -> int:
        return sum(a.model_calls for a in self.attempts)


def witnesses(bundle: Bundle, obs: Observation) -> dict[str, bool]:
    return {o.id: obs.witnesses(o.obligation) for o in bundle.objectives}


def summarize(obs: Observation, trace: Trace) -> dict[str, Any]:
    end = trace.termination
    return {
        "agents": sorted(obs.agents),
        "tool_calls": sorted(f"{a}->{t}" for a, t in obs.tools),
        "restricted_attempts": sorted(f"{a}->{t}" for a, t in obs.restricted),
        "delegations": sorted(f"{a}->{b}" for a, b in obs.delegations),
        "termination": end.reason if end else None,
        "final_output": ((end.final_output or "")[:200] if end else ""),
    }


def verdict(bundle: Bundle, w: dict[str, bool], obs: Observation) -> str:
    missing = [Obligation.parse(i) for i, ok in w.items() if not ok]
    if not missing:
        return "all witnesses observed"
    parts = []
    for ob in missing:
        if ob.kind == "reach":
            parts.append(f"agent {ob.endpoints[0]} never acted")
        elif ob.kind == "use_tool":
            parts.append(f"{ob.endpoints[0]} did not call {ob.endpoints[1]}")
        elif ob.kind == "restrict_tool":
            parts.append(f"{ob.endpoints[0]} did not attempt {ob.endpoints[1]}")
        else:
            parts.append(f"no hand-over {ob.endpoints[0]} -> {ob.endpoints[1]}")
    seen = ", ".join(sorted(obs.agents)) or "no agent"
    return "; ".join(parts) + f" (agents that acted: {seen})"


STOPPED = "repeated an earlier attempt; stopped"


def complete(done: list[Attempt], attempts: int) -> bool:
    """Is a bundle's loop over: witnessed, out of attempts, or stopped for repeating itself?"""
    return bool(done) and (done[-1].reward == 1 or len(done) >= attempts or done[-1].verdict == STOPPED)


def feedback(a: Attempt) -> Feedback | None:
    """What a failed attempt teaches the next one (a failed tester call teaches nothing)."""
    if a.reward or a.model_error:
        return None
    if a.trace is None:
        return Feedback(a.text, a.verdict)
    return Feedback(a.text, a.verdict, summarize(observe(a.trace), a.trace))


@dataclass
class Step:
    """A bundle's next attempt as proposed: already judged when nothing is to be executed (the
    tester failed, the request leaked, repeated one or is no request), else the scenario to
    execute."""

    number: int
    text: str = ""
    model_calls: int = 0
    attempt: Attempt | None = None
    scenario: Scenario | None = None


@dataclass
class Refinement:
    """One bundle's loop, a step at a time, so that the loops of many bundles can go in rounds
    (each bundle's attempts stay in sequence: each refines the last)."""

    bundle: Bundle
    inputs: ObjectiveInputs | None
    attempts: int
    done: list[Attempt] = field(default_factory=list)
    history: list[Feedback] = field(default_factory=list)

    @classmethod
    def start(cls, bundle: Bundle, inputs: ObjectiveInputs | None, attempts: int,
              prior: Sequence[Attempt] = ()) -> "Refinement":
        done = list(prior)
        return cls(bundle, inputs, attempts, done,
                   [f for a in done if (f := feedback(a)) is not None])

    again: bool = False  # one more attempt after it stopped for repeating itself (`one_more`)

    @property
    def finished(self) -> bool:
        if self.again and len(self.done) < self.attempts:
            return False
        return complete(self.done, self.attempts)

    def one_more(self) -> None:
        """One attempt beyond those it was given (a campaign with budget left goes on); its
        proposal is sampled anew, so it may go on after repeating itself too."""
        self.attempts = len(self.done) + 1
        self.again = True

    async def propose(self, realizer: Realizer,
                      make_scenario: Callable[[str, Bundle, int], Scenario]) -> Step:
        n = len(self.done) + 1
        assert self.inputs is not None, "a loop with attempts left has its inputs"
        try:
            cand = await realizer.propose(self.inputs, self.history)
        except ModelCallFailed as exc:
            return Step(n, attempt=Attempt(n, "", 0, f"tester model failed: {exc}",
                                           model_error=True, model_calls=1))
        if any(cand.text == a.text for a in self.done if not a.model_error):
            # The realizer learned nothing from the feedback: running the same request again
            # would only repeat the same trace, so the budget is better spent elsewhere.
            return Step(n, attempt=Attempt(n, cand.text, 0, STOPPED, model_calls=cand.model_calls))
        leak = leaked(cand.text, self.inputs.forbidden)
        junk = off_task(cand.text, self.inputs)
        if leak is not None or junk is not None:
            why = f"leaked identifier {leak!r}" if leak else junk
            return Step(n, attempt=Attempt(n, cand.text, 0, why, leaked=leak,
                                           model_calls=cand.model_calls))
        return Step(n, cand.text, cand.model_calls,
                    scenario=make_scenario(cand.text, self.bundle, n))

    def judged(self, step: Step, trace: Trace) -> Attempt:
        """The executed step's attempt, judged on its trace."""
        assert step.scenario is not None
        return judge(self.bundle, step.number, step.text, step.scenario, trace, step.model_calls)

    def keep(self, a: Attempt) -> None:
        self.done.append(a)
        f = feedback(a)  # what the next attempt learns from this one
        if f is not None:
            self.history.append(f)

    def realization(self) -> Realization:
        return Realization(self.bundle, self.done)


async def realize(bundle: Bundle, inputs: ObjectiveInputs, realizer: Realizer, execute: Execute,
                  make_scenario: Callable[[str, Bundle, int], Scenario], *,
                  attempts: int = 5, prior: Sequence[Attempt] = (),
                  on_attempt: Callable[[Attempt], None] | None = None) -> Realization:
    """The loop for one bundle. `prior` are attempts a resumed run already made (the loop goes
    on after them); `on_attempt` sees each new attempt as soon as it is judged. A tester model
    call that fails (timeout, error after its retries) is recorded as an attempt with the reason
    and the loop goes on: one slow call never ends a campaign."""
    loop = Refinement.start(bundle, inputs, attempts, prior)
    while not loop.finished:
        step = await loop.propose(realizer, make_scenario)
        a = step.attempt if step.attempt is not None else loop.judged(step, await execute(step.scenario))
        loop.keep(a)
        if on_attempt is not None:
            on_attempt(a)
    return loop.realization()


def judge(bundle: Bundle, number: int, text: str, scenario: Scenario, trace: Trace,
          model_calls: int = 0) -> Attempt:
    """Reward 1 only when the trace holds every witness of the bundle."""
    obs = observe(trace)
    w = witnesses(bundle, obs)
    return Attempt(number, text, int(all(w.values())), verdict(bundle, w, obs), scenario=scenario,
                   trace=trace, witnessed=w, model_calls=model_calls)


def scenario_factory(sut_model: str | None, *, seed: int | None, max_turns: int | None,
                     timeout: float | None, source: str = "realizer",
                     surroundings: dict[str, Any] | None = None,
                     ) -> Callable[[str, Bundle, int], Scenario]:
    """Scenarios for candidates: C3 bundles run with probe stubs (the only way a restricted call
    can be observed as an attempt), the others with the agents exactly as written."""

    def make(text: str, bundle: Bundle, attempt: int) -> Scenario:
        probe = bundle.driver.obligation.kind == "restrict_tool"
        return Scenario(
            input=text, sut_model=sut_model, restricted="probe" if probe else "faithful",
            max_turns=max_turns, timeout=timeout, objectives=bundle.obligation_ids,
            **(surroundings or {}),
            provenance=Provenance(source=f"{source}:{bundle.driver.family}", seed=seed,
                                  attempt=attempt),
        )

    return make
