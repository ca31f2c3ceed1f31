"""What only an imported log shows of a team the log does not list (`masfuzz judge --chat`): a
log names the agents that spoke, not the team, and the words a hand-over passed on, not the
receiver's instructions. Two findings the system's spec would give on a live run, read here from
the log's own words:
- a member the team's own plan gave work to, never heard before the team ended itself
  (Premature Termination, as `instructed.participation` finds it from the spec);
- a thing the user excluded ("nothing with peanuts", "without stairs") that a hand-over's task
  text left out and its receiver then put in its work (Information Loss at Hand-over, as
  `semantic.handover_facts` finds it for facts of a form: ids, dates, amounts);
- a row an agent called the top (or the bottom) of a tool's table that another row of the same
  table beats (Incorrect Verification: what it told contradicts the tool's result, as
  `semantic.claimed_outcome` finds of a claimed success). A log without the task's answer has
  no other check of the facts an agent read.
"""

from __future__ import annotations

import re

from masfuzz.oracles.blame import event_ref, source_of
from masfuzz.oracles.failure import PROPOSING_DETECTORS, RULE, UNCONFIRMED, Failure
from masfuzz.oracles.responsibility import final_answer
from masfuzz.oracles.semantic import INCORRECT_VERIFICATION, INFORMATION_LOSS
from masfuzz.oracles.wording import NEGATION, STOPWORDS, numbers_in, own_words, sentences, stem, structured, words
from masfuzz.trace import (CONCLUDED_REASONS, AgentTurn, DelegationEvent, Message, ToolResult, Trace, agent_at, received_text,
                           said_by_user)


def logged_findings(trace: Trace) -> list[Failure]:
    """The findings above of an imported log; each reads free text, so each is a proposal the
    judge agent decides when `--model` is given (`PROPOSING_DETECTORS`), as `detect`'s are."""
    found = silent_planned_member(trace) + dropped_exclusion(trace) + misread_extreme(trace)
    return [f.model_copy(update={"decided_by": UNCONFIRMED if f.detector in PROPOSING_DETECTORS else RULE})
            for f in found]


# -- a member the team's own plan named, never heard ----------------------------------------------

# where a plan's assignments part: a clause, a line, a sentence, the words after "Plan:"
_ASSIGNMENTS = re.compile(r"[;\n]|(?<=[.!?])\s+|:\s+")
_HEAD = re.compile(r"^[\W\d]*?([A-Za-z]\w*)")
# a name written as an identifier (snake_case, camelCase, PascalCase with an inner capital), as
# frameworks name agents: no English word that opens a clause ("then", "Finally") is one
_IDENTIFIER = re.compile(r"^[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+$|^[a-z]+[A-Z]\w*$|^[A-Z][a-z0-9]+[A-Z]\w*$")


def planned_members(trace: Trace) -> dict[str, int]:
    """The members an agent's plan gives a part of the work to that never acted in the log, with
    the plan's event: a message whose clauses open with the names of members ("translator
    translates the reviews; analyst writes the summary; support_writer drafts the reply"), two of
    them agents that spoke, names the others opening such a clause with an agent's name too, when
    it is written as one (an identifier). A log shows only the agents that spoke; the plan shows
    the team it was made for."""
    acted = {e.agent for e in trace.events if isinstance(e, AgentTurn)}
    opening = next((e for e in trace.events if isinstance(e, Message)), None)
    out: dict[str, int] = {}
    for i, e in enumerate(trace.events):
        if not isinstance(e, Message) or e.role != "assistant" or not e.agent or e is opening:
            continue  # an opening that relays the task speaks for the user (its plan is the task's)
        heads = [m.group(1) for c in _ASSIGNMENTS.split(own_words(e.content)) if (m := _HEAD.match(c))]
        if len({h for h in heads if h in acted and h != e.agent}) < 2:
            continue
        for h in heads:
            if h not in acted and _IDENTIFIER.match(h):
                out.setdefault(h, i)
    return out


def silent_planned_member(trace: Trace) -> list[Failure]:
    """A team that ended by itself (a stop word, its answer) before a member its own plan gave
    a part of the work to (`planned_members`) acted at all: the end came before the work was
    done. Category system_termination, root cause Premature Termination (FLARE), as
    `instructed.participation` finds it where the system's agents are known; blamed on the agent
    whose message closed the run, at that message."""
    end = trace.termination
    if end is None or end.reason not in CONCLUDED_REASONS:
        return []
    at, _ = final_answer(trace)
    if at is None:
        return []
    closer = trace.events[at].agent
    return [Failure(
        category="system_termination", root_cause="Premature Termination", detector="participation",
        evidence=(plan, at), scenario_id=trace.scenario_id, elements=(closer or "-", member),
        agent=closer, step=at, step_ref=source_of(trace, at), subject=member,
        description=f"{agent_at(trace, plan)}'s plan at {event_ref(trace, plan)} gave {member} a part of the "
        f"work, but {closer} ended the run at {event_ref(trace, at)} before {member} acted at all")
        for member, plan in planned_members(trace).items() if plan < at]


# -- a thing the user excluded, lost at a hand-over ----------------------------------------------

# what a request excludes, and the words that name it: "nothing with peanuts or peanut oil",
# "without stairs", "avoid shellfish", "free of gluten", "allergic to penicillin", "a severe peanut
# allergy", "exclude weekends"
_EXCLUDES = re.compile(
    r"\b(?:nothing\s+(?:with|containing|that\s+contains)|without|avoid(?:ing)?|free\s+(?:of|from)|allergic\s+to|"
    r"(?:allergy|intolerance)\s+to|exclud(?:e|ing)|(?:must|should)\s+not\s+(?:contain|include|have|use)|"
    r"(?:do\s+not|don't|never)\s+(?:use|include|add|put\s+in))\s+(?P<what>[^.;:!?()]{2,60})"
    r"|\b(?P<allergen>[A-Za-z]{4,})\s+(?:allergy|intolerance)\b", re.IGNORECASE)


def _excluded(text: str) -> set[str]:
    """The stems of what the user's words exclude (`_EXCLUDES`)."""
    out = set()
    for m in _EXCLUDES.finditer(text):
        named = m.group("what") or m.group("allergen") or ""
        out |= {stem(w) for w in words(named) if w.isalpha() and len(w) > 3 and w not in STOPWORDS}
    return out


def dropped_exclusion(trace: Trace) -> list[Failure]:
    """A thing the user excluded before a hand-over whose receiver was given a text of its own
    (`received_text`: a task description written for it, in place of the conversation) that
    does not name it, which the receiver's next message then names, in a sentence that does not
    negate it ("roasted peanuts, to serve"): the receiver never saw the exclusion and did what it
    excluded. Blamed on the agent that handed over, at the hand-over (Information Loss at
    Hand-over). Not judged when what the receiver was given is not in the log."""
    out, excluded = [], set()
    for d, e in enumerate(trace.events):
        if said_by_user(e):
            excluded |= _excluded(e.content)
        if not isinstance(e, DelegationEvent) or not excluded:
            continue
        before = max((i for i in range(d) if isinstance(trace.events[i], DelegationEvent)), default=-1)
        given = received_text(trace, e.to, before)
        if given is None:
            continue
        lost = excluded - {stem(w) for w in words(given)}
        said = next(((i, m) for i, m in enumerate(trace.events[d + 1:], start=d + 1)
                     if isinstance(m, Message) and m.role == "assistant" and m.agent == e.to), None)
        if not lost or said is None:
            continue
        at, message = said
        used = {stem(w) for t in sentences(own_words(message.content)) if not NEGATION.search(t)
                for w in words(t)} & lost
        if not used:
            continue
        out.append(Failure(
            category="agent_relationship", root_cause=INFORMATION_LOSS, detector="handover_facts",
            evidence=(d, at), scenario_id=trace.scenario_id, elements=(e.from_, e.to, "exclusion"),
            agent=e.from_, step=d, step_ref=source_of(trace, d), subject=e.to,
            description=f"the user excluded {', '.join(sorted(used))} before {e.from_} handed over to {e.to} "
            f"at {event_ref(trace, d)}, but the task {e.to} was given does not say so, and {e.to} put it in its "
            f"work at {event_ref(trace, at)}"))
    return out


# -- the top of a table misread ------------------------------------------------------------------

# a sentence that calls one row the first of its table by a measure, or the last
_TOP = re.compile(r"\b(?:top|highest|largest|biggest|greatest|most|maximum|leading)\b", re.IGNORECASE)
_BOTTOM = re.compile(r"\b(?:lowest|smallest|least|fewest|cheapest|minimum|bottom)\b", re.IGNORECASE)


def _rows(payload: str) -> list[tuple[str, list[float]]]:
    """A tool's answer as a table: its rows' words and numbers (`{"columns": ..., "rows": [...]}`,
    a list of lists or of records); [] when it is no table of two rows or more, each with a name
    and a number."""
    data = structured(payload)
    rows = data.get("rows") if isinstance(data, dict) else data
    if not isinstance(rows, list) or len(rows) < 2:
        return []
    out = []
    for row in rows:
        cells = list(row.values()) if isinstance(row, dict) else row if isinstance(row, list) else None
        if cells is None:
            return []
        names = " ".join(c for c in cells if isinstance(c, str) and not numbers_in(c))
        figures = [float(c) for c in cells if isinstance(c, (int, float)) and not isinstance(c, bool)]
        if not names.strip() or not figures:
            return []
        out.append((names, figures))
    return out


def misread_extreme(trace: Trace) -> list[Failure]:
    """An agent's sentence that calls one row of the latest table a tool gave it the top (or the
    bottom) and gives that row's figure, when another row of the table has a higher (a lower)
    figure in the same place: "our top customer was Nordwind, EUR 184,220.50" over rows where
    Bluefin has 191,875.00. Only a sentence that names one row of the table (a list of the top
    three names several) is read. Blamed on that agent, at that message."""
    out = []
    table: list[tuple[str, list[float]]] = []
    for i, e in enumerate(trace.events):
        if said_by_user(e):
            table = []
        elif isinstance(e, ToolResult) and e.status == "ok":
            table = _rows(e.payload) or table
        if not table or not isinstance(e, Message) or e.role != "assistant" or not e.agent:
            continue
        for sentence in sentences(own_words(e.content)):
            top, bottom = _TOP.search(sentence), _BOTTOM.search(sentence)
            if bool(top) == bool(bottom):
                continue
            named = [(n, f) for n, f in table if n.lower() in sentence.lower()]
            if len(named) != 1:
                continue
            name, figures = named[0]
            given = set(numbers_in(sentence))
            place = next((k for k, x in enumerate(figures) if x in given), None)
            if place is None:
                continue
            rivals = [(n, f[place]) for n, f in table if len(f) > place and n != name]
            beaten = [(n, x) for n, x in rivals if (x > figures[place] if top else x < figures[place])]
            if not beaten:
                continue
            best = max(beaten, key=lambda r: r[1]) if top else min(beaten, key=lambda r: r[1])
            out.append(Failure(
                category="agent_task_execution", root_cause=INCORRECT_VERIFICATION, detector="misread_table",
                evidence=(i,), scenario_id=trace.scenario_id, elements=(e.agent, name),
                agent=e.agent, step=i, step_ref=source_of(trace, i), subject=name,
                description=f"{e.agent} called {name} ({_shown(figures[place])}) the {(top or bottom).group(0)} at "
                f"{event_ref(trace, i)}, but the table its tool gave has {best[0]} at {_shown(best[1])}"))
            break
    return out


def _shown(x: float) -> str:
    return str(int(x)) if x.is_integer() else str(x)
