"""The template tester, except that every third call never answers in time (a slow provider
on a busy machine): `cover` must record those and go on."""

import asyncio
import importlib.util
from pathlib import Path

_spec = importlib.util.spec_from_file_location(
    "template_tester", Path(__file__).resolve().parents[2] / "examples" / "testers" / "template_tester.py")
_module = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_module)
template = _module.policy

CALLS = {"n": 0}


async def policy(request):
    CALLS["n"] += 1
    if CALLS["n"] % 3 == 0:
        await asyncio.sleep(30)  # far past --model-timeout
    return template(request)
