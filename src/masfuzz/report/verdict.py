"""Whether a run passes its gates: one verdict for every face (the CLI's exit status, the
Python API's `Analysis.verdict`, the pytest plugin's and `masfuzz.testing`'s assertions).

Three things decide it, in this order: coverage under `--fail-under` (C1+C2+C4) fails it; else
a failure of the system under test's own that `--fail-on` names (a run's tool-fuzzing findings
counted with its runs' failures) fails it; else a phase masfuzz could not run leaves it
incomplete. Findings caused by masfuzz or by the user's settings never fail it (`gating`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from masfuzz.oracles.failure import gating
from masfuzz.report.phases import EXIT_FINDINGS, EXIT_INCOMPLETE, incomplete_line, phases_of
from masfuzz.report.tools import gating_failures


@dataclass(frozen=True)
class Verdict:
    """The outcome of the gates: `exit_code` 0 (passed), 1 (`EXIT_FINDINGS`: the app's failures
    or coverage) or 3 (`EXIT_INCOMPLETE`), the lines that say why (the CLI prints them on
    stderr), and the failures that fail it."""

    exit_code: int = 0
    lines: tuple[str, ...] = ()
    failing: tuple[dict[str, Any], ...] = ()

    @property
    def passed(self) -> bool:
        return self.exit_code == 0


def verdict(analysis: Any, fail_under: float | None = None,
            fail_on: Sequence[str] | str | None = None) -> Verdict:
    """The verdict on an `Analysis` for `--fail-under PCT` and `--fail-on CATEGORIES|any`."""
    incomplete = incomplete_line(phases_of(analysis))
    said = (incomplete,) if incomplete else ()  # whatever else it says, an incomplete run is said
    why = analysis.gate(fail_under)
    if why:
        return Verdict(EXIT_FINDINGS, (*said, why))
    tools = analysis.extra.get("tools") or {}  # the findings of a run's tool fuzzing count too
    gate = failure_verdict(analysis.failures, fail_on, gating_failures(tools.get("findings") or []))
    if not gate.passed:
        return Verdict(gate.exit_code, (*said, *gate.lines), gate.failing)
    return Verdict(EXIT_INCOMPLETE if incomplete else 0, said)


def failure_verdict(failures: Sequence[dict[str, Any]], fail_on: Sequence[str] | str | None,
                    tool_failures: Sequence[dict[str, Any]] = ()) -> Verdict:
    """The `--fail-on` gate alone (`exec`, `tools` and trace assertions have failures, not an
    analysis): fails when the system under test has a failure it names; the line says how many
    of them tool fuzzing found, so the figure agrees with the report's two lists."""
    failing = gating([*failures, *tool_failures], fail_on)
    if not failing:
        return Verdict()
    named = fail_on if isinstance(fail_on, str) else ",".join(fail_on or ())
    kinds = ", ".join(sorted({f["category"].replace("_", " ") for f in failing}))
    by_tools = len(gating(list(tool_failures), fail_on))
    split = f"; {len(failing) - by_tools} in runs, {by_tools} by tool fuzzing" if by_tools else ""
    return Verdict(EXIT_FINDINGS, (f"--fail-on {named}: the system under test has {len(failing)} "
                                   f"failure(s) ({kinds}{split})",), tuple(failing))
