"""Drawings of the coordination graph: Mermaid and Graphviz DOT.

The conventions of the paper's Figure 1: agents rounded, tools rectangular, allowed tool access
solid, delegation dotted. Restricted edges are drawn only when declared (a closed-world set is
usually most of agents x tools and would bury the picture).
"""

from __future__ import annotations

import re

from masfuzz.graph.coordination import CoordinationGraph


def _node_id(prefix: str, name: str) -> str:
    return prefix + "_" + re.sub(r"\W", "_", name)


def _edges(graph: CoordinationGraph) -> list[tuple[str, str, str]]:
    """(kind, from, to) for every edge drawn: allow, restrict (declared only), delegate."""
    ob = graph.obligations()
    edges = [("allow", a, t) for a, t in ob.use_tool.keys()]
    if graph.spec.permissions.restrict_mode == "declared":
        edges += [("restrict", a, t) for a, t in ob.restrict_tool.keys()]
    return edges + [("delegate", a, b) for a, b in ob.delegate.keys()]


def to_mermaid(graph: CoordinationGraph) -> str:
    lines = ["flowchart LR"]
    lines += [f'  {_node_id("a", a)}("{a}")' for a in graph.reachable]
    lines += [f'  {_node_id("t", t)}["{t}"]' for t in graph.tools]
    arrow = {"allow": "-->", "restrict": "-. restricted .-x", "delegate": "-.->"}
    for kind, a, b in _edges(graph):
        end = _node_id("a" if kind == "delegate" else "t", b)
        lines.append(f"  {_node_id('a', a)} {arrow[kind]} {end}")
    return "\n".join(lines) + "\n"


def to_dot(graph: CoordinationGraph) -> str:
    name = graph.spec.system.id.replace('"', "'")
    lines = [f'digraph "{name}" {{', "  rankdir=LR;"]
    for a in graph.reachable:
        shape = "doublecircle" if a == graph.spec.system.entry_agent else "box"
        lines.append(f'  "{a}" [shape={shape}, style=rounded];')
    lines += [f'  "tool:{t}" [label="{t}", shape=rectangle];' for t in graph.tools]
    style = {"allow": "", "restrict": " [style=dashed, color=red, arrowhead=tee]",
             "delegate": " [style=dotted]"}
    for kind, a, b in _edges(graph):
        end = b if kind == "delegate" else f"tool:{b}"
        lines.append(f'  "{a}" -> "{end}"{style[kind]};')
    lines.append("}")
    return "\n".join(lines) + "\n"
