"""Loop, Google ADK (a `SequentialAgent` of a booking desk and a `LoopAgent` closed by `exit_loop`,
ADK's escalation): an alpaca farm's trek walks. `paddock_p` books the visitors onto a walk with
`join_walk`; then the halter round, a LoopAgent of `halter_h`, who checks the herd with
`herd_status` until the walk is ready and then closes the round with `exit_loop`. The yard hands
halter each alpaca and log it in the farm's SQLite halter log, which the farm's old handheld
writes with the bare walk number.

Seeded: herd_status counts the haltered alpacas with the walk's full reference ("AW-0614"), so it
finds none of the handheld's rows ("0614") and answers "waiting" for ever: halter_h, told to
check until the walk is ready, checks to the run's turn limit.
Fixed: herd_status matches the bare number the handheld writes.

Both answer `no_such_walk` for a walk not on the day's list, on which halter_h closes the round
(a herd no walk needs is never haltered: waiting for it was the fixed twin's own loop).
"""

import sqlite3
from typing import Annotated

from google.adk.agents import LlmAgent, LoopAgent, SequentialAgent
from google.adk.tools import exit_loop
from pydantic import Field

from .models import adk_model

Walk = Annotated[str, Field(description='The walk reference on the booking, e.g. "AW-0000"')]
HERD = ["Biscuit", "Pablo", "Dolly", "Mr Tumnus", "Kahlua", "Ziggy"]
WALKS_TODAY = {"0614"}  # the day's walk list, by the number the handheld writes


def halter_log() -> sqlite3.Connection:
    db = sqlite3.connect(":memory:", check_same_thread=False)
    db.execute("CREATE TABLE halters (walk TEXT, alpaca TEXT, at TEXT)")
    db.executemany("INSERT INTO halters VALUES ('0614', ?, '10:4' || ?)", [(a, i) for i, a in enumerate(HERD)])
    return db


def join_walk(walk: Walk, walkers: Annotated[int, Field(description="How many people walk")]) -> dict:
    """Put visitors on a trek walk (one alpaca per two walkers, 90 minutes, £28 a walker)."""
    return {"walk": walk, "walkers": walkers, "alpacas": -(-walkers // 2), "meet": "the red barn, 10:45"}


def build(key_of) -> SequentialAgent:
    log = halter_log()

    def herd_status(walk: Walk) -> tuple:
        """Whether the herd for a walk is haltered and ready: the walk, its state and the count."""
        if handheld_number(walk) not in WALKS_TODAY:
            return (walk, "no_such_walk", "not on today's walk list")
        (done,) = log.execute("SELECT COUNT(*) FROM halters WHERE walk = ?", (key_of(walk),)).fetchone()
        state = "ready_to_walk" if done >= len(HERD) else "waiting"
        return (walk, state, f"{done} of {len(HERD)} haltered")

    paddock_p = LlmAgent(name="paddock_p", model=adk_model(), tools=[join_walk],
                         instruction="You book the trek walks at Tor View Alpacas.\nBook the walkers on with join_walk.")
    halter_h = LlmAgent(name="halter_h", model=adk_model(), tools=[herd_status, exit_loop],
                        instruction="You get the herd ready for the walk at Tor View Alpacas.\n"
                                    "If herd_status says no_such_walk, call exit_loop.\n"
                                    "Check the herd with herd_status until it says ready_to_walk.\n"
                                    "If herd_status says ready_to_walk, call exit_loop.")
    halters = LoopAgent(name="halter_round", sub_agents=[halter_h], max_iterations=25)
    return SequentialAgent(name="trek_day", sub_agents=[paddock_p, halters])


def full_reference(walk: str) -> str:
    return walk


def handheld_number(walk: str) -> str:
    return walk.removeprefix("AW-")


def seeded():
    return build(full_reference)


def fixed():
    return build(handheld_number)
