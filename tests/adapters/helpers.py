"""Helpers shared by the framework adapter tests: load a target as the CLI does, run a scenario."""

from __future__ import annotations

import asyncio

from masfuzz.adapters.base import resolve
from masfuzz.loader import load_target
from masfuzz.scenario import Scenario
from masfuzz.sutenv import sut_environment
from masfuzz.trace import DelegationEvent


def system(target):
    # inside the environment masfuzz gives the user's code (a dummy key for an app that builds its
    # provider client as it loads): without it such a test passed only after another had loaded it
    with sut_environment():
        adapter, obj = resolve(load_target(target).obj, target)
        return adapter, obj, adapter.extract(obj, target=target)


def run_scenario(target, **scenario):
    adapter, obj, spec = system(target)
    with sut_environment():
        return asyncio.run(adapter.run(obj, spec, Scenario(**scenario)))


def delegations(trace):
    return [(d.from_, d.to, d.trigger) for d in trace.of_type(DelegationEvent)]
