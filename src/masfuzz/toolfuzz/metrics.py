"""The paper's metrics (§5.1): unique errors (UE), tool calls per unique error (TC/UE), the false
discovery rate (FDR) when labels are known, and the Chao1 estimate of the total number of unique
errors a method can find, bias-corrected, with its 95% log-normal confidence interval (Chao 1984;
Colwell, EstimateS 2009) — the paper's TUE-CI column.

Chao1 treats each unique error as a species and each call that hit it as an individual: errors
seen once (f1) and twice (f2) tell how many were never seen.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class Chao1:
    observed: int
    estimate: float
    lower: float
    upper: float

    def interval(self) -> str:
        return f"[{self.lower:.1f}, {self.upper:.1f}]"


def chao1(abundances: Iterable[int]) -> Chao1:
    """Bias-corrected Chao1 from how often each unique error was hit."""
    counts = [c for c in abundances if c > 0]
    s_obs = len(counts)
    n = sum(counts)
    if s_obs == 0:
        return Chao1(0, 0.0, 0.0, 0.0)
    f1 = sum(1 for c in counts if c == 1)
    f2 = sum(1 for c in counts if c == 2)
    k = (n - 1) / n if n > 0 else 1.0
    t = k * f1 * (f1 - 1) / (2 * (f2 + 1))
    estimate = s_obs + t
    if f1 > 0:
        # Variance of the bias-corrected form (EstimateS user's guide, eq. for Chao1 bc).
        var = (k * f1 * (f1 - 1) / (2 * (f2 + 1))
               + k * k * f1 * (2 * f1 - 1) ** 2 / (4 * (f2 + 1) ** 2)
               + k * k * f1 * f1 * f2 * (f1 - 1) ** 2 / (4 * (f2 + 1) ** 4))
    else:
        # No singletons: Chao's variance for f1 = 0 (EstimateS), driven by the sample size.
        e = math.exp(-n / s_obs) if s_obs else 0.0
        var = s_obs * e * (1 - e)
    if t <= 0:
        # Nothing unseen is estimated: the interval is the observed count up to a small margin.
        upper = s_obs + 1.96 * math.sqrt(var) if var > 0 else float(s_obs)
        return Chao1(s_obs, float(estimate), float(s_obs), upper)
    c = math.exp(1.96 * math.sqrt(math.log(1 + var / (t * t))))
    return Chao1(s_obs, estimate, s_obs + t / c, s_obs + t * c)


def tc_per_ue(tool_calls: int, unique_errors: int) -> float | None:
    """Tool calls per unique error; None when nothing was found (infinitely many calls)."""
    return tool_calls / unique_errors if unique_errors else None


def fdr(false_positives: int, true_positives: int) -> float | None:
    """FP / (FP + TP); None with no positives."""
    total = false_positives + true_positives
    return false_positives / total if total else None
