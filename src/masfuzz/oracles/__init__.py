"""Oracles over traces: deterministic failure detectors in FLARE's failure taxonomy."""

from masfuzz.oracles.detectors import DETECTORS, detect
from masfuzz.oracles.failure import CATEGORY_NAMES, Failure, dedupe

__all__ = ["CATEGORY_NAMES", "DETECTORS", "Failure", "dedupe", "detect"]
