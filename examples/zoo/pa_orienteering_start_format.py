"""Tool specification mismatch, PydanticAI (agent delegation through a tool, `ModelRetry`, a tool
that runs code): an orienteering club's Saturday event. `entries_e` answers the club inbox and
passes entries to `control_c` (an agent run inside the `ask_control` tool, sharing the run's
usage, as PydanticAI's multi-agent docs show). control_c works the entry fee out in a Python
snippet (`run_snippet`, a subprocess in a scratch folder) and enters the runners with
`enter_course`, whose docstring asks for the start time on the 24-hour clock, "like '10:42'".

Seeded: `enter_course` parses the time with "%H%M" (the timing software's own export format),
so the "10:45" it documents makes it raise `ModelRetry`, every time. Fixed: it parses "%H:%M".
"""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic_ai import Agent, ModelRetry, RunContext

from . import scratch
from .models import pydantic_ai_model


def run_snippet(code: str) -> dict:
    """Run a short Python snippet in a scratch folder; answers its exit code and output.

    Args:
        code: The Python source to run.
    """
    done = scratch.run_snippet(code, "control-")
    return {"returncode": done.returncode, "stdout": done.stdout, "stderr": done.stderr[-600:]}


def make_enter_course(time_format: str):
    def enter_course(course: Literal["white", "yellow", "orange", "light green"], start_time: str,
                     runners: int, fee: float) -> dict:
        """Enter runners on a course at Saturday's event at Ashridge.

        Args:
            course: The colour-coded course (white and yellow for juniors and beginners).
            start_time: The start time asked for, 24-hour clock, like "10:42".
            runners: How many runners go round together.
            fee: The entry fee worked out for the group, in pounds.
        """
        try:
            slot = datetime.strptime(start_time, time_format)
        except ValueError:
            raise ModelRetry(f"start_time {start_time!r} is not a start time the timing system can read") from None
        return {"entry": {"id": f"OR-{slot:%H%M}-{runners}", "course": course, "start": f"{slot:%H:%M}"},
                "kit": "SI dibbers handed out at registration", "fee_due": fee}
    return enter_course


CONTROL = """You enter runners for Chiltern Orienteers' Saturday event.
In Python, work out `fee = 6.0 * runners + 1.5 * dibbers` (entry per runner, plus SI dibber hire).
Enter them with enter_course.
If enter_course says invalid, cannot or not a start time, say "The timing system would not take that start time, so you are not entered yet - sorry."
Reply "Computed fee: £{fee}. Entered on {course} at {start}, entry {id}."
"""

ENTRIES = """You answer Chiltern Orienteers' inbox.
Pass any entry, course or start-time request to ask_control.
Pass on what ask_control said.
"""


def build(time_format: str) -> Agent:
    control_c = Agent(pydantic_ai_model(), name="control_c", instructions=CONTROL)
    control_c.tool_plain(run_snippet)
    control_c.tool_plain(make_enter_course(time_format))
    entries_e = Agent(pydantic_ai_model(), name="entries_e", instructions=ENTRIES)

    @entries_e.tool
    async def ask_control(ctx: RunContext[None], request: str) -> str:
        """Ask the entries controller to enter runners: pass the runner's request as written."""
        result = await control_c.run(request, usage=ctx.usage)
        return result.output

    return entries_e


def seeded():
    return build("%H%M")


def fixed():
    return build("%H:%M")
