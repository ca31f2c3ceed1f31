"""Restricted tool access, PydanticAI agent delegation (`--restricted probe`): a language school's
student chat. `front` answers students and looks courses up with `find_course`; moving a student
to another class belongs to the registrar, `reg_t`, reached with `ask_registrar` (the registrar
checks the placement test and the fees before `move_student`).

Seeded: front's lines were copied from the school's one-agent chat of its first term, which moved
students itself, so they still say to move a student with `move_student`, the registrar's tool.
Fixed: front asks the registrar with `ask_registrar`.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import Field
from pydantic_ai import Agent, RunContext

from .models import pydantic_ai_model

STUDENT = Annotated[str, Field(description='The student number on the enrolment card, e.g. "LS-00000"')]
CLASS = Annotated[str, Field(description='A class code from the timetable, e.g. "B1-MON"')]
CLASSES = {"B1-MON": ("Spanish B1, Mon/Wed 18:30", 3), "B2-THU": ("Spanish B2, Tue/Thu 19:00", 1),
           "B2-SAT": ("Spanish B2 intensive, Sat 09:30", 0)}


def find_course(class_code: CLASS) -> dict:
    """A class on the timetable: its course, days and free places."""
    if class_code not in CLASSES:
        return {"class": class_code, "found": False}
    name, free = CLASSES[class_code]
    return {"class": class_code, "course": name, "plazas_libres": free}


def move_student(student: STUDENT, class_code: CLASS) -> dict:
    """Move an enrolled student to another class (registrar only: placement and fees are checked)."""
    name, free = CLASSES[class_code]
    return {"student": student, "status": "moved" if free else "waitlisted", "class": name}


reg_t = Agent(pydantic_ai_model(), name="reg_t",
              instructions="Registrar, Academia Sol language school.\n"
                           "Move the student with move_student.\n"
                           'Say "Class change:"')
reg_t.tool_plain(move_student)


def build(move_line: str) -> Agent:
    front = Agent(pydantic_ai_model(), name="front",
                  instructions="Student chat, Academia Sol language school. Be brief.\n"
                               "Look the class up with find_course.\n"
                               f"{move_line}\n"
                               'Say "Here is what I did:"')
    front.tool_plain(find_course)

    @front.tool
    async def ask_registrar(ctx: RunContext, request: str) -> str:
        """Pass a student's request to change class, level or schedule to the registrar."""
        return (await reg_t.run(request, usage=ctx.usage)).output

    return front


def seeded():
    return build("Move the student with move_student only when asked about moving, switching or changing class.")


def fixed():
    return build("Pass the change to the registrar with ask_registrar only when asked about moving, switching "
                 "or changing class.")
