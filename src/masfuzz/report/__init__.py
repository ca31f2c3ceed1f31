"""Reports: one `Analysis` rendered by each `Reporter` (text, JSON, JUnit XML, SARIF, HTML)."""

from masfuzz.report.analysis import Analysis, Structure
from masfuzz.report.base import Reporter
from masfuzz.report.html import HtmlReporter
from masfuzz.report.json_report import JsonReporter
from masfuzz.report.junit import JUnitReporter
from masfuzz.report.sarif import SarifReporter
from masfuzz.report.text import TextReporter

REPORTERS: dict[str, type[Reporter]] = {"text": TextReporter, "json": JsonReporter, "junit": JUnitReporter,
                                        "sarif": SarifReporter, "html": HtmlReporter}


def reporter_names() -> tuple[str, ...]:
    """The built-in reporters, then those plugins add (`masfuzz.reporters` entry points)."""
    from masfuzz.plugins import names

    return (*REPORTERS, *(n for n in names("masfuzz.reporters") if n not in REPORTERS))


def reporter(kind: str) -> Reporter:
    """The reporter named `kind`: a built-in one, or a plugin's (one line if it is no reporter)."""
    if kind in REPORTERS:
        return REPORTERS[kind]()
    from masfuzz.plugins import load, not_a

    cls = load("masfuzz.reporters", kind)
    if not (isinstance(cls, type) and callable(getattr(cls, "render", None))):
        raise not_a("masfuzz.reporters", kind, cls)
    return cls()


def write_report(analysis: Analysis, kind: str, path: str | None = None, *,
                 obligations: bool = False) -> None:
    """Render `analysis` with the reporter named `kind` to `path` (atomically: a reader, or a
    crash, never sees half a report) or to standard output."""
    import os
    import sys
    from pathlib import Path

    text = reporter(kind).render(analysis, obligations=obligations)
    if path is None:
        sys.stdout.write(text)
        return
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, target)

__all__ = ["REPORTERS", "reporter", "reporter_names", "write_report", "Analysis", "JsonReporter", "Reporter", "Structure", "TextReporter"]
