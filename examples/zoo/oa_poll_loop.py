"""Repetitive execution, Agents SDK: the reports agent polls an export job until it is READY,
and the status tool never finds the job, so the agent polls again and again until the turn limit.

Seeded: `export_status` looks the job up under a lower-cased id while `start_export` stored it
as given. Fixed: both use the id as given.
"""

from __future__ import annotations

from agents import Agent, function_tool

from .exports import Exports


def make_tools(normalise):
    exports = Exports(normalise)

    @function_tool
    def start_export(report: str) -> str:
        """Start exporting a report as a CSV file.

        Args:
            report: The report's name, like "sales-2025-q1".
        """
        return exports.start(report)

    @function_tool
    def export_status(job_id: str) -> str:
        """The status of an export job: PENDING, or READY with the file's link.

        Args:
            job_id: The job's id, like "JOB-7".
        """
        return exports.status(job_id)

    return [start_export, export_status]


def build(normalise) -> Agent:
    reports = Agent(name="Reports Agent", handoff_description="Exports reports.", tools=make_tools(normalise),
                    instructions="You export reports. Call start_export. Call export_status until it says "
                    "READY. Report the result of export_status.")
    return Agent(name="Front Desk", handoffs=[reports],
                 instructions="You help analysts. Hand off to reports_agent when the request mentions "
                 "export or report. Say \"What do you need?\"")


seeded = build(str.lower)
fixed = build(str)
