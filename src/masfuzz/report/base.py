"""The reporter interface: every output format renders the same `Analysis`."""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import ClassVar

from masfuzz.report.analysis import Analysis


class Reporter(ABC):
    format: ClassVar[str]

    @abstractmethod
    def render(self, analysis: Analysis, *, obligations: bool = False) -> str:
        """The whole report as text; `obligations` lists every obligation, not just counts."""
