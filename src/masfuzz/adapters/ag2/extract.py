"""The `WorkflowSpec` of an AG2 / AutoGen 0.2-style app, from the chats it starts.

What counts as an agent: every participant with a model. Model-less participants (user proxies,
board proxies, code executors) speak for the user and execute tools; they are listed in the notes
with what they execute, and never become a reach obligation that no trace could witness. A group
chat manager picks speakers; it is bookkeeping, not an agent.

Delegations are the speaker changes the app's structure allows, between model agents, passing
through model-less participants (a planner whose tool call the proxy answers, and the writer the
proxy's turn goes to, is planner -> writer):
- a two-agent chat: both ways;
- a group chat: round robin gives its cycle, `allowed_or_disallowed_speaker_transitions` its
  edges, and otherwise every ordered pair (the manager's model chooses); a group started from
  a pattern (`initiate_group_chat`) gives its agents' hand-offs (`handoffs`);
- nested chats registered on an agent: the holder to each nested recipient;
- a sequence of chats (`initiate_chats`, or one `initiate_chat` after another): the agent that
  closes one chat to the agent that opens the next.
"""

from __future__ import annotations

import functools
import inspect
from dataclasses import dataclass, field
from typing import Any, Iterable

import autogen

from masfuzz.adapters.ag2.handoffs import pattern_edges, pattern_transition
from masfuzz.adapters.ag2.live import ChatCall, coded_selection, has_model, llm_config, tool_parameters
from masfuzz.adapters.source import code_names, code_strings, function_site
from masfuzz.spec.model import (
    ENTERED_BY, SELECTOR_PROMPT, AgentSpec, Delegation, Pattern, Permissions, SystemInfo, Termination, ToolSpec, WorkflowSpec,
)


@dataclass
class Plan:
    """The chats an app starts, in order, and everything they reach."""

    name: str
    chats: list[ChatCall]
    agents: list[Any] = field(default_factory=list)  # every participant, in order of appearance
    groups: list[Any] = field(default_factory=list)  # GroupChatManagers reached
    # (holder, chat, the agents whose messages trigger it)
    nested: list[tuple[Any, dict[str, Any], list[Any]]] = field(default_factory=list)

    @classmethod
    def of(cls, name: str, chats: list[ChatCall], direct: list[Any] = ()) -> "Plan":
        """`direct`: agents the app asks for a reply outside any chat."""
        plan = cls(name, chats)
        for c in chats:
            plan._reach(c.sender)
            plan._reach(c.recipient)
        for a in direct:
            plan._reach(a)
        return plan

    def _reach(self, agent: Any) -> None:
        if agent is None or agent in self.agents or agent in self.groups:
            return
        group = getattr(agent, "groupchat", None)
        if isinstance(agent, autogen.GroupChatManager) and group is not None:
            self.groups.append(agent)
            for member in group.agents:
                self._reach(member)
            return
        self.agents.append(agent)
        for chat, triggers in nested_chats(agent):
            self.nested.append((agent, chat, triggers))
            self._reach(chat.get("sender") or agent)
            self._reach(chat.get("recipient"))

    def model_agents(self) -> list[Any]:
        """One agent per name: a notebook that builds an agent again in a later cell has one
        agent (its first definition describes it; the run tells the versions apart)."""
        out: dict[str, Any] = {}
        for a in self.agents:
            if has_model(a):
                out.setdefault(a.name, a)
        return list(out.values())

    def everyone(self) -> list[Any]:
        return [*self.agents, *self.groups]


_NESTED = ("_summary_from_nested_chats", "_a_summary_from_nested_chats")


def nested_chats(agent: Any) -> list[tuple[dict[str, Any], list[Any]]]:
    """The chats `register_nested_chats` gave `agent`, each with the agents that trigger it,
    read from its reply functions: a `functools.partial` over the queue (0.2.x) or a closure
    around it (AG2)."""
    out: list[tuple[dict[str, Any], list[Any]]] = []
    for entry in getattr(agent, "_reply_func_list", ()):
        func = entry.get("reply_func")
        queue: Any = None
        if isinstance(func, functools.partial) and getattr(func.func, "__name__", "") in _NESTED:
            queue = func.args[0] if func.args else None
        elif getattr(getattr(func, "__wrapped__", None), "__name__", "") in _NESTED:
            try:
                queue = inspect.getclosurevars(func).nonlocals.get("chat_queue")
            except (TypeError, ValueError):
                queue = None
        trigger = entry.get("trigger")
        triggers = [t for t in (trigger if isinstance(trigger, list) else [trigger])
                    if hasattr(t, "name")]
        out.extend((c, triggers) for c in queue or () if isinstance(c, dict))
    return out


def extract(plan: Plan, *, task: str | None = None) -> WorkflowSpec:
    """`task`: the program's own opening message, if it has one."""
    models = plan.model_agents()
    names = {a.name for a in models}
    agents, tools, allow, notes = [], {}, [], []
    for a in models:
        cfg = llm_config(a)
        model = next((c.get("model") for c in cfg.get("config_list", ()) if c.get("model")), None)
        agents.append(AgentSpec(
            id=a.name, description=getattr(a, "description", "") or "",
            instructions=a.system_message or "", model=model,
            model_settings={k: v for k, v in (
                ("max_consecutive_auto_reply", a.max_consecutive_auto_reply()),
                ("human_input_mode", getattr(a, "human_input_mode", None)),
                ("temperature", cfg.get("temperature"))) if v is not None}))
        for t in [*(cfg.get("tools") or ()), *(cfg.get("functions") or ())]:
            fn = t.get("function", t)
            name = fn.get("name", "")
            executor = next((e for e in plan.agents if name in (getattr(e, "function_map", None) or {})), None)
            func = executor.function_map[name] if executor is not None else None
            tools.setdefault(name, ToolSpec(id=name, description=fn.get("description", ""),
                                            parameters=tool_parameters(fn),
                                            source=function_site(func) if func else None))
            allow.append((a.name, name))
    for p in {p.name: p for p in plan.agents if not has_model(p)}.values():
        runs = sorted(t for t in (getattr(p, "function_map", None) or {}) if t in tools)
        nested = [c["recipient"].name for c, _ in nested_chats(p) if c.get("recipient") is not None]
        role = (f"runs {', '.join(runs)}" if runs
                else f"answers with nested chats with {', '.join(nested)}" if nested
                else "speaks for the user")
        notes.append(f"{p.name} is a model-less proxy: {role}")
    for a in models:
        for t in sorted(getattr(a, "function_map", None) or {}):
            if t in tools:
                notes.append(f"{t} runs in {a.name}")
    for g in plan.groups:
        if g.groupchat.speaker_selection_method == "auto":  # the manager's model reads this prompt
            notes.append(SELECTOR_PROMPT + " ".join(str(g.groupchat.select_speaker_message_template or "").split()))
    routers = _request_routers(plan, names)
    agents = [a.model_copy(update={"model_settings": {**a.model_settings, ENTERED_BY: routers[a.id]}})
              if a.id in routers else a for a in agents]
    delegations: dict[tuple[str, str], Delegation] = {}  # the first reason given for each edge
    for d in _delegations(plan, names):
        delegations.setdefault(d.edge, d)
    entry = _first_speaker(plan.chats[0], names) if plan.chats else None
    entry = entry or (models[0].name if models else plan.chats[0].sender.name)
    return WorkflowSpec(
        system=SystemInfo(id=plan.name, entry_agent=entry, framework="ag2", pattern=_pattern(plan),
                          task=task or None),
        agents=tuple(agents), tools=tuple(tools.values()),
        # a tool is registered for the agents whose model may call it (`caller`): the others may not
        permissions=Permissions(allow=tuple(allow), restrict_mode="closed_world"),
        delegations=tuple(delegations.values()), termination=_termination(plan), notes=tuple(notes))


def _pattern(plan: Plan) -> Pattern:
    """One two-agent chat or round robin is a fixed order; a group chat whose manager's model
    picks speakers is a selector; a program that runs several chats, or nested ones, or a group
    whose speakers a function of its own picks (`coded_selection`), orders its agents in its own
    code (no one speaking order holds across its chats)."""
    chosen = [g for g in plan.groups if g.groupchat.speaker_selection_method != "round_robin"
              and not coded_selection(g.groupchat)]
    if chosen:
        return "selector"
    if plan.nested or len(plan.chats) > 1 or any(coded_selection(g.groupchat) for g in plan.groups):
        return "orchestrated"
    return "fixed_order"


def _request_routers(plan: Plan, names: set[str]) -> dict[str, str]:
    """Member -> the app's speaker-selection function that may give it the request, for each
    group whose function reads what was said (a message's `content`: "lesson" in the request
    sends it to the lessons desk) and may pick two model members or more: it routes the request
    as a LangGraph router function out of START does (`ENTERED_BY`). A function that reads only
    who spoke or what was called (a hand-over map) orders a pipeline: it routes nothing. What the
    function reads and picks is read through the helpers it calls and the tables it looks names
    up in (`tutor_for(text)` over `TOPICS = (("angle", ...), "geometry_t")`), as apps write it."""
    out: dict[str, str] = {}
    for g in plan.groups:
        fn = getattr(g.groupchat, "speaker_selection_method", None)
        if not coded_selection(g.groupchat):
            continue
        functions, referenced = _reach_of(fn)
        strings = set().union(*(code_strings(f.__code__) for f in functions),
                              (v for v in referenced if isinstance(v, str)))
        if not any("content" in code_names(f.__code__) for f in functions) and "content" not in strings:
            continue
        members = [m for m in g.groupchat.agents if m.name in names]
        picked = [m.name for m in members if any(m is r for r in referenced) or m.name in strings] \
            or [m.name for m in members]
        if len(picked) > 1:
            out.update({m: getattr(fn, "__name__", "speaker_selection_method") for m in picked})
    return out


def _reach_of(fn: Any, depth: int = 3) -> tuple[list[Any], list[Any]]:
    """The functions a speaker-selection function runs (itself, the functions it closes over or
    reads as globals, theirs in turn, `depth` deep) and the values they reference, a table's
    entries (tuples, lists, sets, a dict's keys and values) flattened."""
    functions, values, todo, opened = [], [], [(fn, 0)], set()
    while todo:
        f, level = todo.pop()
        if not inspect.isfunction(f) or any(f is x for x in functions):
            continue
        functions.append(f)
        try:
            seen = inspect.getclosurevars(f)
        except (TypeError, ValueError):
            continue
        items = [*seen.nonlocals.values(), *seen.globals.values()]
        while items:
            v = items.pop()
            if isinstance(v, (dict, tuple, list, set, frozenset)):
                if id(v) in opened:  # a table met twice, or one holding itself
                    continue
                opened.add(id(v))
            if isinstance(v, dict):
                items += [*v.keys(), *v.values()]
            elif isinstance(v, (tuple, list, set, frozenset)):
                items += list(v)
            elif inspect.isfunction(v):
                if level < depth:
                    todo.append((v, level + 1))
            else:
                values.append(v)
    return functions, values


def _termination(plan: Plan) -> Termination:
    conds: list[str] = []
    max_turns = None
    for g in plan.groups:
        conds.append(f"{g.name}: max_round={g.groupchat.max_round}")
        if _custom_term(g):
            conds.append(f"{g.name}: is_termination_msg")
        max_turns = max_turns or g.groupchat.max_round
    for c in plan.chats:
        if c.max_turns is not None:
            conds.append(f"{c.sender.name} -> {c.recipient.name}: max_turns={c.max_turns}")
            max_turns = max_turns or c.max_turns
    for a in plan.agents:
        if _custom_term(a):
            conds.append(f"{a.name}: is_termination_msg")
    return Termination(conditions=tuple(dict.fromkeys(conds)), max_turns=max_turns)


def _custom_term(agent: Any) -> bool:
    """The app gave `is_termination_msg` (AG2's default, content == "TERMINATE", is not listed)."""
    func = getattr(agent, "_is_termination_msg", None)
    func = getattr(func, "_masfuzz_original", func)  # seen through masfuzz's watch
    return func is not None and not getattr(func, "__qualname__", "").startswith("ConversableAgent.")


def _delegations(plan: Plan, names: set[str]) -> Iterable[Delegation]:
    def d(a: str, b: str, trigger: str, why: str) -> Delegation:
        return Delegation(**{"from": a, "to": b, "trigger": trigger, "condition": why})

    for c in plan.chats:
        yield from _chat_edges(c.sender, c.recipient, c.max_turns, names, d)
    for g in plan.groups:
        yield from _group_edges(g, names, d)
    for holder, chat, triggers in plan.nested:
        recipient = chat.get("recipient")
        if recipient is None:
            continue
        # a proxy's nested chat passes the turn on from the agent that triggered it
        sources = [holder.name] if holder.name in names else [t.name for t in triggers if t.name in names]
        for src in sources:
            for to in _openers(recipient, names):
                if to != src:
                    yield d(src, to, "delegate", "nested chat")
        if holder.name not in names:
            continue
        sender = chat.get("sender") or holder
        if sender is holder:  # the holder opens it, speaking: the recipient answers it back
            if (chat.get("max_turns") or 2) >= 2 and recipient.name in names and holder.name != recipient.name:
                yield d(recipient.name, holder.name, "sequence", "nested chat, second turn")
        else:
            yield from _chat_edges(sender, recipient, chat.get("max_turns"), names, d)
    for before, after in zip(plan.chats, plan.chats[1:]):
        last = _closer(before, names)
        first = _first_speaker(after, names)
        if last and first and last != first:
            yield d(last, first, "sequence", "the next chat of the sequence")


def _chat_edges(a: Any, b: Any, max_turns: int | None, names: set[str], d: Any) -> Iterable[Delegation]:
    """A two-agent chat `a` opens with the app's message to `b`: `b` answers first, and the
    two alternate only from the second turn on."""
    if max_turns is not None and max_turns < 2:
        return
    if a.name in names and b.name in names and a.name != b.name:
        yield d(b.name, a.name, "sequence", "two-agent chat")
        yield d(a.name, b.name, "sequence", "two-agent chat")


def _group_edges(manager: Any, names: set[str], d: Any) -> Iterable[Delegation]:
    group = manager.groupchat
    members = [m.name for m in group.agents]
    state = pattern_transition(group)
    if state is not None:
        raw = pattern_edges(group, state) | _nested_openings(group.agents, names)
        trigger, why = "handoff", "the group pattern's hand-offs"
    elif group.speaker_selection_method == "round_robin":
        raw = {(members[i], members[(i + 1) % len(members)]) for i in range(len(members))}
        trigger, why = "sequence", "next in round-robin order"
    elif coded_selection(group):
        raw = {(s.name, t.name) for s, ts in group.allowed_speaker_transitions_dict.items() for t in ts}
        trigger, why = "sequence", "chosen by the app's speaker-selection function"
    else:
        raw = {(s.name, t.name) for s, ts in group.allowed_speaker_transitions_dict.items() for t in ts}
        trigger, why = "selector", "chosen by the manager's model"
    for a, b in sorted(_through_proxies(raw, names)):
        yield d(a, b, trigger, why)


def _nested_openings(agents: Iterable[Any], names: set[str]) -> set[tuple[str, str]]:
    """A model-less participant that answers by running nested chats (a pattern's wrapper of a
    `NestedChatTarget`) hands the floor to each chat's first speaker."""
    return {(a.name, to) for a in agents if a.name not in names
            for chat, _ in nested_chats(a) if chat.get("recipient") is not None
            for to in _openers(chat["recipient"], names)}


def _through_proxies(edges: set[tuple[str, str]], names: set[str]) -> set[tuple[str, str]]:
    """Edges between model agents, following edges through model-less participants."""
    out: set[tuple[str, str]] = set()
    succ: dict[str, set[str]] = {}
    for a, b in edges:
        succ.setdefault(a, set()).add(b)
    for start in names:
        seen, todo = set(), list(succ.get(start, ()))
        while todo:
            n = todo.pop()
            if n in seen:
                continue
            seen.add(n)
            if n in names:
                if n != start:
                    out.add((start, n))
            else:
                todo.extend(succ.get(n, ()))
    return out


def _openers(recipient: Any, names: set[str]) -> list[str]:
    """Who speaks first when a chat goes to `recipient`."""
    group = getattr(recipient, "groupchat", None)
    if isinstance(recipient, autogen.GroupChatManager) and group is not None:
        return [m.name for m in group.agents if m.name in names][:1]
    return [recipient.name] if recipient.name in names else []


def _first_speaker(chat: ChatCall, names: set[str]) -> str | None:
    first = _openers(chat.recipient, names)
    if first:
        return first[0]
    return chat.sender.name if chat.sender.name in names else None


def _closer(chat: ChatCall, names: set[str]) -> str | None:
    """The model agent that speaks last in a two-agent chat with one model agent (or the
    recipient when both have one); unknown for a group chat."""
    if isinstance(chat.recipient, autogen.GroupChatManager):
        return None
    if chat.recipient.name in names:
        return chat.recipient.name
    return chat.sender.name if chat.sender.name in names else None
