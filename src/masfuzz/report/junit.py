"""JUnit XML: one test case per obligation and per failure, so CI systems list them natively.

An obligation witnessed by a scenario passes; one no scenario witnessed is skipped (a coverage
gap is shown, the gate for it is `--fail-under`); a C3 restricted edge that a scenario did
witness fails, since it is a restricted call the system attempted. A failure of the app's own
fails its test case, with its description, who and when (the blamed agent, the decisive event),
the oracles that found it, its evidence and reproducer; a finding caused by masfuzz
or the settings is skipped with its cause; a proposal the judge agent rejected passes, saying
so. Each phase of the campaign is a test case too: one
that did not run, or was stopped, is skipped with why; one that failed for masfuzz's own reasons
is an error.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Any

from masfuzz.report.analysis import Analysis, warnings
from masfuzz.report.base import Reporter
from masfuzz.report.text import oracles, who_and_when
from masfuzz.report.phases import phase_words, phases_of


class JUnitReporter(Reporter):
    format = "junit"

    def render(self, analysis: Analysis, *, obligations: bool = False) -> str:
        root = ET.Element("testsuites", name="masfuzz")
        if analysis.space is not None:
            for oset in analysis.space.sets():
                suite = _suite(root, f"coverage {oset.criterion}: {analysis.criterion_name(oset.criterion)}")
                for ob in oset:
                    case = ET.SubElement(suite, "testcase", classname=f"masfuzz.coverage.{oset.criterion}",
                                         name=ob.id)
                    witnesses = analysis.coverage.witnessed(ob) if analysis.coverage is not None else []
                    if oset.criterion == "C3" and witnesses:
                        _mark(case, "failure", "a restricted call was attempted",
                              "witnessed by " + ", ".join(witnesses))
                    elif not witnesses:
                        ET.SubElement(case, "skipped", message="not witnessed by any scenario")
                    else:
                        ET.SubElement(case, "system-out").text = "witnessed by " + ", ".join(witnesses)
        suite = _suite(root, "failures")
        for f in analysis.failures:
            case = ET.SubElement(suite, "testcase", classname=f"masfuzz.failures.{f['category']}",
                                 name=f"{f['root_cause']} [{f['fingerprint']}]")
            _properties(case, f)
            whose = f.get("attribution", "sut")
            if whose != "sut":
                ET.SubElement(case, "skipped", message=f"caused by the {whose}, not the app: {f.get('because', '')}")
                continue
            _mark(case, "failure", f["description"], _details(f), kind=f["category"])
        rejected = analysis.extra.get("rejected_proposals") or ()
        if rejected:  # decided against: passing cases that say so, never failures
            suite = _suite(root, "rejected proposals")
            for n, r in enumerate(rejected, 1):
                case = ET.SubElement(suite, "testcase", classname="masfuzz.rejected_proposals",
                                     name=f"{r['scenario_id']} #{n}")
                ET.SubElement(case, "system-out").text = r["text"]
        phases = phases_of(analysis)
        if phases:  # a phase that did not run, or failed, is never silent
            suite = _suite(root, "phases")
            for p in phases:
                case = ET.SubElement(suite, "testcase", classname="masfuzz.phases", name=p["phase"])
                if p["status"] == "failed":  # masfuzz's own: an error, not the app's failure
                    ET.SubElement(case, "error", message=phase_words(p)).text = \
                        "\n".join(p.get("problems") or ()) or p["reason"]
                elif p["status"] != "done":
                    ET.SubElement(case, "skipped", message=phase_words(p))
        for warning in warnings(analysis):  # said, without failing a build by itself
            ET.SubElement(_suite(root, "warnings"), "system-err").text = f"WARNING: {warning}"
        for s in root:
            s.set("tests", str(sum(1 for c in s if c.tag == "testcase")))
            s.set("failures", str(sum(1 for c in s if c.find("failure") is not None)))
            s.set("skipped", str(sum(1 for c in s if c.find("skipped") is not None)))
            s.set("errors", str(sum(1 for c in s if c.find("error") is not None)))
        root.set("tests", str(sum(int(s.get("tests", 0)) for s in root)))
        root.set("failures", str(sum(int(s.get("failures", 0)) for s in root)))
        root.set("errors", str(sum(int(s.get("errors", 0)) for s in root)))
        ET.indent(root)
        return ET.tostring(root, encoding="unicode", xml_declaration=True) + "\n"


def _suite(root: ET.Element, name: str) -> ET.Element:
    return ET.SubElement(root, "testsuite", name=name)


def _properties(case: ET.Element, f: dict[str, Any]) -> None:
    """Who and when as the test case's properties (as pytest's `record_property` writes them)."""
    props = ET.SubElement(case, "properties")
    for name, value in (("agent", f.get("agent")), ("step", f.get("step")), ("step_ref", f.get("step_ref")),
                        ("found_by", ",".join(oracles(f)))):
        if value is not None:
            ET.SubElement(props, "property", name=name, value=str(value))


def _mark(case: ET.Element, tag: str, message: str, text: str, *, kind: str = "") -> None:
    element = ET.SubElement(case, tag, message=message, **({"type": kind} if kind else {}))
    element.text = text


def _details(f: dict[str, Any]) -> str:
    lines = [who_and_when(f), f"found by: {', '.join(oracles(f))}",
             *([f"decided by: {f['decided_by']}"] if f.get("decided_by") else []),
             f"evidence: events {', '.join(map(str, f.get('evidence', ()))) or '-'}"]
    if f.get("scenario_id"):
        lines.append(f"reproduced by: {f['scenario_id']}")
    if f.get("input"):
        lines.append(f"input: {f['input']}")
    return "\n".join(lines)
