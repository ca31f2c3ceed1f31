"""An AgentChat team as a `WorkflowSpec`, read from the objects without running them.

The team's type gives the communication pattern (docs/architecture.md, framework facts): RoundRobinGroupChat
is a fixed order (each participant hands to the next, wrapping), SelectorGroupChat lets a model
pick any allowed next speaker, Swarm follows each agent's handoffs, GraphFlow follows its edges.
The termination tree and the selector's settings go into `termination.conditions` as text,
because they decide how a run can end (FLARE's director bug is `allow_repeated_speaker=False`).

A `SocietyOfMindAgent` member answers by running an inner team of its own and then having its
model write the response from that team's transcript; a team that is itself a member runs its
own agents when its turn comes. Their inner agents are agents of the workflow like the members
(their instructions, tools and models), as AG2's nested chats' recipients are
(`masfuzz.adapters.ag2.extract`): the wrapper delegates to the inner team's first speaker (any
of a selector team's: `first_speakers`), the inner team's own pattern links its agents, and a
society of mind's inner agents hand the turn back to it, whichever speaks last (`nested_teams`).

An agent's tool that runs a team or an agent (AgentChat's `TeamTool`, `AgentTool`) is an agent
run as a tool, as an Agents SDK `Agent.as_tool` is (`masfuzz.adapters.openai_agents.extract`):
the tool is a tool edge of its owner and an `as_tool` delegation from the owner to the agent(s)
that speak first in it; the agents it runs are agents of the workflow, by the names the app
gives them, at any depth (a tool's team whose agent has a team tool of its own), and the tool's
team's own pattern links them. The turn comes back to the owner with the tool's result, which
is no hand-over of its own (as in the SDK).
"""

from __future__ import annotations

import ast
import inspect
from pathlib import Path
from typing import Any, Iterable

from autogen_agentchat.base import ChatAgent, Team, TerminationCondition
from autogen_agentchat.conditions import MaxMessageTermination
from autogen_agentchat.teams import GraphFlow, RoundRobinGroupChat, SelectorGroupChat, Swarm

from masfuzz.loader import split_target
from masfuzz.adapters.source import display_path, function_site
from masfuzz.spec.model import (
    AgentSpec,
    Delegation,
    Pattern,
    Permissions,
    SELECTOR_PROMPT,
    SourceLocation,
    SystemInfo,
    Termination,
    ToolSpec,
    WorkflowSpec,
)

FRAMEWORK = "autogen"


def pattern_of(team: Any) -> Pattern:
    if isinstance(team, RoundRobinGroupChat):
        return "fixed_order"
    if isinstance(team, SelectorGroupChat):
        return "selector"
    if isinstance(team, Swarm):
        return "handoff"
    if isinstance(team, GraphFlow):
        return "graph"
    return "orchestrated"  # MagenticOne and custom group chats: an orchestrator picks


def participants(team: Any) -> list[Any]:
    return list(getattr(team, "_participants", []) or [])


def inner_agent(member: Any) -> Any:
    """The agent that does a member's work: a wrapper's wrapped agent (`MessageFilterAgent`, which
    only filters what its agent sees, is the pattern GraphFlow's documentation recommends), the
    member itself otherwise. Its instructions, tools and model are the member's."""
    while getattr(member, "_wrapped_agent", None) is not None:
        member = member._wrapped_agent  # noqa: SLF001 - no public accessor
    return member


def beneath(member: Any) -> list[Any]:
    """What runs inside a member when its turn comes, one level down: a member team's
    participants, a `SocietyOfMindAgent`'s inner team, the team or agent a tool of the agent
    runs (AgentChat's `TeamTool` and `AgentTool`, an agent or a team used as a tool), and those a
    function tool or an agent class of the app's holds in its own code (`held_by`)."""
    agent = inner_agent(member)
    if isinstance(agent, Team):
        return participants(agent)
    return [n.team for n in runs_inside(member)] + held_by(agent)


def within(members: Iterable[Any]) -> list[Any]:
    """`members` and every agent and team that runs inside them (`beneath`, at any depth), each
    once, outermost first."""
    out: list[Any] = []
    todo = list(members)
    while todo:
        obj = todo.pop(0)
        if all(obj is not o for o in out):
            out.append(obj)
            todo += beneath(obj)
    return out


def model_holders(member: Any) -> list[tuple[str, Any]]:
    """Every object under a member that holds a model client, with the agent name its calls are
    made as: the member's own (through wrappers), and those of the agents inside it (`beneath`:
    a `SocietyOfMindAgent`'s inner team, a nested team's participants, the agents a tool runs or
    holds), by their own names. masfuzz replaces all of them: a client left in place calls the
    app's provider."""
    return [(obj.name, inner_agent(obj)) for obj in within([member])
            if getattr(inner_agent(obj), "_model_client", None) is not None]


def held_by(agent: Any) -> list[Any]:
    """The teams and agents an agent reaches from the app's own code, which AgentChat never
    sees as a team's: a function tool's (a plain `async def ask_experts(q)` that awaits
    `experts.run(task=q)`) and an agent class of the app's own (a relay whose `on_messages`
    runs a helper team), in what their functions close over (a team a factory built), the
    module names they use, their defaults and the object of a bound method, through the
    module's own helper functions two levels down; and what such an agent keeps in its own
    attributes. They run on the run's event loop and call models as a `TeamTool`'s team does,
    so they are renewed and given masfuzz's model alike; what they say reaches no stream, so it
    is not in the trace (`extract_team` notes them)."""
    funcs = [f for f in (getattr(t, "_func", None) for t in own_tools(agent)) if f is not None]
    values: list[Any] = []
    if not type(agent).__module__.startswith("autogen_"):  # an agent class of the app's own
        values += list(vars(agent).values())
        funcs += [f for cls in type(agent).__mro__ if not cls.__module__.startswith(("autogen_", "builtins"))
                  for f in vars(cls).values() if inspect.isfunction(f)]
    out: list[Any] = []
    for found in [v for v in values if isinstance(v, (Team, ChatAgent))] + [o for f in funcs for o in _held(f, 2)]:
        if found is not agent and all(found is not o for o in out):
            out.append(found)
    return out


def _held(func: Any, depth: int) -> list[Any]:
    func = inspect.unwrap(func)
    values: list[Any] = list(vars(func.__self__).values()) if inspect.ismethod(func) else []
    func = getattr(func, "__func__", func)
    code = getattr(func, "__code__", None)
    if code is None:
        return []
    for cell in getattr(func, "__closure__", None) or ():
        try:
            values.append(cell.cell_contents)
        except ValueError:  # a cell not yet filled
            continue
    names = getattr(func, "__globals__", {})
    values += [names[n] for n in code.co_names if n in names]
    values += list(getattr(func, "__defaults__", None) or ())
    out: list[Any] = []
    for value in values:
        if isinstance(value, (Team, ChatAgent)):
            out.append(value)
        elif depth and inspect.isfunction(value) and value.__module__ == func.__module__:
            out += _held(value, depth - 1)
    return out


class NestedTeam:
    """What runs inside a member, one level down: a `SocietyOfMindAgent`'s inner team (whose
    model then `answers` from the team's transcript), the member itself when it is a team, or
    the team or agent a tool of the member runs (`via` that tool: `TeamTool`, `AgentTool`).
    Who runs it, and its agents."""

    def __init__(self, wrapper: str, team: Any, answers: bool, via: str | None = None) -> None:
        self.wrapper, self.team, self.answers, self.via = wrapper, team, answers, via
        self.members = participants(team) if isinstance(team, Team) else [team]
        self.names = [m.name for m in self.members]
        self.pattern = pattern_of(team)


def runs_inside(member: Any) -> list[NestedTeam]:
    """The teams and tool-run agents directly inside one member (see `beneath`)."""
    if isinstance(member, Team):
        return [NestedTeam(member.name, member, False)]
    agent = inner_agent(member)
    team = getattr(agent, "_team", None)  # SocietyOfMindAgent
    out = [NestedTeam(member.name, team, True)] if isinstance(team, Team) else []
    for tool in own_tools(agent):
        runner = getattr(tool, "_task_runner", None)  # TaskRunnerTool: TeamTool, AgentTool
        if runner is not None:
            out.append(NestedTeam(member.name, runner, False, via=tool.name))
    return out


def nested_teams(team: Any) -> list[NestedTeam]:
    """Everything inside `team`'s members, and inside theirs, outermost first (a society of
    minds inside an inner team runs a team of its own; a tool's team may hold an agent with a
    team tool of its own)."""
    out: list[NestedTeam] = []
    todo = participants(team)
    seen: list[Any] = []
    while todo:
        member = todo.pop(0)
        if any(member is s for s in seen):
            continue  # an agent both a member and a tool's (or two tools'): walked once
        seen.append(member)
        for n in runs_inside(member):
            out.append(n)
            todo += n.members
    return out


def workflow_agents(team: Any) -> list[Any]:
    """The agents of the workflow: `team`'s members that are agents and every agent inside them
    (`nested_teams`: inner teams' and those a tool runs), each once, outermost first."""
    out: list[Any] = []
    for agent in [*participants(team), *(m for n in nested_teams(team) for m in n.members)]:
        if not isinstance(agent, Team) and all(agent is not o for o in out):
            out.append(agent)
    return out


def first_speakers(team: Any, names: list[str]) -> list[str]:
    """Who may speak first in `team`: its entry, or any of a selector team's agents (its model
    chooses the first too)."""
    return list(names) if isinstance(team, SelectorGroupChat) else [_entry(team, names)]


def extract_team(team: Any, target: str = "") -> WorkflowSpec:
    nested = nested_teams(team)
    members = participants(team)
    names = [m.name for m in members]
    pattern = pattern_of(team)
    files = _candidate_files(target, [*members, *(m for n in nested for m in n.members)])
    notes: list[str] = []

    agents: list[AgentSpec] = []
    tools: dict[str, ToolSpec] = {}
    allow: list[tuple[str, str]] = []
    placed: list[Any] = []
    for member in [*members, *(m for n in nested for m in n.members)]:
        if any(member is p for p in placed):
            continue  # one agent in two places (a member lent as a tool too): one agent
        placed.append(member)
        if any(a.id == member.name for a in agents):
            notes.append(f"two agents are named {member.name!r} (one in an inner team or run by a "
                         "tool): the graph has the first")
            continue
        agents.append(_agent_spec(member, files))
        for tool in agent_tools(member):
            tools.setdefault(tool.id, tool)
            allow.append((member.name, tool.id))
        for wb in getattr(inner_agent(member), "_workbench", None) or []:
            if type(wb).__name__ not in ("StaticWorkbench", "StaticStreamWorkbench"):
                notes.append(
                    f"agent {member.name!r} uses a {type(wb).__name__}: its tools are known only "
                    "once it connects, so they are not in the graph"
                )
        for held in held_by(inner_agent(member)):
            kind = "team" if isinstance(held, Team) else "agent"
            notes.append(
                f"agent {member.name!r} runs the {kind} {held.name!r} from its own code (a tool's function "
                "or its class): masfuzz renews it and gives its agents its model each run, but what "
                "they say reaches no stream, so they are not in the graph nor the trace"
            )

    delegations = list(_delegations(team, pattern, names, notes))
    for n in nested:
        delegations += _nested_delegations(n, notes)
    conditions, max_turns = _termination(team)
    if pattern == "selector":
        conditions.append(selector_settings(team))
        notes.append(SELECTOR_PROMPT + " ".join(str(getattr(team, "_selector_prompt", "")).split()))

    return WorkflowSpec(
        system=SystemInfo(
            id=system_id(team, target),
            entry_agent=_entry(team, names),
            framework=FRAMEWORK,
            pattern=pattern,
        ),
        agents=tuple(agents),
        tools=tuple(tools.values()),
        permissions=Permissions(allow=tuple(dict.fromkeys(allow)), restrict_mode="closed_world"),
        delegations=tuple(delegations),
        termination=Termination(conditions=tuple(conditions), max_turns=max_turns),
        notes=tuple(notes),
    )


def system_id(team: Any, target: str) -> str:
    name = getattr(team, "name", "") or ""
    if name and name != type(team).__name__:
        return name
    where, attr = split_target(target) if target else ("", None)
    if attr:
        return attr.split("(")[0]
    return Path(where).stem if where else type(team).__name__


def _entry(team: Any, names: list[str]) -> str:
    if isinstance(team, GraphFlow):
        starts = list(team._graph.get_start_nodes())  # noqa: SLF001 - no public accessor
        return starts[0] if starts else (names[0] if names else "")
    return names[0] if names else ""


# --- agents and tools --------------------------------------------------------------------


def _agent_spec(member: Any, files: list[Path]) -> AgentSpec:
    name, member = member.name, inner_agent(member)
    system = getattr(member, "_system_messages", None) or []
    instructions = "\n".join(str(m.content) for m in system)
    settings: dict[str, Any] = {"type": type(member).__name__}
    for attr in ("_reflect_on_tool_use", "_max_tool_iterations", "_model_client_stream"):
        if hasattr(member, attr):
            settings[attr.lstrip("_")] = getattr(member, attr)
    handoffs = getattr(member, "_handoffs", None) or {}
    if handoffs:
        settings["handoffs"] = {n: h.target for n, h in handoffs.items()}
    return AgentSpec(
        id=name,
        description=getattr(member, "description", "") or "",
        instructions=instructions,
        model=_model_name(getattr(member, "_model_client", None)),
        model_settings=settings,
        source=_constructor_site(files, name),
    )


def _model_name(client: Any) -> str | None:
    if client is None:
        return None
    for attr in ("_create_args", "_raw_config"):
        model = (getattr(client, attr, None) or {}).get("model")
        if model:
            return str(model)
    inner = getattr(client, "_client", None)
    if isinstance(inner, str):
        return inner
    return getattr(inner, "model_string", None) or type(client).__name__


def agent_tools(member: Any) -> list[ToolSpec]:
    """The function tools an agent owns (handoff tools are delegations, not tools)."""
    found: list[ToolSpec] = []
    for tool in own_tools(inner_agent(member)):
        schema = tool.schema
        found.append(
            ToolSpec(
                id=tool.name,
                description=tool.description or "",
                parameters=dict(schema.get("parameters") or {}),
                kind="function" if type(tool).__name__ == "FunctionTool" else "hosted",
                source=function_site(getattr(tool, "_func", None)),
            )
        )
    return found


def own_tools(agent: Any) -> list[Any]:
    """An agent's tools: its own list and its static workbenches', each once."""
    own = list(getattr(agent, "_tools", None) or [])
    for wb in getattr(agent, "_workbench", None) or []:
        for tool in getattr(wb, "_tools", None) or []:
            if all(tool is not t for t in own):
                own.append(tool)
    return own


def _candidate_files(target: str, members: list[Any]) -> list[Path]:
    """Where the agents were probably constructed: the target file, then the tools' files."""
    files: list[Path] = []
    where = split_target(target)[0] if target else ""
    if where.endswith(".py") and Path(where).exists():
        files.append(Path(where).resolve())
    for member in members:
        for tool in getattr(member, "_tools", None) or []:
            try:
                file = inspect.getsourcefile(inspect.unwrap(getattr(tool, "_func", None)))
            except TypeError:
                continue
            if file and Path(file) not in files:
                files.append(Path(file))
    return files


def _constructor_site(files: Iterable[Path], name: str) -> SourceLocation | None:
    """The line of a call like `AssistantAgent("name", ...)` or `AssistantAgent(name="name")`."""
    for file in files:
        try:
            tree = ast.parse(file.read_text(encoding="utf-8"))
        except (OSError, SyntaxError, UnicodeDecodeError):
            continue
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            args = [a for a in node.args[:1]] + [k.value for k in node.keywords if k.arg == "name"]
            if any(isinstance(a, ast.Constant) and a.value == name for a in args):
                return SourceLocation(file=display_path(str(file)), line=node.lineno)
    return None


# --- delegations -------------------------------------------------------------------------


def _delegations(team: Any, pattern: Pattern, names: list[str], notes: list[str]) -> Iterable[Delegation]:
    if pattern == "fixed_order" and len(names) > 1:
        for i, a in enumerate(names):
            nxt = names[(i + 1) % len(names)]
            yield Delegation(**{"from": a, "to": nxt, "trigger": "sequence", "condition": "next in round-robin order"})
    elif pattern == "selector":
        yield from _selector_delegations(team, names)
    elif pattern == "handoff":
        for member in participants(team):
            for handoff in (getattr(member, "_handoffs", None) or {}).values():
                if handoff.target in names:
                    yield Delegation(**{"from": member.name, "to": handoff.target, "trigger": "handoff",
                                        "condition": handoff.description or ""})
                else:
                    notes.append(f"agent {member.name!r} can hand off to {handoff.target!r}, outside the team")
    elif pattern == "graph":
        for node in team._graph.nodes.values():  # noqa: SLF001
            for edge in node.edges:
                yield Delegation(**{"from": node.name, "to": edge.target, "trigger": "graph_edge",
                                    "condition": _edge_condition(edge)})


def _nested_delegations(n: NestedTeam, notes: list[str]) -> Iterable[Delegation]:
    """A wrapper's hand-over to its inner team (a tool's: `as_tool`), the team's own edges, and
    the way back (a society of mind's only: a tool's result is no hand-over)."""
    if not n.names:
        return
    if n.via is not None:
        trigger, runs = "as_tool", f"its tool {n.via} runs {type(n.team).__name__} {n.team.name}"
    else:
        trigger, runs = "delegate", f"{n.wrapper} runs its inner {type(n.team).__name__}"
    for first in first_speakers(n.team, n.names):
        yield Delegation(**{"from": n.wrapper, "to": first, "trigger": trigger, "condition": runs})
    yield from _delegations(n.team, n.pattern, n.names, notes)
    for name in n.names if n.answers else ():  # any may speak last: the turn goes back to it
        yield Delegation(**{"from": name, "to": n.wrapper, "trigger": "sequence",
                            "condition": f"the inner team ends: {n.wrapper} answers from its transcript"})


def _selector_delegations(team: Any, names: list[str]) -> Iterable[Delegation]:
    repeat = bool(getattr(team, "_allow_repeated_speaker", False))
    candidate = getattr(team, "_candidate_func", None)
    selector = getattr(team, "_selector_func", None)
    how = "chosen by the selector model"
    if selector is not None:
        how = f"chosen by selector_func {_callable_name(selector)} (else the selector model)"
    if candidate is not None:
        how += f" among candidates from {_callable_name(candidate)}"
    for a in names:
        for b in names:
            if a != b or (repeat and candidate is None):
                yield Delegation(**{"from": a, "to": b, "trigger": "selector", "condition": how})


def _edge_condition(edge: Any) -> str:
    cond = getattr(edge, "condition", None)
    func = getattr(edge, "condition_function", None)
    if isinstance(cond, str):
        return f"message mentions {cond!r}"
    if callable(cond) or callable(func):
        return f"condition {_callable_name(func or cond)}"
    return ""


def _callable_name(func: Any) -> str:
    return getattr(func, "__qualname__", None) or getattr(func, "__name__", None) or repr(func)


# --- termination ---------------------------------------------------------------------------


def _termination(team: Any) -> tuple[list[str], int | None]:
    cond = getattr(team, "_termination_condition", None)
    team_turns = getattr(team, "_max_turns", None)
    conditions: list[str] = []
    if cond is not None:
        conditions.append(render_condition(cond))
    if team_turns is not None:
        conditions.append(f"max_turns={team_turns} (team turns)")
    limits = [c._max_messages for c in leaves(cond) if isinstance(c, MaxMessageTermination)]  # noqa: SLF001
    max_turns = min(limits) if limits else team_turns
    return conditions, max_turns


def leaves(cond: TerminationCondition | None) -> list[TerminationCondition]:
    if cond is None:
        return []
    inner = getattr(cond, "_conditions", None)
    if inner is None:
        return [cond]
    return [leaf for c in inner for leaf in leaves(c)]


def render_condition(cond: TerminationCondition) -> str:
    """`MaxMessageTermination(max_messages=12) | TextMentionTermination(text='APPROVE')`."""
    inner = getattr(cond, "_conditions", None)
    if inner is not None:
        op = " & " if type(cond).__name__.startswith("And") else " | "
        parts = [render_condition(c) for c in inner]
        return "(" + op.join(parts) + ")" if len(parts) > 1 else parts[0]
    try:
        fields = cond._to_config().model_dump(exclude_defaults=True)  # type: ignore[attr-defined]  # noqa: SLF001
    except Exception:  # conditions wrapping a Python callable do not serialise
        fields = {}
    args = ", ".join(f"{k}={v!r}" for k, v in fields.items())
    return f"{type(cond).__name__}({args})"


def selector_settings(team: Any) -> str:
    repeat = bool(getattr(team, "_allow_repeated_speaker", False))
    parts = [f"allow_repeated_speaker={repeat}"]
    for attr in ("_selector_func", "_candidate_func"):
        func = getattr(team, attr, None)
        if func is not None:
            parts.append(f"{attr.lstrip('_')}={_callable_name(func)}")
    parts.append(f"max_selector_attempts={getattr(team, '_max_selector_attempts', 3)}")
    meaning = "" if repeat else " (no agent may speak twice in a row)"
    return f"speaker selection: SelectorGroupChat({', '.join(parts)}){meaning}"
