"""The workflow specification: types, manifest I/O, well-formedness, and its mutants (`mutants`:
the workflow mutation operators, which the adapters apply and `masfuzz.mutate` scores)."""

from masfuzz.spec.manifest import dump_manifest, is_manifest_path, load_manifest, parse_manifest
from masfuzz.spec.model import (
    SPEC_FORMAT_VERSION,
    AgentSpec,
    Delegation,
    Permissions,
    SourceLocation,
    SystemInfo,
    Termination,
    ToolSpec,
    WorkflowSpec,
)
from masfuzz.spec.validate import check, validate

__all__ = [
    "SPEC_FORMAT_VERSION", "AgentSpec", "Delegation", "Permissions", "SourceLocation",
    "SystemInfo", "Termination", "ToolSpec", "WorkflowSpec", "check", "dump_manifest",
    "is_manifest_path", "load_manifest", "parse_manifest", "validate",
]
