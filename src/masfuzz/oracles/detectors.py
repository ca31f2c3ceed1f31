"""Deterministic failure detectors: oracles computed from a `Trace` (and the spec) alone.

They implement the part of FLARE's failure identification (§3.4) that needs no model: the
symptoms a trace shows mechanically. Each detector is a small function
`(trace, spec) -> list[Failure]` registered in `DETECTORS`; `detect` runs them all. `spec` may be
None (a black-box run with no declared workflow); detectors that need it then say nothing.

- missing termination: the run was stopped by a bound (Max Round Limit Exceeded) or, sharper,
  an agent announced the end and the run still went on to the bound (Termination Condition
  Violation: FLARE's motivating ShortsMaker bug, where the director cannot speak twice in a row);
- loops: FLARE's "unproductive loop" anomaly, a speaker cycle repeated without progress (its turns
  saying again what they had said) or an identical tool call repeated;
- empty utterances: FLARE's anomaly of an agent with no valid output for consecutive turns;
- premature termination: a completed run in which an agent handed the task never acted, or with
  an empty final output;
- restricted tool calls: every `restricted_attempt`;
- tool invocation: a tool error the system did not recover from (it stopped, only apologised, or
  only passed the raw error on), and arguments that violate the tool's JSON schema;
- runtime crash: a crash or timeout of the system under test.
"""

from __future__ import annotations

import json
import re
import textwrap
from collections.abc import Callable
from typing import Any

from pydantic import TypeAdapter, ValidationError

from masfuzz.oracles.attribution import attribute, carried_over, fresh_answers, probe_not_told
from masfuzz.oracles.blame import blame_all
from masfuzz.oracles.robustness import robustness_witness
from masfuzz.oracles.failure import PROPOSING_DETECTORS, RULE, UNCONFIRMED, Failure, dedupe
from masfuzz.oracles.onepass import judging
from masfuzz.oracles.instructed import INSTRUCTED
from masfuzz.oracles.semantic import SEMANTIC, fact_values, rejected_off_form, tool_doc_mismatch
from masfuzz.oracles.specified import model_ignored_named_failure, model_left_stop_undone
from masfuzz.oracles.wording import (FAREWELL, FUNCTION_WORDS, GIVE_UP, STOPWORDS, asks_back, claims_done, closing_offers, is_question,
                                    is_user_proxy, lists_missing, sentences, stem, words)
from masfuzz.spec.model import WorkflowSpec
from masfuzz.trace import (
    APP_BOUND, BOUND_REASONS, CONCLUDED_REASONS, DESIGNED_LENGTH, ENDED_IN_MODEL_CALL, HARNESS_CAUSE,
    MODEL_SECONDS, NOT_INJECTED_CALLS, STACKS_AT_KILL, USER_BOUND, AgentTurn, ChatEnd, ChatStart, DelegationEvent, ErrorEvent,
    Message, RestrictedAttempt, TerminationEvent, ToolCall, ToolResult, Trace, carries_refusal, running_tool,
    said_by_user, users_words,
)

Detector = Callable[[Trace, "WorkflowSpec | None"], list[Failure]]

# Phrases with which an agent announces the end of the workflow. Kept to explicit closings
# (AutoGen's conventional TERMINATE, "ending the workflow", "we are done"): a bare "done" also
# ends ordinary progress reports ("the voice-over is done"), which would flag every bounded run.
END_ANNOUNCEMENT = re.compile(
    r"\bTERMINATE\b|\b(?:end|ending|ends|close|closing|conclude|concluding)\s+(?:the|this)\s+"
    r"(?:workflow|conversation|session|task)\b|\bwe\s+are\s+(?:all\s+)?done\b|\bwe'?re\s+done\b|"
    r"\bour\s+work\s+is\s+(?:done|complete|finished)\b",
    re.IGNORECASE,
)
# What announces nothing although it names the end: an instruction to say the stop word (AG2's
# stock sentences: the assistant's "Reply TERMINATE if the task has been solved", a code
# executor's "let other participant reply me only with \"TERMINATE\"") and a condition ("if you
# want to end the conversation, ..."), up to the end of its sentence. An executor or user proxy
# echoing them is not an agent closing the workflow.
NOT_AN_ANNOUNCEMENT = re.compile(
    r"\bif\b[^.!?\n]*|\b(?:reply|respond|answer|say|send|output|type|write|return)\b"
    r"[^.!?\n]{0,60}?[\"'`]?\bTERMINATE\b[\"'`]?|[\"'`]TERMINATE[\"'`]",
    re.IGNORECASE,
)


def announced_end(text: str) -> str | None:
    """The phrase with which `text` announces the end of the workflow, if it does."""
    found = END_ANNOUNCEMENT.search(NOT_AN_ANNOUNCEMENT.sub(" ", text))
    return found.group(0) if found else None


# A speaker cycle of 2..MAX_CYCLE_LEN agents: longer periods are a pipeline running again,
# which a bounded run already reports as missing termination.
MAX_CYCLE_LEN = 4
# Three full repetitions: two rounds happen legitimately (a draft and one revision), a third of
# the very same cycle is the unproductive loop of FLARE's anomalies.
MIN_CYCLE_REPEATS = 3
# The same agent calling the same tool with identical arguments this often has learnt nothing
# from the first results; two identical calls are a normal retry.
MIN_IDENTICAL_CALLS = 3
# A model whose calls are so slow that the time limit holds fewer than this many of them is what
# ran out of time, not the app (`runtime_crash`): a multi-agent run needs a few calls per agent.
MODEL_BOUND_CALLS = 20
# FLARE's empty-utterance anomaly: no valid output for three consecutive turns.
MIN_EMPTY_TURNS = 3


def _end(trace: Trace) -> tuple[int, TerminationEvent] | None:
    for i in range(len(trace.events) - 1, -1, -1):
        if isinstance(trace.events[i], TerminationEvent):
            return i, trace.events[i]
    return None


def _indexed(trace: Trace, cls: type) -> list[tuple[int, Any]]:
    return [(i, e) for i, e in enumerate(trace.events) if isinstance(e, cls)]


# -- system termination ------------------------------------------------------------------------

# A termination condition that is only a count: a turn, round or message bound.
_COUNT_BOUND = re.compile(r"^\s*(?:[\w -]+:\s*)?(?:max_?turns|max_?rounds?|max_?messages)\s*=\s*\d+|^\s*MaxMessageTermination\(",
                          re.IGNORECASE)


def _one_round(trace: Trace, spec: WorkflowSpec | None) -> bool:
    """Did a team whose only end is its turn bound, set to one turn per member (AutoGen's
    company-research notebook: `RoundRobinGroupChat([three agents], max_turns=3)`), stop there
    after each member spoke once? That is one pass, the length the app gave the team."""
    if spec is None or not spec.termination.conditions or spec.termination.max_turns != len(spec.agents):
        return False
    if not all(_COUNT_BOUND.search(c) for c in spec.termination.conditions):
        return False
    order = trace.speaker_order
    return len(order) == len(spec.agents) == len(set(order))


def missing_termination(trace: Trace, spec: WorkflowSpec | None) -> list[Failure]:
    end = _end(trace)
    if end is None or end[1].reason not in BOUND_REASONS:
        return []
    end_i, term = end
    bound = f"{term.reason}" + (f" ({term.detail})" if term.detail else "")
    users = trace.meta.get(USER_BOUND)
    whose: dict = {} if users is None else {
        "attribution": "settings",
        "because": f"the run stopped at the turn bound you set (--max-turns {users}), not at one "
                   "of the app's own: leave it unset, or raise it, to judge how the app ends"}
    if not whose and (because := model_left_stop_undone(trace, spec)):
        whose = {"attribution": "harness", "because": because}
    chat = _chats(trace)
    said = [(i, e, phrase) for i, e in _indexed(trace, Message)
            if e.role == "assistant" and e.agent and (phrase := announced_end(e.content))]
    for i, e, phrase in said:
        # Only acts of the same chat go on past it: a stop word that ended an earlier chat of a
        # sequence (AG2's initiate_chats) did its job, whatever the later chats do. An act is a
        # turn, or a message or call without a turn of its own (AG2 records no new turn when the
        # model picks the same speaker again).
        after = [j for j, x in enumerate(trace.events) if j > i and chat[j] == chat[i] and _acts(x)]
        if not after:
            continue  # the announcement was the last thing said: the bound merely coincided
        again = [j for j, x, p in said if j > i and chat[j] == chat[i] and _stop_word(p)]
        if _stop_word(phrase) and (again or _listens_for_words(spec)) and not _unheard_by_design(spec, e.agent):
            # The stop word itself was said again and the team still went on: whoever said it
            # had the floor to close and closed, more than once, and the condition did not hear
            # it (AG2's manager left on its exact-match default while the "in content" test sits
            # on the proxy). The condition is the team's wiring: no agent is to blame. So is a
            # stop word said once to a team whose condition tests messages (AG2's receiver's
            # `is_termination_msg`, an exact comparison a reply ending in the word never meets):
            # the word was given, the test did not hear it. A closing in prose ("I am ending the
            # workflow") is no stop word the condition missed: the announcer may owe the word
            # itself (FLARE's director, below).
            return [Failure(
                category="system_termination", root_cause="Termination Condition Violation",
                detector="missing_termination", evidence=(i, *again, end_i), scenario_id=trace.scenario_id,
                elements=(term.reason, "unheard"), agent=None, step=after[0], subject="", **whose,
                description=f"the end was announced {f'{len(again) + 1} times' if again else 'once'} "
                f"(\"{phrase}\", {'first ' if again else ''}by "
                f"{e.agent} at event {i}) but the run went on until {bound}: the termination condition "
                "does not hear the stop word it is given",
            )]
        turns_after = sum(1 for j in after if isinstance(trace.events[j], AgentTurn)) or len(after)
        return [Failure(
            category="system_termination", root_cause="Termination Condition Violation",
            detector="missing_termination", evidence=(i, end_i), scenario_id=trace.scenario_id,
            elements=(e.agent, term.reason), **whose,
            description=f"{e.agent} announced the end of the workflow (\"{phrase}\", event {i}) "
            f"but the run went on for {turns_after} more turn(s) until {bound}: the termination "
            f"condition never fired for it (can {e.agent} get the floor again to close?)",
        )]
    if (trace.meta.get(DESIGNED_LENGTH) or _one_round(trace, spec)) and users is None:
        return []  # the conversation ran the length the app gave it
    bound = _stopped_by(trace, term)
    stalled = _stalled_from(trace, spec)
    if stalled is None:
        stalled = _says_again_to_the_end(trace)
    if stalled is not None and not whose and (because := _waits_on_user(trace, spec, stalled)):
        whose = {"attribution": "harness", "because": because}
    if stalled is None and not whose and (asking := _asks_to_the_end(trace)) is not None \
            and (because := _waits_on_user(trace, spec, asking)):
        # a two-agent chat whose other side answers automatically (AG2's proxy on
        # human_input_mode="NEVER"): the agent's question for a value the request left out gets
        # an empty auto-reply, so it asks again until the auto-reply cap. The input lacked the
        # value and nothing in the run could give it: the bound ended a wait, not a loop of the app
        whose = {"attribution": "harness", "because": because + " (the chat's other side replies "
                 "automatically and cannot give it)"}
    if stalled is not None:
        # FLARE's two termination root causes: a bound too low for the task cuts off work in
        # progress; a team that only says again what it said has finished, and its stop
        # condition did not fire. That is the condition's defect (the team's wiring), no agent's.
        return [Failure(
            category="system_termination", root_cause="Termination Condition Violation",
            detector="missing_termination", evidence=(stalled, end_i), scenario_id=trace.scenario_id,
            elements=(term.reason, "repeated"), agent=None, step=stalled, subject="", **whose,
            description=f"the team had finished: from event {stalled} on its turns brought nothing new "
            f"to the work, and no stop condition fired until {bound}: the termination "
            "condition waits for something the agents do not do",
        )]
    return [Failure(
        category="system_termination", root_cause="Max Round Limit Exceeded",
        detector="missing_termination", evidence=(end_i,), scenario_id=trace.scenario_id,
        elements=(term.reason,), **whose,
        description=f"the run never concluded by itself: it was stopped by {bound} after "
        f"{len(trace.speaker_order)} turns (a termination condition that never fires, or a bound "
        "too low for the task)",
    )]


def _stopped_by(trace: Trace, term: TerminationEvent) -> str:
    """The bound that stopped a run, said which it was: the app's or its framework's own one
    (`APP_BOUND`), else the termination's reason and detail."""
    if trace.meta.get(APP_BOUND):
        return f"{term.reason} ({trace.meta[APP_BOUND]}: the app's or its framework's own bound)"
    return term.reason + (f" ({term.detail})" if term.detail else "")


def _waits_on_user(trace: Trace, spec: WorkflowSpec | None, stalled: int) -> str:
    """Why a stalled round is the request's doing: an agent of it asks, in the repeated rounds,
    for values the request left out, listing them ("Missing: postcode, parcels",
    `lists_missing`) or asking a question that names a required parameter of one of its tools
    ("Which day should the van come?" for `day`), and no user message came after its ask. The
    team is waiting on an answer the run's user never gave; the bound ended that wait, and a
    request that gives the values ends the team by itself. "" when nobody asked for a value
    ("Anything else?" asks for none), or someone answered."""
    said = [(i, e) for i, e in enumerate(trace.events) if i >= stalled and isinstance(e, Message)]
    asks = [(i, e) for i, e in said if e.role == "assistant" and e.agent and (
        lists_missing(e.content) or asks_back(e.content) and _names_required(spec, e.agent, e.content))]
    if not asks or any(said_by_user(e) for i, e in said if i > asks[0][0]):
        return ""
    i, e = asks[0]
    return (f"{e.agent} asks for values the request left out (event {i}: \"{' '.join(e.content.split())[:80]}\") "
            "and no user answered in the run: the team waits on that answer, and the bound ended the wait")


def _asks_to_the_end(trace: Trace) -> int | None:
    """The first of the run's closing messages when they are one agent asking back
    (`asks_back`), `MIN_CYCLE_REPEATS` times or more, with no tool called, no other agent
    speaking and no user message among them, to the end; else None."""
    tail = _closing_tail(trace, asks_back, verbatim=False)
    return tail[-1] if len(tail) >= MIN_CYCLE_REPEATS else None


def _says_again_to_the_end(trace: Trace) -> int | None:
    """The second of the run's closing messages when they are one agent saying the very same
    closing (`_closes`), `MIN_CYCLE_REPEATS` times or
    more, with no tool called, no other agent speaking and no user message among them, to the end
    (an empty auto-reply of the chat's other side says nothing): its closing said again and again
    ("All set. Clear skies!" six times, in an AG2 chat whose proxy replies automatically until its
    cap). The agent had finished; the team's stop condition did not hear its closing. Else None.

    A closing in words `_closes` does not know ("That is all from me.") is read by where it
    stands (`_after_report`): the same words, asking nothing, said again and again right after
    the agent reported its last tool call's answer, are a finished agent's sign-off."""
    tail = _closing_tail(trace, _closes, verbatim=True)
    if len(tail) < MIN_CYCLE_REPEATS:
        tail = _closing_tail(trace, lambda text: bool(text.strip()) and not asks_back(text), verbatim=True)
        if len(tail) < MIN_CYCLE_REPEATS or not _after_report(trace, tail[-1]):
            return None
    return tail[-2]


def _after_report(trace: Trace, first: int) -> bool:
    """Did the agent of the message at `first`, just before it, report its last tool call's
    answer: its message before `first` (no other agent's between) holds a value (`fact_values`:
    a reference, a date, an amount) of the answer, which came back without error? The work the
    call did was done and told: what the agent says after it adds nothing to the task."""
    agent = trace.events[first].agent
    before = next((e for e in reversed(trace.events[:first]) if isinstance(e, (Message, ToolResult))), None)
    if not isinstance(before, Message) or before.agent != agent or before.role != "assistant":
        return False
    answer = next((e for e in reversed(trace.events[:first]) if isinstance(e, ToolResult)), None)
    if answer is None or answer.agent != agent or answer.status != "ok" or answer.fault:
        return False
    return bool(fact_values(answer.payload) & fact_values(before.content))


def _closes(text: str) -> bool:
    """Is a reply a closing: the work done (`claims_done`: "All set.") or a farewell (`FAREWELL`),
    with at most a closing offer after it ("All set. Anything else?", `closing_offers`), never a
    question that asks (`asks_back`) or a word of work under way ("checking the diary now")?"""
    if not text.strip() or asks_back(text):
        return False
    said = sentences(text)
    kept = closing_offers(said)
    return claims_done(text if kept == said else " ".join(kept)) or FAREWELL.search(text) is not None


def _closing_tail(trace: Trace, says: Callable[[str], bool], *, verbatim: bool) -> list[int]:
    """The run's closing messages, last first, while each is one agent's and `says` holds of its
    words, with no tool called, no other agent speaking and no user message among them. With
    `verbatim`, each the very same words as the one after it, and an empty message of the chat's
    other side (an auto-reply that says nothing) passed over: the same closing said again; without,
    any such message ends the walk: one agent asking again."""
    tail: list[int] = []
    for i in range(len(trace.events) - 1, -1, -1):
        e = trace.events[i]
        if isinstance(e, (ToolCall, ToolResult)):
            break
        if not isinstance(e, Message) or verbatim and not e.content.strip() and e.role != "assistant":
            continue
        if e.role != "assistant" or not e.agent or tail and (
                e.agent != trace.events[tail[-1]].agent or verbatim
                and " ".join(e.content.split()) != " ".join(trace.events[tail[-1]].content.split())):
            break
        if not says(e.content):
            break
        tail.append(i)
    return tail


def _names_required(spec: WorkflowSpec | None, agent: str, text: str) -> bool:
    """Does the text name a required parameter of one of the agent's tools (`party_size`: party
    or size)?"""
    mine = {t for a, t in spec.permissions.allow if a == agent} if spec is not None else set()
    names = {stem(w) for t in (spec.tools if spec is not None else ()) if t.id in mine
             for p in (t.parameters or {}).get("required") or () for w in words(p) if w not in STOPWORDS}
    return bool(names & {stem(w) for w in words(text)})


def _stop_word(phrase: str) -> bool:
    """Is the announcement a stop word, written as one (TERMINATE), rather than prose?"""
    return phrase.isupper()


def _listens_for_words(spec: WorkflowSpec | None) -> bool:
    """Does the spec end its team on a test of the messages (a stop word's mention, AG2's
    `is_termination_msg`), not only on a count (`_COUNT_BOUND`)? Then a stop word said is what
    that test is for."""
    return spec is not None and any(not _COUNT_BOUND.search(c) for c in spec.termination.conditions)


def _unheard_by_design(spec: WorkflowSpec | None, agent: str) -> bool:
    """Does a stop condition of the spec listen to other agents only (AgentChat's
    `TextMentionTermination("TERMINATE", sources=["director"])`)? Then this agent's stop word is
    not meant to end the team."""
    for condition in spec.termination.conditions if spec is not None else ():
        for listed in re.findall(r"sources=\[([^\]]*)\]", condition):
            if agent not in re.findall(r"['\"]([^'\"]+)['\"]", listed):
                return True
    return False


def _acts(event: Any) -> bool:
    """Is the event an agent acting: a turn, a message of its own, a tool call?"""
    return isinstance(event, (AgentTurn, ToolCall)) or \
        isinstance(event, Message) and event.role == "assistant" and bool(event.agent)


def _stalled_from(trace: Trace, spec: WorkflowSpec | None) -> int | None:
    """In a team that speaks in a fixed (round-robin) order, the first turn of the run's closing
    repetition: its last turns go round the order's cycle at least `MIN_CYCLE_REPEATS` times, to
    the end, without progress (`progressed`). None when the run was still making progress, or
    when the agents choose who speaks (their going round is a loop, `loops`, an agent's doing).
    An order the app's code gives (`coded_order`: AG2's speaker-selection function) is fixed
    as a round-robin is."""
    if spec is None:
        return None
    turns = _indexed(trace, AgentTurn)
    order = [t.agent for _, t in turns]
    if not coded_order(spec, set(order)):
        return None
    for p in range(2, MAX_CYCLE_LEN + 1):
        if len(order) < p * MIN_CYCLE_REPEATS:
            break
        start = len(order) - p
        while start > 0 and order[start - 1] == order[start - 1 + p]:
            start -= 1  # order[start:] is p-periodic
        if (len(order) - start) // p >= MIN_CYCLE_REPEATS and len(set(order[-p:])) == p \
                and not progressed(trace, turns, start, len(order), p):
            return turns[start + p][0]  # the first turn of the second round: said again
    return None


def premature_termination(trace: Trace, spec: WorkflowSpec | None) -> list[Failure]:
    end = _end(trace)
    if end is None or end[1].reason not in CONCLUDED_REASONS:
        return []
    end_i, term = end
    out = []
    handovers = _indexed(trace, DelegationEvent)
    members = _members(trace, spec)
    for k, (i, d) in enumerate(handovers):
        if term.reason == "handoff_to_user" and k == len(handovers) - 1 and d.to not in members:
            continue  # the hand-off to the user that ends the run by design: the user acts after it
        # a turn the framework opened for the receiver is not its work: a stop condition that
        # fires on the hand-over itself (AgentChat's HandoffTermination aimed at a member) records
        # the receiver's turn and ends the team before it says or calls anything
        acted = any((isinstance(e, (Message, ToolCall, RestrictedAttempt)) and e.agent == d.to)
                    or (isinstance(e, AgentTurn) and e.agent == d.to and not _bare_turn(trace, j, end_i))
                    or (isinstance(e, DelegationEvent) and e.from_ == d.to)
                    for j, e in enumerate(trace.events[i + 1:end_i], start=i + 1))
        if not acted:
            out.append(Failure(
                category="system_termination", root_cause="Premature Termination",
                detector="premature_termination", evidence=(i, end_i),
                scenario_id=trace.scenario_id, elements=(d.from_, d.to),
                description=f"{d.from_} handed the task to {d.to} (event {i}, {d.trigger}) but "
                f"the run ended ({term.reason}) before {d.to} acted"
                + (f": the stop condition fired on this hand-over to a member of the team ({term.detail})"
                   if term.reason == "handoff_to_user" and k == len(handovers) - 1 and term.detail else ""),
            ))
    if not (term.final_output or "").strip() and not _answered(trace, end_i):
        out.append(Failure(
            category="agent_task_execution", root_cause="Response Omission",
            detector="premature_termination", evidence=(end_i,), scenario_id=trace.scenario_id,
            elements=(term.reason, trace.speaker_order[-1] if trace.speaker_order else "-"),
            description=f"the run ended ({term.reason}) with an empty final output"
            + (f" from {trace.speaker_order[-1]}" if trace.speaker_order else ""),
        ))
    return dedupe(out)


def _members(trace: Trace, spec: WorkflowSpec | None) -> set[str]:
    """The team's own agents (user proxies, which stand in for the human, left out): a hand-off
    to one of them hands it work; one to anyone else (AgentChat's "user") gives the floor back.
    Without a spec, the agents the trace shows acting."""
    if spec is not None:
        return {a.id for a in spec.agents if not is_user_proxy(a)}
    return {e.agent for e in trace.events if isinstance(e, (AgentTurn, ToolCall)) and e.agent}


def _bare_turn(trace: Trace, at: int, end_i: int) -> bool:
    """Is the turn opened at `at` the run's last event before its end, with nothing of the agent's
    in it: the team ended as the turn began?"""
    return all(isinstance(e, AgentTurn) and e.agent == trace.events[at].agent
               for e in trace.events[at:end_i])


def _answered(trace: Trace, end_i: int) -> bool:
    """Did an agent say something after the user last spoke? A run whose final output is empty
    (the stop condition's own message was a tool call's, AgentChat's `FunctionCallTermination`)
    still answered when its last speaker said something: no response was omitted."""
    for e in reversed(trace.events[:end_i]):
        if said_by_user(e):
            return False
        if isinstance(e, Message) and e.role == "assistant" and e.agent and e.content.strip():
            return True
    return False


# -- loops and empty utterances (FLARE's intra-agent anomalies) ---------------------------------

def _canonical(cycle: list[str]) -> tuple[str, ...]:
    """The smallest rotation, so a->b->a and b->a->b are one cycle."""
    return min(tuple(cycle[k:] + cycle[:k]) for k in range(len(cycle)))


def _chats(trace: Trace) -> list[str | None]:
    """The innermost chat (`ChatStart.chat`) each event belongs to; None outside any."""
    stack: list[str] = []
    out: list[str | None] = []
    for e in trace.events:
        if isinstance(e, ChatStart):
            stack.append(e.chat)
        out.append(stack[-1] if stack else None)
        if isinstance(e, ChatEnd) and stack and stack[-1] == e.chat:
            stack.pop()
    return out


def _speaker_cycles(trace: Trace, turns: list[tuple[int, AgentTurn]], parties: set[str],
                    seen: set[tuple[str, ...]]) -> list[Failure]:
    """Speaker cycles repeated `MIN_CYCLE_REPEATS` times in a row among `turns` (one chat's),
    except the two parties of a two-agent chat taking turns."""
    out = []
    order = [t.agent for _, t in turns]
    for p in range(2, MAX_CYCLE_LEN + 1):
        start = 0  # order[start:i] is p-periodic
        for i in range(p, len(order) + 1):
            if i < len(order) and order[i] == order[i - p]:
                continue
            repeats, cycle = (i - start) // p, order[start:start + p]
            key = _canonical(cycle)
            if repeats >= MIN_CYCLE_REPEATS and len(set(cycle)) == p and key not in seen \
                    and not set(cycle) <= parties and not progressed(trace, turns, start, i, p):
                seen.add(key)
                out.append(Failure(
                    category="agent_task_execution",
                    root_cause="Repetitive Execution of Completed Tasks",
                    detector="loop", scenario_id=trace.scenario_id,
                    evidence=tuple(idx for idx, _ in turns[start:i]),
                    elements=("speakers", *key),
                    description=f"the speaker cycle {' -> '.join(cycle)} repeated {repeats} "
                    "times in a row, its turns saying again what they had said: the agents go "
                    "round without progress",
                ))
            start = i - p + 1  # the longest p-periodic stretch that can continue from i
    return out


_TOKEN = re.compile(r"\w+")
_COMPARED_CHARS = 4000  # enough to tell two messages apart, cheap on long tool outputs


def _turn_output(trace: Trace, start: int, stop: int) -> set[str]:
    """What a turn produced (its messages, tool calls and tool results) as its words and
    numbers."""
    parts = []
    for e in trace.events[start + 1:stop]:
        if isinstance(e, Message) and not said_by_user(e):
            parts.append(e.content[:_COMPARED_CHARS])
        elif isinstance(e, ToolCall):
            parts.append(f"{e.tool} {json.dumps(e.arguments, sort_keys=True, default=str)}")
        elif isinstance(e, ToolResult):
            parts.append(f"{e.status} {e.payload[:_COMPARED_CHARS]}")
    return set(_TOKEN.findall(" ".join(parts).lower()))


# Every language's closed-class words (pronouns, auxiliaries, determiners): "you" shared with a
# customer's "can we borrow them from you?" says nothing of what a turn is about.
_CLOSED_CLASS = STOPWORDS.union(*FUNCTION_WORDS.values())


def _content(words: set[str]) -> set[str]:
    """The words that carry what a turn is about: numbers, and words of three letters or more
    other than the commonest and the closed-class ones (`FUNCTION_WORDS`): an agent's idle
    "That is me done for now, if you think of anything else" shares only those with the task."""
    return {w for w in words if any(c.isdigit() for c in w) or (len(w) >= 3 and w not in _CLOSED_CLASS)}


def _work(trace: Trace, stop: int) -> set[str]:
    """What the team is working on up to event `stop`: the task it was given (the user's
    messages), what its tools were asked and answered, and what the agents said."""
    task = " ".join(e.content[:_COMPARED_CHARS] for _, e in users_words(trace, stop))
    return _content(_turn_output(trace, -1, stop) | set(_TOKEN.findall(task.lower())))


# what a turn hands over as its work, apart from the words around it: a fenced code block, a
# phrase of three words or more in double quotes or bold (a draft line, a tagline, a title)
_ARTEFACT = re.compile(r"```[^\n]*\n(.*?)```|\"([^\"\n]*\S\s+\S+\s+\S[^\"\n]*)\"|"
                       r"\u201c([^\u201d\n]*\S\s+\S+\s+\S[^\u201d\n]*)\u201d|\*\*([^*\n]*\S\s+\S+\s+\S[^*\n]*)\*\*",
                       re.DOTALL)


def artefacts(trace: Trace, start: int, stop: int) -> set[str]:
    """The artefacts (`_ARTEFACT`) the agents' messages among events start+1..stop-1 hand over,
    each as its words and numbers in order: the same draft however it is quoted or set."""
    return {" ".join(_TOKEN.findall("".join(g).lower())) for e in trace.events[start + 1:stop]
            if isinstance(e, Message) and e.role == "assistant" for g in _ARTEFACT.findall(e.content)} - {""}


def resent(trace: Trace, turns: list[tuple[int, AgentTurn]], start: int, stop: int) -> int | None:
    """The first of turns[start:stop] that hands over only artefacts its agent had already handed
    over in the stretch (the same draft again, in new words around it: "You're right, here's a
    tighter version: ..."); None when every turn brings a new one or none."""
    bounds = [idx for idx, _ in turns] + [len(trace.events)]
    given: dict[str, set[str]] = {}
    for k in range(start, stop):
        made = artefacts(trace, bounds[k], bounds[k + 1])
        earlier = given.setdefault(turns[k][1].agent, set())
        if made and made <= earlier:
            return k
        earlier |= made
    return None


def coded_order(spec: WorkflowSpec, agents: set[str]) -> bool:
    """Does the app's code, not the agents, say who speaks next among these agents: a fixed
    (round-robin) pattern, or every hand-over the spec finds out of each of them made by the
    app's own choice (`sequence`: an AG2 speaker-selection function, a chat sequence)? Then the
    team goes round by design, as a round-robin does: its going on without end is its stop
    condition's matter, not an agent's loop. A graph's edges are left out: a LangGraph router
    may route on what its model said."""
    if spec.system.pattern == "fixed_order":
        return True
    out = [d for d in spec.delegations if d.from_ in agents]
    return bool(out) and {d.from_ for d in out} >= agents and all(d.trigger == "sequence" for d in out)


def progressed(trace: Trace, turns: list[tuple[int, AgentTurn]], start: int, stop: int,
               p: int) -> bool:
    """Did the speaker cycle over turns[start:stop] make progress? A turn makes progress when
    it brings a word or number its agent had not said in the stretch and is about the work: a
    new tool call or result, or a message that shares a word with the task and what the team
    made of it up to the cycle's second round (a new draft, the plan's next step, "open result
    2" after "open result 1"). A turn of new words about nothing of the work ("All done here.",
    then "That's everything from me.") is an agent with nothing left to do, however it words
    it. An orchestrator speaking between every worker turn goes round a cycle by design and
    progresses while its instructions or the results are new; a loop is the same messages
    again, or idle ones: more than half of the turns after the first round bring nothing new.
    When a turn of the stretch hands over the very artefact its agent handed over before
    (`resent`: the same draft, code or line in new courtesy words), the work is that artefact,
    and progress is read from it, not from the wrapping: a turn whose round (it and the p - 1
    turns before it) brought no new artefact brings nothing new, however new its words."""
    bounds = [idx for idx, _ in turns] + [len(trace.events)]
    work = _work(trace, bounds[min(start + p, stop)])
    said: dict[str, set[str]] = {}
    by_artefact = resent(trace, turns, start, stop) is not None
    handed: set[str] = set()
    fresh: list[bool] = []  # per turn: did it hand over an artefact not seen in the stretch
    stalled = 0
    for k in range(start, stop):
        out = _turn_output(trace, bounds[k], bounds[k + 1])
        earlier = said.setdefault(turns[k][1].agent, set())
        made = artefacts(trace, bounds[k], bounds[k + 1]) if by_artefact else set()
        fresh.append(bool(made - handed))
        handed |= made
        if k >= start + p:
            acted = any(isinstance(e, (ToolCall, ToolResult)) for e in trace.events[bounds[k] + 1:bounds[k + 1]])
            if not out - earlier or not (acted or _content(out) & work) or by_artefact and not any(fresh[-p:]):
                stalled += 1
        earlier |= out
    return 2 * stalled <= stop - start - p


def loops(trace: Trace, spec: WorkflowSpec | None) -> list[Failure]:
    out: list[Failure] = []
    chat = _chats(trace)
    # A fixed-order (round-robin) team, or one whose order the app's code gives, cycles by
    # design; its unbounded runs are missing termination, not loops.
    if spec is None or not coded_order(spec, {t.agent for _, t in _indexed(trace, AgentTurn)}):
        # Each chat of its own (0.2-style sequences and nested chats) is judged by itself, and
        # a two-agent chat alternates its two parties by design, however long: how long it goes
        # on is a termination matter, not a loop.
        parties = {e.chat: {e.sender, e.recipient} for e in trace.events if isinstance(e, ChatStart)}
        by_chat: dict[str | None, list[tuple[int, AgentTurn]]] = {}
        for idx, t in _indexed(trace, AgentTurn):
            by_chat.setdefault(chat[idx], []).append((idx, t))
        seen: set[tuple[str, ...]] = set()
        for c, turns in by_chat.items():
            out += _speaker_cycles(trace, turns, parties.get(c, set()), seen)
    calls: dict[tuple[str | None, str, str, str], list[int]] = {}
    for i, c in _indexed(trace, ToolCall):
        # a chat of its own (0.2-style sequences and nested chats) starts from a clean history:
        # asking again there is not repeating a finished step
        key = (chat[i], c.agent, c.tool, json.dumps(c.arguments, sort_keys=True, default=str))
        calls.setdefault(key, []).append(i)
    for (_chat, agent, tool, _args), idx in calls.items():
        if len(idx) >= MIN_IDENTICAL_CALLS:
            out.append(Failure(
                category="agent_task_execution", root_cause="Repetitive Execution of Completed Tasks",
                detector="loop", evidence=tuple(idx), scenario_id=trace.scenario_id,
                elements=("tool", agent, tool),
                description=f"{agent} called {tool} {len(idx)} times with identical arguments: "
                "it repeats a finished step instead of using the result",
            ))
    return out


def empty_utterances(trace: Trace, spec: WorkflowSpec | None) -> list[Failure]:
    turns = _indexed(trace, AgentTurn)
    streak: dict[str, list[int]] = {}
    out = []
    for k, (i, turn) in enumerate(turns):
        # to the agent's own next turn: a run started in parallel (an input guardrail's checker
        # agent) takes turns while this one is still writing, and its output comes after them
        end = next((j for j, t in turns[k + 1:] if t.agent == turn.agent), len(trace.events))
        span = trace.events[i + 1:end]
        productive = any(
            (isinstance(e, Message) and e.agent == turn.agent and e.content.strip())
            or (isinstance(e, (ToolCall, RestrictedAttempt)) and e.agent == turn.agent)
            or (isinstance(e, DelegationEvent) and e.from_ == turn.agent)
            for e in span)
        run = streak.setdefault(turn.agent, [])
        if productive:
            run.clear()
            continue
        run.append(i)
        if len(run) == MIN_EMPTY_TURNS:
            out.append(Failure(
                category="agent_task_execution", root_cause="Response Omission",
                detector="empty_utterances", evidence=tuple(run), scenario_id=trace.scenario_id,
                elements=(turn.agent,),
                description=f"{turn.agent} produced no output in {MIN_EMPTY_TURNS} consecutive "
                "turns of its own",
            ))
    return dedupe(out)


# -- tools --------------------------------------------------------------------------------------

def restricted_calls(trace: Trace, spec: WorkflowSpec | None) -> list[Failure]:
    out = []
    for i, a in _indexed(trace, RestrictedAttempt):
        how = (f"a probe: masfuzz offered it as a refusing stub (--restricted probe), so the app "
               f"as written cannot make this call, but {a.agent} reached for a tool it must not "
               "use" if a.mode == "probe" else "the call really ran")
        # the app's even on a probe (see `attribution`): its loops on the stub are the harness's.
        # Not weighed against the agent's instructions as a misroute is (`specified`): the
        # probe asks whether the app keeps an agent off a tool it must not use, and an agent
        # that takes the tool it is offered against its routing rules is that very defect; but
        # a tool only a description names is the model's reading (`probe_not_told`)
        lure = probe_not_told(spec, trace, a.agent, a.tool) if a.mode == "probe" else ""
        out.append(Failure(
            category="restricted_tool_call", root_cause="Restricted Tool Access",
            detector="restricted_tool_call", evidence=(i,), scenario_id=trace.scenario_id,
            elements=(a.agent, a.tool, a.mode), attribution="harness" if lure else "sut", because=lure,
            description=f"{a.agent} called {a.tool}, a tool it does not own ({how})",
        ))
    return dedupe(out)


def unrecovered_tool_errors(trace: Trace, spec: WorkflowSpec | None) -> list[Failure]:
    end = _end(trace)
    end_i = end[0] if end else len(trace.events)
    # a rejection of the very form the tool documents is the tool's defect (Tool Specification
    # Mismatch), one fault: the caller did as documented, and its reply to it is no second one
    documented = {f.step for f in tool_doc_mismatch(trace, spec)}
    out = []
    for i, r in _indexed(trace, ToolResult):
        if r.status != "error" or i in documented or _the_bound(trace, i):
            continue
        # Recovery needs the system to go on: a model turn, call or hand-over after the error.
        went_on = any(isinstance(e, (Message, ToolCall, DelegationEvent, AgentTurn))
                      and getattr(e, "role", "assistant") == "assistant"
                      for e in trace.events[i + 1:end_i])
        gave_up = None if r.fault else _gave_up(trace, i + 1, end_i)
        relayed = None if r.fault else _relayed(trace, i, end_i)
        witness = robustness_witness(trace, r.agent, r.tool)
        if went_on and gave_up is None and relayed is None and witness.no_leak \
                and witness.no_crash:
            continue
        why = ("the final reply leaks the raw error marker" if not witness.no_leak
               else "the run crashed after it" if not witness.no_crash
               else "the agent only apologised or said it could not" if gave_up is not None
               else "the reply only passes the raw error on" if relayed is not None
               else "the run ended right after it")
        gave_up = gave_up if gave_up is not None else relayed
        # an argument the model wrote off the tool's documented form, which the tool refused as
        # it should: a reply that says it did not work passes the model's error on honestly
        because = rejected_off_form(trace, spec, i) if went_on and gave_up is not None \
            and witness.no_leak and witness.no_crash else ""
        leaks = [j for j, m in _indexed(trace, Message)
                 if j > i and m.role == "assistant" and not witness.no_leak
                 and "MASFUZZ_INJECTED" in m.content]
        if r.fault and leaks and witness.no_crash and all(trace.events[j].agent == r.agent for j in leaks):
            # masfuzz's fault marker in the replies of the agent whose own lines say what to say
            # when this tool fails: the model in use passed the raw error on against them
            because = model_ignored_named_failure(trace, spec, r.agent, r, "", did="it passed the raw error on instead")
        out.append(Failure(
            category="tool_invocation", root_cause="Tool Execution Error",
            detector="unrecovered_tool_error",
            evidence=(i, *leaks, *([gave_up] if gave_up is not None else []),
                      *([end_i] if end else []), *_call_of(trace, i)),
            scenario_id=trace.scenario_id, elements=(r.agent, r.tool, why),
            **({"attribution": "harness", "because": because} if because else {}),
            description=f"{r.tool} failed for {r.agent} (event {i}"
            + (f", injected fault {r.fault}" if r.fault else "") + f") and {why}: "
            "the error is not handled",
        ))
    return dedupe(out)


def _the_bound(trace: Trace, i: int) -> bool:
    """Is the tool error at `i` the bound that stopped the run, raised through the tool that ran
    a nested agent (PydanticAI's `UsageLimitExceeded` out of `await cards_agent.run(...)` in a
    tool, an Agents SDK `MaxTurnsExceeded` out of an agent run as a tool)? The run ended at a
    turn or message bound whose stop message the error carries, and nothing acted after it:
    `missing_termination` (or the loop the bound stopped) is that fault, not a tool's."""
    end = _end(trace)
    if end is None or end[1].reason not in BOUND_REASONS or not end[1].detail:
        return False
    said = (trace.events[i].payload or "").split(": ", 1)[-1].strip()
    return bool(said) and said in end[1].detail and not any(
        isinstance(e, (Message, ToolCall, DelegationEvent, AgentTurn)) for e in trace.events[i + 1:end[0]])


def _call_of(trace: Trace, i: int) -> tuple[int, ...]:
    """The call the tool result at `i` answers (its arguments may show whose the error is)."""
    r = trace.events[i]
    for j in range(i - 1, -1, -1):
        c = trace.events[j]
        if isinstance(c, ToolCall) and (c.call_id == r.call_id if r.call_id
                                        else (c.agent, c.tool) == (r.agent, r.tool)):
            return (j,)
    return ()


def _answer_of(trace: Trace, i: int) -> ToolResult | None:
    """The result answering the tool call at `i`: by its call id, else the next result of the
    same agent and tool."""
    c = trace.events[i]
    return next((r for r in trace.events[i + 1:] if isinstance(r, ToolResult)
                 and (r.call_id == c.call_id if c.call_id and r.call_id else (r.agent, r.tool) == (c.agent, c.tool))),
                None)


def _relayed(trace: Trace, i: int, stop: int) -> int | None:
    """After a real tool error, a reply whose words are only the error's own (the raw exception
    text, "'SKU-9999'" for a KeyError) before any retry or other route: the error is passed to
    the user, not handled. The first such reply, else None. A reply that adds words of its own
    (an explanation, an alternative, a question) is not this."""
    error = _words(trace.events[i].payload)
    if not error:
        return None
    for j in range(i + 1, stop):
        e = trace.events[j]
        if isinstance(e, (ToolCall, DelegationEvent)):
            return None
        if isinstance(e, Message) and e.role == "assistant" and e.content.strip():
            if e.agent != trace.events[i].agent and \
                    e.content.strip() == (trace.events[i].payload or "").strip():
                continue  # the executor's reply, as a log records it: the result, not a reply to it
            said = _words(e.content)
            return j if said and said <= error | {"error", "exception"} else None
    return None


def _words(text: str) -> set[str]:
    return set(_TOKEN.findall((text or "").lower()))


def _gave_up(trace: Trace, start: int, stop: int) -> int | None:
    """After a real tool error, the system's replies only apologise or say it could not ("Sorry,
    the change did not go through"), without a retry, another route (a call, a hand-over), an
    answer of another kind or a question to the user (a closing offer of more help is none:
    `closing_offers`): the first such reply, else None. An
    apology reports the error; it does not recover from it. (After an injected fault it does:
    the fault is masfuzz's and cannot be undone, and saying so honestly is the graceful
    degradation the robustness witness asks for.)"""
    first = None
    for j in range(start, stop):  # stops at the first sign of recovery
        e = trace.events[j]
        if isinstance(e, (ToolCall, DelegationEvent)):
            return None
        if isinstance(e, Message) and e.role == "assistant" and e.content.strip():
            # a closing offer ("Is there anything else I can do for you?") asks for nothing
            # the failed task lacks: it is the sign-off of the apology, not a question that
            # takes the task on
            if not GIVE_UP.search(e.content) or any(is_question(s) for s in closing_offers(sentences(e.content))):
                return None
            first = j if first is None else first
    return first


_JSON_TYPES: dict[str, tuple[type, ...]] = {
    "string": (str,), "integer": (int,), "number": (int, float), "boolean": (bool,),
    "array": (list, tuple), "object": (dict,), "null": (type(None),),
}


# The Python types a framework's validator converts a JSON value to, for the JSON types whose
# values a model may write as text: pydantic's lax mode (which the Agents SDK, LangChain,
# PydanticAI and AgentChat validate tool arguments with) reads "20.00" as the number 20.0.
_LAX_TYPES: dict[str, Any] = {"integer": TypeAdapter(int), "number": TypeAdapter(float),
                              "boolean": TypeAdapter(bool)}


def _lax_reads(value: Any, name: str) -> bool:
    """Does pydantic's lax mode read `value` (text) as a value of the JSON type `name`?"""
    adapter = _LAX_TYPES.get(name)
    if adapter is None or not isinstance(value, str):
        return False
    try:
        adapter.validate_python(value)
    except ValidationError:
        return False
    return True


def schema_violations(value: Any, schema: dict[str, Any], path: str = "", lax: bool = False) -> list[str]:
    """What `value` breaks of a JSON schema, as `path: rule` (the parts of JSON Schema that tool
    parameter schemas use: type, enum, required, properties, additionalProperties, items).
    `lax`: a value written as text that the validator's lax mode converts to the type
    (`_lax_reads`: "20.00" for a number, "3" for an integer, "true" for a boolean) is of it."""
    if not isinstance(schema, dict):
        return []
    where = path or "arguments"
    types = schema.get("type")
    if types is not None:
        names = types if isinstance(types, list) else [types]
        ok = any(isinstance(value, _JSON_TYPES.get(n, object))
                 and not (n in ("integer", "number") and isinstance(value, bool))
                 or lax and _lax_reads(value, n)
                 for n in names)
        if not ok:
            return [f"{where}: not {'/'.join(names)}"]
    if "enum" in schema and value not in schema["enum"]:
        return [f"{where}: not one of the enum values"]
    out = []
    for alt in ("anyOf", "oneOf"):
        if alt in schema and all(schema_violations(value, s, path, lax) for s in schema[alt]):
            out.append(f"{where}: matches no {alt} branch")
    if isinstance(value, dict):
        props = schema.get("properties", {})
        out += [f"{path + '.' if path else ''}{k}: required" for k in schema.get("required", ())
                if k not in value]
        for k, v in value.items():
            if k in props:
                out += schema_violations(v, props[k], f"{path + '.' if path else ''}{k}", lax)
            elif schema.get("additionalProperties") is False:
                out.append(f"{path + '.' if path else ''}{k}: not a declared parameter")
    if isinstance(value, (list, tuple)) and isinstance(schema.get("items"), dict):
        for n, item in enumerate(value):
            out += schema_violations(item, schema["items"], f"{where}[{n}]", lax)
    return out


def tool_argument_mismatch(trace: Trace, spec: WorkflowSpec | None) -> list[Failure]:
    """A call whose arguments break its tool's schema. A value written as text that the
    framework's validation converts to the schema's type (a number as "20.00": `_lax_reads`) breaks
    it only when the tool did not take it: the call then did what the model meant, and the same
    value a model may write either way is no defect of the app's. A call the tool answered with
    an error (the framework refused the text, or the tool failed on a string) still breaks it."""
    if spec is None:
        return []
    schemas = {t.id: t.parameters for t in spec.tools if t.parameters}
    out = []
    for i, c in _indexed(trace, ToolCall):
        if c.tool not in schemas:
            continue
        answer = _answer_of(trace, i)
        taken = answer is not None and answer.status == "ok" and not answer.fault
        problems = schema_violations(c.arguments, schemas[c.tool], lax=taken)
        if problems:
            out.append(Failure(
                category="tool_invocation", root_cause="Tool Specification Mismatch",
                detector="tool_argument_mismatch", evidence=(i,), scenario_id=trace.scenario_id,
                elements=(c.agent, c.tool, *sorted(problems)),
                description=f"{c.agent} called {c.tool} with arguments that violate its schema: "
                + "; ".join(problems),
            ))
    return dedupe(out)


# -- runtime crash ------------------------------------------------------------------------------

# The exceptions a framework raises when the model's output breaks what the framework parses it
# into, not when the app's code fails: the Agents SDK's ModelBehaviorError (invalid JSON for a
# tool's or a hand-off's input, a tool that does not exist), LangChain's OutputParserException.
# PydanticAI's UnexpectedModelBehavior is its adapter's to tell apart (output retries spent are
# the model's; a tool's own ModelRetry spent is the tool's): `HARNESS_CAUSE`.
MODEL_OUTPUT_ERRORS = frozenset({"ModelBehaviorError", "OutputParserException"})


def runtime_crash(trace: Trace, spec: WorkflowSpec | None) -> list[Failure]:
    end = _end(trace)
    crashed = end is not None and end[1].reason in ("crash", "timeout")
    errors = [(i, e) for i, e in _indexed(trace, ErrorEvent)
              if crashed or e.kind in ("crash", "timeout")]
    if not errors and not crashed:
        return []
    reason = end[1].reason if crashed else errors[0][1].kind
    kinds = sorted({e.kind for _, e in errors})
    agents = sorted({e.agent for _, e in errors if e.agent})
    first = errors[0][1].message if errors else (end[1].detail if end else "")
    evidence = tuple(i for i, _ in errors) + ((end[0],) if crashed else ())
    # Two crashes are one defect only if the same tool was running and it died the same way.
    running = running_tool(trace.events)
    how = re.search(r"SIG[A-Z]+|sys\.exit\(-?\d+\)|status -?\d+", first or "")
    where = ((f"tool:{running.agent}.{running.tool}",) if running else ()) + \
        ((how.group(0),) if how else ())
    answering = trace.meta.get(ENDED_IN_MODEL_CALL)
    because = trace.meta.get(HARNESS_CAUSE, "")
    if trace.meta.get(NOT_INJECTED_CALLS):
        because = NOT_INJECTED_BECAUSE
    if not because and running is None and (broke := next((k for k in kinds if k in MODEL_OUTPUT_ERRORS), None)):
        because = (f"the framework raised {broke} because the model's output broke the schema it parses "
                   "it with (unparseable JSON, a tool or hand-off input missing a required field, a tool "
                   "that does not exist): the model under test's mistake, not a crash of the app")
    if reason == "timeout" and running is None and answering is not None and _model_bound(trace):
        because = (f"masfuzz's time limit (--timeout) ended the run while {answering or 'an agent'} "
                   "waited for its model's answer: the model in use is slower than the limit, "
                   "the app did not hang; raise --timeout")
    # the stacks at the kill show the app's own code holding the run (a sleep, a blocking wait):
    # the description names that frame, not a guess that the app never ends
    held = str((trace.meta.get(STACKS_AT_KILL) or {}).get("where", "")).startswith("in the app's")
    if reason == "timeout" and not because and not held and running is None \
            and all(isinstance(e, (ErrorEvent, TerminationEvent)) for e in trace.events):
        because = EMPTY_TIMEOUT_BECAUSE
    if reason == "timeout" and not because and running is None and _looping_at_end(trace, spec):
        return []  # the loop's end, which `loops` reports: the app went round until it was stopped
    turns = len(trace.speaker_order)
    return [Failure(
        category="runtime_crash", root_cause="Runtime Crash", detector="runtime_crash",
        evidence=evidence, scenario_id=trace.scenario_id,
        attribution="harness" if because else "sut", because=because,
        elements=(reason, *kinds, *agents, *where),
        description=f"the system under test stopped with a {reason}"
        + (f" ({', '.join(kinds)})" if kinds else "")
        + (f" in {', '.join(agents)}" if agents else "")
        + (f": {textwrap.shorten(first, 200, placeholder=' ...')}" if first else "")
        + (f" (after {turns} agent turns and {trace.usage.model_calls} model calls in "
           f"{trace.usage.wall_time:g} s" + (")" if held else ": the app did not end by itself, "
                                               "e.g. it has no turn or message limit)")
           if reason == "timeout" and not because and running is None and turns else ""),
    )]


def _looping_at_end(trace: Trace, spec: WorkflowSpec | None) -> bool:
    """Was a timed-out run still going round a loop when it was stopped: a loop (`loops`: an
    identical tool call repeated, a speaker cycle without progress) whose repetitions reach the
    run's last tool call or last agent turn? Then the time limit (masfuzz's, or a framework's
    call limit racing it) only ended a loop that would not end by itself: the defect is the loop,
    not a crash of the app."""
    return _reaches_end(trace, loops(trace, spec))


def _reaches_end(trace: Trace, found_loops: list[Failure]) -> bool:
    """Do a loop's repetitions reach the run's last tool call or last agent turn?"""
    last = {max((i for i, _ in _indexed(trace, kind)), default=-1) for kind in (ToolCall, AgentTurn)} - {-1}
    return any(last & set(f.evidence) for f in found_loops)


def _model_bound(trace: Trace) -> bool:
    """Was a timed-out run's time the model's? Only when waiting for the model took most of it
    and the model is slow for the limit: at its pace the limit holds fewer than
    `MODEL_BOUND_CALLS` calls, too few for a multi-agent run to end in. A model that answers at
    once (a scripted one) leaves the time to the app, which went round without ending (hundreds
    of calls), and whether the kill then lands in a model call is chance. A trace without the
    model's time (an executor that does not report it) keeps the verdict of where the kill
    landed."""
    seconds = trace.meta.get(MODEL_SECONDS)
    if seconds is None:
        return True
    wall = trace.usage.wall_time
    calls = trace.usage.model_calls + 1  # the finished ones and the one the kill cut off
    return 2 * seconds >= wall and seconds / calls * MODEL_BOUND_CALLS >= wall


# A timed-out run whose trace holds nothing but the executor's own end (no user message, no
# turn): masfuzz's limit cancelled the run before its adapter returned, and the cancel dropped
# what it had recorded. A timeout is the limit's end, not a crash, and nothing left shows what
# the app did (went round, as a loop, or hung): not a finding against the app.
EMPTY_TIMEOUT_BECAUSE = ("masfuzz's time limit (--timeout) cancelled the run and the cancel dropped every "
                         "event it had recorded (the trace holds not even the user's message): a timeout is "
                         "the limit's end, not a crash, and nothing recorded shows what the app did")


NOT_INJECTED_BECAUSE = ("model not injected: a model client of the app that masfuzz could not "
                        "replace called its provider; masfuzz refused the call (no provider was "
                        "reached, no key used)")


def model_not_injected(trace: Trace, spec: WorkflowSpec | None) -> list[Failure]:
    """Model calls that bypassed masfuzz (`masfuzz.sutenv`): masfuzz's own limitation, shown."""
    refused = trace.meta.get(NOT_INJECTED_CALLS)
    if not refused:
        return []
    agents = sorted({e.agent for e in trace.events if carries_refusal(e) and e.agent})
    return [Failure(
        category="runtime_crash", root_cause="Runtime Crash", detector="model_not_injected",
        scenario_id=trace.scenario_id, elements=("not_injected", *agents), attribution="harness",
        because=NOT_INJECTED_BECAUSE,
        description=f"model not injected for {', '.join(agents) or 'an agent masfuzz could not tell'}: "
        f"{refused} model call(s) of the app's own client(s) reached a provider's URL and were refused",
    )]


DETECTORS: list[Detector] = [
    model_not_injected,
    missing_termination,
    loops,
    empty_utterances,
    premature_termination,
    restricted_calls,
    unrecovered_tool_errors,
    tool_argument_mismatch,
    runtime_crash,
    *SEMANTIC,  # runs that end normally: claims vs results, hand-overs, tool documentation
    *INSTRUCTED,  # the agents' own instructions: participation, order, routing
]


def plugin_detectors() -> list[Detector]:
    """The detectors plugins add (`masfuzz.detectors` entry points, `masfuzz.plugins`), after
    the built-in ones; a plugin that is no function is one line when first used."""
    from masfuzz.plugins import load_all, not_a

    found = load_all("masfuzz.detectors")
    for name, d in found:
        if not callable(d) or isinstance(d, type):
            raise not_a("masfuzz.detectors", name, d)
    return [d for _, d in found]


def detect(trace: Trace, spec: WorkflowSpec | None = None) -> list[Failure]:
    """Every deterministic detector over one trace, each finding attributed and blamed (who and
    when), de-duplicated by fingerprint."""
    with judging():
        found = [f.model_copy(update={"decided_by": UNCONFIRMED if f.detector in PROPOSING_DETECTORS else RULE})
                 for d in (*DETECTORS, *plugin_detectors()) for f in d(trace, spec)]
    return _shows_fresh(trace, spec, dedupe(attribute(trace, blame_all(trace, _one_fault(trace, found)))))


def _shows_fresh(trace: Trace, spec: WorkflowSpec | None, found: list[Failure]) -> list[Failure]:
    """`found` with each finding set aside because a tool answered it from what earlier runs of
    the process left (`attribution.carried_over`) given back to the app when the same fault
    (fingerprint) shows on the run's counterfactual twin, those calls answered as they first were
    (`attribution.fresh_answers`): the earlier runs' state changed the answer's details, not what
    it says of the outcome (a waiting list's place 5 instead of 4 is still a waiting list, and
    the claim of a pitch let contradicts both). A fault that needs the answer the state made
    (the last van slot taken by an earlier run) stays the settings'."""
    held = [f for f in found if f.attribution == "settings" and carried_over(trace, f)]
    if not held:
        return found
    again = {f.fingerprint for f in detect(fresh_answers(trace), spec) if f.attribution == "sut"}
    return [f.model_copy(update={"attribution": "sut", "because": ""}) if f in held and f.fingerprint in again
            else f for f in found]


def _one_fault(trace: Trace, found: list[Failure]) -> list[Failure]:
    """One fault, one failure: its root cause, not its symptoms too.

    A run stopped at a bound while an agent was still repeating the same tool call (`loops`),
    the repetitions reaching the run's last tool call or agent turn, never concluded because of
    that loop: the bound only ended it, and the Max Round Limit Exceeded that
    `missing_termination` reads from the stop (a bound too low, or a condition that never fires)
    is the loop's symptom, left out, its bound named in the loop's description (LangGraph's
    recursion limit ending an agent that polls a tool "until it says IN_STOCK"). A speaker cycle
    keeps both: who keeps handing the floor back is the bound's own finding (`blame`).

    A run that ended before a member it needed acted (Premature Termination, at the end)
    often ends with nothing said too: the empty final output is that early end's symptom, not
    a second fault (an ADK tool that skips the summary ends the turn on its answer), so its
    Response Omission at the same end is left out."""
    end = _end(trace)
    cut = [f for f in found if f.detector == "loop" and f.elements[:1] == ("tool",) and _reaches_end(trace, [f])]
    if end is not None and cut and any(f.root_cause == "Max Round Limit Exceeded" and f.detector == "missing_termination"
                                       for f in found):
        found = [f.model_copy(update={"description": f"{f.description}; it was still going round when "
                                                     f"{_stopped_by(trace, end[1])} stopped the run"}) if f in cut else f
                 for f in found if not (f.root_cause == "Max Round Limit Exceeded"
                                        and f.detector == "missing_termination")]
    if end is None or not any(f.root_cause == "Premature Termination" and end[0] in f.evidence for f in found):
        return found
    return [f for f in found if not (f.root_cause == "Response Omission" and f.detector == "premature_termination"
                                     and f.evidence == (end[0],))]
