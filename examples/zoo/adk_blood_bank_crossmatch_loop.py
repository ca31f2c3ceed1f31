"""Loop, Google ADK `SequentialAgent`: a hospital blood bank's chat with the wards. A request for
blood goes through two agents in turn: `xm_watch` waits for the patient's crossmatch on the
analyser (`crossmatch_status`), then `issue_b` issues the crossmatched units to the ward's porter
(`issue_units`). The analyser's client library streams a sample's progress as a generator,
`Analyser.watch(sample)`: each `next` is the analyser's next report.

Seeded: `crossmatch_status` opens a new watch on every call and reads its first report, so it
answers "incubating" for ever and xm_watch, told to check until the crossmatch is compatible,
checks until ADK's call limit ends the run. Fixed: the tool keeps each sample's watch open
between calls.
"""

from collections.abc import Iterator
from typing import Annotated

from google.adk.agents import LlmAgent, SequentialAgent
from pydantic import Field

from .models import adk_model

SAMPLE = Annotated[str, Field(description='The crossmatch sample number on the request form, like "XM-1000"')]


class Analyser:
    """The blood bank analyser's client: a sample's reports, one per `next`."""

    REPORTS = ("incubating at 37 C, antiglobulin phase, about 20 minutes left",
               "compatible: 2 units O RhD negative crossmatched and labelled")

    def watch(self, sample: str) -> Iterator[str]:
        for report in self.REPORTS:
            yield f"{sample}: {report}"
        while True:
            yield f"{sample}: {self.REPORTS[-1]}"


def status_tool(keep_watch_open: bool):
    analyser = Analyser()
    open_watches: dict[str, Iterator[str]] = {}

    def crossmatch_status(sample: SAMPLE) -> str:
        """The analyser's latest report on a crossmatch sample."""
        if keep_watch_open:
            watch = open_watches.setdefault(sample, analyser.watch(sample))
        else:
            watch = analyser.watch(sample)
        return next(watch)

    return crossmatch_status


def issue_units(sample: SAMPLE) -> dict:
    """Issue a crossmatched sample's units to the ward's porter."""
    return {"sample": sample, "issued": 2, "component": "red cells, O RhD negative",
            "collect_from": "blood bank hatch, level 1", "transfuse_within": "4 hours of leaving the fridge"}


XM_WATCH = """You watch crossmatches on the blood bank analyser for the wards of St Cuthbert's.
Call crossmatch_status until it says compatible.
If crossmatch_status raises an error, say "The analyser link is down - ring the blood bank on 4417 for the crossmatch."
Report the result of crossmatch_status."""

ISSUE_B = """You issue crossmatched blood to the wards.
Call issue_units.
If issue_units raises an error, say "The issue system is down - a BMS will issue the units by hand."
Report the result of issue_units."""


def build(keep_watch_open: bool) -> SequentialAgent:
    xm_watch = LlmAgent(name="xm_watch", model=adk_model(), instruction=XM_WATCH,
                        description="Waits for crossmatch results.", tools=[status_tool(keep_watch_open)])
    issue_b = LlmAgent(name="issue_b", model=adk_model(), instruction=ISSUE_B,
                       description="Issues crossmatched units.", tools=[issue_units])
    return SequentialAgent(name="blood_request", sub_agents=[xm_watch, issue_b],
                           description="A ward's request for crossmatched blood.")


def seeded():
    return build(keep_watch_open=False)


def fixed():
    return build(keep_watch_open=True)
