"""The tool-fuzzing tester and agent of examples/tools/policies.py, each call waiting 50 ms (or
SLOW_POLICIES_DELAY seconds) as a hosted model keeps its caller waiting; with SLOW_POLICIES_LOG
naming a file, each call appends how many calls were in flight when it started (so a test sees
whether tools overlapped)."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

from masfuzz.loader import load_target

POLICIES = Path(__file__).resolve().parents[2] / "examples" / "tools" / "policies.py"
_tester = load_target(f"{POLICIES}:tester").obj
_agent = load_target(f"{POLICIES}:agent").obj
_in_flight = [0]


async def _slow(answer, request):
    _in_flight[0] += 1
    log = os.environ.get("SLOW_POLICIES_LOG")
    if log:
        with open(log, "a") as f:
            f.write(f"{_in_flight[0]}\n")
    try:
        await asyncio.sleep(float(os.environ.get("SLOW_POLICIES_DELAY") or 0.05))
        return answer(request)
    finally:
        _in_flight[0] -= 1


async def tester(request):
    return await _slow(_tester, request)


async def agent(request):
    return await _slow(_agent, request)
