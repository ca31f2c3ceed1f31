"""Tool specification mismatch, Google ADK transfer: a port authority's hydrographic desk.
harbour_in reads the surveyors' messages and transfers calibration work to gauge_c, who logs a tide
gauge's datum offset, found by checking the gauge against the tide staff (`log_offset`), or notices
to mariners to notices_p.

`log_offset`'s docstring asks for the offset in metres, signed, with its unit ("-0.000 m"), as the
surveyors write it. Seeded: the gauge database moved to whole millimetres, and the tool's code
with it (`int(...)` of the number), but not its documentation: the documented form answers
`{"status": 400}`, and gauge_c says sorry and asks again. Fixed: the tool converts the metres it
documents.
"""

from typing import Annotated, Callable

from google.adk.agents import LlmAgent
from pydantic import Field

from .models import adk_model

GAUGE = Annotated[str, Field(description='The gauge, like "tg/00"')]
OFFSET = Annotated[str, Field(description='The datum offset in metres, signed, with its unit, like "-0.000 m"')]
GAUGES = {"tg/07": "Berth 3, radar", "tg/11": "Outer wall, pressure"}


def whole_mm(offset: str) -> int:
    return int(offset.split()[0])


def metres_to_mm(offset: str) -> int:
    return round(float(offset.split()[0]) * 1000)


def offset_tool(to_mm: Callable[[str], int]):
    def log_offset(gauge: GAUGE, offset: OFFSET) -> dict:
        """Log a tide gauge's datum offset against the tide staff; readings are corrected from now on.
        The offset is given in metres, signed, with its unit, e.g. "-0.035 m"."""
        if gauge not in GAUGES:
            return {"status": 404, "detail": f"no gauge {gauge}"}
        try:
            mm = to_mm(offset)
        except ValueError:
            return {"status": 400, "detail": f"offset {offset!r}: expected a whole number"}
        return {"status": 201, "gauge": gauge, "site": GAUGES[gauge], "offset_mm": mm, "applies_from": "next reading"}
    return log_offset


def gauge_history(gauge: GAUGE) -> list[dict]:
    """The offsets logged on a gauge so far."""
    return [{"logged": "2025-11-03", "offset_mm": -12}] if gauge in GAUGES else []


def next_high_water(port: Annotated[str, Field(description='The port, like "Falmouth"')]) -> str:
    """The next predicted high water at a port."""
    return f"{port}: 14:52, 4.9 m"


def issue_notice(text: Annotated[str, Field(description="The notice's text")]) -> str:
    """Issue a local notice to mariners."""
    return "notice LNTM 26/031 issued"


def build(to_mm: Callable[[str], int]) -> LlmAgent:
    gauge_c = LlmAgent(
        name="gauge_c", model=adk_model(), description="Tide gauge calibration and datum offsets.",
        instruction="you keep the port's tide gauges calibrated. If log_offset raises an error, say \"The gauge "
                    "database is down; log the offset on the paper sheet in the survey office.\" Call log_offset. "
                    "If log_offset answers 400, say \"Sorry, the gauge database would not take that offset - could "
                    "you send it again?\" Report the result of log_offset.",
        tools=[offset_tool(to_mm), gauge_history, next_high_water])
    notices_p = LlmAgent(
        name="notices_p", model=adk_model(), description="Local notices to mariners.",
        instruction="you issue local notices to mariners. Call issue_notice. Report the result of issue_notice.",
        tools=[issue_notice, next_high_water])
    return LlmAgent(
        name="harbour_in", model=adk_model(), description="The hydrographic desk's inbox.",
        instruction="you read the surveyors' messages to the hydrographic desk. Hand off to gauge_c when the "
                    "request mentions gauge, offset, datum or calibration. Hand off to notices_p when the request "
                    "mentions notice or mariners. Say \"Noted - the desk will pick this up.\"",
        sub_agents=[gauge_c, notices_p])


def seeded():
    return build(whole_mm)


def fixed():
    return build(metres_to_mm)
