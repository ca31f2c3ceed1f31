"""Loop, Agents SDK: a pharmacy chain's assistant, Juno, tells patients when a repeat prescription
can be collected by asking the dispensary with `ready_check` until it answers COLLECT. The
dispensary answers an empty string for a prescription on file that is not made up yet.

Seeded: the dispensary's lookup keys prescriptions by their number without the "RX-" prefix but
looks them up with it, so every check of a prescription that is ready answers "": Juno checks
again and again until the run's turn limit. Fixed: the lookup strips the prefix it stores without.
"""

from typing import Annotated

from agents import Agent, function_tool

from .models import model_string

ON_FILE = {"RX-40721"}
READY = {"40721": "Hillside Pharmacy, after 14:00"}  # made up, by number without the prefix


def dispensary(strip_prefix: bool):
    @function_tool
    def ready_check(rx: Annotated[str, 'The prescription number, like "RX-10001"']) -> str:
        """Ask the dispensary whether a prescription is made up and where to collect it."""
        if rx not in ON_FILE:
            return f"{rx}: not on file here, so nothing to COLLECT"
        key = rx.removeprefix("RX-") if strip_prefix else rx
        if key not in READY:
            return ""  # on file, still being made up
        return f"{rx}: COLLECT at {READY[key]}"
    return ready_check


def build(strip_prefix: bool) -> Agent:
    return Agent(
        name="juno", model=model_string(),
        instructions="You help patients of Hillside Pharmacy. If ready_check raises an error, say \"The "
                     "dispensary system is not answering; please ring us on 01632 960 118.\" Call "
                     "ready_check until it says COLLECT. Report the result of ready_check.",
        tools=[dispensary(strip_prefix)])


def seeded():
    return build(False)


def fixed():
    return build(True)
