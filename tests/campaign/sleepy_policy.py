"""A scripted model that answers like a slow hosted one: every call waits 100 ms (an awaited
sleep, as a network round trip waits), then answers as the customer-service desk's policy does
from the conversation (the triage agent hands seat changes over, the seat booking agent calls
`update_seat`, ...).

It counts the calls in flight, across processes (worker processes each load it): with
SLEEPY_POLICY_DIR naming a folder, each call holds a file there while it waits and appends how
many it saw to `seen.log`, so a test reads how many overlapped.

    --sut-model scripted/tests/campaign/sleepy_policy.py:policy
"""

from __future__ import annotations

import asyncio
import itertools
import os
from pathlib import Path

from masfuzz.loader import load_target

DELAY = 0.1  # seconds per model call
DELAY_ENV = "SLEEPY_POLICY_DELAY"  # a test that compares runs' times waits longer, beyond a loaded machine's noise
DESK = load_target(f"{Path(__file__).resolve().parents[2]}/examples/customer_service/policy.py:policy").obj
FOLDER_ENV = "SLEEPY_POLICY_DIR"
_ids = itertools.count()


async def policy(request):
    folder = os.environ.get(FOLDER_ENV)
    mark = None
    if folder:
        mark = os.path.join(folder, f"call-{os.getpid()}-{next(_ids)}")
        open(mark, "w").close()
        seen = sum(1 for name in os.listdir(folder) if name.startswith("call-"))
        with open(os.path.join(folder, "seen.log"), "a") as log:
            log.write(f"{seen}\n")
    try:
        await asyncio.sleep(float(os.environ.get(DELAY_ENV, DELAY)))
        return DESK(request)
    finally:
        if mark is not None:
            os.remove(mark)


def most_in_flight(folder: str | os.PathLike[str]) -> int:
    """The most calls in flight any call saw (0: none was made)."""
    log = Path(folder) / "seen.log"
    return max((int(n) for n in log.read_text().split()), default=0) if log.exists() else 0
