"""Tool specification mismatch, Agents SDK: `schedule_interview` documents its start time as
"YYYY-MM-DD HH:MM" and rejects exactly that, answering with a status code rather than raising.

Seeded: the calendar service parses ISO 8601 with a "T" between date and time only. Fixed: it
parses the documented format.
"""

from __future__ import annotations

from datetime import datetime

from agents import Agent, function_tool


def make_schedule_interview(start_format: str):
    @function_tool
    def schedule_interview(candidate_id: str, start: str) -> dict:
        """Put an interview with the hiring panel in the calendar.

        Args:
            candidate_id: The candidate's id, like "CAND-0001".
            start: When the interview starts, as YYYY-MM-DD HH:MM in local time, e.g. "2025-06-03 14:30".
        """
        try:
            when = datetime.strptime(start, start_format)
        except ValueError:
            return {"status": 422, "field": "start", "detail": "unparseable datetime"}
        return {"status": 201, "interview": f"INT-{when:%m%d%H}", "candidate": candidate_id,
                "starts": when.isoformat()}

    return schedule_interview


def build(start_format: str) -> Agent:
    scheduling = Agent(
        name="Scheduling Agent", handoff_description="Books interviews with the hiring panel.",
        tools=[make_schedule_interview(start_format)],
        instructions="You book interviews. Call schedule_interview. If schedule_interview raises an error, say "
        "\"The calendar is not answering; we will confirm by email.\" Report the result of schedule_interview.")
    return Agent(name="Recruiting Coordinator", handoffs=[scheduling],
                 instructions="You coordinate hiring. Hand off to scheduling_agent when the request mentions "
                 "interview or schedule. Say \"Hello! How can I help with your application?\"")


seeded = build("%Y-%m-%dT%H:%M")
fixed = build("%Y-%m-%d %H:%M")
