"""The coordination graph, reachability, the structural obligations it fixes and their witness
objectives (`objectives`), and FLARE's specification of the system derived from them
(`specification`)."""

from masfuzz.graph.coordination import CoordinationGraph
from masfuzz.graph.obligations import CRITERIA, CRITERION_NAMES, Obligation, ObligationSet, ObligationSpace

__all__ = ["CRITERIA", "CRITERION_NAMES", "CoordinationGraph", "Obligation", "ObligationSet", "ObligationSpace"]
