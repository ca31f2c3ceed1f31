"""Loop, Google ADK (`SequentialAgent` of two `LlmAgent`s, the first's note kept in the session
state by `output_key` and templated into the second's instruction as `{entry}`): a sheepdog
trial's entries office. `post_p` reads a handler's message and writes the entry note; `entries_e`
tells the handler when the entry is accepted, watching the secretary's entry book (SQLite, read
by `entry_status`) until it says CONFIRMED.

Seeded: `entry_status` looks the number up exactly as the secretary typed it into the book
("SD-2041") and reads an entry it cannot find as PENDING, as the paper book showed every entry
not yet written up: an entry number asked in any other form (the agents' "SD2041") is pending
for ever, and entries_e checks until ADK's call limit ends the run. Fixed: the lookup compares
numbers without case or hyphens, and an entry it cannot find answers UNKNOWN.
"""

from __future__ import annotations

import sqlite3
from typing import Annotated

from google.adk.agents import LlmAgent, SequentialAgent
from pydantic import Field

from .models import adk_model


def entry_book() -> sqlite3.Connection:
    db = sqlite3.connect(":memory:", check_same_thread=False)
    db.execute("CREATE TABLE entries (entry_no TEXT, dog TEXT, class TEXT, state TEXT)")
    db.executemany("INSERT INTO entries VALUES (?, ?, ?, ?)", [
        ("SD-2041", "Moss", "open", "CONFIRMED"), ("SD-2042", "Fly", "novice", "PENDING")])
    return db


def make_entry_status(normalised: bool):
    db = entry_book()

    def entry_status(entry_number: Annotated[str, Field(description='The entry number on the entry form, e.g. "SD-0000"')]) -> dict:
        """The trial secretary's entry book: whether an entry is accepted for the trial."""
        if normalised:
            row = db.execute("SELECT dog, class, state FROM entries WHERE REPLACE(UPPER(entry_no), '-', '') = "
                             "REPLACE(UPPER(?), '-', '')", (entry_number,)).fetchone()
            if row is None:
                return {"entry": entry_number, "state": "UNKNOWN"}
        else:
            row = db.execute("SELECT dog, class, state FROM entries WHERE entry_no = ?", (entry_number,)).fetchone()
            if row is None:
                return {"entry": entry_number, "state": "PENDING", "note": "not yet written up"}
        return {"entry": entry_number, "dog": row[0], "class": row[1], "state": row[2]}

    return entry_status


POST = """You are post_p, who opens the entries at the Ribblesdale Sheepdog Trial.
Write the entry note with entry number, dog and class."""

ENTRIES = """You are entries_e at the Ribblesdale Sheepdog Trial.
Entry note:
{entry}
If entry_status says UNKNOWN: "That entry number is not in the book - please provide: entry number (format SD-0000)."
Watch entry_status until it says CONFIRMED.
Give the table."""


def build(normalised: bool) -> SequentialAgent:
    post_p = LlmAgent(name="post_p", model=adk_model(), output_key="entry",
                      description="Opens the entries.", instruction=POST)
    entries_e = LlmAgent(name="entries_e", model=adk_model(), description="Tells handlers when an entry is accepted.",
                         instruction=ENTRIES, tools=[make_entry_status(normalised)])
    return SequentialAgent(name="trial_office", sub_agents=[post_p, entries_e])


def seeded():
    return build(False)


def fixed():
    return build(True)
