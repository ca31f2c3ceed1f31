"""A scripted model that stalls: the triage agent answers at once, as the customer-service
desk's policy does (a seat change handed to the seat booking agent), and the agent it hands over
to never answers in time (it waits an hour), so masfuzz's time limit kills the run with one
model call done and one under way.

    --sut-model scripted/tests/campaign/stalling_policy.py:policy
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from masfuzz.loader import load_target

DESK = load_target(f"{Path(__file__).resolve().parents[2]}/examples/customer_service/policy.py:policy").obj


async def policy(request):
    if request.agent != "triage_agent":
        await asyncio.sleep(3600)
    return DESK(request)
