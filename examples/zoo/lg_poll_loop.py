"""Repetitive execution, LangGraph (langgraph-supervisor): the reports agent polls an export job
until it is READY, and the status tool never finds the job, so it polls until the recursion limit.

Seeded: `export_status` looks the job up under a lower-cased id while `start_export` stored it
as given. Fixed: both use the id as given.
"""

from __future__ import annotations

from langchain_core.tools import tool
from langgraph.prebuilt import create_react_agent
from langgraph_supervisor import create_supervisor

from .exports import Exports
from .models import chat_model


def make_tools(normalise):
    exports = Exports(normalise)

    @tool(parse_docstring=True)
    def start_export(report: str) -> str:
        """Start exporting a report as a CSV file.

        Args:
            report: The report's name, like "sales-2025-q1".
        """
        return exports.start(report)

    @tool(parse_docstring=True)
    def export_status(job_id: str) -> str:
        """The status of an export job: PENDING, or READY with the file's link.

        Args:
            job_id: The job's id, like "JOB-7".
        """
        return exports.status(job_id)

    return [start_export, export_status]


def build(normalise):
    model = chat_model()
    reports = create_react_agent(model, make_tools(normalise), name="reports_agent",
                                 prompt="You export reports. Call start_export. Call export_status until it "
                                 "says READY. Report the result of export_status.")
    return create_supervisor([reports], model=model, prompt="You help analysts. Hand off to reports_agent "
                             "when the request mentions export or report. Say \"What else do you need?\"").compile()


seeded = build(str.lower)
fixed = build(str)
