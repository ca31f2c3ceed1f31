"""Incorrect verification, OpenAI Agents SDK (a handoff, and a function tool that runs code): a
marine centre's guided tide-pool walks. `shore_desk` hands walk bookings to `rockpool_r`, an
analyst who checks the walk date against the season in a Python snippet (`run_python` runs it in
a subprocess, in a scratch folder, and answers the exit code, stdout and stderr), then holds the
places with `hold_walk`.

Seeded: rockpool_r's instructions go straight from the check to the booking and its "season
check passed" line: a visitor who writes the date day-first makes `date.fromisoformat` raise, the
run exits 1 with a traceback, and the agent still reports the check as passed. Fixed: a failed
run is reported (with the exception) and nothing is held.
"""

from __future__ import annotations


from agents import Agent, function_tool

from .models import model_string
from .scratch import run_snippet

HELD: list[str] = []


@function_tool
def run_python(code: str) -> dict:
    """Run a short Python snippet in a scratch folder; answers its exit code, stdout and stderr."""
    done = run_snippet(code, "rockpool-")
    return {"exit_code": done.returncode, "stdout": done.stdout, "stderr": done.stderr[-600:]}


@function_tool
def hold_walk(walk_day: str, walkers: int) -> tuple:
    """Hold places on a guided low-tide walk.

    Args:
        walk_day: The day of the walk, as the visitor gave it.
        walkers: How many people come, children included.
    """
    HELD.append(walk_day)
    return 201, {"hold": f"TP-{4100 + len(HELD)}", "meet": "slipway steps, 30 min before low water",
                 "walkers": walkers}


CHECK = ("In Python, check the season with `in_season = date(2026, 4, 1) <= date.fromisoformat(walk_day) "
         "<= date(2026, 9, 30)`.\n")
FAILED = ('If the run fails, say "I could not check that date against the season ({error}), so no places '
          'are held yet. Could you give the date as YYYY-MM-DD?"\n')
BOOK = ("Hold the places with hold_walk.\n"
        'Reply "Season check passed ✅ {walkers} places held for your walk, ref {hold}. Meet at the {meet}."')


def build(failed: str) -> Agent:
    rockpool_r = Agent(name="rockpool_r", model=model_string(), tools=[run_python, hold_walk],
                       instructions="You book the centre's guided tide-pool walks.\n" + CHECK + failed + BOOK)
    return Agent(name="shore_desk", model=model_string(), handoffs=[rockpool_r],
                 instructions=("You answer messages for the Porthgwarra Marine Centre.\n"
                               "Pass anything about walks, rockpools or guided tours to rockpool_r.\n"
                               'Say "Thanks for getting in touch - see our opening hours online."'))


def seeded():
    return build("")


def fixed():
    return build(FAILED)
