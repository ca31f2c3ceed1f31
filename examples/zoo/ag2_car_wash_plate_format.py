"""Tool specification mismatch, AG2 (an assistant whose tool the caller's proxy runs, registered
with `register_for_llm` / `register_for_execution`): a car wash chain's subscription line.
`wm_voice` signs a car up to a monthly wash plan with `start_membership`, whose documentation asks
for the registration the way the logbook (V5C) prints it, with its space, "AB12 CDE".

Seeded: the membership system checks the registration against the pattern of its number-plate
camera feed, which reads plates without the space, and answers a nested
`{"status": {"code": 422, ...}}` with a Spanish note to the spaced registration its own
documentation shows; wm_voice tells the caller the car could not be signed up. Fixed: the space
is taken out (and the letters upper-cased) before the check, as the camera feed does.
"""

import re
from typing import Annotated, Literal

import autogen

from .models import ag2_config

PLANS = {"exterior": 14.99, "deluxe": 24.99, "ultimate": 34.99}
CAMERA_PLATE = re.compile(r"[A-Z]{2}\d{2}[A-Z]{3}")
MEMBERS: dict[str, str] = {}


def membership_system(normalise: bool):
    def start_membership(
            registration: Annotated[str, 'The car\'s registration as the logbook prints it, e.g. "AB12 CDE"'],
            plan: Annotated[Literal["exterior", "deluxe", "ultimate"], "The monthly wash plan"],
            first_wash: Annotated[str, 'The day of the first wash, e.g. "2026-01-31"']) -> dict:
        """Start a monthly wash plan for a car; the camera at the gate lets it in from the first wash."""
        plate = registration.replace(" ", "").upper() if normalise else registration
        if not CAMERA_PLATE.fullmatch(plate):
            return {"status": {"code": 422, "error": "PLATE_FORMAT",
                               "text": f"matrícula {registration!r} ilegible para la cámara"}}
        MEMBERS[plate] = plan
        return {"status": {"code": 201}, "member": f"WM{3040 + len(MEMBERS)}", "plan": plan,
                "monthly": f"£{PLANS[plan]:.2f}", "starts": first_wash, "gate": "lane 2, camera entry"}

    return start_membership


SYSTEM = """You are the voice on the Bubbles Car Wash membership line. Keep it short, the caller is listening.
Sign the car up with start_membership.
If start_membership fails, tell the caller the car could not be signed up and what the system said.
Confirm the membership to the caller."""


def run(task: str, normalise: bool):
    wm_voice = autogen.AssistantAgent("wm_voice", llm_config=ag2_config(), system_message=SYSTEM)
    caller = autogen.UserProxyAgent("caller", human_input_mode="NEVER", code_execution_config=False,
                                    max_consecutive_auto_reply=3)
    tool = membership_system(normalise)
    wm_voice.register_for_llm(name="start_membership", description=tool.__doc__)(tool)
    caller.register_for_execution(name="start_membership")(tool)
    return caller.initiate_chat(wm_voice, message=task, max_turns=2)


TASK = ("Hiya, I keep coming through your Otley Road site, so I might as well get the monthly thing. It's the "
        "deluxe one I'm after, for the blue Ford Focus, registration YK19 HVP. Can it start from Saturday, "
        "2026-05-23? My partner sometimes drives it, is that okay, or is it tied to me?")


def seeded():
    return run(TASK, False)


def fixed():
    return run(TASK, True)
