"""The first phase of `masfuzz run`: the failures the store holds for this target, re-executed.

Hypothesis's habit: a campaign starts by replaying what failed before, so a fixed bug is marked
fixed and a live one is reported at once, before any new exploration. Each stored failure's
reproducing scenario runs again; the failure still reproduces when the detectors find the same
defect in the new trace: the same fingerprint (symptom, root cause, blamed agent, subject), which
no oracle's name and no FLARE clause enters, so a failure found by `cover` and replayed under
`run` is recognised. A failure stored before failures said who and when is blamed on its stored
trace first (`masfuzz.oracles.blame`): its stored fingerprint was made another way, and its
replay is judged as a new one's.

A stored scenario runs again as every replay runs one (`as_replayed`: `masfuzz replay`, the
pytest plugin and this phase): on the model the command runs the app on now, within the
command's time limit where it is tighter than the bound the scenario was recorded with.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from masfuzz.oracles.failure import Failure
from masfuzz.scenario import Scenario


def as_replayed(scenario: Scenario, sut_model: str | None = None,
                timeout: float | None = None) -> Scenario:
    """A stored scenario as a replay runs it: on `sut_model` when one is given, and within
    `timeout` where that is tighter than the bound the scenario was recorded with (one recorded
    on an embedded model keeps its longer bound unless the user asks for less)."""
    update: dict = {"sut_model": sut_model} if sut_model else {}
    if timeout is not None and (scenario.timeout is None or scenario.timeout > timeout):
        update["timeout"] = timeout
    return scenario.model_copy(update=update) if update else scenario


@dataclass
class KnownFailuresPhase:
    known: list[tuple[Failure, Scenario]]
    name: str = "replay"
    # it runs the system, never the tester; a small share, since what it leaves rolls forward
    spends: tuple[str, ...] = ("wall_time", "executions")
    share: float = 1.0
    results: list[tuple[Failure, bool]] = field(default_factory=list)

    async def run(self, campaign: Any) -> None:
        if not self.known:
            return
        campaign.progress(f"replay: {len(self.known)} failure(s) stored for this target, re-executed first")
        outcomes = await campaign.execute([scenario for _, scenario in self.known])
        for (failure, _), outcome in zip(self.known, outcomes):
            found = {f.fingerprint for f in campaign.recorder.detectors(outcome.trace)}
            live = failure.fingerprint in found
            self.results.append((failure, live))
            campaign.progress(f"replay: {'STILL FAILS' if live else 'fixed'}  [{failure.category}] "
                              f"{failure.description[:100]}")

    def summary(self) -> dict[str, Any]:
        return {"replayed": [{"fingerprint": f.fingerprint, "category": f.category, "root_cause": f.root_cause,
                              "description": f.description, "still_fails": live}
                             for f, live in self.results]}


def known_failures(store: Any, target_ref: str, *, before_run: int, sut_model: str | None = None,
                   timeout: float | None = None) -> list[tuple[Failure, Scenario]]:
    """The app's own failures earlier runs of this target stored, one per defect, each with its
    reproducing scenario (the first run's that showed it) as a replay runs it (`as_replayed`)
    on the campaign's `sut_model` and within its `timeout`."""
    out: dict[str, tuple[Failure, Scenario]] = {}
    targets: dict[int, str] = {}
    for stored in store.failures():
        rid = stored["run_id"]
        if rid >= before_run:
            continue
        if rid not in targets:
            targets[rid] = store.run_info(rid)["target"]
        if targets[rid] != target_ref or stored.failure.attribution != "sut":
            continue
        failure = store.blamed(stored)
        if failure.fingerprint in out:
            continue
        scenario = store.scenario(failure.scenario_id) if failure.scenario_id else None
        if scenario is not None:
            out[failure.fingerprint] = (failure, as_replayed(scenario, sut_model, timeout))
    return list(out.values())
