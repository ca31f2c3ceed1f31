"""`ExecutionRequest`: everything one execution needs, as one serialisable value.

Every executor takes exactly this and answers with a `Trace`: the in-process executor runs it on
this event loop, the worker pool sends it to a worker process as one JSON line, and a Ray worker
would receive the same document. Model settings name the API-key *variable*, never its value,
so a request can be written anywhere without carrying a secret. `code_coverage` asks for the
lines and branches of the target's own code the run executed (`masfuzz.exec.codecov`).
`persistent` is AFL++'s persistent mode (`--persistent N`): the worker may run it in a process
that served up to N - 1 runs before it, instead of a fresh fork of its own
(`masfuzz.exec.worker`); such a run's trace says which run of its process it was
(`masfuzz.trace.PROCESS_RUN`).

A judging request (`JUDGE`) is the other request a worker serves: a campaign's deterministic
detectors (`masfuzz.oracles.portable`) and the trace of the run the worker just answered, as the
executor hands it over (its meta said, its secrets masked); the worker answers with the failures
they find (`JUDGED`). It runs in the worker's own process, never in the run's.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from masfuzz.errors import MasfuzzError
from masfuzz.llm.settings import ModelSettings
from masfuzz.scenario import Scenario
from masfuzz.target import Target

DEFAULT_TIMEOUT = 60.0  # seconds per scenario when neither the scenario nor the caller names one
JUDGE = "judge"  # a judging request's line: {JUDGE: <PortableJudge.text>, "trace": <the trace>}
JUDGED = "judged"  # its answer: {JUDGED: [failures]}, or {JUDGED: null} when judging failed there


@dataclass(frozen=True)
class ExecutionRequest:
    target: Target
    scenario: Scenario
    models: ModelSettings = field(default_factory=ModelSettings)
    timeout: float = DEFAULT_TIMEOUT  # hard bound on the run, unless the scenario sets its own
    code_coverage: bool = False  # trace.meta["code_coverage"]: the target's own lines and arcs run
    persistent: int = 1  # runs one forked process may serve (1: a fresh fork for each run)

    @property
    def limit(self) -> float:
        return self.scenario.timeout if self.scenario.timeout else self.timeout

    def to_data(self) -> dict[str, Any]:
        data = {"target": self.target.to_data(), "scenario": self.scenario.model_dump(mode="json"),
                "models": self.models.model_dump(mode="json"), "timeout": self.timeout}
        if self.code_coverage:  # absent when off, so requests without it stay as they were
            data["code_coverage"] = True
        if self.persistent > 1:  # likewise
            data["persistent"] = self.persistent
        return data

    @classmethod
    def from_data(cls, data: Any) -> "ExecutionRequest":
        if not isinstance(data, dict) or "target" not in data or "scenario" not in data:
            raise MasfuzzError(f"execution request: expected target and scenario, not {data!r:.80}")
        return cls(Target.from_data(data["target"]), Scenario.model_validate(data["scenario"]),
                   ModelSettings.model_validate(data.get("models") or {}),
                   float(data.get("timeout") or DEFAULT_TIMEOUT),
                   data.get("code_coverage") is True, _runs(data.get("persistent", 1)))


def _runs(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise MasfuzzError(f"execution request: persistent must be a whole number of at least 1, not {value!r}")
    return value
