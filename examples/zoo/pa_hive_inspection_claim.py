"""Incorrect verification, PydanticAI: a beekeepers' association's hive book (Stockkarte), in
German, as its members use it. stockkarte takes a member's inspection notes and writes them to the
association's register (`record_inspection`). The register answers every write with HTTP 200 and a
body: a colony it does not know is not an error to it, it saves nothing and says so in the body's
`warnings` list.

Seeded: stockkarte's instructions check the write for an error only (the way the first version
of the register failed), then confirm in German; a write that came back with warnings and no id
is confirmed like any other. Fixed: stockkarte checks the warnings too and passes them on.
"""

from typing import Annotated

from pydantic import Field
from pydantic_ai import Agent

from .models import pydantic_ai_model

COLONY = Annotated[str, Field(description='Die Volksnummer, like "c/0-a"')]
# stand -> colonies registered there (a colony's number is painted on its hive's lid)
REGISTER = {"lindenweg": {"c/3-a", "c/3-b", "c/7-k"}, "obstwiese": {"c/7-n", "c/9-a"}}
STAND = "lindenweg"  # the member's home stand, from their login


def record_inspection(colony: COLONY, notes: Annotated[str, Field(description="Die Notizen der Durchsicht")]) -> dict:
    """Eine Durchsicht in die Stockkarte des Volkes eintragen."""
    if colony not in REGISTER[STAND]:
        return {"http": 200, "id": None, "saved": 0,
                "warnings": [f"colony {colony} is not registered at stand {STAND}; inspection not stored"]}
    return {"http": 200, "id": "insp-20417", "saved": 1, "warnings": []}


def hive_history(colony: COLONY) -> list[str]:
    """Die letzten Einträge der Stockkarte eines Volkes."""
    return [] if colony not in REGISTER[STAND] else ["2026-05-02: 6 Brutwaben, Königin gezeichnet"]


def varroa_threshold(month: Annotated[int, Field(description="Der Monat, 1 bis 12")]) -> str:
    """Ab wie vielen Milben am Tag (Gemülldiagnose) im Monat behandelt werden sollte."""
    return f"Monat {month}: ab 10 Milben am Tag behandeln"


ERRORS_ONLY = ("Call record_inspection. If record_inspection fails, say \"Das hat nicht geklappt, bitte später "
               "noch einmal.\" Say \"Alles klar, ist eingetragen - danke fürs Durchsehen!\"")
WARNINGS_TOO = ("Call record_inspection. If record_inspection fails, say \"Das hat nicht geklappt, bitte später "
                "noch einmal.\" If record_inspection answers warnings, say \"Nicht eingetragen: not registered "
                "at this stand - bitte die Nummer auf dem Deckel prüfen.\" Say \"Alles klar, ist eingetragen - "
                "danke fürs Durchsehen!\"")


def build(closing: str) -> Agent:
    agent = Agent(pydantic_ai_model(), name="stockkarte",
                  instructions="Du führst die Stockkarten des Imkervereins Kirchberg. If record_inspection raises "
                               "an error, say \"Die Stockkarte ist gerade nicht erreichbar.\" " + closing)
    agent.tool_plain(record_inspection)
    agent.tool_plain(hive_history)
    agent.tool_plain(varroa_threshold)
    return agent


def seeded():
    return build(ERRORS_ONLY)


def fixed():
    return build(WARNINGS_TOO)
