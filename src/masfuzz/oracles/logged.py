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
  no other check of the facts an agent read;
- an action a call took that the user said no to: a short choice among the call's arguments
  ("resolution": "refund") that names what the user said they do not want ("I don't want a
  refund, I want an exchange"): Prompt and Instruction Deviation, the user's instruction the
  agent acted against;
- a requirement the user stated (a sentence with a count or a "must": "three of the attendees
  are vegan") that the summary an AG2 sequence carried over to its next chat mostly leaves out
  (Information Loss at Hand-over, blamed on the summary's author, at that summary);
- a row of a tool's answer whose own state says it does not hold (a departure "cancelled", an
  offer "expired") that an agent then gives the user as good, naming the row's own values and
  not its state (Incorrect Verification, as `misread_extreme`);
- a file the user asked the team to make ("save the chart as returns.png"), never named by any
  call or code before the team ended itself (Premature Termination: the end came before the
  deliverable was made).
"""

from __future__ import annotations

import re

from masfuzz.oracles.blame import event_ref, source_of
from masfuzz.oracles.failure import PROPOSING_DETECTORS, RULE, UNCONFIRMED, Failure
from masfuzz.oracles.responsibility import final_answer
from masfuzz.oracles.semantic import INCORRECT_VERIFICATION, INFORMATION_LOSS
from masfuzz.oracles.wording import (
    FAILED_STATES, NEGATION, STOPWORDS, content_stems, is_question, numbers_in, own_words, sentences, stem, structured, words,
)
from masfuzz.trace import (CONCLUDED_REASONS, AgentTurn, ChatStart, DelegationEvent, Message, ToolCall, ToolResult, Trace,
                           agent_at, received_text, said_by_user)


def logged_findings(trace: Trace) -> list[Failure]:
    """The findings above of an imported log; each reads free text, so each is a proposal the
    judge agent decides when `--model` is given (`PROPOSING_DETECTORS`), as `detect`'s are."""
    found = silent_planned_member(trace) + dropped_exclusion(trace) + misread_extreme(trace) \
        + refused_choice(trace) + deliverable_never_made(trace) + void_row_given(trace) + summary_dropped(trace)
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


def _closed_at(trace: Trace) -> int | None:
    """The message that closed a run that ended by itself (a stop word, its answer: its final
    answer's event); None for a run stopped otherwise (a bound, a crash, an end not known)."""
    end = trace.termination
    if end is None or end.reason not in CONCLUDED_REASONS:
        return None
    return final_answer(trace)[0]


def silent_planned_member(trace: Trace) -> list[Failure]:
    """A team that ended by itself (a stop word, its answer) before a member its own plan gave
    a part of the work to (`planned_members`) acted at all: the end came before the work was
    done. Category system_termination, root cause Premature Termination (FLARE), as
    `instructed.participation` finds it where the system's agents are known; blamed on the agent
    whose message closed the run, at that message."""
    at = _closed_at(trace)
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


# -- an action the user said no to ------------------------------------------------------------------

# what the user says they do not want: "I don't want a refund", "we do not need a new card",
# "no refund, please" is left out (a bare "no" too often answers a question)
_REFUSED = re.compile(r"\b(?:do\s+not|don['\u2019]t|never|no\s+longer)\s+(?:want|need|wish\s+for)\s+"
                      r"(?:(?:a|an|the|any|my|our)\s+)?(?P<what>[A-Za-z][\w-]{2,})", re.IGNORECASE)
_CHOICE_WORDS = 3  # an argument of at most this many words is a choice (an enum, a mode), not prose


def refused_choice(trace: Trace) -> list[Failure]:
    """A call after the user's message whose argument, a short choice (`_CHOICE_WORDS`: "refund",
    "full_refund"), names what the user said they do not want (`_REFUSED`): the agent took the
    action the user refused. Blamed on the caller, at the call (Prompt and Instruction
    Deviation: the user's instruction is the one it deviated from)."""
    out, refused = [], {}
    for i, e in enumerate(trace.events):
        if said_by_user(e):
            refused.update({stem(m.group("what")): m.group(0) for m in _REFUSED.finditer(e.content)})
        if not isinstance(e, ToolCall) or not refused:
            continue
        hit = next(((name, value, refused[w]) for name, value in e.arguments.items() if isinstance(value, str)
                    and 0 < len(words(value)) <= _CHOICE_WORDS for w in {stem(x) for x in words(value)}
                    if w in refused), None)
        if hit is None:
            continue
        name, value, said = hit
        out.append(Failure(
            category="agent_task_execution", root_cause="Prompt and Instruction Deviation", detector="refused_choice",
            evidence=(i,), scenario_id=trace.scenario_id, elements=(e.agent, e.tool, name),
            agent=e.agent, step=i, step_ref=source_of(trace, i), subject=e.tool,
            description=f"the user said \"{said}\", but {e.agent} called {e.tool} with {name}={value!r} at "
            f"{event_ref(trace, i)}: it took the action the user refused"))
        refused = {}  # one finding per refusal: later calls carry the first one's consequences
    return out


# -- a deliverable never made ---------------------------------------------------------------------

# a file the request names as where a result goes ("save it as returns.png", "write the table to
# out.csv", "export into report.xlsx"): a destination, not an input ("using prices.csv")
_DESTINATION = re.compile(r"\b(?:as|to|into)\s+[`'\"]?(?P<file>[\w.-]+\.[A-Za-z][A-Za-z0-9]{1,4})\b")


def deliverable_never_made(trace: Trace) -> list[Failure]:
    """A team that ended by itself (a stop word, its answer) when no call, code or run output had
    named a file the user's request gives as a result's destination (`_DESTINATION`): the file
    was never made, and the end came before the deliverable (Premature Termination, as
    `silent_planned_member`). Blamed on the agent whose message closed the run, at that message."""
    at = _closed_at(trace)
    if at is None:
        return []
    asked = {m.group("file") for e in trace.events if said_by_user(e)
             for m in _DESTINATION.finditer(e.content)}
    made = " ".join(str(e.arguments) if isinstance(e, ToolCall) else e.payload
                    for e in trace.events[:at + 1] if isinstance(e, (ToolCall, ToolResult)))
    closer = trace.events[at].agent
    return [Failure(
        category="system_termination", root_cause="Premature Termination", detector="deliverable",
        evidence=(at,), scenario_id=trace.scenario_id, elements=(closer or "-", name),
        agent=closer, step=at, step_ref=source_of(trace, at), subject=name,
        description=f"the user asked for {name}, but no call or code named it before {closer} ended the run "
        f"at {event_ref(trace, at)}: the deliverable was never made")
        for name in sorted(asked) if name not in made]


# -- a row whose own state says it does not hold ----------------------------------------------------

_STATE_KEY = re.compile(r"(?:\w+_)?(?:status|state)", re.IGNORECASE)
# a state that says the thing is not to be had: failed or refused (`FAILED_STATES`), or gone:
# cancelled, expired, void, suspended, discontinued, withdrawn, closed, lapsed, deleted
_GONE_STATE = re.compile(r"cancell?ed|expired|void(?:ed)?|suspended|discontinued|withdrawn|closed|lapsed|deleted|"
                         r"inactive", re.IGNORECASE)


def _records(payload: str) -> list[dict]:
    """The records (dicts) a tool's structured answer lists, at its top or one level down
    (`{"departures": [...]}`)."""
    data = structured(payload)
    lists = [data] if isinstance(data, list) else [v for v in data.values() if isinstance(v, list)] \
        if isinstance(data, dict) else []
    return [r for rows in lists for r in rows if isinstance(r, dict)]


def void_row_given(trace: Trace) -> list[Failure]:
    """An agent's message after a tool's answer that lists records, one of which has a state
    field (`status`, `state`) saying it does not hold (`_GONE_STATE`, `FAILED_STATES`), when the
    message names a value of that row no other row has (its time, its id) and says nothing of its
    state (no word of the state, no negation in the sentence): the agent gave the user a row the
    tool said was not to be had. Blamed on that agent, at that message."""
    out, void = [], []
    for i, e in enumerate(trace.events):
        if isinstance(e, ToolResult) and e.status == "ok":
            rows = _records(e.payload)
            if rows:
                void = [(r, str(v)) for r in rows for k, v in r.items() if _STATE_KEY.fullmatch(str(k))
                        and isinstance(v, str) and (v.lower() in FAILED_STATES or _GONE_STATE.fullmatch(v))]
                others = [r for r in rows if all(r is not v for v, _ in void)]
                void = [(r, state, [str(x) for x in r.values() if isinstance(x, (str, int, float))
                                    and not isinstance(x, bool) and len(str(x)) >= 3 and str(x) != state
                                    and all(str(x) not in map(str, o.values()) for o in others)])
                        for r, state in void]
        if not void or not isinstance(e, Message) or e.role != "assistant" or not e.agent:
            continue
        for row, state, own in void:
            for sentence in sentences(own_words(e.content)):
                named = [x for x in own if x in sentence]
                if named and not NEGATION.search(sentence) \
                        and not ({stem(w) for w in words(state)} & {stem(w) for w in words(e.content)}):
                    out.append(Failure(
                        category="agent_task_execution", root_cause=INCORRECT_VERIFICATION, detector="void_row",
                        evidence=(i,), scenario_id=trace.scenario_id, elements=(e.agent, named[0]),
                        agent=e.agent, step=i, step_ref=source_of(trace, i), subject=named[0],
                        description=f"{e.agent} gave {', '.join(named[:3])} at {event_ref(trace, i)}, but the row of "
                        f"its tool's answer that holds {named[0]} says it is {state}"))
                    return out
    return out


# -- a requirement left out of a carried-over summary ------------------------------------------------

# a sentence that states a requirement: a count (a figure, a cardinal) or a modal of need; one that
# asks the chat's agent for its work ("Please find a venue.") is its task, not a requirement
_COUNTED = re.compile(r"\d|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|dozen)\b|"
                      r"\b(?:must|needs?|required?|has\s+to|have\s+to)\b", re.IGNORECASE)
_ASKS = re.compile(r"^\s*(?:please|kindly|can\s+you|could\s+you)\b", re.IGNORECASE)
_KEPT = 0.5  # the share of a requirement's words a summary names, at least, to have kept it


def summary_dropped(trace: Trace) -> list[Failure]:
    """The first chat of an AG2 sequence whose summary, carried over to the next chat (the
    carry-over AG2 appends to its opening, `Message.source == "carryover"`), names less than half
    the words of a requirement the user stated before it (`_COUNTED`, not a request for work:
    "Three of the attendees are vegan.", "My mother uses a wheelchair, so the hotel must have
    step-free access"): the next chat's agents work from the summary and never see it. Blamed on
    the agent whose message closed the earlier chat (the summary AG2 carried), at it."""
    starts = [i for i, e in enumerate(trace.events) if isinstance(e, ChatStart) and e.carryover]
    for start in starts:
        carried = next((e for e in trace.events[start:] if isinstance(e, Message) and e.source == "carryover"), None)
        summary = next((j for j in range(start - 1, -1, -1) if isinstance(m := trace.events[j], Message)
                        and m.role == "assistant" and m.agent), None)
        if carried is None or summary is None:
            continue
        kept = content_stems(carried.content)
        lost = [t for e in trace.events[:start] if said_by_user(e) for t in sentences(e.content)
                if _COUNTED.search(t) and not _ASKS.match(t) and not is_question(t)
                and (need := content_stems(t)) and len(need & kept) < _KEPT * len(need)]
        if not lost:
            continue
        closer = trace.events[summary].agent
        receiver = next((e.agent for e in trace.events[start:] if isinstance(e, AgentTurn)), "")
        return [Failure(
            category="agent_relationship", root_cause=INFORMATION_LOSS, detector="handover_facts",
            evidence=(summary, start), scenario_id=trace.scenario_id, elements=(closer, receiver, "summary"),
            agent=closer, step=summary, step_ref=source_of(trace, summary), subject=receiver,
            description=f"the user said \"{' '.join(lost[0].split())[:120]}\", but the summary {closer} closed its "
            f"chat with at {event_ref(trace, summary)}, which the next chat was given, leaves it out")]
    return []
