"""Loop, OpenAI Agents SDK (desks made from one template with `Agent.clone`, the press desk's run
ended by `StopAtTools` once it releases a book): a bookbinder's workshop. `bindery` hands
questions about a binding job to `press_b`, which waits for the glue on the spine to cure with
`glue_cure` and then takes the book out of the press with `release_from_press`.

Seeded: glue_cure looks the job up in the press book by its upper-cased number, but the
press-room tablet writes job numbers in lower case: it never finds the entry, answers WAITING
("not in the press book yet") for ever, and press_b, told to check until it says CURED, asks again
to the turn limit. Fixed: glue_cure looks the job up the way the tablet writes it. In both, a job
found in the press but still curing comes back WAITING with the hour it will be ready, and a line
gives that answer to the customer: a job glued this morning is no reason to ask again all day;
a number on no order book (NO_SUCH_JOB) is no job to wait for either.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from agents import Agent, StopAtTools, function_tool

from .models import model_string

NOW = datetime(2026, 3, 9, 10, 0)
PRESS_BOOK = {"bk-2231": datetime(2026, 3, 8, 16, 30), "bk-2240": datetime(2026, 3, 9, 8, 0)}  # as the tablet writes them
JOBS = {"bk-2231", "bk-2240"}  # the order book: every job taken in
CURE_HOURS = 12
RELEASED: list[str] = []


def make_glue_cure(press_key):
    @function_tool
    def glue_cure(job: str) -> dict:
        """How far the spine glue of a job in the nipping press has cured.

        Args:
            job: The binding job number, e.g. "BK-0000".
        """
        if job.lower() not in JOBS:
            return {"state": "NO_SUCH_JOB", "detail": {"note": f"no binding job {job} on the order book"}}
        glued = PRESS_BOOK.get(press_key(job))
        if glued is None:
            return {"state": "WAITING", "detail": {"hours_in_press": 0, "note": "noch nicht im Pressbuch - not in the press book yet"}}
        hours = (NOW - glued).total_seconds() / 3600
        if hours < CURE_HOURS:
            ready = glued + timedelta(hours=CURE_HOURS)
            return {"state": "WAITING", "detail": {"hours_in_press": round(hours, 1), "ready_at": f"{ready:%H:%M}"}}
        return {"state": "CURED", "detail": {"hours_in_press": round(hours, 1)}}
    return glue_cure


@function_tool
def release_from_press(job: str) -> str:
    """Take a job out of the nipping press and put it on the collection shelf.

    Args:
        job: The binding job number, e.g. "BK-0000".
    """
    RELEASED.append(job)
    return f"{job} out of the press, on shelf C{len(RELEASED)}; collection from 14:00, balance £38 on collection."


DESK = Agent(name="desk", model=model_string(), instructions="You work at Quire & Thread Bookbinders, Norwich.")


def build(press_key) -> Agent:
    press_b = DESK.clone(
        name="press_b", tools=[make_glue_cure(press_key), release_from_press],
        tool_use_behavior=StopAtTools(stop_at_tool_names=["release_from_press"]),
        instructions=("You run the nipping press at Quire & Thread Bookbinders.\n"
                      "If glue_cure says NO_SUCH_JOB, ask the customer to check the job number on their receipt.\n"
                      "If glue_cure returns ready_at, tell the customer the glue is still curing and when "
                      "the book will be ready.\n"
                      "Check the spine glue with glue_cure until it says CURED.\n"
                      "Then take the book out with release_from_press."))
    return DESK.clone(
        name="bindery", handoffs=[press_b],
        instructions=("You answer customers at Quire & Thread Bookbinders, Norwich.\n"
                      "Hand over to press_b for collections or binding jobs."))


def seeded():
    return build(str.upper)


def fixed():
    return build(str.lower)
