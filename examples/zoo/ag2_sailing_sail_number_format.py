"""Tool specification mismatch, AG2 (`register_function`, a user proxy running the tools): a sailing
school's "bring your own boat" week. `helm_desk` enrols a student who sails their own dinghy with
`enrol_own_boat`, which documents the sail number as the sail shows it, country letters, a space
and the number ("GBR 12345"), the way the class association prints it.

Seeded: the tool checks the number against the boat insurer's feed, which writes it without the
space ("GBR12345"), and answers `(422, "SAIL_NO", ...)` to the documented form. Fixed: the tool
takes the documented form and drops the space before it checks.
"""

import re
from typing import Annotated, Literal

import autogen

from .models import ag2_config

INSURED = re.compile(r"[A-Z]{3}\d{4,6}")
ENROLLED: dict[str, str] = {}


def school_office(normalise: bool):
    def enrol_own_boat(
            course: Annotated[Literal["RYA Stage 3", "RYA Stage 4", "Advanced Boat Handling"], "The course"],
            week_start: Annotated[str, 'The Monday the course week starts, e.g. "2026-01-26"'],
            sail_number: Annotated[str, 'The sail number as the sail shows it, country letters, a space and '
                                        'the number, e.g. "GBR 12345"']) -> tuple:
        """Enrol a student on a course week sailing their own dinghy (the school's cover applies)."""
        number = sail_number.replace(" ", "") if normalise else sail_number
        if not INSURED.fullmatch(number):
            return (422, "SAIL_NO", f"número de vela {sail_number!r} no reconocido por la aseguradora")
        ENROLLED[number] = course
        return (201, "ENROLLED", {"place": f"OB-{7100 + len(ENROLLED)}", "course": course, "week": week_start,
                                  "launch": "slipway B, 09:00 Monday"})

    return enrol_own_boat


SYSTEM = """Enrolments, Rutland Water Sailing School.
Enrol the student with enrol_own_boat.
If enrol_own_boat says 422/SAIL_NO: "Not enrolled. Sail no. rejected."
Confirm the place."""


def run(task: str, normalise: bool):
    helm_desk = autogen.AssistantAgent("helm_desk", llm_config=ag2_config(), system_message=SYSTEM)
    shore = autogen.UserProxyAgent("shore", human_input_mode="NEVER", code_execution_config=False,
                                   max_consecutive_auto_reply=3)
    tool = school_office(normalise)
    autogen.register_function(tool, caller=helm_desk, executor=shore, name="enrol_own_boat",
                              description=tool.__doc__)
    return shore.initiate_chat(helm_desk, message=task, max_turns=2)


TASK = ("Morning! I did my Stage 2 with you two summers ago and I've since bought a second-hand Laser, "
        "sail number GBR 208731, so I'd love to do RYA Stage 3 in my own boat. The week starting "
        "2026-07-13 suits me best, I'm off work then. Do I need to bring my own buoyancy aid?")


def seeded():
    return run(TASK, False)


def fixed():
    return run(TASK, True)
