"""The coordination graph, reachability and the structural obligations it fixes."""

from masfuzz.graph.coordination import CoordinationGraph
from masfuzz.graph.obligations import CRITERIA, CRITERION_NAMES, Obligation, ObligationSet, ObligationSpace

__all__ = ["CRITERIA", "CRITERION_NAMES", "CoordinationGraph", "Obligation", "ObligationSet", "ObligationSpace"]
