"""Plugins: what an installed package adds to masfuzz's registries through entry points.

A package declares, in its pyproject.toml, entries in the groups of `GROUPS`:

    [project.entry-points."masfuzz.detectors"]
    shouting = "my_checks:shouting"          # (trace, spec) -> list[Failure]
    [project.entry-points."masfuzz.reporters"]
    markdown = "my_reports:MarkdownReporter"  # a masfuzz.report.Reporter class

Each registry asks this module for its group's entries: the names feed the option table's
choices (`--report markdown`, a `provider/` of a model string) and the table of the built-in
ones is searched first, so a plugin never shadows a built-in name. Entry points are listed once
per process, and an entry is imported only when used (never at start-up: `masfuzz --help` runs
whatever is installed). A plugin that does not import, or is not what its group takes, is one
line naming the plugin, its package and what went wrong (a `MasfuzzError`: exit 2) when it is
used, never a traceback.
"""

from __future__ import annotations

import functools
from importlib.metadata import EntryPoint, entry_points
from typing import Any

from masfuzz.errors import MasfuzzError

# group -> what an entry of it names (said when a plugin is not that)
GROUPS = {
    "masfuzz.adapters": "a masfuzz.adapters.base.Adapter class for one more agent framework",
    "masfuzz.detectors": "a detector: a function (trace, spec) -> list[Failure]",
    "masfuzz.reporters": "a masfuzz.report.Reporter class (render(analysis, obligations=...))",
    "masfuzz.providers": "a model provider: a function (ModelSpec, **options) -> a model client",
}


class PluginError(MasfuzzError):
    """A plugin that cannot be used: one line, exit 2."""


@functools.cache
def entries(group: str) -> dict[str, EntryPoint]:
    """The entry points of `group` installed in this environment, by name (the first of a
    name wins: two packages claiming one name are told apart by nothing the user writes)."""
    if group not in GROUPS:
        raise ValueError(f"no plugin group {group!r}")
    found: dict[str, EntryPoint] = {}
    for ep in sorted(entry_points(group=group), key=lambda e: e.name):
        found.setdefault(ep.name, ep)
    return found


def names(group: str) -> tuple[str, ...]:
    """The names the plugins of `group` add (nothing imported)."""
    return tuple(entries(group))


@functools.cache
def load(group: str, name: str) -> Any:
    """The object the plugin `name` of `group` names, imported once; a plugin that does not
    load is one line (`PluginError`)."""
    ep = entries(group)[name]
    try:
        return ep.load()
    except Exception as exc:  # a broken plugin is the plugin's, said in one line
        raise PluginError(f"plugin {name!r} ({group}, {_package(ep)}): {ep.value} does not load: "
                          f"{type(exc).__name__}: {exc}") from None


def load_all(group: str) -> list[tuple[str, Any]]:
    """Every plugin of `group`, loaded (the detectors: each execution goes through them all)."""
    return [(name, load(group, name)) for name in names(group)]


def not_a(group: str, name: str, what: Any) -> PluginError:
    """The error for a plugin that loaded but is not what its group takes."""
    ep = entries(group)[name]
    return PluginError(f"plugin {name!r} ({group}, {_package(ep)}): {ep.value} is a "
                       f"{type(what).__name__}, not {GROUPS[group]}")


def _package(ep: EntryPoint) -> str:
    dist = getattr(ep, "dist", None)
    return f"from {dist.metadata['Name']} {dist.version}" if dist is not None else "from an unnamed package"
