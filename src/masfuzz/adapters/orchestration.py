"""A graph for Agents SDK apps that orchestrate agents in plain Python.

A manager that calls `Runner.run` on a planner, then a searcher, then a writer has no
coordination graph in its objects (docs/architecture.md, "How structural coverage counts"): each agent stands alone.
Its code, or the user, supplies the graph, and masfuzz materialises it as ordinary SDK objects
so the usual extraction and run apply unchanged:

- `file.py:a,b,c` names several agents of one module. When a function of the module runs
  them with `Runner.run` (`pipeline.read_order`), that order is the graph: its edges become
  links (below) and its first agent the entry. Otherwise a coordinator `Agent` (named by
  `--coordinator`, default `coordinator`) becomes the entry agent, with the named agents as its
  handoffs; each keeps its own handoffs and tools.
- `--link FROM->TO` (repeatable) adds a delegation: a clone of FROM with TO among its handoffs,
  so the edge is also taken, and witnessed, at run time. With links and one named agent, that
  agent stays the entry and no coordinator is made.

The user's objects are never changed: every agent that gains a handoff, or that leads to one
that did, is an `agent.clone(...)`. A manifest is the other way to state any graph.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import Any

from masfuzz.errors import TargetError

DEFAULT_COORDINATOR = "coordinator"


@dataclass(frozen=True)
class Orchestration:
    """What the user said about the graph: a coordinator name and links, by agent name."""

    coordinator: str | None = None
    links: tuple[tuple[str, str], ...] = ()

    @classmethod
    def parse(cls, coordinator: str | None = None, links: Any = ()) -> "Orchestration":
        """From the command-line forms: `--coordinator NAME`, `--link FROM->TO` strings (or
        already split pairs)."""
        pairs = []
        for link in links or ():
            if isinstance(link, str):
                src, sep, dst = link.partition("->")
                src, dst = src.strip(), dst.strip()
                if not sep or not src or not dst or "->" in dst:
                    raise TargetError(f"--link {link!r}: expected FROM->TO (two agent names)")
                pairs.append((src, dst))
            else:
                src, dst = link
                pairs.append((str(src), str(dst)))
        if coordinator is not None and not coordinator.strip():
            raise TargetError("--coordinator: the coordinator needs a non-empty name")
        return cls(coordinator.strip() if coordinator else None, tuple(pairs))

    @classmethod
    def from_data(cls, data: Any) -> "Orchestration":
        """From what `to_data` wrote (a suite file, a run config, a worker request)."""
        if not data:
            return cls()
        if not isinstance(data, dict):
            raise TargetError(f"orchestration: expected a mapping, not {data!r}")
        return cls.parse(data.get("coordinator"), data.get("links") or ())

    def to_data(self) -> dict[str, Any]:
        """`{}` when nothing was said, so records of ordinary targets stay unchanged."""
        out: dict[str, Any] = {}
        if self.coordinator:
            out["coordinator"] = self.coordinator
        if self.links:
            out["links"] = self.link_texts()
        return out

    def link_texts(self) -> list[str]:
        return [f"{a}->{b}" for a, b in self.links]

    def __bool__(self) -> bool:
        return bool(self.coordinator or self.links)


def split_names(attr: str | None) -> list[str] | None:
    """`a,b.c,d` -> ["a", "b.c", "d"]; None for one name or one call (`f("x,y")`)."""
    if not attr or "," not in attr:
        return None
    try:
        node = ast.parse(attr, mode="eval").body
    except SyntaxError:
        return None  # the loader reports it
    if not isinstance(node, ast.Tuple):
        return None
    return [ast.get_source_segment(attr, e) or "" for e in node.elts]


def needed(target: str, orchestration: Orchestration | None) -> bool:
    from masfuzz.loader import split_target

    return bool(orchestration) or split_names(split_target(target)[1]) is not None


def assemble(target: str, orchestration: Orchestration | None) -> tuple[Any, list[str]]:
    """The entry agent of the graph the target and the orchestration describe, and notes
    about references masfuzz could not rewrite."""
    from masfuzz.loader import load_target, split_target
    from masfuzz.adapters.openai_agents import sdk
    from masfuzz.adapters.openai_agents.extract import slug

    orch = orchestration or Orchestration()
    where, attr = split_target(target)
    names = split_names(attr) or ([attr] if attr else [])
    if not names:
        raise TargetError(f"{target}: name the agents after the colon (file.py:a,b,c)")
    def agent_named(name: str) -> Any:
        obj = load_target(f"{where}:{name}").obj
        if not sdk.is_agent(obj):
            raise TargetError(f"{target}: {name} is a {type(obj).__qualname__} "
                              f"({type(obj).__module__}), not an Agents SDK Agent")
        return obj

    named = [(name, agent_named(name)) for name in names]
    order_notes: list[str] = []
    if not orch and len(named) > 1:
        orch, named, order_notes, pipeline = _code_order(where, named, target)
        if pipeline is not None:  # the app's own function is the system
            return pipeline, order_notes
    coordinator = orch.coordinator or (DEFAULT_COORDINATOR if len(named) > 1 and not (order_notes and orch.links) else None)

    reachable = _reachable([o for _, o in named])
    by_name = _names(named, reachable, slug)
    links = []
    for src, dst in orch.links:
        for end in (src, dst):
            if end not in by_name and _attribute_of(where, end):
                # another agent of the module: the link makes it reachable
                found = agent_named(end)
                more = [a for a in _reachable([found]) if a not in reachable]
                reachable += more
                for key, agent in _names([(end, found)], more, slug).items():
                    by_name.setdefault(key, agent)
            if end not in by_name:
                known = ", ".join(sorted(by_name))
                raise TargetError(f"--link {src}->{dst}: no agent {end!r} named by or reachable "
                                  f"from {target}, nor in its module (known: {known})")
        links.append((by_name[src], by_name[dst]))

    clones, notes = _rewrite(reachable, links)

    def final(agent: Any) -> Any:
        return clones.get(id(agent), agent)

    notes += order_notes or [f"link {a}->{b}: added by masfuzz (--link)" for a, b in orch.links]
    if coordinator is None:
        return final(named[0][1]), notes
    notes.insert(0, f"agent {coordinator}: a coordinator added by masfuzz over "
                    f"{', '.join(n for n, _ in named)}; the app orchestrates them in plain Python")
    return _coordinator(coordinator, [final(o) for _, o in named]), notes


def _code_order(where: str, named: list[tuple[str, Any]], target: str
                ) -> tuple[Orchestration, list[tuple[str, Any]], list[str], Any]:
    """The graph the module's own code runs the named agents in (`pipeline.read_order`). When
    the function holding it can be called with the task, it is the system (a `Pipeline`: one
    run is one call of it); otherwise its edges become links, its first agent the entry, with no
    coordinator. When the module's code does not say, the coordinator stays, and a note says why."""
    from masfuzz.adapters.openai_agents.pipeline import Pipeline, read_order, runnable
    from masfuzz.loader import load_target

    agents = [o for _, o in named]
    module = load_target(where).obj
    try:
        order = read_order(module, agents)
    except TargetError as exc:
        raise TargetError(f"{target}: {exc}") from None
    if order is None:
        return Orchestration(), named, [
            f"{where}: no function of the module runs these agents one after another with "
            "Runner.run, so masfuzz coordinates them (--link states the order)"], None
    function = runnable(module, order)
    if function is not None:  # the walk of the pipeline notes the order
        return Orchestration(), named, [], Pipeline(function, agents, order)
    first = order.steps[0].agent
    named = [named[first]] + [n for i, n in enumerate(named) if i != first]
    index = {id(o): n for n, o in named}
    links = tuple((index[id(agents[a])], index[id(agents[b])]) for a, b, _ in order.edges)
    notes = [f"order read from {order.function}: " + " -> ".join(index[id(agents[s.agent])] for s in order.steps)
             + "; it cannot be called with the task alone, so masfuzz runs it as handoffs from "
             "one agent to the next"]
    notes += [f"edge {index[id(agents[a])]}->{index[id(agents[b])]}: {why}" for a, b, why in order.edges]
    return Orchestration(None, links), named, notes, None


def _attribute_of(where: str, name: str) -> bool:
    """Is `name` (possibly dotted) an attribute of the target's module?"""
    from masfuzz.loader import load_target

    if split_names(name) is not None or not all(p.isidentifier() for p in name.split(".")):
        return False
    try:
        load_target(f"{where}:{name}")
    except TargetError:
        return False
    return True


def _reachable(roots: list[Any]) -> list[Any]:
    """Every agent reachable from the roots by handoffs and `as_tool` tools, roots first."""
    from masfuzz.adapters.openai_agents.extract import walk

    seen: dict[int, Any] = {}
    for root in roots:
        for agent in walk(root).agents:
            seen.setdefault(id(agent), agent)
    return list(seen.values())


def _names(named: list[tuple[str, Any]], reachable: list[Any], slug: Any) -> dict[str, Any]:
    """How a link may name an agent: the attribute the target names, the agent's name, or the
    id masfuzz gives it (its snake-case name)."""
    out: dict[str, Any] = {}
    for agent in reversed(reachable):  # the named agents, listed first, win a shared name
        name = str(getattr(agent, "name", "") or "")
        if name:
            out[name] = agent
            out[slug(name)] = agent
    for attr, agent in named:
        out[attr] = agent
    return out


def _rewrite(reachable: list[Any], links: list[tuple[Any, Any]]) -> tuple[dict[int, Any], list[str]]:
    """Clones of each link source and of every agent that leads to one by a plain `Agent` in
    its handoffs, wired to each other; the user's agents stay as they were."""
    from masfuzz.adapters.openai_agents import sdk

    dirty = {id(src) for src, _ in links}
    grew = True
    while grew:  # an agent that hands off to a changed agent must hand off to its clone
        grew = False
        for agent in reachable:
            if id(agent) not in dirty and any(
                    sdk.is_agent(h) and id(h) in dirty for h in _handoffs(agent)):
                dirty.add(id(agent))
                grew = True
    notes = []
    for agent in reachable:
        for h in [*_handoffs(agent), *(getattr(agent, "tools", None) or ())]:
            if sdk.is_agent(h):
                continue
            inner = sdk.handoff_target(h, reachable) if sdk.is_handoff(h) else sdk.agent_of_tool(h)
            if inner is not None and id(inner) in dirty:
                notes.append(f"agent {agent.name!r} reaches {inner.name!r} through a "
                             "Handoff or as_tool object masfuzz cannot rewrite; from there the "
                             "linked handoffs are not added")
    clones = {id(a): a.clone() for a in reachable if id(a) in dirty}
    for agent in reachable:
        clone = clones.get(id(agent))
        if clone is None:
            continue
        hs = [clones.get(id(h), h) if sdk.is_agent(h) else h for h in _handoffs(agent)]
        for src, dst in links:
            target = clones.get(id(dst), dst)
            if src is agent and not any(h is target for h in hs):
                hs.append(target)
        clone.handoffs = hs  # our own clone: the user's agent keeps its list
    return clones, notes


def _handoffs(agent: Any) -> list[Any]:
    return list(getattr(agent, "handoffs", None) or ())


def _coordinator(name: str, specialists: list[Any]) -> Any:
    """An `Agent` that routes the user's request to the right specialist by handoff; each
    handoff describes its specialist from the specialist's own description or instructions."""
    from agents import Agent, handoff
    from agents.handoffs import Handoff

    lines, handoffs, tools = [], [], set()
    for agent in specialists:
        about = _about(agent)
        lines.append(f"- {agent.name}: {about}" if about else f"- {agent.name}")
        # two agents of one name (the SDK's message_filter example has two "Assistant"s) would
        # share a handoff tool, and the model could reach only one of them
        tool = default = Handoff.default_tool_name(agent)
        while tool in tools:
            tool = f"{default}_{len(tools) + 1}"
        tools.add(tool)
        described = bool(getattr(agent, "handoff_description", None)) or not about
        if described and tool == default:
            handoffs.append(agent)
        else:  # the SDK would describe it by name only; tell the model what it does
            handoffs.append(handoff(agent, tool_name_override=tool, tool_description_override=(
                None if described else f"Handoff to the {agent.name} agent: {about}")))
    instructions = ("You coordinate a team of specialist agents. Route the user's request to "
                    "the specialist that should handle it by handing off to it.\n"
                    "Specialists:\n" + "\n".join(lines))
    return Agent(name=name, instructions=instructions, handoffs=handoffs)


def _about(agent: Any) -> str:
    text = getattr(agent, "handoff_description", None)
    if not text:
        instructions = getattr(agent, "instructions", None)
        text = instructions if isinstance(instructions, str) else ""
    text = " ".join(str(text).split())
    return text if len(text) <= 200 else text[:197] + "..."
