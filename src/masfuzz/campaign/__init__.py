"""The campaign engine: `Campaign` runs phases over one target, recording every execution."""

from masfuzz.campaign.budget import Budget, BudgetExhausted
from masfuzz.campaign.engine import Campaign, Phase, PhaseNotRun, PhaseResult
from masfuzz.campaign.recorder import Outcome, Recorder
from masfuzz.campaign.status import Criterion, Status

__all__ = ["Budget", "BudgetExhausted", "Campaign", "Criterion", "Outcome", "Phase", "PhaseNotRun",
           "PhaseResult", "Recorder", "Status"]
