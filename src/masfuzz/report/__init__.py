"""Reports: one `Analysis` rendered by each `Reporter` (text, JSON; HTML, JUnit, SARIF later)."""

from masfuzz.report.analysis import Analysis, Structure
from masfuzz.report.base import Reporter
from masfuzz.report.json_report import JsonReporter
from masfuzz.report.text import TextReporter

REPORTERS: dict[str, type[Reporter]] = {"text": TextReporter, "json": JsonReporter}

__all__ = ["REPORTERS", "Analysis", "JsonReporter", "Reporter", "Structure", "TextReporter"]
