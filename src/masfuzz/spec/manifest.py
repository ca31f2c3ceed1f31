"""The manifest file: a `WorkflowSpec` written as YAML or JSON (the paper's Listing 1 shape).

Reading never raises anything but `SpecError`, whose one line names the file, the field and,
for YAML, the line. Writing emits the canonical form, which reads back to an identical spec.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from masfuzz.errors import SpecError
from masfuzz.safeload import load_json, load_yaml
from masfuzz.spec.model import SPEC_FORMAT_VERSION, WorkflowSpec
from masfuzz.spec.validate import validate

MANIFEST_SUFFIXES = (".yaml", ".yml", ".json")


def is_manifest_path(target: str) -> bool:
    return target.lower().endswith(MANIFEST_SUFFIXES) and ":" not in Path(target).name


def load_manifest(path: str | Path) -> WorkflowSpec:
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise SpecError(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise SpecError(f"{path}: cannot read: {exc}") from None
    return parse_manifest(text, str(path))


def parse_manifest(text: str, source: str = "manifest") -> WorkflowSpec:
    lines: dict[tuple, int] = {}
    if source.lower().endswith(".json"):
        try:
            data = load_json(text)
        except json.JSONDecodeError as exc:
            raise SpecError(f"{source}:{exc.lineno}: invalid JSON: {exc.msg}") from None
    else:
        try:
            data, node = load_yaml(text)  # aliases and depth bounded
        except yaml.YAMLError as exc:
            mark = getattr(exc, "problem_mark", None)
            where = f":{mark.line + 1}" if mark is not None else ""
            problem = getattr(exc, "problem", None) or str(exc)
            raise SpecError(f"{source}{where}: invalid YAML: {problem}") from None
        if node is not None:
            _index_lines(node, (), lines)
    if not isinstance(data, dict):
        raise SpecError(f"{source}: a manifest must be a mapping with 'system' and 'agents'")
    version = data.get("format_version", SPEC_FORMAT_VERSION)
    if version != SPEC_FORMAT_VERSION:
        raise SpecError(
            f"{source}: format_version {version!r} is not supported (this masfuzz reads "
            f"{SPEC_FORMAT_VERSION})"
        )
    try:
        spec = WorkflowSpec.model_validate(_normalise(data))
    except ValidationError as exc:
        err = exc.errors()[0]
        loc = tuple(err["loc"])
        line = _nearest_line(lines, loc)
        where = f"{source}:{line}" if line else source
        raise SpecError(f"{where}: {_dotted(loc)}: {err['msg']}") from None
    return validate(spec, source)


def _normalise(data: dict[str, Any]) -> dict[str, Any]:
    """Accept Listing 1's shorthand: agents and tools may be bare ids instead of mappings."""
    out = dict(data)
    for key in ("agents", "tools"):
        items = out.get(key)
        if isinstance(items, list):
            out[key] = [{"id": it} if isinstance(it, str) else it for it in items]
    return out


def _index_lines(node: yaml.Node, path: tuple, out: dict[tuple, int]) -> None:
    out[path] = node.start_mark.line + 1
    if isinstance(node, yaml.MappingNode):
        for k, v in node.value:
            _index_lines(v, path + (k.value,), out)
    elif isinstance(node, yaml.SequenceNode):
        for i, v in enumerate(node.value):
            _index_lines(v, path + (i,), out)


def _nearest_line(lines: dict[tuple, int], loc: tuple) -> int | None:
    loc = tuple("from" if p == "from_" else p for p in loc)
    while loc:
        if loc in lines:
            return lines[loc]
        loc = loc[:-1]
    return None


def _dotted(loc: tuple) -> str:
    out = ""
    for p in loc:
        if p == "from_":
            p = "from"
        out += f"[{p}]" if isinstance(p, int) else (f".{p}" if out else str(p))
    return out or "manifest"


def spec_to_data(spec: WorkflowSpec) -> dict[str, Any]:
    """The canonical manifest mapping: Listing 1's layout, empty fields left out."""
    data = spec.model_dump(mode="json", by_alias=True, exclude_defaults=True)
    data = {"format_version": SPEC_FORMAT_VERSION, **data}
    perms = data.get("permissions", {})
    for kind in ("allow", "restrict"):
        if kind in perms:
            perms[kind] = [list(p) for p in perms[kind]]
    return data


def dump_manifest(spec: WorkflowSpec, fmt: str = "yaml") -> str:
    data = spec_to_data(spec)
    if fmt == "json":
        return json.dumps(data, indent=2) + "\n"
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=100)
