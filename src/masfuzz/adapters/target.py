"""Open what the user named — a manifest file or a Python target — as a system under test."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from masfuzz.adapters.base import Adapter, resolve
from masfuzz.adapters.loader import load_target
from masfuzz.adapters.orchestration import Orchestration, assemble, needed
from masfuzz.errors import TargetError
from masfuzz.spec.manifest import is_manifest_path, load_manifest
from masfuzz.spec.model import WorkflowSpec
from masfuzz.spec.validate import validate


@dataclass
class SystemUnderTest:
    target: str
    spec: WorkflowSpec
    obj: Any  # the framework object (or the spec itself for a manifest)
    adapter: Adapter | None  # None until something needs to run it (manifests load lazily)

    def runner(self) -> Adapter:
        if self.adapter is None:
            from masfuzz.adapters.manifest import ADAPTER  # materialises the manifest

            self.adapter = ADAPTER()
        return self.adapter


def open_target(target: str, orchestration: Orchestration | None = None, *,
                coordinator: str | None = None, links: tuple[str, ...] = ()) -> SystemUnderTest:
    """`orchestration` (or `coordinator=`, `links=["a->b"]`) supplies the graph of an app that
    orchestrates Agents SDK agents in plain Python; `file.py:a,b,c` alone implies a
    coordinator."""
    if coordinator or links:
        orchestration = Orchestration.parse(coordinator, links)
    if is_manifest_path(target):
        if orchestration:
            raise TargetError(f"{target}: a manifest states its own graph; --coordinator and "
                              "--link apply to Python targets (edit the manifest instead)")
        spec = load_manifest(target)
        return SystemUnderTest(target, spec, spec, None)
    notes: list[str] = []
    if needed(target, orchestration):
        entry, notes = assemble(target, orchestration)
    else:
        entry = load_target(target).obj
    adapter, obj = resolve(entry, target)
    spec = validate(adapter.extract(obj, target=target), target)
    if notes:
        spec = spec.model_copy(update={"notes": tuple(dict.fromkeys((*spec.notes, *notes)))})
    return SystemUnderTest(target, spec, obj, adapter)
