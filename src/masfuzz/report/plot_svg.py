"""Coverage over the course of a campaign, drawn as SVG step charts: per criterion, the share
of its obligations witnessed after each execution, and a tick where the app's failures grew; in a
run with FLARE's loop, a second chart of its paths and behaviours. Drawn from
`Analysis.timeline`, whose last point is the report's final coverage."""

from __future__ import annotations

from html import escape
from typing import Callable, Sequence

from masfuzz.graph.obligations import CRITERION_NAMES

W, H = 720, 240
LEFT, RIGHT, TOP, BOTTOM = 44, 150, 12, 34
MAX_POINTS = 600  # a longer campaign is sampled; changes are kept, flat stretches thinned


def _sample(points: Sequence, limit: int = MAX_POINTS) -> list:
    if len(points) <= limit:
        return list(points)
    step = len(points) / limit
    keep = {int(i * step) for i in range(limit)} | {len(points) - 1}
    # every point where something changed stays, so no step of the curve is lost
    keep |= {i for i in range(1, len(points)) if points[i].covered != points[i - 1].covered
             or points[i].flare != points[i - 1].flare or points[i].failures != points[i - 1].failures}
    return [points[i] for i in sorted(keep)]


FLARE_NAMES = {"paths": "inter-agent paths", "behaviours": "intra-agent behaviours"}


def render(timeline: Sequence, totals: dict[str, int]) -> str | None:
    """The C1..C4 chart, or None for a run with no execution."""
    return _chart(timeline, totals, lambda p: p.covered, CRITERION_NAMES, "coverage over the campaign")


def render_flare(timeline: Sequence, totals: dict[str, int]) -> str | None:
    """FLARE's paths and behaviours chart, or None for a run without its loop."""
    if not timeline or not timeline[-1].flare:
        return None
    return _chart(timeline, totals, lambda p: p.flare, FLARE_NAMES, "FLARE's coverage over the campaign")


def _chart(timeline: Sequence, totals: dict[str, int], values: Callable, names: dict[str, str],
           label: str) -> str | None:
    if not timeline:
        return None
    pts = _sample(timeline)
    n = timeline[-1].execution
    pw, ph = W - LEFT - RIGHT, H - TOP - BOTTOM

    def x(execution: int) -> float:
        return LEFT + (pw * (execution - 1) / (n - 1) if n > 1 else pw / 2)

    def y(share: float) -> float:
        return TOP + ph * (1 - share)

    parts = [f'<line class="axis" x1="{LEFT}" y1="{TOP + ph}" x2="{LEFT + pw}" y2="{TOP + ph}"/>',
             f'<line class="axis" x1="{LEFT}" y1="{TOP}" x2="{LEFT}" y2="{TOP + ph}"/>']
    for share in (0, 0.5, 1):
        parts.append(f'<text class="tick" x="{LEFT - 6}" y="{y(share) + 4:.1f}" text-anchor="end">'
                     f"{int(share * 100)}%</text>")
    parts.append(f'<text class="tick" x="{LEFT}" y="{H - 12}">1</text>'
                 f'<text class="tick" x="{LEFT + pw}" y="{H - 12}" text-anchor="end">{n}</text>'
                 f'<text class="tick" x="{LEFT + pw / 2}" y="{H - 12}" text-anchor="middle">executions</text>')
    legend_y = TOP + 10
    for c in names:
        total = totals.get(c, 0)
        if not total:
            continue
        d, prev = [], None
        for p in pts:
            yy = y(values(p)[c] / total)
            if prev is None:
                d.append(f"M{x(p.execution):.1f},{yy:.1f}")
            else:  # a step: coverage holds until the execution that raised it
                d.append(f"H{x(p.execution):.1f} V{yy:.1f}")
            prev = yy
        last = values(timeline[-1])[c]
        parts.append(f'<path class="series {c}" d="{" ".join(d)}"><title>{c} '
                     f"{escape(names[c])}: {last}/{total} at the end</title></path>")
        parts.append(f'<text class="legend {c}" x="{LEFT + pw + 12}" y="{legend_y}">{c} {last}/{total}</text>')
        legend_y += 18
    before = 0
    for p in pts:
        if p.failures > before:
            parts.append(f'<line class="failure-tick" x1="{x(p.execution):.1f}" y1="{TOP}" '
                         f'x2="{x(p.execution):.1f}" y2="{TOP + ph}"><title>execution {p.execution} '
                         f"({p.seconds:.1f} s): {p.failures} failure(s) of the app so far</title></line>")
            before = p.failures
    parts.append(f'<text class="legend failures" x="{LEFT + pw + 12}" y="{legend_y}">'
                 f"failures {timeline[-1].failures}</text>")
    return (f'<svg class="plot" xmlns="http://www.w3.org/2000/svg" role="img" '
            f'aria-label="{label}" viewBox="0 0 {W} {H}" width="{W}" height="{H}">'
            f'{"".join(parts)}</svg>')
