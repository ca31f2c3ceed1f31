"""Tool specification mismatch, PydanticAI agent delegation (the `usage` passed on): a stained
glass studio's evening classes. `desk` answers enquiries and puts each enrolment to the tutor
agent through its `ask_tutor` tool, with a task description of its own; the tutor enrols the
learner on a course with `enrol_course`, whose start date is documented the way the studio's
printed timetable writes it, "14.08.2026".

Seeded: `enrol_course` still parses the start date with the booking system's old export format,
day/month/year with slashes, so the dotted date its own documentation asks for is answered
`{"accepted": False, "code": 422, ...}` and the tutor reports the enrolment not made. Fixed: the
dotted form is parsed.
"""

from __future__ import annotations

from datetime import datetime

from pydantic_ai import Agent, RunContext

from .models import pydantic_ai_model

COURSES = {"2026-09-08": ("Leaded lights for beginners, 6 Tuesdays 18:30-21:00", 4)}


def make_enrol(date_format: str):
    def enrol_course(start_date: str, learners: int) -> dict:
        """Enrol learners on the evening course that starts on a day.

        Args:
            start_date: The course's first evening, as the timetable prints it, e.g. "14.08.2026".
            learners: How many learners to enrol.
        """
        try:
            day = datetime.strptime(start_date, date_format).date().isoformat()
        except ValueError:
            return {"accepted": False, "code": 422, "fout": f"startdatum '{start_date}' niet leesbaar"}
        course = COURSES.get(day)
        if course is None:
            return {"accepted": False, "code": 404, "detail": f"no course starts on {day}"}
        title, places = course
        if learners > places:
            return {"accepted": False, "code": 409, "detail": f"only {places} places left on {title}"}
        return {"accepted": True, "code": 201, "course": title, "places_left": places - learners,
                "materials": "£45 per learner, paid on the first evening"}
    return enrol_course


def build(date_format: str) -> Agent:
    tutor = Agent(pydantic_ai_model(), name="tutor_f", instructions=(
        "You run the evening classes at Lumen Glass Studio, Bristol.\n"
        "Enrol the learners with enrol_course.\n"
        'If enrol_course raises an error, say "The class list is offline; we will confirm your places by email."\n'
        "In your summary, mark a step ✅ only when its result says it went through; otherwise ❌ with the reason."))
    tutor.tool_plain(make_enrol(date_format))
    desk = Agent(pydantic_ai_model(), name="desk", instructions=(
        "You answer enquiries to Lumen Glass Studio, Bristol.\n"
        "Put each enrolment to the tutor with ask_tutor, giving the start date and how many learners.\n"
        'If ask_tutor raises an error, say "Sorry, the studio is not reachable just now; we will email you."\n'
        "Mark each step in your summary by what the tutor reported."))

    @desk.tool
    async def ask_tutor(ctx: RunContext, task: str) -> str:
        """Ask the tutor to enrol learners on a course.

        Args:
            task: What the tutor is asked to do, with the details it needs.
        """
        result = await tutor.run(task, usage=ctx.usage)
        return result.output

    return desk


def seeded():
    return build("%d/%m/%Y")


def fixed():
    return build("%d.%m.%Y")
