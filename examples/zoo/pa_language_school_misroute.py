"""Misrouted request, PydanticAI agent delegation (agents called from the tools of a front
agent, as in PydanticAI's multi-agent docs): a language school's front desk, `front_l`, passes
each message to one of two agents through its tools: `ask_courses` runs reg_2, who enrols
students on courses (`enrol_student`), and `ask_exams` runs exams_b, who books placement tests
and certificate exams (`book_exam`). front_l's prompt routes with one line per desk, in order;
the first that fits is the one it uses, and it passes on that desk's answer.

Seeded: the exams line was written when placement tests were the only way into a level, and its
topics include "level": a student asking to join "the B1 level" course is sent to exams_b, who
cannot enrol anyone, and the enrolment never reaches reg_2. Fixed: the exams line names exams,
placement tests and certificates only.
"""

from dataclasses import dataclass
from typing import Annotated

from pydantic import Field
from pydantic_ai import Agent, RunContext

from .models import pydantic_ai_model

STUDENT = Annotated[str, Field(description='The student number on the school card, e.g. "LS-00000"')]
COURSES = {"SP-B1-TUE": {"title": "Spanish B1, Tuesday 18:30", "places": 3}, "SP-A2-SAT": {"title": "Spanish A2, Saturday 10:00", "places": 0}}


@dataclass
class Enrolment:
    student: str
    course: str
    estado: str  # "matriculado" or "lista de espera"
    starts: str | None


def enrol_student(student: STUDENT,
                  course: Annotated[str, Field(description='The course code from the timetable, e.g. "SP-A1-MON"')]) -> Enrolment:
    """Enrol a student on a course from the term's timetable."""
    found = COURSES.get(course)
    if found is None or found["places"] <= 0:
        return Enrolment(student, course, "lista de espera", None)
    return Enrolment(student, course, "matriculado", "2026-04-14")


def book_exam(student: STUDENT,
              day: Annotated[str, Field(description='The exam day, e.g. "2026-01-31"')]) -> dict:
    """Book a placement test or a DELE certificate exam."""
    return {"student": student, "exam_day": day, "room": "Aula 3", "status": {"code": 201, "text": "booked"}}


reg_2 = Agent(pydantic_ai_model(), name="reg_2", instructions=(
    "You are the registrar of Casa Lengua language school in Bristol.\n"
    "- Enrol the student with `enrol_student`.\n"
    "- If `enrol_student` comes back with \"lista de espera\", apologise, explain that the course is full and "
    "offer another course.\n"
    "- Once `enrol_student` has answered, let the student know they are enrolled and that books are on the first evening."))
reg_2.tool_plain(enrol_student)

exams_b = Agent(pydantic_ai_model(), name="exams_b", instructions=(
    "You book placement tests and DELE exams at Casa Lengua.\n"
    "- Book the exam with `book_exam`.\n"
    "- Once `book_exam` has answered, let the student know the exam is booked."))
exams_b.tool_plain(book_exam)

ROUTING = """You are the front desk of Casa Lengua language school. Use one desk per message, the first line that fits:
- Ask `ask_exams` (only when the message mentions {exam_topics}).
- Share what `ask_exams` said.
- Ask `ask_courses` (only when the message mentions course, class, enrol, join or timetable).
- Share what `ask_courses` said.
- Otherwise reply "Thanks for your message - our office is open 10:00 to 18:00 and will get back to you."
"""


async def consult(desk: Agent, ctx: RunContext, question: str) -> str:
    """One desk's answer to the message, counted against the front desk's usage."""
    return (await desk.run(question, usage=ctx.usage)).output


def build(exam_topics: str) -> Agent:
    front_l = Agent(pydantic_ai_model(), name="front_l", instructions=ROUTING.format(exam_topics=exam_topics))

    @front_l.tool
    async def ask_courses(ctx: RunContext, question: str) -> str:
        """Pass a message about courses and enrolments to the registrar."""
        return await consult(reg_2, ctx, question)

    @front_l.tool
    async def ask_exams(ctx: RunContext, question: str) -> str:
        """Pass a message about placement tests and exams to the exams officer."""
        return await consult(exams_b, ctx, question)

    return front_l


def seeded():
    return build("exam, placement, certificate, DELE or level")


def fixed():
    return build("exam, placement, certificate or DELE")
