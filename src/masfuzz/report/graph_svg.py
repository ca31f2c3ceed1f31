"""The coordination graph G(S) drawn as SVG, coloured by structural coverage.

Agents are laid out in columns by their delegation depth from the entry agent (the breadth-first
order `CoordinationGraph.routes` already gives); the tools an agent may call sit in the column
after their first owner's, ordered by their owners' heights so tool edges cross little. Every
node and edge that carries an obligation is tagged with the obligation's id, so the page can link
it to the obligation table. A graph too large to read is not drawn (the table lists it all).

Colours say what the coverage says: a witnessed obligation, an unwitnessed one, and a restricted
edge the system actually tried to use (a C3 witness: a violation, not a success).
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape

from masfuzz.coverage.structural import StructuralCoverage
from masfuzz.graph.coordination import CoordinationGraph
from masfuzz.graph.obligations import Obligation

MAX_NODES = 300  # beyond this, a drawing is a smear: the obligation table says it all
NODE_W, NODE_H = 176, 34
COL_GAP, ROW_GAP = 92, 18
LABEL_CHARS = 24
BELOW = 70  # room under the nodes for edges that jump a column


@dataclass(frozen=True)
class Node:
    id: str
    kind: str  # "agent" | "tool"
    x: float
    y: float


def status(coverage: StructuralCoverage | None, ob: Obligation) -> str:
    """witnessed, unwitnessed, or violated: a witnessed restricted edge is a call the system
    tried, not a success."""
    if coverage is None or not coverage.witnessed(ob):
        return "unwitnessed"
    return "violated" if ob.kind == "restrict_tool" else "witnessed"


def layout(graph: CoordinationGraph) -> dict[tuple[str, str], Node]:
    """(kind, id) -> node position."""
    depth = {a: len(route) - 1 for a, route in graph.routes.items()}
    last = max(depth.values(), default=0) + 1
    columns: dict[int, list[tuple[str, str]]] = {}
    for a in graph.agents:  # unreachable agents in a column of their own, after the rest
        columns.setdefault(2 * depth.get(a, last), []).append(("agent", a))
    owners: dict[str, list[str]] = {}
    for a, t in graph.allow:
        owners.setdefault(t, []).append(a)
    order = {a: i for i, a in enumerate([*graph.reachable, *graph.unreachable_agents()])}
    for t in graph.tools:
        col = min((2 * depth.get(a, last) + 1 for a in owners.get(t, [])), default=2 * last + 1)
        columns.setdefault(col, []).append(("tool", t))
    nodes: dict[tuple[str, str], Node] = {}
    for x_index, col in enumerate(sorted(columns)):
        members = columns[col]
        if col % 2:  # tools: by their owners' mean place, so their edges cross little
            members.sort(key=lambda m: sum(order[a] for a in owners.get(m[1], [])) /
                         max(1, len(owners.get(m[1], []))))
        for y_index, (kind, ident) in enumerate(members):
            nodes[(kind, ident)] = Node(ident, kind, 20 + x_index * (NODE_W + COL_GAP),
                                        20 + y_index * (NODE_H + ROW_GAP))
    return nodes


def _label(text: str) -> str:
    return text if len(text) <= LABEL_CHARS else text[:LABEL_CHARS - 1] + "…"


def _edge(a: Node, b: Node, cls: str, ob: Obligation | None, title: str, bend: int = 0) -> str:
    """A curve from a's right side to b's left side (or an arc when b is not to the right)."""
    x1, y1 = a.x + NODE_W, a.y + NODE_H / 2
    x2, y2 = b.x, b.y + NODE_H / 2
    if b.x <= a.x:  # back or sideways (a delegation cycle, an agent of the same depth): an arc
        x1, y1, x2, y2 = a.x + NODE_W / 2, a.y, b.x + NODE_W / 2, b.y
        lift = 40 + abs(x2 - x1) / 6 + 14 * bend
        path = f"M{x1:.1f},{y1:.1f} C{x1:.1f},{y1 - lift:.1f} {x2:.1f},{y2 - lift:.1f} {x2:.1f},{y2:.1f}"
    elif b.x - a.x > NODE_W + COL_GAP + 1:  # over a column of nodes: an arc below, not through them
        # from a's bottom, under the column between, into b's left side through the gap
        x1, y1, x2, y2 = a.x + NODE_W / 2, a.y + NODE_H, b.x, b.y + NODE_H / 2
        bottom = max(y1, b.y + NODE_H) + BELOW - 20 + 10 * bend
        path = (f"M{x1:.1f},{y1:.1f} C{x1:.1f},{bottom:.1f} {x2 - COL_GAP:.1f},{bottom:.1f} "
                f"{x2 - COL_GAP / 2:.1f},{(bottom + y2) / 2:.1f} S{x2 - 30:.1f},{y2:.1f} {x2:.1f},{y2:.1f}")
    else:
        dx = (x2 - x1) / 2
        path = f"M{x1:.1f},{y1:.1f} C{x1 + dx:.1f},{y1:.1f} {x2 - dx:.1f},{y2:.1f} {x2:.1f},{y2:.1f}"
    data = f' data-ob="{escape(ob.id)}"' if ob is not None else ""
    return (f'<path class="edge {cls}"{data} d="{path}" marker-end="url(#arrow-{cls.split()[0]})">'
            f"<title>{escape(title)}</title></path>")


def render(graph: CoordinationGraph, coverage: StructuralCoverage | None) -> str | None:
    """The SVG of the graph, or None when it has more nodes than a reader can follow."""
    if len(graph.agents) + len(graph.tools) > MAX_NODES:
        return None
    nodes = layout(graph)
    reach = set(graph.reachable)
    space = graph.obligations()
    edges: list[str] = []
    for a, t in graph.allow:
        if ("agent", a) in nodes and ("tool", t) in nodes:
            ob = Obligation("use_tool", (a, t)) if a in reach else None
            st = status(coverage, ob) if ob else "unreachable"
            edges.append(_edge(nodes[("agent", a)], nodes[("tool", t)], f"use {st}", ob,
                               f"{a} may call {t}: {st}"))
    restricted = space.by_kind("restrict_tool")
    declared = graph.spec.permissions.restrict_mode != "closed_world"
    pairs = ([tuple(p) for p in dict.fromkeys(graph.spec.permissions.restrict)] if declared else
             # closed world: every pair not allowed is restricted; only the ones tried are drawn
             [Obligation.parse(i).endpoints for i in (coverage.contexts if coverage else {})
              if i.startswith("restrict_tool::")])
    for a, t in pairs:
        if (a, t) in restricted and ("agent", a) in nodes and ("tool", t) in nodes:
            ob = Obligation("restrict_tool", (a, t))
            st = status(coverage, ob)
            edges.append(_edge(nodes[("agent", a)], nodes[("tool", t)], f"restrict {st}", ob,
                               f"{a} must not call {t}: "
                               + ("it tried (violated)" if st == "violated" else "never tried")))
    pairs_drawn: dict[frozenset[str], int] = {}  # a→b and b→a both as arcs: lift the second
    for a, b in graph.delegations:
        if ("agent", a) in nodes and ("agent", b) in nodes:
            ob = Obligation("delegate", (a, b)) if a in reach and b in reach else None
            st = status(coverage, ob) if ob else "unreachable"
            bend = pairs_drawn.get(frozenset((a, b)), 0)
            pairs_drawn[frozenset((a, b))] = bend + 1
            edges.append(_edge(nodes[("agent", a)], nodes[("agent", b)], f"delegate {st}", ob,
                               f"{a} delegates to {b}: {st}", bend))
    boxes: list[str] = []
    entry = graph.spec.system.entry_agent
    for (kind, ident), n in nodes.items():
        if kind == "agent":
            ob = Obligation("reach", (ident,)) if ident in reach else None
            st = status(coverage, ob) if ob else "unreachable"
            tip = f"agent {ident}{' (entry)' if ident == entry else ''}: {st}"
            data = f' data-ob="{escape(ob.id)}"' if ob else ""
            shape = (f'<rect x="{n.x}" y="{n.y}" width="{NODE_W}" height="{NODE_H}" rx="8"/>')
        else:
            st, tip, data = "tool", f"tool {ident}", ""
            shape = (f'<rect x="{n.x}" y="{n.y}" width="{NODE_W}" height="{NODE_H}" '
                     f'rx="{NODE_H / 2}"/>')
        boxes.append(f'<g class="node {kind} {st}{" entry" if ident == entry and kind == "agent" else ""}"'
                     f'{data} data-name="{escape(ident)}">{shape}'
                     f'<text x="{n.x + NODE_W / 2}" y="{n.y + NODE_H / 2 + 4}">{escape(_label(ident))}</text>'
                     f"<title>{escape(tip)}</title></g>")
    width = max((n.x for n in nodes.values()), default=0) + NODE_W + 20
    height = max((n.y for n in nodes.values()), default=0) + NODE_H + BELOW
    top = 60  # room for arcs above the first row
    markers = "".join(
        f'<marker id="arrow-{k}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" '
        f'markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" class="head {k}"/></marker>'
        for k in ("use", "restrict", "delegate"))
    return (f'<svg class="graph" xmlns="http://www.w3.org/2000/svg" role="img" '
            f'aria-label="coordination graph" viewBox="0 {-top} {width:.0f} {height + top:.0f}" '
            f'width="{width:.0f}" height="{height + top:.0f}"><defs>{markers}</defs>'
            f'{"".join(edges)}{"".join(boxes)}</svg>')
