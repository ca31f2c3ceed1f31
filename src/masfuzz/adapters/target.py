"""Open what the user named — a manifest file or a Python target — as a system under test."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from masfuzz.adapters.base import Adapter, resolve
from masfuzz.adapters.loader import load_target
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


def open_target(target: str) -> SystemUnderTest:
    if is_manifest_path(target):
        spec = load_manifest(target)
        return SystemUnderTest(target, spec, spec, None)
    loaded = load_target(target)
    adapter, obj = resolve(loaded.obj, target)
    spec = validate(adapter.extract(obj, target=target), target)
    return SystemUnderTest(target, spec, obj, adapter)
