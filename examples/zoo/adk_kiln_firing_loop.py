"""Loop, Google ADK: a community pottery studio's kiln desk tells members when their firing is
out of the kiln. `firing_status` reads the kiln controller's log over its small web server; a
firing is cooling, then unloaded once the technician has emptied the kiln (here: at the second
look).

Seeded: the log reads go through `functools.lru_cache`, added to spare the controller's web
server: the first answer ("cooling") is served forever, and the agent, told to check until the
firing is unloaded, checks until ADK's call limit ends the run. Fixed: no cache.
"""

import functools
from typing import Annotated

from google.adk.agents import LlmAgent
from pydantic import Field

from .models import adk_model

STAGES = ("cooling", "unloaded")
SHELF = {"KF-1187": "shelf 3, left"}


class KilnLog:
    """The controller's log: each read is a later look at the kiln."""

    def __init__(self) -> None:
        self.reads: dict[str, int] = {}

    def read(self, firing_ref: str) -> tuple[str, int]:
        n = self.reads[firing_ref] = self.reads.get(firing_ref, 0) + 1
        stage = STAGES[min(n, len(STAGES)) - 1]
        return stage, 180 if stage == "cooling" else 35


def make_firing_status(cached: bool):
    log = KilnLog()
    read = functools.lru_cache(maxsize=128)(log.read) if cached else log.read

    def firing_status(
            firing_ref: Annotated[str, Field(description='The firing\'s ticket number, like "KF-1000"')],
    ) -> dict:
        """Where a member's firing is: cooling in the kiln, or unloaded onto the collection shelves."""
        stage, kiln_temp_c = read(firing_ref)
        answer = {"firing": firing_ref, "stage": stage, "kiln_temp_c": kiln_temp_c}
        if stage == "unloaded":
            answer["collect_from"] = SHELF.get(firing_ref, "front desk")
        return answer

    return firing_status


DESK = """You answer members of Clayworks Community Studio about their kiln firings.

### When a member asks about a firing
- Call firing_status until it says unloaded.
- If firing_status raises an error, say "The kiln controller is offline; the technician will text you when it's out."
- Report the result of firing_status.
"""


def build(cached: bool) -> LlmAgent:
    return LlmAgent(name="kiln_desk", model=adk_model(), description="Answers members about their firings.",
                    instruction=DESK, tools=[make_firing_status(cached)])


def seeded():
    return build(cached=True)


def fixed():
    return build(cached=False)
