"""Tool specification mismatch, Google ADK transfer: a sailing club's race office during an
autumn series. The race office transfers entries to `entries`, whose `enter_race` tool
documents the sail number as it is printed on the sail: nationality letters, a space, the
digits ("GBR 2841"). The results software the tool feeds answers in French, with an
HTTP-style status.

Seeded: the tool checks the number with a pattern written without the space, so every number
given as documented is answered 400 and the agent apologises and asks the sailor to check it.
Fixed: the pattern has the space the documentation shows.
"""

import re
from typing import Annotated

from google.adk.agents import LlmAgent
from pydantic import Field

from .models import adk_model

RACES = {"R4": "Saturday 11:25, course 3", "R5": "Saturday 14:10, course 1"}
WITHOUT_SPACE = re.compile(r"[A-Z]{3}\d{1,5}")
WITH_SPACE = re.compile(r"[A-Z]{3} \d{1,5}")


def make_enter_race(pattern: re.Pattern):
    def enter_race(
            sail_number: Annotated[str, Field(description='The sail number as printed on the sail: nationality '
                                                          'letters, a space, the digits, like "GBR 2841"')],
            race: Annotated[str, Field(description='The race of the series, like "R1"')],
    ) -> dict:
        """Enter a boat in a race of the autumn series."""
        if not pattern.fullmatch(sail_number):
            return {"status": 400, "erreur": f"numéro de voile non reconnu : {sail_number}"}
        if race not in RACES:
            return {"status": 404, "erreur": f"course inconnue : {race}"}
        return {"status": 201, "entry": f"{race}/{sail_number}", "start": RACES[race]}
    return enter_race


ENTRIES = """You take race entries for the Saltmarsh Sailing Club autumn series.
- Call enter_race.
- If enter_race raises an error, say "The results system is down; your entry is noted on paper and will be keyed in tonight."
- If enter_race answers 400, say "Sorry - the entry system didn't accept that sail number. Could you check it against your measurement certificate?"
- Report the result of enter_race.
"""


def build(pattern: re.Pattern) -> LlmAgent:
    entries = LlmAgent(name="entries", model=adk_model(), description="Enters boats in the series' races.",
                       instruction=ENTRIES, tools=[make_enter_race(pattern)])
    return LlmAgent(name="race_office", model=adk_model(), description="The race office's front desk.",
                    instruction="You run the race office of the Saltmarsh Sailing Club.\n"
                                "- Hand off to entries when the request mentions enter, entry or race.\n"
                                "- Say \"The race office is open from 09:00 on race days.\"",
                    sub_agents=[entries])


def seeded():
    return build(WITHOUT_SPACE)


def fixed():
    return build(WITH_SPACE)
