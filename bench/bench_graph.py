"""Spec + graph + obligations for a synthetic workflow of 2,000 agents and 20,000 tools.

Target (issue 2): <= 5 s and <= 1 GB peak on the 2-core reference machine. Prints one line per
phase and the totals. The manifest is built as data and goes through the same path as a file
(pydantic validation, well-formedness checks, graph, obligations).

    python bench/bench_graph.py [--agents N] [--tools N] [--restrict-mode closed_world|declared]
"""

from __future__ import annotations

import argparse
import random
import resource
import time

from masfuzz.graph import CoordinationGraph
from masfuzz.spec import WorkflowSpec, validate


def synthetic(n_agents: int, n_tools: int, mode: str, seed: int = 0) -> dict:
    rng = random.Random(seed)
    agents = [{"id": f"agent_{i}", "description": f"agent number {i}"} for i in range(n_agents)]
    tools = [{"id": f"tool_{j}", "description": f"tool number {j}",
              "parameters": {"type": "object", "properties": {"q": {"type": "string"}}}}
             for j in range(n_tools)]
    allow = []
    for j in range(n_tools):  # every tool owned by one agent, some shared
        allow.append([f"agent_{j % n_agents}", f"tool_{j}"])
        if j % 7 == 0:
            allow.append([f"agent_{rng.randrange(n_agents)}", f"tool_{j}"])
    allow = [list(p) for p in dict.fromkeys(map(tuple, allow))]
    delegations = [{"from": f"agent_{(i - 1) // 3}", "to": f"agent_{i}"} for i in range(1, n_agents)]
    delegations += [{"from": f"agent_{i}", "to": "agent_0"} for i in range(1, n_agents, 5)]
    allowed = {tuple(p) for p in allow}
    restrict = []
    if mode == "declared":  # ten explicit restrictions per agent
        for i in range(n_agents):
            for j in rng.sample(range(n_tools), 10):
                if (f"agent_{i}", f"tool_{j}") not in allowed:
                    restrict.append([f"agent_{i}", f"tool_{j}"])
    return {
        "system": {"id": "synthetic", "entry_agent": "agent_0"},
        "agents": agents, "tools": tools,
        "permissions": {"allow": allow, "restrict": restrict, "restrict_mode": mode},
        "delegations": delegations,
    }


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--agents", type=int, default=2000)
    ap.add_argument("--tools", type=int, default=20000)
    ap.add_argument("--restrict-mode", default="closed_world", choices=["closed_world", "declared"])
    args = ap.parse_args()
    data = synthetic(args.agents, args.tools, args.restrict_mode)

    t0 = time.perf_counter()
    spec = validate(WorkflowSpec.model_validate(data))
    t1 = time.perf_counter()
    graph = CoordinationGraph(spec)
    _ = graph.reachable
    t2 = time.perf_counter()
    space = graph.obligations()
    counts = space.counts()
    # Touch every explicit obligation and a membership test on the implicit restricted set.
    n_listed = sum(1 for s in (space.reach, space.use_tool, space.delegate) for _ in s)
    probe = next(iter(space.restrict_tool.keys()))
    assert probe in space.restrict_tool and ("agent_0", "tool_0") not in space.restrict_tool
    t3 = time.perf_counter()
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"workflow: {args.agents} agents, {args.tools} tools, restrict_mode={args.restrict_mode}")
    print(f"spec (validate + well-formedness): {t1 - t0:7.3f} s")
    print(f"graph (+ reachability):            {t2 - t1:7.3f} s")
    print(f"obligations (count + list):        {t3 - t2:7.3f} s   {counts}  total={len(space)}"
          f"  listed={n_listed}")
    print(f"total: {t3 - t0:.3f} s (target <= 5 s)   peak RSS: {peak_mb:.0f} MB (target <= 1024 MB)")
    from summary import record

    size = f"{args.agents} agents, {args.tools} tools"
    record("extraction + obligations: time", t3 - t0, "<= 5 s", t3 - t0 <= 5, unit=" s", note=size)
    record("extraction + obligations: peak RSS", peak_mb, "<= 1024 MB", peak_mb <= 1024,
           unit=" MB", note=size)


if __name__ == "__main__":
    main()
