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


def to_mermaid(graph: CoordinationGraph) -> str:
    lines = ["flowchart LR"]
    for a in graph.reachable:
        lines.append(f'  {_node_id("a", a)}("{a}")')
    for t in graph.tools:
        lines.append(f'  {_node_id("t", t)}["{t}"]')
    ob = graph.obligations()
    for a, t in ob.use_tool.keys():
        lines.append(f"  {_node_id('a', a)} --> {_node_id('t', t)}")
    if graph.spec.permissions.restrict_mode == "declared":
        for a, t in ob.restrict_tool.keys():
            lines.append(f"  {_node_id('a', a)} -. restricted .-x {_node_id('t', t)}")
    for a, b in ob.delegate.keys():
        lines.append(f"  {_node_id('a', a)} -.-> {_node_id('a', b)}")
    return "\n".join(lines) + "\n"


def to_dot(graph: CoordinationGraph) -> str:
    name = graph.spec.system.id.replace('"', "'")
    lines = [f'digraph "{name}" {{', "  rankdir=LR;"]
    for a in graph.reachable:
        shape = "doublecircle" if a == graph.spec.system.entry_agent else "box"
        lines.append(f'  "{a}" [shape={shape}, style=rounded];')
    for t in graph.tools:
        lines.append(f'  "tool:{t}" [label="{t}", shape=rectangle];')
    ob = graph.obligations()
    for a, t in ob.use_tool.keys():
        lines.append(f'  "{a}" -> "tool:{t}";')
    if graph.spec.permissions.restrict_mode == "declared":
        for a, t in ob.restrict_tool.keys():
            lines.append(f'  "{a}" -> "tool:{t}" [style=dashed, color=red, arrowhead=tee];')
    for a, b in ob.delegate.keys():
        lines.append(f'  "{a}" -> "{b}" [style=dotted];')
    lines.append("}")
    return "\n".join(lines) + "\n"
