"""Semantic oracles over what agents said and tools answered, for bugs whose runs end normally.

A run that completes can still be wrong: an agent reports a booking the tool refused, a fact
the user gave is lost when one agent hands the customer to the next, a tool rejects arguments in
the very format its own documentation prescribes. None of these stops the run, so the bound,
crash and restricted-call detectors (`detectors.py`) never see them. Each oracle here reads the
trace's words against the tool results and the system's specification (tool descriptions and
schemas, permissions), decides mechanically, names the blamed agent (`Failure.agent`), the
decisive event (`Failure.step`) and all events that show it (`Failure.evidence`), and leans
towards silence (`wording.py`): soundness over reach.
"""

from __future__ import annotations

import functools
import json
import re
from typing import Any

from masfuzz.oracles.failure import Failure, dedupe
from masfuzz.oracles.instructed import (CONDITIONAL, NEGATED, beside_call, clauses, instructed_dependencies,
                                       instructed_order, misrouted_request, with_prompts)
from masfuzz.oracles.onepass import once_per_object
from masfuzz.oracles.specified import model_ignored_named_failure
from masfuzz.oracles.wording import (
    ACTIONS, CHECK_PASSED, FAILED_TEXT, FIND_VERBS, UNSETTLED_MARK, answer_given, GIVE_UP, HOLDING_STATES, NONE_FOUND, STOPWORDS, SURE_DONE, about_tool, checks, claims_done,
    empty_result, holds, holds_unnamed, reassures_beside_failure, says_failed, is_question, mentions, offers_more, owners, participles, payload_failure, plain,
    says_done_by_verb, says_held, sentences, status_line, stem, structured, tool_actions, tool_job, tool_objects,
    tools_of, unconfirmed_state, words, date_renderings, dates_in_words, in_english, leaf_values, reply_fields, nested_fields,
)
from masfuzz.oracles.wording import (
    RESULT_OF, DONE_STATES, ENUM, FAILED_STATES, HELD_STATES, HOLDING, HOLD_VERBS, MESSAGE_KEYS, OUTCOME_KEYS, STATE_KEYS,
    STATUS_CODE_KEYS, TICKED_ITEM,
    actions_claimed, outcome_key,
)
from masfuzz.spec.model import ToolSpec, WorkflowSpec
from masfuzz.trace import (
    HANDOVER_INPUTS, OFFERED_TOOLS, DelegationEvent, Message, TerminationEvent, ToolCall, ToolResult, Trace, received_text,
    running_tool, said_by_user, tool_results, user_text,
)

INCORRECT_VERIFICATION = "Incorrect Verification"
INFORMATION_LOSS = "Information Loss at Hand-over"


def _failed(r: ToolResult, spec: WorkflowSpec | None = None, *, empty: bool = False) -> str | None:
    """Why a tool result is a failure, or None. A refused probe call (`blocked`) is masfuzz's
    stub answering, not the app's tool. With `empty`, an answer with nothing in it from a tool
    whose job was to find or do something (`empty_result`), or an action tool's state that does
    not say the action happened (`unconfirmed_state`), is one too: what a claim of the thing
    found or done contradicts, though the tool itself did not fail."""
    if r.status == "error":
        return "an error" + (f" ({' '.join(r.payload.split())[:80]})" if r.payload else "")
    if r.status == "ok":
        if why := payload_failure(r.payload, r.tool):
            return f"a failure in its answer ({why})"
        if empty and (why := empty_result(r.payload, r.tool, spec)):
            return f"nothing in its answer ({why})"
        if empty and (why := unconfirmed_state(r.payload, r.tool, spec)):
            return f"a state that is not its action done ({why})"
    return None


def _claims(trace: Trace) -> list[tuple[int, str, str]]:
    """(event index, agent, text) of everything an agent told: its messages, and the final
    output when no message already said it (blamed on the last speaker). A message that only
    repeats a tool's answer given before it (AgentChat's tool-call summary) is the tool's words,
    not a claim; an agent run as a tool says its reply first, and the tool's answer repeats it.
    A ReAct-style reply tells only its "Final Answer:" (`answer_given`): its thoughts and the
    observation it quotes are its working; a reply that opens with a recap of the story so far
    tells only its new part ("Now: ...")."""
    payloads: set[str] = set()
    out, said = [], set()
    for i, e in enumerate(trace.events):
        if isinstance(e, ToolResult) and e.payload.strip():
            payloads.add(e.payload.strip())
        if isinstance(e, Message) and e.role == "assistant" and e.agent and e.content.strip():
            said.add(e.content.strip())
            if e.content.strip() not in payloads:
                out.append((i, e.agent, answer_given(e.content)))
        elif isinstance(e, TerminationEvent) and (e.final_output or "").strip() \
                and e.final_output.strip() not in said and trace.speaker_order:
            out.append((i, trace.speaker_order[-1], answer_given(e.final_output)))
    return out


def _handover_tools(trace: Trace) -> set[str]:
    """Tools whose call handed the floor to another agent (a log's `transfer_to_refunds`): they
    name an agent, not an action, so they are no rival for what a claim is about."""
    ev = trace.events
    return {e.tool for i, e in enumerate(ev[:-1])
            if isinstance(e, ToolCall) and isinstance(ev[i + 1], DelegationEvent)}


def claimed_outcome(trace: Trace, spec: WorkflowSpec | None) -> list[Failure]:
    """Kind 1 — an agent claims an action succeeded that its tool, in the same run, reported
    failed: the tool's result had status error, or its payload said so (`{"ok": false}`, a
    failed `status`, an `error`, "not available", "declined"), and a later message of an agent
    states in the past, without negation, question, hedge or condition, that the tool's action
    was done ("Your seat has been changed to 14C"). The claim must name the tool's action (or
    claim success in general words and name its object: "the seat change went through", or say
    the tool's own verb done, whatever the verb and however it forms its past: "the ticket is
    closed" after close_ticket, "your password has been reset" after reset_password); a
    successful retry of the same tool between the failure and the claim clears it. A tool whose
    job is to find or do something and that answered nothing (`empty_result`: `{"results": []}`,
    "0 rows updated") failed too for a claim of the thing found or done ("I found flight BA117").

    Category agent_task_execution, root cause Incorrect Verification (the agent did not verify
    the outcome it reports). Blamed: the agent that claimed; step: the claim.

    Cannot see: a claim in words its vocabulary lacks ("the exit row is yours now"), a failure a
    tool reports only in a field it does not read (a payload `{"seats_left": 0}`), a bare empty
    answer (`[]`, `None`) from a tool whose documentation does not say it returns, a success that
    is true through a route the trace does not show, or a claim made in a language other than
    English, French, German, Spanish, Italian and Dutch (`wording.ACTIONS`, `FOREIGN_DONE`)."""
    # an executor's report of the code an agent wrote is that code's result (`tool_results`)
    results = tool_results(trace)
    failed = [(i, r, why) for i, r in results if (why := _failed(r, spec, empty=True))]
    if not failed:
        return []
    tools = ({c.tool for c in trace.of_type(ToolCall)} | {r.tool for _, r in results}) - _handover_tools(trace)
    failed_tools = {r.tool for _, r, _ in failed}
    # read clause by clause: a condition in a later clause ("sign the slip when they arrive")
    # does not hedge the claim before it ("Issued - the units are on their way"), nor does a
    # promise joined to it ("... and will be ready on Friday")
    asked = user_text(trace)
    claims = [(ci, agent, text, [c for s in sentences(ARGUMENT_ECHO.sub("", text))
                                 if not (_restated_field(s) and _says_undone(text)) and not _users_sentence(s, asked)
                                 for c in _claim_clauses(s) if not reassures_beside_failure(c, s)
                                 if claims_done(c) or any(says_done_by_verb(c, t) or says_held(c, t, spec)
                                                          for t in failed_tools)])
              for ci, agent, text in _claims(trace)]
    out = []
    for fi, r, why in failed:
        # a successful retry: what is claimed after it is true
        retried = next((j for j, s in results if j > fi and s.tool == r.tool
                        and s.agent == r.agent and not _failed(s, spec, empty=True)),
                       len(trace.events))
        for ci, agent, text, done in claims:
            if ci <= fi:
                continue
            if ci > retried:
                break
            if _quotes_answer(text, r.payload):
                continue  # the failed answer set out verbatim, a code block or a quote: reported
            done = [c for c in done if not _field_quotes_answer(text, c, r.payload)]
            fields = reply_fields(text)
            if fields is not None and _passes_failure_on(fields, r, asked):
                continue  # `{"result": "not held", "state": "WAITLIST"}`, `code: E_ABV_FORMAT`
            # a reply written as fields claims in a field (`booked: true`), which its clauses,
            # cut at the colons of its JSON, would quote in halves
            claim = (_structured_claim(fields, r.tool, spec, tools,
                                       answers=_answers_only(trace, fi, ci, r, agent, spec))
                     if fields is not None else None) \
                or next((s for s in done if about_tool(s, r.tool, spec, tools)), None) \
                or _ticked_item(text, r.tool, tools) \
                or _status_cell(text, r.tool, tools, alone=False) \
                or _invented_reference(trace, ci, text, r.tool, spec, named=True) \
                or _check_passed(trace, fi, ci, text, r)
            if claim is None and _answers_only(trace, fi, ci, r, agent, spec):
                # a success in sure general words ("You're all set") that names nothing is
                # about the one outcome it answers: the claimer's own tool, the only one it called;
                # so is an answer that speaks of the tool's object as if the action held. One
                # that names the object of another action of the claimer's that held (a recap
                # without a label: "The tasting went through earlier. The invitation didn't
                # take.") is about that one
                done = [s for s in done if not _of_another_outcome(s, trace, fi, r, spec)]
                claim = next((s for s in done if (SURE_DONE.search(s) or holds_unnamed(s, r.tool, spec)
                                                  or says_held(s, r.tool, spec)) and not FAILED_TEXT.search(s)
                              and not _presents_found(trace, fi, ci, r, s)), None) \
                    or next((s for s in sentences(text) if TICK.search(s) and plain(s) and not NOT_HELD.search(s)
                             and not FAILED_TEXT.search(s)), None) \
                    or _labelled_claim(text, done) \
                    or _status_cell(text, r.tool, tools, alone=True) \
                    or _invented_reference(trace, ci, text, r.tool, spec, named=False) \
                    or (None if beside_call(trace, ci) else _silent_claim(text, r, spec, asked)) \
                    or _instructed_claim(text, r, agent, spec, trace, asked)
            if claim is None or _restates_state(claim, r.payload) or _relays_answer(claim, r.payload) \
                    or _done_only_in_relayed_words(claim, trace, ci, r.tool, spec):
                continue
            # the model's lapse only when the model wrote the claim: a final answer no message
            # carries may be the app's code's (an Agents SDK `tool_use_behavior` function)
            because = (model_ignored_named_failure(trace, spec, agent, r, why)
                       or _marked_over_relayed(trace, spec, agent, r, why, text)) \
                if isinstance(trace.events[ci], Message) else ""
            out.append(Failure(
                category="agent_task_execution", root_cause=INCORRECT_VERIFICATION,
                detector="claimed_outcome", evidence=(fi, ci), scenario_id=trace.scenario_id,
                elements=(agent, r.tool), agent=agent, step=ci, subject=r.tool,
                **({"attribution": "harness", "because": because} if because else {}),
                description=f"{agent} told the user \"{claim[:120]}\" (event {ci}) but {r.tool} "
                f"returned {why} at event {fi} and was not retried successfully: the claimed "
                "outcome contradicts the tool's result"))
            break
    # one claim is one fault, however many failed results it contradicts: it answers the latest
    # of them (an agent run as a tool relays its own tool's failure in its answer, which the
    # caller then claims over)
    answered = {f.step: f for f in sorted(out, key=lambda f: f.evidence[0])}
    return dedupe([f for f in out if answered[f.step] is f])


def _marked_over_relayed(trace: Trace, spec: WorkflowSpec | None, agent: str, r: ToolResult, why: str,
                         text: str) -> str:
    """Why a claim is the model's lapse when the claimer's instructions tell it, unconditionally,
    to report the failed tool's answer ("Report the result of confirm_loan.", a verb of reporting
    over the tool's result) and its reply does pass the failure on, the very field and value that
    made the answer one (`why`: "state: VOID", "units_issued: 0"), under a success mark or word of
    its model's own ("✅ **Loan** — locked in: loan lx-318; state VOID; ..."). The app told its
    agent to report what the tool said, and it did; the verdict it put on top is the model's
    misreading of the answer, not the app's instruction. "" otherwise: instructions that say what
    to claim, or a reply that leaves the failure out, keep the claim the app's."""
    if spec is None or all(a.id != agent for a in spec.agents):
        return ""
    inner = why[why.find("(") + 1:why.rfind(")")] if "(" in why else ""
    if ":" not in inner:
        return ""
    failing = set(words(inner.replace("_", " ")))
    if not failing or not failing <= set(words(text.replace("_", " "))):
        return ""
    result_of = re.compile(RESULT_OF.replace("{tool}", re.escape(r.tool)), re.IGNORECASE)
    told = with_prompts(spec, trace).agent(agent).instructions or ""
    line = next((x for x in sentences(told) if _TOLD_TO_WRITE.search(x) and result_of.search(x)
                 and not CONDITIONAL.search(x) and not NEGATED.search(x)), None)
    if line is None:
        return ""
    return (f"{agent}'s own instructions tell it to report {r.tool}'s answer (\"{line.strip()[:100]}\"), and its "
            f"reply did pass the failure on ({inner.strip()}) but marked it done: the model in use misread the "
            "answer it relayed, against the app's instruction")


# The arguments of a call echoed after what a line claims ("- [x] return courier (case: DL-0000)"):
# the thing claimed is named before them, and a word of theirs ("case") is no object of the claim.
ARGUMENT_ECHO = re.compile(r"\s*\(\s*[A-Za-z_][\w ]{0,30}?\s*[:=]\s*[^()\n]*\)")
# What a reply sets out as quoted, not as its own words: a fenced code block, an inline code span,
# a quotation in double quotes or in the quotation marks of other languages (« », „ “, ‹ ›, 「 」),
# a block quote's lines.
QUOTED_SPAN = re.compile(r"```[^\n]*\n(.*?)```|`([^`\n]+)`|\u00ab\s?([^\u00bb]+?)\s?\u00bb|\u201e([^\u201c\u201d]+)[\u201c\u201d]"
                         r"|\u2039\s?([^\u203a]+?)\s?\u203a|\u300c([^\u300d]+)\u300d"
                         r"|[\"\u201c]([^\"\u201d]+)[\"\u201d]|^>\s?(.+)$",
                         re.DOTALL | re.MULTILINE)
QUOTED_MIN = 8  # a tool's answer shorter than this, quoted, may be a word of the reply's own
QUOTED_CUT = 40  # a quotation this long that opens the answer word for word is the answer, cut short


USER_SENTENCE_WORDS = 5  # a sentence of the user's this long, said back word for word, is theirs


def _users_sentence(sentence: str, asked: str) -> bool:
    """Is the sentence one the user wrote, said back word for word (a reply that reads out a tool's
    answer echoing the request: "booking Hi! I'm booked on the six-week course (SK-2087) starting 4
    March, but ...")? Its "I'm booked" is the user's account of their booking, not the agent's
    claim of the tool's outcome."""
    said = " ".join(re.findall(r"[\w'-]+", sentence.lower()))
    return len(said.split()) >= USER_SENTENCE_WORDS and said in " ".join(re.findall(r"[\w'-]+", asked.lower()))


def _quotes_answer(text: str, payload: str) -> bool:
    """Does the reply quote the tool's answer whole, in a code block, a code span, quotation
    marks (any language's: "el sistema contestó «...»") or a block quote ("- [x] log_case
    checked" over a fenced `{'logged': False, ...}`)? The answer set out verbatim, or the same
    data re-serialised (JSON for a printed dict), is the failure passed on to whoever reads the
    reply, whatever its checklist ticks: reporting, not claiming. So is a long answer's opening
    quoted word for word and cut short (`QUOTED_CUT` characters or more, an ellipsis or none): the
    quote carries the answer's own fields, and the success words in them are the tool's."""
    answer = re.sub(r"\s+", "", payload or "")
    if len(answer) < QUOTED_MIN:
        return False
    data = structured(payload.strip())
    for m in QUOTED_SPAN.finditer(text or ""):
        span = next(g for g in m.groups() if g is not None)
        quoted = re.sub(r"\s+", "", span)
        if answer in quoted or data is not None and structured(span.strip()) == data:
            return True
        cut = quoted.rstrip("….")
        if len(cut) >= QUOTED_CUT and answer.startswith(cut):
            return True
    return False


def _field_quotes_answer(text: str, clause: str, payload: str) -> bool:
    """Is the clause part of a form's field whose value is the failed tool's answer quoted from
    its opening, whole or cut short (`reason: {'booked': False, 'why': 'patient not on th...`)?
    The success words in it are the answer's own keys and values, cut at its colons into clauses
    ("{'booked'"): the tool's words passed on, not the agent's claim."""
    answer = re.sub(r"\s+", "", payload or "")
    for line in (text or "").splitlines():
        m = _FIELD_LINE.match(line)
        if m is None or clause.strip() not in line:
            continue
        value = re.sub(r"\s+", "", m.group(1)).rstrip("\u2026.")
        if len(value) >= min(QUOTED_CUT, len(answer)) >= QUOTED_MIN and answer.startswith(value):
            return True
    return False


# A line of a form: a short label, a colon, its value (`  reason: ...`, `- why: ...`).
_FIELD_LINE = re.compile(r"^\s*(?:[-*]\s+)?[A-Za-z_][\w -]{0,30}:\s+(\S.*)$")


# A mark that says done by itself (a tick), as a field's value, opening it ("result: ✓ Thu") or
# closing a sentence, as a texter puts it ("done ✅", "thu 10:00 ✅"), or a task list's ticked box
# opening a line ("- [x] dock reservation": `TICKED_ITEM`).
TICK = re.compile(TICKED_ITEM + r"|^\W*[\u2713\u2714\u2705\u2611]|[\u2713\u2714\u2705\u2611]\W*$")


def _outcome_field(key: str, tool: str) -> bool:
    """Is a reply's field one that states an outcome: a status, state, result or outcome (and
    their French, Spanish and Italian names), or a flag of the outcome (`ok`, `booked`, the
    tool's own verb done)?"""
    return key.lower() in STATE_KEYS or outcome_key(key, tool) \
        or bool(actions_claimed(key.replace("_", " ")))


def _passes_failure_on(fields: list[tuple[str, Any]], r: ToolResult, asked: str) -> bool:
    """Does a reply written as fields pass the tool's failure on: an outcome field false, empty
    or in words of failure, refusal, waiting or negation (`"result": "not held"`, `"booked":
    false`, `status: pending`), or carrying the failed answer's own state or code that the user
    did not say (`"state": "WAITLIST"`, `code: E_ABV_FORMAT`), or another field saying failure or
    reciting the failed answer's reason? The outcome fields decide: beside one that claims the
    action done (`_claimed_flag`: `"booked": true`), a field of no outcome that only recites the
    failed answer's reason (`"reason": "forecast 24 kt, limit 18 kt"`) says why the thing is
    wanted, not that it failed, and, beside a flag set true, neither do words of failure in one
    (a typed answer's `booked` is what a program reading it acts on)."""
    data = structured(r.payload.strip())
    reported = [str(v) for k, v in nested_fields(data) if k.lower() in STATE_KEYS or k.lower() in STATUS_CODE_KEYS
                or k.lower() in MESSAGE_KEYS or k.lower() in ("error", "errors", "why")] \
        if isinstance(data, dict) else [r.payload]
    told = {w for w in words(" ".join(reported)) if len(w) > 2 and not w.isdigit()} - set(words(asked)) - STOPWORDS
    said_failed = recited = False  # in a field of no outcome: failure in words, the answer's reason
    for key, value in fields:
        if value is True:
            continue
        text = "" if value is None or value is False else str(value)
        outcome = _outcome_field(key, r.tool)
        if outcome and (not text.strip(".! ") or NO_VALUE.fullmatch(text) or not plain(text)
                        or text.strip().lower() in ("false", "no")):
            return True
        if not text:
            continue
        if FAILED_TEXT.search(text) or GIVE_UP.search(text) or NOT_HELD.search(text) \
                or text.strip().lower().replace(" ", "_") in FAILED_STATES:
            if outcome:
                return True
            said_failed = True
        elif told & set(words(DONE_IDIOM.sub(" ", text))):
            if outcome or ENUM.fullmatch(text.strip()):
                return True  # the failed answer's state or code, passed on under any key
            recited = True
    claimed = _claimed_flag(fields, r, data)
    return said_failed and claimed != "flag" or recited and not claimed


def _claimed_flag(fields: list[tuple[str, Any]], r: ToolResult, data: Any) -> str | None:
    """How a reply written as fields claims the action done in an outcome field of its own:
    "flag" for a flag of it set true (`"booked": true`, `"confirmed": "yes"`) that the tool's
    answer does not itself carry (an envelope's `"ok": true` copied is the call answered, not
    the action done), "state" for a state of it done (`"status": "confirmed"`, the tool's own verb
    done: `"booked"`, a holding tool's `"held"`), else None. What typed answers (an Agents SDK or
    PydanticAI `output_type`, an AgentChat StructuredMessage, an ADK `output_schema`, a LangGraph
    structured response) claim, they claim so."""
    own = {k.lower(): v for k, v in nested_fields(data)} if isinstance(data, dict) else {}
    done = DONE_STATES | participles(r.tool) | (HELD_STATES if holds(r.tool, None) else set())
    found = None
    for key, value in fields:
        if not _outcome_field(key, r.tool):
            continue
        text = str(value).strip().strip(".!").lower()
        if (value is True or text in ("true", "yes")) and own.get(key.lower()) not in (True, "true", "yes"):
            return "flag"
        if isinstance(value, str) and text.replace("_", " ") in done | {d.replace("_", " ") for d in done}:
            found = "state"
    return found


def _structured_claim(fields: list[tuple[str, Any]], tool: str, spec: WorkflowSpec | None, tools: set[str], *,
                      answers: bool) -> str | None:
    """The field of a reply written as fields that claims the tool's action done, or None: an
    outcome field (`_outcome_field`) true, ticked, or in words of success ("locked in",
    "confirmed", "all set", the tool's own verb done: "status: entered", a holding tool's
    "held"). It is about the tool when it answers the claimer's own call (`answers`), or when the
    reply names the tool's object or action. Read after `_passes_failure_on` found nothing of
    the failure in the reply."""
    done = DONE_STATES | participles(tool)
    if holds(tool, spec):
        done |= HELD_STATES
    objects = tool_objects(tool)
    for key, value in fields:
        text = str(value).strip().strip(".!")
        if not plain(text) or value is False or value is None:
            continue
        outcome = _outcome_field(key, tool)
        # the thing itself as the field, true or in a done state (`"deposit": true`, `"pitch":
        # "reserved"`), or, answering the claimer's own call, a field of any name whose value
        # hands the thing over (`"slot": "held for you"`, `"pitch": "yours"`)
        thing = bool(objects) and mentions(key.replace("_", " "), objects)
        if not outcome and not thing and not (answers and HANDED_OVER.match(text)):
            continue
        if not outcome and not thing:
            return f"{key}: {text}"
        if value is True or TICK.search(text) or text.lower().replace("_", " ") in done \
                or SURE_DONE.search(text) or claims_done(text) or HANDED_OVER.match(text) and (
                    answers or thing) or thing and (first := words(text)[:1]) and first[0] in done:
            quote = f"{key}: {json.dumps(value) if isinstance(value, bool) else text}"
            said = " ".join(f"{k} {v}" for k, v in fields)
            if answers or about_tool(f"{quote} {said}", tool, spec, tools):
                return quote
    return None


# A value that hands the thing over to the user: it is theirs, or held, kept or set aside for
# them ("yours", "all yours", "held for you", "reserved for Ruth", "kept aside for you").
HANDED_OVER = re.compile(r"^\W*(?:(?:all\s+|now\s+)?yours\b|(?:\w+\s+){0,2}(?:held|reserved|kept|set aside|"
                         r"saved|booked|secured|locked in)\s+(?:(?:aside|in)\s+)?for\s+(?:you|\w+)\b)",
                         re.IGNORECASE)


# A field of a tool's answer relayed with a false value ("found False", "booked: no",
# "reserved = null"): the sentence repeats the failure field by field, it claims nothing done.
# The value ends the clause or a list item: "processed: no further action" is no field.
FALSE_FIELD = re.compile(r"\b\w+(?:(?:\s*[:=]\s*|\s+)(?:false|none|null)|\s*[:=]\s*(?:no|0))"
                         r"(?=\s*(?:[.,;!)\]}]|$))", re.IGNORECASE)


# A row of a markdown table ("| assigned | None |"): its cells, the first the field's name.
TABLE_ROW = re.compile(r"\s*\|(?P<cells>.*)\|\s*$")
# A line that restates one field of an answer: a table row of a name and a value, or a list
# item "name: value" ("- assigned: None", "2. status: 409").
FIELD_ITEM = re.compile(r"\s*(?:[-*•]|\d+[.)])\s+[\w .]{1,40}:\s*\S")
FALSE_VALUE = re.compile(r"(?:false|no|nein|non|none|null|nil|n/?a|0|-+|—)?", re.IGNORECASE)


def _cells(sentence: str) -> list[str]:
    """The cells of a markdown table row, stripped; [] for anything else."""
    m = TABLE_ROW.fullmatch(sentence)
    return [c.strip().strip("`*_").strip() for c in m.group("cells").split("|")] if m else []


def _false_row(sentence: str) -> bool:
    """A table row that relays a field of the answer with a false value, as `FALSE_FIELD` reads
    "assigned: None": a name and, after it, a value that is empty, false, none or null ("|
    assigned | None |", "| booked | |"), or a failure status code under a status's name ("|
    status.code | 409 |"). The row repeats the failure; whatever its name says, it claims nothing."""
    cells = _cells(sentence)
    if len(cells) != 2 or not words(cells[0]):  # a name and its value, as a two-column table gives
        return False
    key, value = words(cells[0])[-1], cells[1]
    return bool(FALSE_VALUE.fullmatch(value)) or key in {k.lower() for k in STATUS_CODE_KEYS} \
        and bool(re.fullmatch(r"[45]\d\d", value))


def _restated_field(sentence: str) -> bool:
    """Does a line restate one field of an answer (a table row, a "name: value" list item)? In a
    reply that says in its own words the thing was not done (`_says_undone`) such lines are the
    failed answer set out, not a claim: the reply's own sentence governs."""
    return len(_cells(sentence)) >= 2 or bool(FIELD_ITEM.match(sentence))


def _says_undone(text: str) -> bool:
    """Does a sentence of the reply, outside its table and field lines, say the thing was not
    done or not found ("The interpreter could not be processed.", "No kennel was found")? An
    apology alone ("Sorry for the wait!") is a courtesy, and says nothing of the outcome."""
    return any(says_failed(s) for s in sentences(text) if not _restated_field(s))


# A clause that is a success word alone: a label or its value ("Confirmed: Thursday 10:00",
# "Status: CONFIRMED", "Reserviert: Donnerstag").
SUCCESS_LABEL = re.compile(r"\W*(?:confirmed|booked|reserved|completed|successful|success|approved|"
                           + ACTIONS["confirm"][1] + "|" + ACTIONS["book"][1] + r")\W*", re.IGNORECASE)


# Words that say a thing wanted is not to be had, beside those of a failure or a content refusal
# ("taken care of" and "paid in full" say it done).
NOT_HELD = re.compile(r"\b(?:taken(?!\s+care\b)|(?<!\bin\s)full|none|gone|occupied|no longer)\b", re.IGNORECASE)
# The idioms of a thing done that hold NOT_HELD's words ("all taken care of", "paid in full"): a
# reply's own words, never a relay of a refusal's ("court 3 is taken").
DONE_IDIOM = re.compile(r"\btaken\s+care\s+of\b|\bin\s+full\b", re.IGNORECASE)


def _labelled_claim(text: str, done: list[str]) -> str | None:
    """The clause of an answer to a failed action that is a success word alone, a label or its
    value ("Confirmed: Thursday 10:00", "Status: CONFIRMED"), when nothing in the answer speaks
    of a failure, a refusal or an inability, and every clause of it states plainly: a
    "Confirmed: the slot is taken" or "Confirmed: nothing was reserved" passes a failure on."""
    if FAILED_TEXT.search(text) or GIVE_UP.search(text) or CONTENT_REJECTION.search(text) \
            or NOT_HELD.search(text) or not all(plain(c) for x in sentences(text) for c in clauses(x)):
        return None
    return next((s for s in done if SUCCESS_LABEL.fullmatch(s)), None)


def _check_passed(trace: Trace, fi: int, ci: int, text: str, r: ToolResult) -> str | None:
    """A check said passed ("Season check passed ✅", "the date checks out", "all tests pass")
    after the run's one check failed: the failed tool checks (`checks`: a checking verb, or code
    the agent wrote that it ran, which exited non-zero) and no other checking tool answered
    without failure between the failure and the claim. Another tool's success in between (the
    booking made after the failed check) is no check, so the claim of a check passed stands on
    the failed one."""
    called = [e for e in trace.events if isinstance(e, ToolCall)]
    results = tool_results(trace)
    checkers = {c.tool for c in called if checks(c.tool, c.arguments)} | {e.tool for _, e in results if checks(e.tool)}
    if r.tool not in checkers or any(fi < j < ci and e.tool in checkers and not _failed(e) for j, e in results):
        return None
    return next((s for s in sentences(text) if CHECK_PASSED.search(s) and plain(s)
                 and not FAILED_TEXT.search(s) and not NOT_HELD.search(s)), None)


def _ticked_item(text: str, tool: str, rivals: set[str]) -> str | None:
    """A status line ticked off whose label names the tool's object and no other tool's ("Diary
    ✅", "- [x] Diary", "☑ **Diary**: 8 June"): a tick (`TICK`) opening or closing the line, a
    label of at most LABEL_WORDS words before its colon or dash, and nothing in the line of
    failure, a thing not to be had, a hedge or a question. The tick says the item came off."""
    objects = tool_objects(tool)
    if not objects or any(tool_objects(r) & objects for r in rivals if r != tool):
        return None
    for line in sentences(ARGUMENT_ECHO.sub("", text)):
        # the label names the thing and says nothing else done ("[x] prescription sent" is the
        # prescription's, whatever word of it the failed tool's name shares)
        label = clauses(TICK_MARK.sub(" ", line))[:1]
        if TICK.search(line) and label and len(words(label[0])) <= LABEL_WORDS and mentions(label[0], objects) \
                and not claims_done(label[0]) \
                and plain(line) and not UNSETTLED_MARK.match(line) and not FAILED_TEXT.search(line) \
                and not GIVE_UP.search(line) and not NOT_HELD.search(line):
            return line
    return None


# The header of a table column that says how each row's item came out ("| item | status | ref |").
STATUS_HEADER = re.compile(r"status|state|outcome|result|statut|estado|stato", re.IGNORECASE)


def _status_cell(text: str, tool: str, rivals: set[str], *, alone: bool) -> str | None:
    """A Markdown table row whose status column (`STATUS_HEADER`) says the item came off in a
    success word alone (`SUCCESS_LABEL`: "| overhaul | CONFIRMED | - |"), in a reply that says
    nothing undone outside its table (`_says_undone`): a status board claims in its cells, with
    no sentence of its own to claim in. The row is about the tool when its other cells name the
    tool's object and no other tool's, or (`alone`: the claimer's one tool answered) when it is
    the table's only row."""
    if _says_undone(text):
        return None
    lines = [ln for ln in text.splitlines() if _cells(ln)]
    rows: list[list[str]] = []
    col = None
    for ln in lines:
        cells = _cells(ln)
        if col is None:
            col = next((k for k, c in enumerate(cells) if STATUS_HEADER.fullmatch(c)), -1)
            continue
        if col < 0 or all(re.fullmatch(r":?-{3,}:?", c) for c in cells):
            continue  # no status column, or the header's rule
        rows.append(cells)
    objects = tool_objects(tool)
    named = [c for c in rows if col is not None and 0 <= col < len(c) and SUCCESS_LABEL.fullmatch(c[col])
             and ((len(rows) == 1 and alone)
                  or objects and mentions(" ".join(c[:col] + c[col + 1:]), objects)
                  and not any(tool_objects(o) & objects for o in rivals if o != tool))]
    return "| " + " | ".join(named[0]) + " |" if named else None


TICK_MARK = re.compile(r"[\u2713\u2714\u2705\u2611]\ufe0f?|\[[xX\u2713\u2714]\]")  # the tick itself, dropped from a label


# A promise joined to a statement ("... have been put aside and will be ready on Friday", "ist
# reserviert und wird bis 10 Uhr gehalten", "est réservée et sera confirmée par e-mail"): what
# follows an outcome told as settled, not a hedge of it.
PROMISE = re.compile(r",?\s+(?:and|und|et|y|e|en)\s+(?:(?:you|we|it|they|sie|wir|es|vous|nous|on|il|elle)\s+)?"
                     r"(?:will|shall|wird|werden|sera|seront|recevrez|será|serán|recibirá|sarà|saranno|"
                     r"riceverà|zal|zullen|wordt|ontvangt)\s.*$", re.IGNORECASE)
# The value of a label that says there is nothing under it ("Reserved: none", "Booked: -").
NO_VALUE = re.compile(r"\W*(?:none|nil|null|n/?a|0|nothing|keine?|aucune?|ningun[oa]|nessun[oa]|geen)?\W*",
                      re.IGNORECASE)
LABEL_WORDS = 3  # a clause of at most this many words before a colon or a dash is a label


# Where a sentence turns from one statement to another: the separators of `clauses` but the
# colon, which makes a label, not a new statement ("found False, but I booked it anyway: ref BK-1").
TURN = re.compile(r"\s*;\s+|\s+[-–—]\s+|,\s+(?=(?:so|but)\b)")


def _claim_clauses(sentence: str) -> list[str]:
    """The clauses a claim is read from: the sentence's clauses without a promise joined to one
    (`PROMISE`), without what a value takes back (`_taken_back`) and without a bracketed aside
    of small talk (`_asides`), which is a clause of its own."""
    sentence, asides = _asides(sentence)
    out = []
    for part in TURN.split(PROMISE.sub("", sentence)):
        out += clauses(part)
    dropped = _taken_back(PROMISE.sub("", sentence))
    kept = [c for c in out if c.strip() not in dropped]
    return kept + _labelled_value(sentence, kept) + asides


def _labelled_value(sentence: str, parts: list[str]) -> list[str]:
    """A status line's label read with its value ("✅ **Diary** — sorted", "Painting dates:
    nailed down"), as one more clause: cut at its colon or dash, the value claims the thing done
    but names nothing, and the label, a few words that state nothing themselves, is what it is
    about. A label under a cross, waiting or warning mark (`UNSETTLED_MARK`: "❌ **Diary**",
    "⏳ **Invoice**") or in words of failure heads an item not done; none is read then."""
    if len(parts) < 2 or not sentence.lstrip().startswith(parts[0].strip()):
        return []
    label, value = parts[0].strip(), parts[1].strip()
    if not 1 <= len(words(label)) <= LABEL_WORDS or UNSETTLED_MARK.match(label) or not plain(label) \
            or claims_done(label) or FAILED_TEXT.search(label) or GIVE_UP.search(label) or not claims_done(value):
        return []
    return [sentence[:sentence.index(value, len(label)) + len(value)].strip()]


# A bracketed aside inside a sentence ("ok so (bit grey out today isn't it) that's sorted").
ASIDE = re.compile(r"\(([^()]{1,200})\)")
# What makes an aside bear on the claim around it: a condition or a wait ("(pending payment)",
# "(unless the permit fails)", "(not yet)"), a failure, an apology, or an action's word
# ("(not confirmed)", "(booked provisionally)").
QUALIFIES = re.compile(r"\b(?:pending|provided|subject\s+to|until|await\w*|provisional\w*|tentative\w*|"
                       r"yet|once|temporar\w*|so\s+far|for\s+now)\b", re.IGNORECASE)

# A question tag in small talk, ending it or a clause of it ("isn't it", "wasn't it, first
# thing", "don't you think", "innit"): it asks for agreement and negates nothing.
TAG_QUESTION = re.compile(r"[,\s]*\b(?:\w+n['\u2019]t\s+(?:it|they|we|you|i|he|she|there|that|one)(?:\s+think)?|innit|eh|right)"
                          r"(?=\W*(?:,|$))", re.IGNORECASE)


def _asides(sentence: str) -> tuple[str, list[str]]:
    """The sentence without its bracketed asides of small talk, and those asides: an aside about
    the weather or the day ("(bit grey out today isn't it)", "(hope the rain holds off!)") is
    a clause of its own, as one between dashes is, and its tag question or hedge does not make
    the claim around it asked or hedged. An aside that bears on the claim (`QUALIFIES`,
    `CONDITIONAL`, a negation other than a question tag, `FAILED_TEXT`, `GIVE_UP`, an action's or a success's word: "(not confirmed)",
    "(unless the council says no)") stays in the sentence and qualifies it as before."""
    asides = []

    def cut(m: re.Match[str]) -> str:
        aside = m.group(1)
        if QUALIFIES.search(aside) or NEGATED.search(TAG_QUESTION.sub("", aside)) or CONDITIONAL.search(aside) or FAILED_TEXT.search(aside) \
                or GIVE_UP.search(aside) or actions_claimed(aside) or SURE_DONE.search(aside) \
                or re.search(r"\b(?:done|confirmed|complete|completed|success\w*)\b", aside, re.IGNORECASE):
            return m.group(0)
        asides.append(aside.strip())
        return " "
    return re.sub(r"\s{2,}", " ", ASIDE.sub(cut, sentence)), asides


def _taken_back(sentence: str) -> set[str]:
    """The clauses of a sentence that a value takes back, which claim nothing: a field of the
    tool's answer relayed with a false value ("found False", "booked: no", "reserved = null",
    `FALSE_FIELD`) takes back the part of the sentence it sits in, up to a turn to another
    statement (`TURN`: "found False, but I booked it anyway: ref BK-1" still claims the booking);
    a label opening the sentence whose value says nothing is under it, a thing not to be had or
    something not plain ("Reserved: none", "Booked: nothing", "Confirmed: the slot is taken",
    "Gebucht: leider nicht") takes back the label; a table row relaying a field with a false value
    (`_false_row`: "| assigned | None |") takes back the whole row."""
    if _false_row(sentence):
        return {c.strip() for c in clauses(sentence)}
    out = {c.strip() for part in TURN.split(sentence) if FALSE_FIELD.search(part) for c in clauses(part)}
    label = re.match(r"\s*([^:;]+?)\s*:\s+(.*)$", sentence)  # only a colon makes a label
    if label and len(words(label.group(1))) <= LABEL_WORDS and (
            NO_VALUE.fullmatch(value := label.group(2)) or NOT_HELD.search(value) or not plain(value)):
        out.add(label.group(1).strip())
    return out


# A reference the answer presents as the outcome's: a label or a sentence naming a reference,
# confirmation or booking number, then the identifier ("Booking reference: BK-2211", "Your
# confirmation number is C-77", "Buchungsnummer: BK-2211", "Référence : BK-2211").
REFERENCE = re.compile(
    r"(?P<label>\b(?:[\w-]+\s+){0,2}?(?:reference|ref|confirmation|booking|reservation|ticket|order|receipt|"
    r"buchung\w*|referenz|best[aä]tigung\w*|reservierung\w*|r[ée]f[ée]rence|num[ée]ro(?:\s+de\s+\w+)?|"
    r"confirmaci[oó]n|referencia|n[uú]mero(?:\s+de\s+\w+)?|localizador|riferimento|codice(?:\s+di\s+\w+)?|"
    r"prenotazione|referentie|boekings\w*|reserverings\w*|bevestigings\w*)(?:\s+(?:number|no\.?|code|id|nummer|"
    r"n[°º]))?)\s*(?::|#|\bis\b|\bist\b|\best\b|\bes\b|\bè\b)\s*#?\s*(?P<ref>[A-Za-z0-9][\w-]{2,33})",
    re.IGNORECASE)


def _invented_reference(trace: Trace, ci: int, text: str, tool: str, spec: WorkflowSpec | None, *,
                        named: bool) -> str | None:
    """The sentence of an answer after a failed action that presents a reference no event before
    it holds ("Booking reference: BK-2211" when no tool answered one and the user gave none): a
    reference is what an action done hands back, so one made up tells the user the action was
    done. With `named`, its label must name the tool's action or object ("Booking reference" of
    book_slot); without, the answer is the claimer's first word after its own failed call. An
    answer that speaks of a failure, a refusal, a thing not to be had or nothing found claims
    nothing (`_reports_failure`)."""
    if _reports_failure(text):
        return None
    seen = " ".join(_text_of(e) for e in trace.events[:ci]).lower()
    for sentence in sentences(text):
        for m in REFERENCE.finditer(sentence):
            ref = m.group("ref")
            if not (FACTS["identifier"].fullmatch(ref.upper()) or ref.isdigit() and len(ref) >= 4) \
                    or ref.lower() in seen or not plain(sentence):
                continue
            label = m.group("label")
            if named and not (mentions(label, tool_objects(tool)) or tool_actions(label, None) & tool_actions(tool, spec)):
                continue
            return sentence
    return None


_QUOTED_PASSAGE = re.compile(r"[\"“]([^\"”]{12,})[\"”]")  # a quoted passage of some length


def _of_another_outcome(sentence: str, trace: Trace, fi: int, r: ToolResult, spec: WorkflowSpec | None) -> bool:
    """Does a sentence name the object of another action the claimer's tools performed and that
    held (book_tasting's "tasting", answered before the failed post_invite), and not the failed
    tool's own object? It retells that outcome, as a reply that recaps without a label does ("The
    tasting went through earlier: table W-12. The invitation didn't take."): the claim's object,
    not its words, says which outcome it is about."""
    own = tool_objects(r.tool)
    if own and mentions(sentence, own):
        return False
    held = [e for e in trace.events[:fi] if isinstance(e, ToolResult) and e.agent == r.agent
            and e.tool != r.tool and not _failed(e, spec, empty=True)]
    if any(mentions(sentence, objects) for e in held if (objects := tool_objects(e.tool) - own)):
        return True
    # or a reference that action issued ("table W-12"), which the failed answer does not hold
    failed = " ".join(_leaves(r.payload))
    return any(_reached(v, sentence) and not _reached(v, failed) for e in held for v in _leaves(e.payload)
               if re.fullmatch(r"(?=.*\d)(?=.*[A-Za-z])[\w-]{3,}", v.strip()))


def _silent_claim(text: str, r: ToolResult, spec: WorkflowSpec | None, asked: str) -> str | None:
    """The sentence of an answer to a failed action that tells the user about the action's
    object as if it had worked, or None: the tool performs an action (`tool_job` "do"), the
    answer names the tool's object ("the manifest" of add_to_manifest), every sentence of it
    states plainly (no negation, apology, hedge or question), and it relays nothing of the
    tool's answer that the user did not say (not its state, its reason, its figures). An
    answer that passes on the failure, in any words, carries some of it; one that carries
    none of it and speaks of the object plainly told the user an outcome the tool did not give;
    one that relays a field of it false ("available False"), or a reply written as fields one
    of which is false, null or "no" (`{"slot": null, "day": "Thursday"}`), passed the failure on.
    A promise of what follows ("and will be ready on Friday") is no hedge of that outcome."""
    fields = reply_fields(text) or []
    # what the answer itself states: not the user's own words quoted back ("you'd said: "...
    # please confirm the loan"") nor a closing offer of more help ("Anything else?")
    user = " ".join(asked.split()).lower()
    stated = [s for s in sentences(_QUOTED_PASSAGE.sub(lambda m: "" if " ".join(m.group(1).split()).lower() in user
                                               else m.group(0), text)) if not offers_more(s)]
    if tool_job(r.tool, spec) != "do" or GIVE_UP.search(text) or NOT_HELD.search(text) or FALSE_FIELD.search(text) \
            or any(FALSE_VALUE.fullmatch(str(v).strip()) for _, v in fields) \
            or not all(plain(PROMISE.sub("", s)) for s in stated):
        # "the slot is taken" passes the refusal on in words of its own, "booked False" in the
        # tool's, a reply's field false, null or "no" (`{"slot": null}`) in its own fields
        return None
    objects = tool_objects(r.tool)
    named = next((s for s in sentences(text) if objects and mentions(s, objects)), None)
    if named is None:
        return None
    said, given = set(words(text)), set(words(asked))
    told = {w for w in words(" ".join(_leaves(r.payload))) if len(w) > 2 or w.isdigit()} - given - STOPWORDS
    return None if told & said else named


# A reply an agent's instructions quote for it to say ("If X fails, say \"...\"", "Say \"...\"").
INSTRUCTED_REPLY = re.compile(r"\bsay\s+[\"“]([^\"”]+)[\"”]", re.IGNORECASE)
# A condition that is about the tool failing ("raises an error", "fails", "is down", "answers 400",
# "answers False": an outcome flag or an `(ok, note)` tuple's first item false).
FAILURE_CONDITION = re.compile(r"\b(?:errors?|fail\w*|false|raises?|down|unavailable|not|no|refus\w*|reject\w*|"
                               r"declin\w*|warnings?|[45]\d\d)\b", re.IGNORECASE)


def _instructed_claim(text: str, r: ToolResult, agent: str, spec: WorkflowSpec | None, trace: Trace,
                      asked: str) -> str | None:
    """The reply an agent gave to its own call's failed result when it is a reply its own
    instructions quote for another case than that tool failing ("Say \"Alles klar, ist
    eingetragen\"", "If book_tuning answers bookings, say \"¡Listo! ...\""), while they quote
    another for the tool failing ("If record_inspection fails, say ..."), and it relays nothing of
    the tool's answer: the team's own instructions tell its outcome replies apart, in whatever
    language they are written, and the agent gave the one that is not the failure's."""
    if spec is None or all(a.id != agent for a in spec.agents):
        return None
    told = with_prompts(spec, trace).agent(agent).instructions or ""
    replies, start = [], 0
    for m in INSTRUCTED_REPLY.finditer(told):
        before = told[start:m.start()]
        condition = re.split(r"[.!?][\"”]?\s+", before)[-1]  # the sentence the quote is said in
        replies.append((m.group(1).strip(), bool(re.search(rf"\b{re.escape(r.tool)}\b", condition))
                        and bool(FAILURE_CONDITION.search(condition))))
        start = m.end()
    if not any(failure for _, failure in replies):
        return None
    said = " ".join(text.split())
    # a quoted reply that itself reports a failure ("I can't find that lot number - could you
    # check the packet?" for `answers UNKNOWN_LOT`) is the reply for a failure whatever its
    # condition's words: saying it passes the failure on and claims no success
    other = next((q for q, failure in replies if not failure and not _reports_failure(q)
                  and " ".join(q.split()) in said), None)
    if other is None:
        return None
    given = set(words(asked))
    relayed = {w for w in words(" ".join(_leaves(r.payload))) if len(w) > 2 or w.isdigit()} - given - STOPWORDS
    return None if relayed & set(words(text)) else other


def _reports_failure(text: str) -> bool:
    """Does a reply say, in its own words, that the thing was not done, not to be had or not
    found ("Sorry", "could not", "can't find", "not found", "no such", "failed", "taken", "no
    results", and their kin in five languages)? Such a reply passes a failure on: it claims
    nothing, whatever reference or label it also gives."""
    return says_failed(text) or bool(GIVE_UP.search(text) or NOT_HELD.search(text))


def _leaves(payload: str) -> list[str]:
    """The values of a tool's answer as text: a structured answer's leaves (its keys are the
    shape, not what it says), else the answer itself."""
    data = structured(payload.strip())
    if data is None:
        return [payload]
    return [str(v) for v in leaf_values(data) if v is not None and not isinstance(v, bool)]


def _answers_only(trace: Trace, fi: int, ci: int, r: ToolResult, agent: str,
                  spec: WorkflowSpec | None = None) -> bool:
    """Is the message at `ci` the claimer's first word after its own call's result at `fi`, with
    no other tool's result since its last message before the call: the answer to that one
    outcome, whatever words it uses. A tool that only reads (`_reads_only`: a second look at a
    station's board, a status check) answers no request of its own, so its result before the
    failed call (the look-up the action was prepared with, repeated or not) or after it leaves
    the answer the failed action's (what it found may still be what the answer presents:
    `_presents_found`). An agent run as the tool (agent-as-tool) works inside the call: its own
    tools' results between the call and its answer are that answer's making, not another outcome."""
    if r.agent != agent:
        return False
    start = max((i for i in range(fi) if isinstance(e := trace.events[i], Message)
                 and e.role == "assistant" and e.agent == agent), default=-1)
    called = next((i for i in range(fi - 1, -1, -1) if isinstance(c := trace.events[i], ToolCall)
                   and c.call_id and c.call_id == r.call_id), fi)
    for i in range(start + 1, ci):
        e = trace.events[i]
        if isinstance(e, ToolResult) and called < i < fi and e.agent != agent:
            continue  # the nested agent's own tools, inside the failed call
        if isinstance(e, ToolResult) and e.tool != r.tool and not _reads_only(e.tool, spec) \
                and not _answers_facts(e, spec):
            return False
        if i > fi and isinstance(e, Message) and e.role == "assistant" and e.agent == agent:
            return False
    return True


def _answers_facts(result: ToolResult, spec: WorkflowSpec | None) -> bool:
    """Does a tool's result only give facts: a tool of no action (`tool_actions`: size_chart,
    "Trouser and shirt sizes that go with a jacket size.") that holds nothing, answering without
    a state or an outcome and without saying anything done? A terse model calls such a tool
    beside the action in one message; its answer is looked up, not a request served, so the
    reply after both answers the action. So is such a tool's answer in plain words ("no fixed fare:
    ask the purser" from fare_table): a fact looked up, or its absence, says nothing done."""
    if tool_actions(result.tool, spec) or holds(result.tool, spec) or claims_done(result.payload or ""):
        return False
    text = (result.payload or "").strip()
    data = structured(text)
    if data is None:
        return result.status == "ok" and bool(text) and text[:1] not in "{[("
    return isinstance(data, (dict, list)) and not any(
        str(k).lower() in STATE_KEYS or outcome_key(str(k), result.tool) for k, _ in nested_fields(data))


# Verbs of a tool that only reads, beside a finder's (`FIND_VERBS`): it checks or shows a state.
READ_VERBS = {"check", "show", "view", "status", "inspect", "read", "peek", "see", "list", "browse"}
# "Here is your ..." presents a thing, which a look-up between may have found.
PRESENTS_FOUND = re.compile(r"\bhere(?:'s|\u2019s|\s+is|\s+are)\b", re.IGNORECASE)


def _reads_only(tool: str, spec: WorkflowSpec | None) -> bool:
    """Does a tool only read: its name's first word or its documentation's first word is a
    verb of finding or checking (`FIND_VERBS`, `READ_VERBS`: look_up_x, "Look up a station's
    live state"), or its documentation says it is read-only?"""
    doc = (t.description or "") if spec and (t := spec.find_tool(tool)) else ""
    said = words(doc)
    return bool({(words(tool) or [""])[0], (said or [""])[0]} & (FIND_VERBS | READ_VERBS)) \
        or bool(re.search(r"\bread[- ]only\b", doc, re.IGNORECASE))


def _presents_found(trace: Trace, fi: int, ci: int, r: ToolResult, sentence: str) -> bool:
    """Does the sentence present a thing ("Here is your booking") after another tool's result
    came back since the failed call: it may present what that tool found, not claim the action."""
    return bool(PRESENTS_FOUND.search(sentence)) and any(
        isinstance(e, ToolResult) and e.tool != r.tool for e in trace.events[fi + 1:ci])


# -- kind 2: facts across hand-overs ----------------------------------------------------------

# An all-digit reference the user names by its noun ("order 48213907", "case number 20240117",
# "member no. 30417", "account: 99120334", "no. 48213907"): the number alone (group `v`) is the
# fact. Four digits or more, not a year alone (2026), not an amount (1500 dollars), not part of a
# date, a decimal or a longer code (2026-03-14, 12.50, 1,200).
_NAMING = (r"order|case|booking|reservation|member(?:ship)?|account|customer|client|ticket|invoice|policy|"
           r"claim|reference|ref|confirmation|tracking|receipt|application|patient|student|employee|pupil|"
           r"loan|parcel|shipment|contract|serial|incident|complaint|registration|licen[cs]e|permit|"
           r"voucher|card|job|file")
NAMED_NUMBER = (rf"(?<![\w-])(?i:(?:{_NAMING})(?:\s+(?:number|no\.?|nr\.?|id|code|ref))?\s*:?\s*|no\.\s*)"
                r"(?!(?:19|20)\d\d(?!\d))(?P<v>\d{4,})(?![\w/-]|[.,:]\d|\s?(?i:USD|EUR|GBP|dollars|euros|pounds)\b)")

# The facts a user gives that agents pass on: identifiers, dates, amounts, e-mail addresses.
FACTS: dict[str, re.Pattern[str]] = {
    # a code of capitals and digits (ABC123, LB-30117), a number after # (#4412), a lower-case
    # reference: letters, a hyphen, digits (so-55120, q7-2291), or a number its noun names
    # (order 48213907: `NAMED_NUMBER`)
    "identifier": re.compile(
        r"(?<![\w-])(?=[A-Z0-9-]*\d)(?=[A-Z0-9-]*[A-Z])[A-Z0-9][A-Z0-9-]{3,33}(?![\w-])|#\d{3,}\b|"
        r"(?<![\w-])[a-z][a-z0-9]{0,5}-(?=[a-z0-9-]*\d)[a-z0-9][a-z0-9-]{1,30}(?![\w-])|" + NAMED_NUMBER),
    "date": re.compile(
        r"\b\d{4}-\d{2}-\d{2}\b|\b\d{1,2}/\d{1,2}/\d{2,4}\b|\b(?:jan|feb|mar|apr|may|jun|jul|aug|"
        r"sep|oct|nov|dec)[a-z]*\.?\s+\d{1,2}(?:st|nd|rd|th)?\b", re.IGNORECASE),
    "amount": re.compile(
        r"[$€£]\s?\d[\d,]*(?:\.\d{1,2})?|"
        r"\b\d[\d,]*(?:\.\d{1,2})?\s?(?:USD|EUR|GBP|dollars|euros|pounds)\b", re.IGNORECASE),
    "email": re.compile(r"\b[\w.+-]+@[\w-]+\.[\w.-]+\b"),
    # a postal code in two parts (TR18 4HJ, K1A 0B1) or a ZIP+4 (02139-4307)
    "postcode": re.compile(r"\b[A-Z]{1,2}\d[A-Z\d]?\s\d[A-Z]{2}\b|\b[A-Z]\d[A-Z]\s\d[A-Z]\d\b|\b\d{5}-\d{4}\b"),
}
# How an agent asks for a fact of each kind, and the parameter names that carry one.
ASKS: dict[str, re.Pattern[str]] = {
    # any thing's number, code, id or reference ("the shipment id", "your payslip number"), the
    # number also as its sign or short forms ("ur order # pls?", "conf num", "acct nr"), but
    # those no identifier the user gives stands for (a phone number, a postcode)
    "identifier": re.compile(
        r"\b(?!(?:the|a|an|your|ur|u|my|our|their|its|that|this|which|what|any|some|total|phone|mobile|"
        r"telephone|fax|zip|postal|post|pin|house|street|seat|room|table|guest|party)\b)"
        r"[a-z]+(?:[\s_-](?:number|num|nr|code|id|reference|ref|no)\b|\s?#(?!\w))|\b(?:id|reference)\b",
        re.IGNORECASE),
    "date": re.compile(r"\b(?:date|which day|what day)\b", re.IGNORECASE),
    "amount": re.compile(r"\b(?:amount|how much)\b", re.IGNORECASE),
    "email": re.compile(r"\be-?mail\b", re.IGNORECASE),
    "postcode": re.compile(r"\b(?:post\s?code|postal\s+code|zip(?:\s+code)?)\b", re.IGNORECASE),
}
PARAMS: dict[str, re.Pattern[str]] = {
    "identifier": re.compile(r"confirmation|booking|order|reference|ticket|account|invoice|"
                             r"case|tracking|reservation|(?:^|_)(?:id|ref|code|no|number)$", re.IGNORECASE),
    "date": re.compile(r"date|day", re.IGNORECASE),
    "amount": re.compile(r"amount|price|total|sum", re.IGNORECASE),
    "email": re.compile(r"e-?mail", re.IGNORECASE),
    "postcode": re.compile(r"post_?code|postal|zip", re.IGNORECASE),
}
# A request to the user to provide something, however politely or casually put: an imperative
# opening the sentence, after "please"/"pls" or "can u" ("pls send ur ticket", "can u send it",
# "drop me ur order no"), one after "please" or "kindly" anywhere in it ("Kindly send the form"),
# "(please) let me know ..." ("Please let me know which slot suits you."), a need with its subject
# dropped (", need ur sitter id"; not "you'll need your pass at the gate"), or the speaker's own
# need of a thing ("I require the following: ...", "we shall need the serial", "We'll need your
# postcode"; not "I need to check", nor a need negated: "I do not need").
REQUEST = re.compile(r"^\s*(?:(?:please|pls|plz)\s+)?(?:(?:can|could)\s+(?:you|u)\s+)?"
                     r"(?:provide|give|share|tell|send|enter|confirm|supply|quote|drop|text)\b|"
                     r"\b(?:please|kindly)\s+(?:provide|give|share|tell|send|enter|confirm|supply|quote)\b|"
                     r"\b(?:please|kindly)\s+let\s+(?:me|us)\s+know\b|^\s*let\s+(?:me|us)\s+know\b|"
                     r"(?:^\s*|[,;:]\s*)need\s+(?:your|ur)\b|"
                     r"\b(?:i|we)(?:'ll|'d)?\s+(?:(?:will|shall|would|should|still|first|also|just|then|now)\s+)*"
                     r"(?:need|require)\s+(?!to\b)", re.IGNORECASE)
# A question that asks for a thing the sentence before it names ("The meter serial, e.g. ...
# Could you provide it?"): read with that sentence.
# The same ask in the passive voice, its pronoun the subject ("... the following is needed: days.
# Could it be sent?", "Can these be supplied?").
ANAPHORIC_ASK = re.compile(r"\b(?:provide|give|share|tell|send|enter|confirm|supply|quote|let\s+(?:me|us)\s+"
                           r"(?:have|know))\s+(?:us\s+|me\s+)?(?:with\s+)?(?:it|this|that|them|these|those)\b|"
                           r"\b(?:can|could|would|will|may|might|should)\s+(?:it|this|that|they|these|those)\s+"
                           r"(?:please\s+)?be\s+(?:provided|given|shared|told|sent|entered|confirmed|supplied|quoted)\b",
                           re.IGNORECASE)


def user_facts(text: str) -> dict[str, list[str]]:
    """The facts of each kind a text gives, in order."""
    return {kind: [m.group("v") if "v" in p.groupindex and m.group("v") else m.group(0) for m in p.finditer(text or "")]
            for kind, p in FACTS.items() if p.search(text or "")}


def fact_values(text: str) -> set[str]:
    """Every fact value a text holds, of any kind of `FACTS` (identifiers, codes, dates, amounts,
    e-mail addresses, postcodes): the values a message can introduce, by their form."""
    return {v for values in user_facts(text).values() for v in values}


# The example a request gives of the value it wants ("Please provide: deposit_paid (format EUR
# 0.00)", "your ref, e.g. BK-0000", "the amount, like 0.00 GBP"), up to its closing bracket or the
# end of the clause: it opens with a quote, a digit, a currency sign or a capital and has at most
# three words ("would you like me to book 14 March?" shows no example).
ASKED_EXAMPLE = re.compile(r"\b(?i:format|e\.\s?g\.|like|such as)\s*:?\s*"
                           r"(?P<x>[\"'\u201c]?[A-Z0-9$\u20ac\u00a3#](?:[^()\n;,?\s]*)(?:\s[^()\n;,?\s]+){0,2}?)"
                           r"[\"'\u201d]?\s*(?:\)|[;,]|\?|\.?$)")
# An amount written with its currency's code first ("EUR 0.00", "GBP 45.00"), as a normaliser or
# a form's example writes it: the kind `FACTS`' amount is, code after.
CODE_FIRST_AMOUNT = re.compile(r"\b(?:USD|EUR|GBP|CHF|AUD|CAD)\s?\d[\d,]*(?:\.\d{1,2})?\b")


def _asked(sentence: str) -> set[str]:
    """The kinds of fact a sentence asks for (a question, or a request to provide): named by its
    words (`ASKS`), or shown by the example it gives of the value wanted (`ASKED_EXAMPLE`: a field
    asked for by its key, "deposit_paid (format EUR 0.00)", is an amount whatever its name)."""
    if not (is_question(sentence) or REQUEST.search(sentence)):
        return set()
    shown = {kind for m in ASKED_EXAMPLE.finditer(sentence) for kind in user_facts(m.group("x"))}
    if any(CODE_FIRST_AMOUNT.search(m.group("x")) for m in ASKED_EXAMPLE.finditer(sentence)):
        shown.add("amount")
    return {kind for kind, p in ASKS.items() if p.search(sentence)} | shown


def _received(trace: Trace, d: int, agent: str) -> str | None:
    """What `agent`'s model received on its first call after the hand-over at event `d`, as the
    adapter recorded it (`Trace.meta[HANDOVER_INPUTS]`), or None when not recorded: the first
    input of `agent` recorded after the hand-over before `d` (an adapter may record the
    hand-over itself after the model call it led to)."""
    before = max((i for i in range(d) if isinstance(trace.events[i], DelegationEvent)), default=-1)
    return received_text(trace, agent, before)


def handover_facts(trace: Trace, spec: WorkflowSpec | None) -> list[Failure]:
    """Kind 2 — a fact the user gave before a hand-over (an identifier such as a confirmation
    or order number, a date, an amount, an e-mail address, found with patterns) does not reach
    the agent the task is handed to: after the hand-over, before the user speaks again, that
    agent asks for a fact of that kind ("What is your confirmation number?", "I require the
    following: the account number", `REQUEST`, `asking_sentences`) without having
    tried a tool first, or calls a tool with a parameter of that kind (by its name:
    `confirmation_number`, `order_id`, `date`, `amount`, `email`) left empty though required,
    or set to a value of that kind's shape that is not the user's however written (a date
    reformatted, an amount in cents) and that no earlier event of the run contains, or set to
    one of the user's values while another of the same form never reached it (`_stand_in`).

    Category agent_relationship, root cause Information Loss at Hand-over. Blamed: the agent
    that handed over (step: the hand-over), unless the adapter recorded what the receiving
    agent's model was given (`Trace.meta[HANDOVER_INPUTS]`, the Agents SDK adapter does, after a
    handoff's `input_filter`) and the fact was in it: then the receiving agent had it and lost it
    itself (blamed, step: its question or call).

    A hand-over that misrouted the request (`misrouted_request`) is that fault, not this: the
    wrong agent asking for what its own tools need lost nothing. Nor is an agent that took the
    floor before the member it depends on (`instructed_order`) and asks, before that member acts,
    for what it had yet to make (the mill asking for the shade the shade desk has not recorded):
    the speaking order is the fault, whatever values of the user's fit the asked fact's form.

    A carry-over between chats of a sequence (AG2 `initiate_chats`) is a hand-over too: the
    adapter records it as a delegation (trigger "sequence") with what the next chat's agent
    received, so a fact the carried summary dropped is judged as any other.

    A question describing a parameter of the receiving agent's own tools, of which the user gave
    no value of the documented form, asks for that parameter, not for another fact the user gave
    (`_asks_own_parameter`: "the hut's number" is no ask for the request reference KS-0000).

    An agent that silently works without the fact is seen when its call leaves out an optional
    parameter of the fact's documented form (`_omitted_documented`: the railcard the fare needed).

    Cannot see: facts of other shapes (a name, an address, a seat) that no tool of the receiving
    agent documents with an example, an agent that silently works without a fact no parameter
    documents, or a receiving agent that asks again for a value because it doubts it."""
    misrouted = {f.step for f in misrouted_request(trace, spec)}
    # an agent that took the floor before the member whose work it depends on (`instructed_order`)
    # asks for what that member had yet to make: one fault, the speaking order's, not a loss
    early = [(f.agent, f.evidence[-1]) for f in instructed_order(trace, spec)]
    user_before: list[int] = []
    given: dict[str, list[str]] = {}  # the facts of the user's messages so far, by kind
    out = []
    for d, e in enumerate(trace.events):
        if said_by_user(e):
            user_before.append(d)
            for kind, values in user_facts(e.content).items():
                given.setdefault(kind, []).extend(values)
        if not isinstance(e, DelegationEvent) or e.to == e.from_ or not user_before or d in misrouted:
            continue
        told = " ".join(trace.events[u].content for u in user_before)
        looked_up = _looked_up(trace, d, e.from_)
        symptom = _loss_after(trace, d, e.to, given, spec, told,
                              " ".join(trace.events[r].payload for r in looked_up))
        if symptom is None:
            continue
        at, kind, how, wanted = symptom
        if any(agent == e.to and at < maker_acted for agent, maker_acted in early):
            continue
        source = (f"the user gave the {kind}" if any(v in told for v in wanted)
                  else f"{e.from_}'s tools returned the {kind}")
        if source.startswith("the user") and _maker_found_none(trace, spec, e.from_, e.to, kind, looked_up):
            continue  # the value was the hander's to make, and its tool found none: nothing lost
        sources = user_before if source.startswith("the user") else looked_up
        received = _received(trace, d, e.to)
        # the facts lost on the way are those of the wanted kind missing from what the receiving
        # agent's model was given: the receiver lost the fact itself only when every one reached it
        missing = [v for v in wanted if not _reached(v, received)] if received is not None else []
        had = received is not None and not missing
        wanted = missing or wanted
        blamed, step = (e.to, at) if had else (e.from_, d)
        seen = ("it received them" if had else "they were not in what it received"
                if received is not None else "what it received is not recorded")
        because = _overlooked(spec, e.to, wanted) if had else (
            _dropped_as_told(trace, spec, d, e, kind, wanted)
            or _asked_itself(trace, spec, d, e, given, told, wanted))
        out.append(Failure(
            category="agent_relationship", root_cause=INFORMATION_LOSS, detector="handover_facts",
            evidence=(*sources, d, at), scenario_id=trace.scenario_id,
            elements=(e.from_, e.to, kind), agent=blamed, step=step,
            subject=e.to if blamed == e.from_ else e.from_,  # the peer (blame.SUBJECTS)
            **({"attribution": "harness", "because": because} if because else {}),
            description=f"{source} {', '.join(wanted[:3])} before "
            f"{e.from_} handed over to {e.to} (event {d}), but {e.to} {how} (event {at}); "
            f"{seen}"))
    return dedupe(out)


def _maker_found_none(trace: Trace, spec: WorkflowSpec | None, hander: str, receiver: str, kind: str,
                      looked_up: list[int]) -> bool:
    """Is the parameter asked for (`kind`, "PARAM of TOOL") a product the receiving agent's own
    instructions say the hander makes (`instructed_dependencies`: "the sight size the bench
    measures is what you cut to", a word of the parameter's name in that sentence), of which the
    hander's tools, before the hand-over, spoke (a field or words of it: `"sight_size": "not in
    the workshop yet"`) without giving a value of the parameter's documented form? Then the
    value was the hander's to make and its tool found none: the receiver asking for it is what
    that answer leaves, and the user's own value of that form (a guess the team is built to
    replace with its measurement) was never the one to pass on. Nothing was lost at the
    hand-over; whether the team handled the empty answer is the other oracles' to judge."""
    if spec is None or " of " not in kind:
        return False
    param, tool = kind.split(" of ", 1)
    named = {w for w in words(param) if w not in STOPWORDS}
    said = [s for before, after, s in instructed_dependencies(spec) if (before, after) == (hander, receiver)]
    forms = [regex for _, regex in documented_formats(spec, tool).get(param, [])]
    if not named or not forms or not any(named & set(words(s)) for s in said):
        return False
    spoke = False
    for i in looked_up:
        payload = trace.events[i].payload
        if _of_form(payload, forms):
            return False  # it made the value: a loss of it is the hand-over's (`_held_asked`)
        spoke = spoke or bool(named & set(words(payload)))
    return spoke


# An instruction to ask the user for something: "Ask for the order number.", "Always confirm the
# date with the customer."
_ASK_LINE = re.compile(r"\bask\b|\b(?:request|obtain|collect|get)\b[^.;]*\bfrom\s+the\s+(?:user|customer|client|"
                       r"caller|guest)|\b(?:confirm|verify|check|double-check)\b[^.;]*\bwith\s+the\s+(?:user|"
                       r"customer|client|caller|guest)", re.IGNORECASE)


def _overlooked(spec: WorkflowSpec | None, agent: str, values: list[str]) -> str:
    """Why a fact the receiving agent's model was given, and asked for anyway, is the model's
    lapse: the hand-over carried it (the adapter recorded it in what the model received), and no
    unconditional line of the agent's instructions tells it to ask (an "If the size is missing,
    ask for it" did not apply: the size was there). "" when a line does: the app's own words
    make it ask again."""
    lines = (a.instructions or "") if spec is not None and (a := spec.find_agent(agent)) else ""
    if any(_ASK_LINE.search(s) and not CONDITIONAL.search(s) and not NEGATED.search(s) for s in sentences(lines)):
        return ""
    return (f"the model in use asked for {', '.join(values[:3])}, which the hand-over gave {agent}'s model "
            "(recorded in what it received), and nothing in its instructions tells it to ask again: the "
            "model overlooked it, the app lost nothing")


# A verb that tells an agent to put a thing in what it writes, one vocabulary for both things it
# may be told to write: a fact in the brief it hands over ("giving the venue's name", "include the
# reader's card", "tell the courier the date") or a tool's answer in the reply the app relays
# ("report the result of measure_artwork", "sum up what find_sitter found", "tell the owner what
# T said").
_TOLD_TO_WRITE = re.compile(r"\b(?:giv(?:e|es|ing)|pass(?:es|ing)?|includ(?:e|es|ing)|send(?:s|ing)?|stat(?:e|es|ing)|"
                            r"quot(?:e|es|ing)|mention(?:s|ing)?|report(?:s|ing)?|relay(?:s|ing)?|tell(?:s|ing)?|"
                            r"shar(?:e|es|ing)|sum(?:s|ming)?\s+up|summari[sz](?:e|es|ing))\b", re.IGNORECASE)
# "with" the fact, in a brief ("with the date and the number of guests"); never of a tool's
# answer: "Find a sitter with find_sitter" says which tool to use, not what to write.
_WITH_FACT = re.compile(r"\bwith\b", re.IGNORECASE)


def _dropped_as_told(trace: Trace, spec: WorkflowSpec | None, d: int, e: DelegationEvent, kind: str,
                     values: list[str]) -> str:
    """Why a fact lost at the hand-over at `d` is the hander's model's lapse: the hander wrote
    the hand-over itself (the arguments of its delegating tool call: an agent run as a tool, a
    delegating tool), without the fact, though a line of its own instructions tells it,
    unconditionally, to pass that very fact on ("Put the venue to the surveyor with ask_site,
    giving the venue's name"): the line names the fact in the words of the parameter asked for
    (its description's content words, or its name's) or, for a kind of fact, the kind's own word
    ("the date"). The app told its agent to pass it; the model in use left it out. "" otherwise:
    a hand-over the framework writes (a handoff's history, an input filter) or a line that names
    no such fact keeps the loss the app's.

    So is a fact the hander's own tool answered when the app passes on the hander's reply
    (`_relayed_reply`: a `last_msg` carry-over, a team relaying each member's final reply and not
    its tool results) and a line tells the hander to report that tool's answer ("Report the
    result of measure_artwork"): the reply was the only way the fact could travel, and the model
    in use wrote it without."""
    if spec is None or all(a.id != e.from_ for a in spec.agents):
        return ""
    call = running_tool([x for x in trace.events[:d] if isinstance(x, (ToolCall, ToolResult)) and x.agent == e.from_])
    written = json.dumps(call.arguments, ensure_ascii=False) if call is not None else _own_brief(trace, d, e)
    answered: set[str] = set()
    if written is None and call is None and (relayed := _relayed_reply(trace, d, e)) is not None:
        written, at = relayed
        # the hander's tools whose answer held the fact before its reply: a line telling it to
        # report that answer ("Report the result of measure_artwork") names the fact too
        answered = {r.tool for r in trace.events[:at] if isinstance(r, ToolResult) and r.agent == e.from_
                    and r.status == "ok" and any(_reached(v, r.payload) for v in values)}
        if not answered:  # a fact the reply was not told of: the app's words around it decide
            return ""
    if written is None or any(_reached(v, written) for v in values):
        return ""
    param, _, tool = kind.partition(" of ")  # a documented parameter asked for: "venue of check_ground"
    t = spec.find_tool(tool) if tool else None
    if t is not None:
        doc = str((((t.parameters or {}).get("properties") or {}).get(param) or {}).get("description") or "")
        about = re.split(r",?\s*\b(?:like|such as|e\.g\.|for example|for instance)\b", doc, maxsplit=1)[0]
        names = [{w for w in words(x) if w not in STOPWORDS and not w.isdigit()} for x in (about, param)]

        def names_own(line: str) -> bool:
            said = {stem(w) for w in words(line)}  # "the bag count" names `bags`
            return any(n and {stem(w) for w in n} <= said for n in names)
    elif kind in ASKS:
        def names_own(line: str) -> bool:
            return bool(ASKS[kind].search(line))
    else:
        def names_own(line: str) -> bool:
            return False

    def names_fact(line: str) -> bool:
        if not answered:
            return names_own(line)
        # a relayed reply: a clause telling it to write the fact, or the answer of the tool that
        # gave it ("Report the result of find_sitter", "Sum up what find_sitter found")
        return names_own(line) or any(re.search(rf"\b{re.escape(name)}\b", line) for name in answered)

    # a graph node's instructions are the system message its code builds: read as its model was told
    for line in sentences(with_prompts(spec, trace).agent(e.from_).instructions or ""):
        for part in clauses(line):
            told_to_write = _TOLD_TO_WRITE.search(part) or not answered and _WITH_FACT.search(part)
            if told_to_write and names_fact(part) and not CONDITIONAL.search(part) \
                    and not NEGATED.search(part):
                how = f" ({call.tool})" if call is not None else ""
                what = "the reply its model wrote, passed on to" if answered else "the brief its model wrote for"
                return (f"{e.from_}'s own instructions tell it to pass this on (\"{line.strip()[:120]}\"), "
                        f"and {what} {e.to}{how} left out {', '.join(values[:3])}: "
                        "the model in use did not follow the app's instructions")
    return ""


def _asked_itself(trace: Trace, spec: WorkflowSpec | None, d: int, e: DelegationEvent,
                  given: dict[str, list[str]], told: str, values: list[str]) -> str:
    """Why a fact lost at the hand-over at `d` is the hander's model's lapse: the app passes on
    the hander's reply (`_relayed_reply`), and that reply itself asks the user for the lost fact
    (`_asked_lost`, read as the receiver's questions are), which the user's message had given the
    hander's model (recorded in what it received). The model overlooked what it was given, and
    its reply carried the question on instead of the fact: the receiver asking again is that
    lapse passed along, not a loss of the app's. "" otherwise (a reply that asks for nothing lost,
    or a hander whose input is not recorded or lacked the fact, keeps the loss the app's)."""
    relayed = _relayed_reply(trace, d, e)
    if relayed is None:
        return ""
    reply, at = relayed
    asked = _asked_lost(reply, e.from_, given, spec, told, "")
    if asked is None or asked is _STOP or not set(asked[2]) & set(values):
        return ""
    got = [x for x in trace.meta.get(HANDOVER_INPUTS) or () if x.get("agent") == e.from_
           and x.get("since", -1) <= at]
    if not got or not all(_reached(v, str(got[-1].get("text") or "")) for v in asked[2]):
        return ""
    return (f"{e.from_}'s own reply, which the app passed on to {e.to}, asked for {', '.join(asked[2][:3])}, "
            f"which the user's message had given {e.from_}'s model (recorded in what it received): the model "
            "overlooked it and passed the question on, the app lost nothing")


def _relayed_reply(trace: Trace, d: int, e: DelegationEvent) -> tuple[str, int] | None:
    """The hander's last message before the hand-over at `d` and its index, when what the
    receiving agent's model was given (`_received`) holds all its words among the app's own (an
    AG2 chat's `last_msg` carry-over after the next chat's opening, an AgentChat team passing
    each member's final reply and never its tool results): the app relays the hander's reply, and
    what the reply says of its tools' answers was the hander's model's to write. None otherwise."""
    received = _received(trace, d, e.to)
    at = _last_said(trace, d, e.from_)
    if received is None or at is None:
        return None
    said = set(words(trace.events[at].content))
    return (trace.events[at].content, at) if said and said <= set(words(received)) else None


def _last_said(trace: Trace, d: int, agent: str) -> int | None:
    """The index of the agent's last message with words before event `d`, or None."""
    return next((i for i in range(d - 1, -1, -1) if isinstance(trace.events[i], Message)
                 and trace.events[i].agent == agent and trace.events[i].content), None)


def _own_brief(trace: Trace, d: int, e: DelegationEvent) -> str | None:
    """The hand-over at `d` as the hander's model wrote it in its own reply, or None: what the
    receiving agent's model was given (`_received`) holds no word but those of the hander's last
    message before the hand-over (a graph node's brief in the team's state, passed on alone).
    The app chose to pass the hander's words; what they hold was the hander's model's to write."""
    received = _received(trace, d, e.to)
    said = trace.events[at].content if (at := _last_said(trace, d, e.from_)) is not None else ""
    got = set(words(received or ""))
    return said if got and got <= set(words(said)) else None


def _looked_up(trace: Trace, d: int, agent: str) -> list[int]:
    """The results of the tools `agent` called before the hand-over at `d` (none injected with a
    fault): what the team looked up for the request (a record found from the caller's phone
    number) is the team's to pass on, as the user's words are."""
    return [i for i, r in enumerate(trace.events[:d])
            if isinstance(r, ToolResult) and r.agent == agent and r.status == "ok" and not r.fault]


def _fits_docs(spec: WorkflowSpec, agent: str, kind: str, values: list[str]) -> bool:
    """Does a value the user gave have the form the agent's tools document for parameters of
    this kind ("the six-character booking reference"), in any of its spellings (`_spellings`)?
    True when none documents one."""
    forms = _documented_forms(spec, agent, kind)
    return not forms or any(_fits(v, forms) for v in values)


def _reference_key(value: str) -> str:
    """A reference as it is compared, whoever wrote it: lower case, without the #, dashes, dots and
    spaces people and models add or drop ("lp-30418", "LP30418" and "LP 30418" are one ticket)."""
    return re.sub(r"[#\s._-]", "", value).lower()


def _spellings(value: str) -> list[str]:
    """A user's identifier as written and as a tool's documentation may spell it: upper case, and
    without its separators ("lp-30418": LP-30418, LP30418): the form a tool documents ("LP00000")
    is the reference's, not the user's way of writing it."""
    compact = re.sub(r"[\s._-]", "", value)
    return list(dict.fromkeys((value, value.upper(), compact, compact.upper())))


def _fits(value: str, forms: list[str]) -> bool:
    """Does some spelling of the value match every documented form?"""
    return any(all(re.fullmatch(r, s) for r in forms) for s in _spellings(value))


def _reached(value: str, received: str) -> bool:
    """Did a fact reach what an agent received, however the hander re-wrote it: a reference (the
    customer's "lp-30418" passed on as "LP30418"), or a date in another calendar form (the
    user's 2026-03-14 passed on as "Sat 14 Mar 2026": a note writer's, not a loss)?"""
    if value in received or any(_reference_key(value) == _reference_key(v)
                                for v in user_facts(received).get("identifier", [])):
        return True
    return bool(FACTS["date"].fullmatch(value.strip()) and _day_months(value) & _dates_in(received))


def _documented_forms(spec: WorkflowSpec, agent: str, kind: str) -> list[str]:
    """The forms (regexes) the agent's tools document for parameters of this kind."""
    return [regex for t in tools_of(spec, agent)
            for p, fs in documented_formats(spec, t).items() if PARAMS[kind].search(p)
            for _, regex in fs]


def _loss_after(trace: Trace, d: int, agent: str, given: dict[str, list[str]],
                spec: WorkflowSpec | None, told: str = "",
                held: str = "") -> tuple[int, str, str, list[str]] | None:
    """The first sign after the hand-over at `d` that `agent` lacks a fact of a kind the user
    gave, or a fact the hander's tools returned (`held`, `_held_asked`): (event, kind, what it
    did, the values it lacks). Looks until the user speaks again or the next hand-over (which
    starts a window of its own). A question after a tool call that tried the fact (`_tried`)
    is no sign: the agent may be asking because the value did not work."""
    calls: list[int] = []  # the agent's tool calls so far in the window
    for i in range(d + 1, len(trace.events)):
        e = trace.events[i]
        if said_by_user(e) or isinstance(e, DelegationEvent):
            return None
        if isinstance(e, ToolCall) and e.agent == agent:
            if replaced := _replaced(trace, i, e, given, spec):
                return i, *replaced, given[replaced[0]]
            received = _received(trace, d, agent)
            if stand_in := _stand_in(e, given, received) or _documented_stand_in(e, spec, told, received, held) \
                    or _prose_in_place(e, given, received) or _omitted_documented(trace, i, e, spec, told, received):
                return i, *stand_in
            calls.append(i)
        if isinstance(e, Message) and e.role == "assistant" and e.agent == agent:
            asked = _asked_lost(e.content, agent, given, spec, told, held, _received(trace, d, agent))
            if asked is _STOP:
                return None
            if asked is not None and not _tried(trace, calls, asked[2], spec):
                return i, *asked
    return None


_STOP = ("stop",)  # `_asked_lost`: the question is for a kind of fact the user gave in no form its tools take


def _asked_lost(text: str, agent: str, given: dict[str, list[str]], spec: WorkflowSpec | None,
                told: str, held: str, received: str | None = None) -> tuple[str, str, list[str]] | tuple[str] | None:
    """Does an agent's message ask for a fact the user gave (or the hander's tools returned)?
    (kind, what it did, the values asked for), `_STOP` when it asks for a kind of fact of which
    no value the user or the hander's tools gave fits its tools (asking is right, and nothing
    later in the window is read), or None.

    A question in another language than English, which the rules' words do not read ("Pode
    indicar-me o valor?"), is read from the run's values (`_asked_by_values`), given what the
    agent's model `received`."""
    for s in asking_sentences(text):
        asked = f"asked for it again: \"{s[:100]}\""
        # what one of its tools documents names the fact and its form ("the client's
        # Unique Taxpayer Reference, like \"UTR 1234567890\""): that is the fact asked
        # for, more surely than any value of the kind a question's word names
        # ("reference": every code the user wrote)
        if spec is not None and (documented := _asked_documented(s, spec, agent, told)):
            return documented[0], asked, documented[1]
        kinds = _asked(s) & set(given)
        if spec is not None and kinds and _asks_own_parameter(s, spec, agent, kinds) \
                and not _held_asked(s, spec, agent, held):
            continue  # it asks for what its tools document, of which the user gave nothing
        if kinds:
            kind = sorted(kinds)[0]
            if spec is None or _fits_docs(spec, agent, kind, given[kind]):
                return kind, asked, given[kind]
            # no value the user gave of that kind fits its tools: the hander's may
            held_fact = _held_asked(s, spec, agent, held)
            return (held_fact[0], asked, held_fact[1]) if held_fact else _STOP
        if held_fact := _held_asked(s, spec, agent, held):
            return held_fact[0], asked, held_fact[1]
        # last, a question naming a parameter of its tools ("your docket?")
        if spec is not None and (named := _asked_documented(s, spec, agent, told, by_name=True)):
            return named[0], asked, named[1]
        if spec is not None and (counted := _asked_count(s, spec, agent, told)):
            return counted[0], asked, counted[1]
    return _asked_by_values(text, spec, agent, told, received)


def _asked_by_values(text: str, spec: WorkflowSpec | None, agent: str, told: str,
                     received: str | None) -> tuple[str, str, list[str]] | None:
    """A question in another language than English (`in_english`), from an agent whose tools'
    documented-form parameters are unfilled by what its model received (`unfilled_parameters`),
    when the user wrote a value of each one's very form that did not reach it ("37,50 €" of
    `voucher_balance: ... e.g. "20,00"`): (the parameters, as "PARAM of TOOL" joined by "and",
    what it did, the user's values). The question's shape and the values say what it lacks; no
    word of it need be read. Two open parameters the user gave both (a note that dropped the
    sailing and the deposit) are both lost, whichever of them the question names first; one open
    parameter the user gave nothing for may be what the question asks, so none is read then."""
    if spec is None or not received:
        return None
    question = next((s for s in sentences(answer_given(text)) if is_question(s) and not in_english(s)), None)
    unfilled = unfilled_parameters(spec, agent, received) if question else []
    lost = [(f"{param} of {tool}", [v for v in _of_form(told, regexes) if not _reached(v, received)])
            for param, tool, regexes in unfilled]
    if not lost or not all(values for _, values in lost):
        return None
    return (" and ".join(name for name, _ in lost), f"asked for it again: \"{question[:100]}\"",
            list(dict.fromkeys(v for _, values in lost for v in values)))


def _tried(trace: Trace, calls: list[int], wanted: list[str], spec: WorkflowSpec | None) -> bool:
    """Did one of the agent's tool calls try the fact it then asks for: a call that took one of
    the values asked for, or one whose tool failed or found nothing (the value it had may be what
    did not work, so asking the user is right)? A look-up that answered and took none of them (the
    loans desk finding the set, then asking for the reader's card) tried nothing of the fact."""
    for c in calls:
        call = trace.events[c]
        sent = json.dumps(call.arguments, ensure_ascii=False)
        if any(_reached(v, sent) for v in wanted):
            return True
        result = next((r for r in trace.events[c + 1:] if isinstance(r, ToolResult)
                       and r.call_id == call.call_id), None)
        # an answer with nothing in it, whatever the tool's documentation says it returns
        if result is None or _failed(result, spec, empty=True) \
                or result.payload.strip().lower() in ("", "[]", "{}", "none", "null"):
            return True
    return False


def _asked_count(sentence: str, spec: WorkflowSpec, agent: str, told: str) -> tuple[str, list[str]] | None:
    """A question for a count a number parameter of the agent's tools takes, which documents no
    form ("How many guests will there be?" for `party_size: How many people are dining`), when the
    user's messages gave it (`count_given`: "a table for 4"): (the parameter, as "TOOL's PARAM",
    and the user's value). The question asks for it by a word of the parameter's name or
    description other than the count's own ("how many", "number")."""
    if not (is_question(sentence) or REQUEST.search(sentence)):
        return None
    said = {stem(w) for w in words(sentence)}
    for tool in tools_of(spec, agent):
        t = spec.find_tool(tool)
        props = ((t.parameters if t is not None else None) or {}).get("properties") or {}
        for param, schema in props.items():
            doc = str((schema or {}).get("description") or "")
            if (schema or {}).get("type") not in ("integer", "number") or documented_formats(spec, tool).get(param):
                continue
            about = {stem(w) for w in words(f"{param} {doc}") if w not in STOPWORDS and len(w) > 3} \
                - {stem(w) for w in ("many", "much", "number", "count", "total", "there", "will", "with")}
            # a head count is asked for in any of its words ("guests" for `party_size`), or as
            # "how many" alone ("How many will be dining?")
            headcount = bool(about & _HEADCOUNT) and bool(said & _HEADCOUNT or re.search(
                r"\bhow\s+many\b", sentence, re.IGNORECASE))
            if (about & said or headcount) and (value := count_given(told, param, doc)) is not None:
                return f"{param} of {tool}", [value]
    return None


def asking_sentences(text: str) -> list[str]:
    """A message's sentences, each question that asks for a thing only by a pronoun ("Could you
    please provide it?") read together with the sentences before it back to the last question
    (what it points to: "I require the following: the account number, e.g. "WW-0000000"."),
    as the statement and the question ask for it together."""
    said, out, start = sentences(text), [], 0
    for k, s in enumerate(said):
        if is_question(s) and ANAPHORIC_ASK.search(s) and k > start:
            out.append(" ".join(said[start:k + 1]))
        else:
            out.append(s)
        if is_question(s):
            start = k + 1
    return out


def _held_asked(sentence: str, spec: WorkflowSpec | None, agent: str,
                held: str) -> tuple[str, list[str]] | None:
    """A question for a fact the hander's tools returned (`held`): what a parameter of the
    agent's tools documents (`_asked_documented`), or a kind of fact (`_asked`) whose form its
    tools document, when the results hold exactly one value of that form (a record found: the
    learner number `LD-30417`). Several values (a search's list) leave the choice open, so asking
    is right; a form no tool documents says nothing of what the agent lacks. A question naming
    the parameter by its name ("need: booking?", "What is the booking (format: CM-10000)?")
    asks for it as one describing it does, as for the user's values (`by_name`)."""
    if spec is None or not held.strip():
        return None
    for by_name in (False, True):
        documented = _asked_documented(sentence, spec, agent, held, by_name=by_name)
        if documented and len(set(documented[1])) == 1:
            return documented
    facts = user_facts(held)
    for kind in sorted(_asked(sentence) & set(facts)):
        values = sorted(set(facts[kind]))
        if len(values) == 1 and _documented_forms(spec, agent, kind) \
                and _fits_docs(spec, agent, kind, values):
            return kind, values
    return None


def _asked_documented(sentence: str, spec: WorkflowSpec, agent: str, told: str,
                      by_name: bool = False) -> tuple[str, list[str]] | None:
    """A question (or request) for what a parameter of one of the agent's tools documents ("the
    sales order" of `order: The sales order, like "so-00000"`: every content word of its
    description, or of one of its comma-cut parts: "the days wanted" of `The days wanted, an ISO
    date range like ...`), when the user's messages hold values of the form the documentation gives
    for it (`so-55120`): (the parameter, as "TOOL's PARAM", and the user's values). The tool's
    own documentation says what the fact is and what it looks like, whatever its kind. An example
    of plain lower-case words (`like "change of address"`) gives no form: any words of the
    message would fit it, so nothing tells that the user gave that fact.

    `by_name`: a question that names the parameter itself instead (`docket`: "would you mind
    letting me know your docket?", `booking_ref`: "what's the booking ref?"), however worded; a
    name is shorter and more common than a description (`seat`, `day`), so only the user's values
    that are facts of a kind by their own shape as well (`fact_values`: a code such as BC-55120,
    a date) count, not any words a loose form ("six characters") fits. A reference the user spelt
    otherwise than the documentation (lower case, a dash: "lp-30418" for "LP00000") is the same
    reference (`_spellings`)."""
    if not (is_question(sentence) or REQUEST.search(sentence)):
        return None
    asked, named = _described(sentence, spec, agent)
    # by name only when the question describes no parameter: one it describes is the one asked
    # for ("the drop-off day and time" is `at`, whatever it says of a `day`)
    asked = (named if not asked else []) if by_name else asked
    if not asked:
        return None
    # the parameter the question describes most fully ("drop-off day and time", not "the day")
    _, param, tool, forms, _ = max(asked, key=lambda a: a[0])
    values = _of_form(told, [r for _, r in forms]) + _twelve_hour(told, [r for _, r in forms])
    # the user's references in another spelling than the documented one ("lp-30418" for "LP00000")
    # ... but not a reference that is, as written, another parameter's documented form of the same
    # tool (the case number "DL-0000" of `case` is not the `shade` "A1" respelt "DL0000")
    others = [r for p, fs in documented_formats(spec, tool).items() if p != param for _, r in fs]
    values += [v for v in user_facts(told).get("identifier", [])
               if v not in values and _fits(v, [r for _, r in forms])
               and not any(re.fullmatch(r, v) for r in others)]
    if by_name:
        values = [v for v in values if is_documented_fact(v, told, forms)]
    return (f"{param} of {tool}", values) if values else None


def is_documented_fact(value: str, text: str, forms: list[tuple[str, str]]) -> bool:
    """Is a value a documented form (`documented_formats`: (example, regex)) found in `text` that
    fact, not everyday words fitting a loose form by chance ("after the first 7 days" of `like
    "bus 31"`)? So it is when the text's words are a fact by their shape (`fact_values`), when a
    form fits nothing else (`_telling`), or when the value carries the example's own word
    (`_example_word`)."""
    return value in fact_values(text) or any(_telling(r) for _, r in forms) or _example_word(value, forms)


def _example_word(value: str, forms: list[tuple[str, str]]) -> bool:
    """Does the value open with the capitalised word the documentation's example opens its value
    with (`like "UTR 1234567890"`: "UTR 8412207765", `e.g. "SSR 100000"`)? A loose form (a word,
    then digits) that everyday text fits by chance ("GBP 1,140") is that fact when it carries the
    example's own word, which names the fact as a prefix does."""
    lead = re.match(r"[A-Z]{2,}(?=[\s\-]?\d)", value)
    return lead is not None and any(re.search(rf"\b{lead.group()}[\s\-]?\d", example) for example, _ in forms)


# A time of day on the twelve-hour clock ("5:30pm", "5 pm", "11.15 a.m."): the same fact as a
# documented 24-hour clock time ("17:30" of `like "09:30"`), written as people say it.
TWELVE_HOUR = re.compile(r"(?<![\w:.])(?:1[0-2]|0?[1-9])(?:[:.][0-5]\d)?\s?[ap]\.?m\b\.?", re.IGNORECASE)


def _twelve_hour(text: str, forms: list[str]) -> list[str]:
    """The user's twelve-hour times (`TWELVE_HOUR`) when a parameter documents a clock time
    (`_CLOCK`: `like "09:30"`): a normaliser hands "17:30" on for "5:30pm", so the user gave the
    fact the form asks for, though no text of theirs fits the form as written."""
    return [m.group(0) for m in TWELVE_HOUR.finditer(text)] if any(_CLOCK.fullmatch(f) for f in forms) else []


def _of_form(text: str, forms: list[str]) -> list[str]:
    """The values in `text` that match every one of a parameter's documented forms (regexes)."""
    return [m.group(0) for m in re.finditer(rf"(?<![\w-])(?:{forms[0]})(?![\w-])", text)
            if all(re.fullmatch(r, m.group(0)) for r in forms)]


def _asks_own_parameter(sentence: str, spec: WorkflowSpec, agent: str, kinds: set[str]) -> bool:
    """Is every kind of fact the question asks for (`_asked`: "number" of "the hut's number")
    a word of a parameter of the agent's tools that it describes in its documentation's words
    ("the hut's number and the day of hire" of `hut: The hut's number` and `day: The day of
    hire`)? Called once `_asked_documented` found that the user gave no value of that
    parameter's documented form: the question asks for the parameter, not for whatever
    identifier or date the user gave (a request reference `KS-0000` is no hut's number), so it
    is no ask-again. A kind said in words of no described parameter ("your booking reference for
    that day" of `day: The day`) is still asked for."""
    described = {w for *_, said in _described(sentence, spec, agent)[0] for w in said}
    heads = [words(m.group(0))[-1:] if (m := ASKS[k].search(sentence)) else [] for k in kinds]
    return bool(described) and all(head and head[0] in described for head in heads)


def _described(sentence: str, spec: WorkflowSpec, agent: str) -> tuple[list[tuple], list[tuple]]:
    """The documented-form parameters of the agent's tools a sentence describes (every content
    word of its description, or of one of its comma-cut parts) and those it names by their names:
    (how many of its words the sentence says, the parameter, its tool, its forms, those words)."""
    said = set(words(sentence))
    asked = []  # (how many of its words the question says, the parameter, its tool, its forms)
    named = []  # the same, of the parameters the question names by their names
    for tool in tools_of(spec, agent):
        t = spec.find_tool(tool)
        props = ((t.parameters if t is not None else None) or {}).get("properties") or {}
        for param, forms in documented_formats(spec, tool).items():
            if all(FREE_TEXT.fullmatch(regex) for _, regex in forms):
                continue
            about = re.split(r",?\s*\b(?:like|such as|e\.g\.|for example|for instance)\b",
                             str((props.get(param) or {}).get("description") or ""), maxsplit=1)[0]
            # the whole description, or one of its comma-cut parts ("The days wanted, an ISO
            # date range": a question for "the days wanted" asks for that parameter)
            for part in (about, *about.split(",")):
                content = {w for w in words(part) if w not in STOPWORDS and not w.isdigit()}
                if content and content <= said:
                    asked.append((len(content), param, tool, forms, content))
                    break
            content = {w for w in words(param) if w not in STOPWORDS and not w.isdigit()}
            if content and content <= said:
                named.append((len(content), param, tool, forms, content))
    return asked, named


# The runs of one class that `_shape` writes: digits, capitals, lower-case letters.
_RUNS = re.compile(r"\\d\+|\[A-Z\]\+|\[a-z\]\+")
# The shape of a clock time ("09:30", "16:45:00"), as `_shape` or `_DOC_FORMATS` write it.
_CLOCK = re.compile(r"\\d(?:\+|\{\d\})(?::\\d(?:\+|\{\d\}))+")


def _telling(regex: str) -> bool:
    """Is a documented form one that text fits only when it is that fact, as a code or a date
    is: a clock time (`_shape` of "09:30"), or a value in several counted parts ("3 vegan, 2
    coeliac": four runs of digits and letters, digits among them)? No everyday words fit it by
    chance, as they fit a bare word or number."""
    runs = _RUNS.findall(regex)
    return bool(_CLOCK.fullmatch(regex)) or len(runs) >= 4 and "\\d+" in runs


def _replaced(trace: Trace, i: int, call: ToolCall, given: dict[str, list[str]],
              spec: WorkflowSpec | None) -> tuple[str, str] | None:
    """A parameter of a kind the user gave, left empty (when the tool requires it) or set to a
    value of that kind's shape that is none of the user's (`_same_fact`) and that no earlier
    event holds. A value of another shape (a sort `order` of "ascending") says nothing."""
    tool = spec.find_tool(call.tool) if spec is not None else None
    required = set((tool.parameters or {}).get("required") or ()) if tool is not None else set()
    for param, value in call.arguments.items():
        if not isinstance(value, (str, int, float)) or isinstance(value, bool):
            continue
        for kind in given:
            if not PARAMS[kind].search(param):
                continue
            text = str(value).strip()
            if not text and param in required:
                return kind, f"called {call.tool} with {param} empty"
            if text and FACTS[kind].fullmatch(text) \
                    and not any(_same_fact(kind, text, v) for v in given[kind]) \
                    and not any(text in _text_of(e) for e in trace.events[:i]):
                return kind, (f"called {call.tool} with {param}={text!r}, a value no earlier "
                              "event holds")
    return None


def _stand_in(call: ToolCall, given: dict[str, list[str]],
              received: str | None) -> tuple[str, str, list[str]] | None:
    """A parameter of a kind the user gave set to one of the user's values, while another value
    the user gave of the same kind and form (two references VSA-...) is missing from what the
    agent's model received (`_received`): the agent had one candidate left, and took it for the
    one that was lost. Needs the recorded input: without it, which values reached it is unknown.

    A value the user gave before the one the call used, when that one reached the agent, is not
    lost but superseded: the user's later word of the same form is the operative one (the flight
    booked for 2026-06-13, "could you move us to 2026-06-20?"), and a hand-over that passed only
    the newer value passed what the work needed."""
    if received is None:
        return None
    for param, value in call.arguments.items():
        if not isinstance(value, (str, int, float)) or isinstance(value, bool):
            continue
        text = str(value).strip()
        for kind in given:
            if not PARAMS[kind].search(param) or not FACTS[kind].fullmatch(text):
                continue
            used = next((k for k, v in enumerate(given[kind]) if _same_fact(kind, text, v)), None)
            # the values given after the one used, when it reached the agent (`used`): the rest
            # were said before it, superseded by it
            after = given[kind][used + 1:] if used is not None and _reached(given[kind][used], received) \
                else given[kind]
            lost = [v for v in after if not _reached(v, received) and not _same_fact(kind, text, v)
                    and re.fullmatch(_shape(v), text)]
            if lost:
                return kind, (f"called {call.tool} with {param}={text!r}, while the user's {lost[0]}, "
                              "of the same form, never reached it"), lost
    return None


PROSE_WORDS = 4  # a parameter's value of this many words or more is prose, not a value of a kind


def _prose_in_place(call: ToolCall, given: dict[str, list[str]],
                    received: str | None) -> tuple[str, str, list[str]] | None:
    """A parameter of a kind the user gave (`order_number`, `application_ref`), set to prose (the
    hand-over's words or the request's, pasted whole: "Ship a replacement for the damaged
    order.") that holds no value of the form of a user's value of that kind which is missing from
    what the agent's model received: a model that lacks the fact and does not ask fills the field
    with what it has. Had the fact reached it, the pasted words would carry it (the fixed
    hand-over's do); words with no value of that form in the parameter's place are the loss
    showing, as a question for it would. Words that hold another value of the form (the user's
    old reference beside the new one) are not read: which one the tool needed is more than their
    shape tells. Needs the recorded input, as `_stand_in` does."""
    if received is None:
        return None
    for param, value in call.arguments.items():
        text = value.strip() if isinstance(value, str) else ""
        if len(text.split()) < PROSE_WORDS:
            continue
        for kind in given:
            if not PARAMS[kind].search(param) or FACTS[kind].fullmatch(text):
                continue
            lost = [v for v in given[kind] if not _reached(v, received) and not _reached(v, text)]
            # words that hold another of the user's values of that form name one: which of the
            # two the tool needed ("the permit went in as BP-60318" beside the lapsed BP-22107)
            # is more than the text's shape tells
            if lost and not any(re.search(rf"(?<![\w-]){_shape(v)}(?![\w-])", text) for v in lost):
                return kind, (f"called {call.tool} with {param} set to words that hold no {kind} "
                              f"(\"{' '.join(text.split())[:60]}\"), while the user's {lost[0]} never reached it"), lost
    return None


def _documented_stand_in(call: ToolCall, spec: WorkflowSpec | None, told: str,
                         received: str | None, held: str = "") -> tuple[str, str, list[str]] | None:
    """`_stand_in` for a parameter whose form the tool documents, whatever its kind (`utr: The
    client's Unique Taxpayer Reference, like "UTR 1234567890"`): the call's value has that form
    but is none of the user's values of it that reached the agent, and a value of it the user
    wrote is missing from what the agent's model received. The agent took whatever of that form
    it had ("GBP 1", cut from an amount "GBP 1,140": a value of the user's text is a whole one,
    not the head of a longer number) for the one that was lost. An agent that used a value of
    the user's that reached it did its work with what it was given, and so did one that used a
    value the hander's tools returned (`held`: the artwork's measured size, in place of the
    customer's guess) that reached it in the hand-over (an AG2 carry-over). Needs the recorded
    input, as `_stand_in` does. A required parameter left empty ("") in the lost value's place is
    the same loss showing: the agent had nothing of the form to put there (a parameter named for
    no kind of fact, `subscriber: The subscriber number printed on the wrapper, e.g. "CX-00000"`,
    which `_replaced` does not read)."""
    if received is None or spec is None:
        return None
    tool = spec.find_tool(call.tool)
    required = set(((tool.parameters or {}).get("required") or ()) if tool is not None else ())
    for param, forms in documented_formats(spec, call.tool).items():
        value = call.arguments.get(param)
        if not isinstance(value, str) or all(FREE_TEXT.fullmatch(r) for _, r in forms):
            continue
        blank = not value.strip() and param in required
        if not blank and not all(re.fullmatch(r, value.strip()) for _, r in forms):
            continue
        values = [m.group(0) for m in re.finditer(rf"(?<![\w-])(?:{forms[0][1]})(?![\w-]|[.,]\d)", told)
                  if all(re.fullmatch(r, m.group(0)) for _, r in forms)]
        lost = [v for v in values if not _reached(v, received)]
        if lost and (blank or not ((value.strip() in values or value.strip() in held) and _reached(value.strip(), received))):
            how = f"{param} empty" if blank else f"{param}={value.strip()!r}"
            return (f"{param} of {call.tool}", f"called {call.tool} with {how}, while the "
                    f"user's {lost[0]}, of the form its documentation gives, never reached it", lost)
    return None


def _omitted_documented(trace: Trace, i: int, call: ToolCall, spec: WorkflowSpec | None, told: str,
                         received: str | None) -> tuple[str, str, list[str]] | None:
    """A parameter the tool leaves optional, whose form its documentation gives (`railcard: The
    passenger's railcard number if they have one, like "RC-12345"`), left out of the call at `i`
    (absent or empty), though the user wrote a value of that very form (`_of_form`, a form that
    everyday text does not fit by chance: `_distinctive`) that no argument of the call carries,
    nor any later call of the agent before the user speaks again or the next hand-over. The
    agent worked without the fact and its tool took the default (the full fare, no discount):
    a loss no question shows. A required parameter left empty is `_replaced`'s to see.

    Not when the value reached what the agent's model received (recorded by the adapter): the
    hand-over carried it, and leaving an optional parameter out is that model's choice, not a
    loss at the hand-over. Needs that recorded input, as `_stand_in` does: no question shows the
    loss, and an agent that saw the whole conversation (an imported log's group chat) may have
    left the value out by choice."""
    if spec is None or received is None:
        return None
    t = spec.find_tool(call.tool)
    required = set(((t.parameters if t is not None else None) or {}).get("required") or ())
    later = []  # the agent's calls after this one in the hand-over's window
    for x in trace.events[i + 1:]:
        if said_by_user(x) or isinstance(x, DelegationEvent):
            break
        if isinstance(x, ToolCall) and x.agent == call.agent:
            later.append(json.dumps(x.arguments, ensure_ascii=False))
    sent = json.dumps(call.arguments, ensure_ascii=False)
    for param, forms in documented_formats(spec, call.tool).items():
        regexes = [r for _, r in forms]
        if param in required or str(call.arguments.get(param) or "").strip() \
                or not any(_distinctive(r) for r in regexes) or all(FREE_TEXT.fullmatch(r) for r in regexes):
            continue
        values = [v for v in dict.fromkeys(_of_form(told, regexes)) if not _reached(v, sent)
                  and not any(_reached(v, other) for other in later)
                  and not (received is not None and _reached(v, received))]
        if values:
            return (f"{param} of {call.tool}", f"called {call.tool} without {param}, though the user's "
                    f"{values[0]} has the form its documentation gives", values)
    return None


_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")


def _day_months(text: str) -> set[tuple[int, int]]:
    """Every (month, day) a date's text may mean (3/4/2025 is either)."""
    t = text.lower()
    if (m := re.search(r"(\d{4})-(\d{2})-(\d{2})", t)):
        return {(int(m.group(2)), int(m.group(3)))}
    if (m := re.search(r"(\d{1,2})/(\d{1,2})/\d{2,4}", t)):
        a, b = int(m.group(1)), int(m.group(2))
        return {(a, b), (b, a)}
    month = next((k + 1 for k, name in enumerate(_MONTHS) if name in t), None)
    day = re.search(r"\b(\d{1,2})(?:st|nd|rd|th)?\b", t)
    return {(month, int(day.group(1)))} if month and day else set()


# A date as people and note writers spell it, in any of the forms `_day_months` reads: ISO, with
# slashes, the month's name before the day ("Mar 14th") or after it ("Sat 14 Mar 2026", "14th of
# March"); the month's name is one of the calendar's twelve, not a topic word.
_ANY_DATE = re.compile(r"\b\d{4}-\d{2}-\d{2}\b|\b\d{1,2}/\d{1,2}/\d{2,4}\b|"
                       rf"\b(?:{'|'.join(_MONTHS)})[a-z]*\.?\s+\d{{1,2}}(?:st|nd|rd|th)?\b|"
                       rf"\b\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?(?:{'|'.join(_MONTHS)})[a-z]*\b", re.IGNORECASE)


def _dates_in(text: str) -> set[tuple[int, int]]:
    """Every (month, day) the dates a text writes may mean, in any of `_ANY_DATE`'s forms."""
    return {md for m in _ANY_DATE.finditer(text or "") for md in _day_months(m.group(0))}


def _amount_figures(text: str) -> set[float]:
    """Every run of digits in an amount as a tool's argument or the user writes it, a currency
    code or unit glued to it too ("EUR20.00", "2000cents"). Unlike `wording.numbers_in`, which
    reads the numbers prose states and so skips digits inside a word (an identifier's
    `4d51c4bf`) and list numbers, on purpose: here the text is one value known to be an amount,
    and a glued code is how such a value is written, not an identifier."""
    return {float(n.replace(",", "")) for n in re.findall(r"\d[\d,]*(?:\.\d+)?", text)}


def _same_fact(kind: str, value: str, given: str) -> bool:
    """Is `value` the user's `given` fact, however written (a date reformatted, an amount in
    cents, an identifier without its #)?"""
    if kind == "date":
        return bool(_day_months(value) & _day_months(given))
    if kind == "amount":
        return any(a == b or a == b * 100 or a * 100 == b
                   for a in _amount_figures(value) for b in _amount_figures(given))
    a, b = (_reference_key(x) for x in (value, given))
    return a in b or b in a


def _text_of(e: Any) -> str:
    if isinstance(e, Message):
        return e.content
    if isinstance(e, ToolResult):
        return e.payload
    if isinstance(e, ToolCall):
        return " ".join(str(v) for v in e.arguments.values())
    return ""


# -- kind 6: a tool's documentation vs its behaviour ------------------------------------------

_NUMBERS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
            "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12}
# Formats a tool's documentation prescribes for a parameter: the documented form, and a
# predicate on the argument's text.
_DOC_FORMATS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"\bin cents\b", re.IGNORECASE), r"-?\d+"),
)
# A date or time written as its fields' letters (YYYY-MM-DD, DD/MM/YYYY, HH:MM, and together:
# YYYY-MM-DD HH:MM, YYYY-MM-DDTHH:MM:SS): each field its digits, the separators as written.
_FIELDS = {"YYYY": r"\d{4}", "YY": r"\d{2}", "MM": r"\d{2}", "DD": r"\d{2}", "HH": r"\d{2}",
           "hh": r"\d{2}", "mm": r"\d{2}", "SS": r"\d{2}", "ss": r"\d{2}"}
_FIELD = "YYYY|YY|MM|DD|HH|hh|mm|SS|ss"
_DATE_FORMAT = re.compile(rf"(?<![A-Za-z])(?:{_FIELD})(?:[-/.: T]?(?:{_FIELD}))+(?![A-Za-z])")


def _date_format(doc: str) -> tuple[str, str] | None:
    """The date or time format a documentation writes in field letters, and its regex."""
    m = _DATE_FORMAT.search(doc)
    if m is None:
        return None
    regex = "".join(_FIELDS.get(part, re.escape(part)) for part in re.findall(rf"{_FIELD}|.", m.group(0)))
    return m.group(0), regex
_LENGTH = re.compile(r"\b(\d+|" + "|".join(_NUMBERS) + r")[- ]characters?\b", re.IGNORECASE)
# The words that introduce a documented form by example: "like", "e.g.", "such as", "format:",
# "in the form", "written as". After the older ones a bare word may be the example ("such as
# Falmouth"); after the others, prose runs on ("like the sheet says"), so a bare example needs a
# digit.
_INTRO = (r"\b(?:(such as|e\.g\.|for example|for instance|example:)|like|examples?|format(?:ted as)?|"
          r"in the form(?: of)?|written as|as in)[,:]?\s*")
# A quoted form (any quotes; it may hold spaces and open with a sign: "+44 7700 900000",
# "-0.000 m"), or a bare one: a value (a sign, then letters, digits and separators) and the words
# after it that hold a digit or are a short unit after a number ("-0.035 m", "+44 7700 900000").
_QUOTED = r"[\"'`\u201c\u2018]([^\"'`\u201d\u2019\s][^\"`\u201d\u2019]{0,38}?)[\"'`\u201d\u2019](?![A-Za-z])"
_UNIT = r"(?<=\d\s)[A-Za-z%\u00b0\u00b5]{1,3}(?![\w%])"
_BARE = (rf"((?:[+\-](?=\d))?[A-Za-z0-9#](?:[\w\-/:.@+#]*[A-Za-z0-9#])?"
         rf"(?:\s(?:[+\-]?\d(?:[\w\-/:.]*\w)?|{_UNIT}))*)")
_EXAMPLE = re.compile(_INTRO + f"(?:{_QUOTED}|{_BARE})", re.IGNORECASE)
# What a bare number after an intro counts ("format, 15 digits", "format: 8 characters"): the
# value's parts described in words, whose count is no example of the value.
_COUNTED_PARTS = re.compile(r"\s+(?:digits?|characters?|chars?|letters?|figures?|numbers?|numerals?|"
                            r"places?|symbols?)\b", re.IGNORECASE)
# A further example after the first: `like "0.5 kg" or "2 lb"`, `e.g. 14C, 2A`.
_MORE = re.compile(rf"\s*(?:,|\bor\b)\s*(?:{_QUOTED}|{_BARE})")
# A quoted pattern's placeholders: N, # and 9 a digit, X a letter or digit, A a letter
# ("+44 NNNN NNNNNN", "AA-####").
_PLACEHOLDER = {"N": r"\d", "#": r"\d", "9": r"\d", "X": "[A-Za-z0-9]", "x": "[A-Za-z0-9]", "A": "[A-Za-z]"}


def example_forms(doc: str) -> list[list[str]]:
    """The values a documentation gives by example or quoted pattern, in any wording that
    introduces one, each introduction's alternatives together (`like "0.5 kg" or "2 lb"`): a
    quoted one whole, spaces and all (`like "change of address"`). The run generator writes a
    documented argument as this reads it, so that what it sends is the form the oracle checks."""
    out = []
    for m in _EXAMPLE.finditer(doc):
        if m.group(3) and _COUNTED_PARTS.match(doc, m.end()):
            continue  # "format, 15 digits in groups of three": a count of its parts, no example
        values, end = [(m.group(2), True), (m.group(3), bool(m.group(1)))], m.end()
        while (more := _MORE.match(doc, end)):
            values += [(more.group(1), True), (more.group(2), False)]  # prose goes on after a comma
            end = more.end()
        # a bare example is a value only with a digit in it, or first after an older intro
        forms = [v.strip() for v, any_word in values
                 if v and v.strip() and (any_word or re.search(r"[\d#]", v))]
        if forms:
            out.append(forms)
    return out


def _examples(doc: str) -> list[tuple[str, str]]:
    """The forms a documentation gives (`example_forms`): each (what the doc says, the regex of
    its shape: `_pattern` or `_shape`, the alternatives given together joined)."""
    out = []
    for forms in example_forms(doc):
        regexes = list(dict.fromkeys(_pattern(v) or _shape(v) for v in forms))
        out.append((f"like {' or '.join(forms)}",
                    regexes[0] if len(regexes) == 1 else "(?:" + "|".join(regexes) + ")"))
    return out


def _pattern(form: str) -> str | None:
    """A quoted pattern's regex ("+44 NNNN NNNNNN", "AA-####"): a run of one placeholder its
    class, the rest as written; None when the form holds a digit other than 9 or a word, so is
    an example."""
    runs = re.findall(r"N+|#+|9+|X+|x+|A+|[A-Za-z]+|\d+|.", form)
    if not any(r[0] in "N#9X" for r in runs) or \
            any(r[0].isalnum() and r[0] not in _PLACEHOLDER for r in runs):
        return None
    return "".join(_PLACEHOLDER[r[0]] + "+" if r[0] in _PLACEHOLDER else re.escape(r) for r in runs)


# An error that rejects an argument's form, not its content ("not found" is about content).
# Matched on the payload with underscores as spaces: an error code (INVALID_DATE, BAD_FORMAT)
# says it as well as a sentence.
FORMAT_REJECTION = re.compile(
    r"\b(?:invalid|format|malformed|expected|must be|parse|unparsable|unparseable|unreadable|"
    r"not understood|not recogni[sz]ed|not readable|not a valid|does not match|"
    # the value denied its kind ("'+44 7700 900417' is not a number we can ring", "'10:45' is not
    # a start time the timing system can read"), or said to be past what the tool can read
    r"not an? (?:[\w-]+ ){0,2}?(?:number|date|time|amount|sum|price|code|phone|e-?mail|reference|value)|"
    r"not\b[^.;:!?]{0,60}\b(?:can|could) (?:read|parse|understand|interpret|recogni[sz]e)|"
    r"doesn't match|unrecognized|unrecognised|wrong|could not convert|cannot convert|"
    r"(?:cannot|can't|could not|couldn't|unable to) (?:read|understand|interpret)|"
    r"bad (?:date|time|datetime|format|value|input|amount|number)|"
    # the same in French, German, Spanish, Italian and Dutch: invalid, unreadable, not recognised,
    # wrong format ("Alkoholgehalt nicht lesbar", "format incorrect", "formato non valido")
    r"invalide|illisible|mal formée?|non reconnue?|format incorrect|"
    r"ungültig\w*|unlesbar|nicht lesbar|unleserlich|nicht erkannt|falsches format|formatfehler|"
    r"inválid[oa]|no válid[oa]|ilegible|no reconocid[oa]|formato (?:incorrecto|erróneo)|"
    r"non valid[oa]|illeggibile|non riconosciut[oa]|formato (?:errato|non valido)|"
    r"ongeldig\w*|onleesbaar|niet herkend|onjuist formaat)\b", re.IGNORECASE)
# An error code that names a form ("E_ABV_FORMAT", "PARSE_ERROR", "SYNTAX"): the tool says by its
# code that it could not read the value, whatever its message's words.
FORM_CODE = re.compile(r"(?:^|[\W_])(?:FORMAT|PARSE|PARSING|SYNTAX|MALFORMED|UNPARSE?ABLE|UNREADABLE)(?:$|[\W_])",
                       re.IGNORECASE)
CODE_KEYS = ("code", "error", "error_code", "errorCode", "err", "reason_code")
# The runtime's own words when a tool's code matched a pattern against its input and found no
# match (`re.fullmatch(...).group(1)` on None): the tool rejected a form, though its message names
# neither the parameter nor the value. A refusal the tool's author wrote never reads so.
NO_MATCH_CRASH = re.compile(r"'NoneType' object has no attribute '(?:group|groups|groupdict|span|start|end)'")

# A rejection of a form told by its structure, in whatever language its message is: the HTTP
# codes for a request the server could not read (400 Bad Request, 422 Unprocessable), or a
# conversion's exception (int("-0.035 m") raises ValueError).
FORM_STATUS = (400, 422)
FORM_EXCEPTION = re.compile(r"\b(?:ValueError|TypeError|InvalidOperation|JSONDecodeError|ParserError|"
                            r"ValidationError|DateParseError|ConversionError)\b")
# A rejection for the value's content, which a documented form does not promise to pass: not
# found, taken, not allowed, out of range (the HTTP codes and exceptions that say so, and their
# words in a few languages).
CONTENT_STATUS = (401, 402, 403, 404, 409, 410, 412, 423, 429)
# The same content reasons in French, German, Spanish, Italian and Dutch: already, taken, full,
# unavailable, not allowed, closed, expired, too much, not enough, blocked, cancelled, duplicate.
FOREIGN_CONTENT = (
    r"déjà|complet|occupée?s?|indisponible|non autorisée?s?|interdite?s?|fermée?s?|expirée?s?|trop|"
    r"insuffisante?s?|bloquée?s?|annulée?s?|doublon|suspendue?s?|"
    r"bereits|schon|vergeben|belegt|besetzt|ausgebucht|voll|nicht verfügbar|nicht erlaubt|verboten|geschlossen|"
    r"abgelaufen|zu (?:viele?|groß|klein|hoch|niedrig|lang|kurz|früh|spät)|nicht genug|unzureichend|"
    r"gesperrt|storniert|doppelt|höchstens|mindestens|"
    r"ya (?:existe|est[aá]|fue|ha)|ocupad[oa]s?|complet[oa]|lleno|no disponible|no permitid[oa]|prohibid[oa]|cerrad[oa]|"
    r"caducad[oa]|vencid[oa]|demasiad[oa]s?|insuficiente|bloquead[oa]|cancelad[oa]|duplicad[oa]|"
    r"già|occupat[oaie]|pieno|esaurit[oaie]|non disponibile|non consentit[oaie]|vietat[oaie]|"
    r"chius[oaie]|scadut[oaie]|troppo|insufficiente|bloccat[oaie]|annullat[oaie]|duplicat[oaie]|"
    r"bezet|volgeboekt|vol|niet beschikbaar|niet toegestaan|verboden|gesloten|verlopen|te (?:veel|groot|"
    r"klein|hoog|laag|lang|kort|vroeg|laat)|onvoldoende|geblokkeerd|geannuleerd|dubbel")
CONTENT_REJECTION = re.compile(
    r"\b(?:KeyError|LookupError|IndexError|PermissionError|FileNotFoundError|not found|no such|unknown|"
    r"does ?n[o']t exist|not exist|already|out of range|out of bounds|exceeds?|too (?:many|few|large|small|"
    r"long|short|early|late|high|low|big)|at (?:most|least)|maximum|minimum|limit|unavailable|"
    r"not available|fully booked|insufficient|not allowed|not permitted|forbidden|denied|duplicate|expired|"
    r"barred|blocked|blacklisted|suspended|closed|cancell?ed|disabled|inactive|"
    # a refusal on the merits of what the value stands for: its cover, standing or dues
    r"lapsed|(?:not |in)eligible|not covered|no cover|unpaid|overdue|in arrears|revoked|"
    r"nicht gefunden|unbekannt|introuvable|inconnu|no encontrad[oa]|desconocid[oa]|non trovat[oa]|"
    r"niet gevonden|n[a\u00e3]o encontrad[oa]|" + FOREIGN_CONTENT + r")\b", re.IGNORECASE)


# The shape of an example of plain lower-case words (`_shape("change of address")`): prose fits it.
FREE_TEXT = re.compile(r"(?:\[a-z\]\+|\\ )+")


def _shape(example: str) -> str:
    """The example's form as a regex: runs of digits, capitals, lower-case letters, and the
    other characters as they are ('14C' -> digits then capitals). Capitals that open the
    example before a hyphen are its kind's prefix and kept as written ('TRK-88231': a tracking
    number is TRK- and digits; an order number ORD-1234 is not one). A sign opening a number
    is a sign, either ("-0.000 m" documents a signed number, +0.012 m as well). Each class is
    what its regex matches: a digit what `\\d` reads (a decimal digit), a letter one of
    `[A-Za-z]`; any other character is a mark of its own, kept as written: a unit's superscript
    ("12.5 m²", "0.3 m³", which `str.isdigit` calls a digit), a "µm" (which `str.islower` calls
    lower-case). Else the shape would not match its own example, and an argument written
    exactly as documented would read as off-form."""
    prefix = re.match(r"[A-Z]+-|[+-](?=\d)", example)
    out = ["[+-]" if prefix.group() in "+-" else re.escape(prefix.group())] if prefix else []
    prev = None
    for ch in example[prefix.end() if prefix else 0:]:
        cls = r"\d" if ch.isdecimal() else "[A-Z]" if "A" <= ch <= "Z" else "[a-z]" if "a" <= ch <= "z" \
            else re.escape(ch)
        if cls != prev:
            out.append(cls + ("+" if cls in (r"\d", "[A-Z]", "[a-z]") else ""))
        prev = cls
    return "".join(out)


def documented_formats(spec: WorkflowSpec, tool: str) -> dict[str, list[tuple[str, str]]]:
    """Per parameter, the formats the tool's documentation prescribes: (what the doc says, a
    regex the argument's text must match whole). Read from the parameter's schema description,
    and from the tool description's lines that name the parameter (`param: ...`), its table rows
    (`| param | ... |`) and its sentences that name this parameter and no other."""
    t = spec.find_tool(tool)
    return {} if t is None else _tool_formats(t)


# Read from the tool's own documentation alone, once per tool object: a campaign's traces are
# judged against the same tools (a spec copied with the tools a run was offered keeps them),
# and a judging asks for the same tool's formats a dozen times.
@functools.partial(once_per_object, kept=256)
def _tool_formats(t: ToolSpec) -> dict[str, list[tuple[str, str]]]:
    props = (t.parameters or {}).get("properties") or {}
    out: dict[str, list[tuple[str, str]]] = {}
    lines = (t.description or "").splitlines()
    for param, schema in props.items():
        name = re.escape(param)
        docs = [str((schema or {}).get("description") or "")]
        docs += [line for line in lines if re.match(rf"\s*{name}\b\s*(?:\([^)]*\))?\s*:", line)]
        docs += [line.replace("|", " , ") for line in lines
                 if re.match(rf"\s*\|\s*`?{name}`?\s*\|", line)]
        docs += [s for s in re.split(r"(?<=[.!?])(?<!\be\.g\.)(?<!\bi\.e\.)\s+",  # "e.g." ends none
                                     " ".join(ln for ln in lines if not ln.lstrip().startswith("|")))
                 if re.search(rf"\b{name}\b", s, re.IGNORECASE)
                 and not any(re.search(rf"\b{re.escape(o)}\b", s, re.IGNORECASE) for o in props if o != param)
                 and not re.match(rf"\s*{name}\b\s*(?:\([^)]*\))?\s*:", s)]
        doc = " ".join(docs)
        found = [(m.group(0), regex) for p, regex in _DOC_FORMATS if (m := p.search(doc))]
        if (dated := _date_format(doc)):
            found.append(dated)
        if (m := _LENGTH.search(doc)):
            n = _NUMBERS.get(m.group(1).lower()) or int(m.group(1))
            found.append((m.group(0), rf".{{{n}}}"))
        found += list(dict.fromkeys(_examples(doc)))
        if found:
            out[param] = found
    return out


def unfilled_parameters(spec: WorkflowSpec, agent: str, text: str) -> list[tuple[str, str, list[str]]]:
    """The required parameters of the agent's tools with a documented form of their own that no
    value in `text` fills (`form_filled`): (parameter, tool, the form's regexes). When an agent
    holding `text` asks a question, whatever its language, and one such parameter alone is
    unfilled, the question can only be for that one: the run's values, not the question's
    words, say what it lacks."""
    return [(param, tool, regexes) for tool in tools_of(spec, agent)
            for param, (regexes, filled) in form_filled(spec, tool, text).items() if not filled]


def form_filled(spec: WorkflowSpec, tool: str, text: str) -> dict[str, tuple[list[str], bool]]:
    """Per required parameter of the tool with a documented form of its own (not free words, not
    a bare number): its regexes, and whether a value in `text` fills it. A date written in words
    in any of the major European languages ("le 14 juin", "am 14. August": `dates_in_words`)
    fills a parameter documented as a date ("2026-01-31")."""
    t = spec.find_tool(tool)
    required = ((t.parameters if t is not None else None) or {}).get("required") or []
    dated = [r for md in dates_in_words(text) for r in date_renderings(*md)]
    out = {}
    for param, forms in documented_formats(spec, tool).items():
        regexes = [r for _, r in forms]
        if param not in required or not any(_distinctive(r) for r in regexes):
            continue
        out[param] = (regexes, bool(_of_form(text, regexes))
                      or any(all(re.fullmatch(r, d) for r in regexes) for d in dated))
    return out


# What a form's regex matches in any text: character classes, spaces, wildcards, counts.
_LOOSE_PARTS = re.compile(r"\\[dsw]|\[[^\]]*\]|\\ |(?<!\\)\.|\{\d+(?:,\d*)?\}|[+*?]")


def _distinctive(regex: str) -> bool:
    """Is a documented form one that everyday text does not fit by chance: it holds a literal
    mark or letters of its own (the comma of "20,00", the dashes of "2026-01-31", the BF- of
    "BF-00"), or is a clock time or a value in counted parts (`_telling`)? A bare count with a
    word ("6 beds"), a capitalised word, any six characters fit too much of any message."""
    return bool(_LOOSE_PARTS.sub("", regex).strip()) or _telling(regex)


def carries_arguments(text: str, spec: WorkflowSpec, tool: str) -> bool:
    """Does the text hold a value for every parameter the tool requires, in the form its
    documentation gives (a number for a number, written with what it counts: `_counted`; one of
    the values a closed list allows, named in the text: `_named_choice`)? False when a required
    parameter documents no form: then nothing tells. A parameter documented as the person's own
    words (`IN_USERS_WORDS`) any request fills, so it never tells on its own: a tool is carried
    only when at least one required parameter took a value of the form it documents (a tool
    whose one argument is "the customer's question, in their own words" is carried by no
    request, or it would be carried by every one)."""
    t = spec.find_tool(tool)
    if t is None:
        return False
    params = t.parameters or {}
    props = params.get("properties") or {}
    required = params.get("required") or list(props)
    formats = documented_formats(spec, tool)
    told = False  # some required parameter took a value of its own form
    for p in required:
        kind = (props.get(p) or {}).get("type")
        regexes = [r for _, r in formats.get(p, ())]
        if not regexes and (choices := (props.get(p) or {}).get("enum")):
            if not _named_choice(text, choices):
                return False
            told = True
            continue
        if not regexes and kind in ("number", "integer"):
            if not _counted(text, p, str((props.get(p) or {}).get("description") or "")):
                return False
            told = True
            continue
        if not regexes and kind in ("string", None) and IN_USERS_WORDS.search(str((props.get(p) or {}).get("description") or "")):
            continue  # documented as the person's own words ("the fault, in the tenant's words"): any request is one
        if regexes and all(_FREE_WORDS.fullmatch(r) for r in regexes):
            # lower-case words as the form ("like "practice chanter"") fit any phrase: the text
            # carries the argument only when it names an example itself, and not as a thing the
            # user has or does not want ("a friend lent me his practice chanter, so I have one")
            if not _names_wanted(text, [v for said, _ in formats[p] for v in _example_values(said)]):
                return False
            told = True
            continue
        if not regexes or not all(re.search(rf"(?<![\w-]){r}(?![\w-])", text) for r in regexes):
            return False
        told = True
    return told


# A parameter documented as taking what the person writes, as written: "in the tenant's words",
# "in their own words", "in your own words" (the possessor any name: the documentation's person).
IN_USERS_WORDS = re.compile(r"\bin\s+(?:the\s+)?(?:\w+(?:'s|s'|\u2019s)|their|his|her|your|my)\s+(?:own\s+)?words\b",
                            re.IGNORECASE)
# A form made of lower-case words only (`[a-z]+\ [a-z]+`, the shape of "practice chanter"): no form.
_FREE_WORDS = re.compile(r"(?:\[a-z\]\+(?:\\[ -])?)+")
# A sentence saying the user has the thing already, or does not need it: "I have one already",
# "we've already got our own", "I own a set", "don't need a chanter", "no need for boots".
HAS_ALREADY = re.compile(
    r"\b(?:already\s+(?:have|has|got|own)|(?:have|'ve|has|got)\s+(?:\w+\s+){0,2}already|own\s+(?:one|a|an|some|my|our)|"
    r"(?:bring|brings|bringing|have|has|got|use|using)\s+(?:my|our|his|her|their)\s+own|lent\s+(?:me|us)|"
    r"(?:don'?t|do\s+not|won'?t)\s+need|no\s+need\s+for)\b",
    re.IGNORECASE)


def _example_values(said: str) -> list[str]:
    """The example values a documented form quotes (`_examples`' "like X or Y")."""
    return said[len("like "):].split(" or ") if said.startswith("like ") else []


def _names_wanted(text: str, values: list[str]) -> bool:
    """Does the text name one of the values, word for word, in a sentence that says neither that
    the user has it already (`HAS_ALREADY`) nor, a few words before it, no ("no practice chanter
    needed", "without a chanter", "I don't want a practice chanter")?"""
    return any(re.search(rf"(?<![\w-]){re.escape(v)}(?![\w-])", s, re.IGNORECASE)
               and not HAS_ALREADY.search(s)
               and not re.search(rf"(?:\b(?:not|no|never|without)|n't)(?:\s+\w+){{0,3}}\s+{re.escape(v)}", s, re.I)
               for s in sentences(text) for v in values if v.strip())


# A number in a text, not a part of an identifier ("HL-204518"), a time ("10:00") or a date
# ("12/03"); what it counts is read from the words beside it (`_counted`).
_NUMBER = re.compile(r"(?<![\w:./-])\d+(?:[.,]\d+)?(?![\w:/-]|[.,]\d)")
# Words that say a parameter holds a sum of money: a number with a currency beside it fills it.
_MONEY = {"amount", "price", "cost", "fee", "total", "sum", "charge", "payment", "balance", "value", "refund"}
_CURRENCY = re.compile(r"^(?:[$€£¥]|usd|eur|gbp|chf|jpy|cad|aud|dollars?|euros?|pounds?)$", re.IGNORECASE)


def _named_choice(text: str, choices: list[Any]) -> bool:
    """Does the text name one of the values a closed list allows (an enum's "touch-up" or "Mara"
    in "a touch-up with Mara"), as whole words, hyphens and spaces alike? A value of fewer than
    three letters or a number ("no", "2") says nothing of the request: any text may hold it."""
    said = f" {' '.join(words(text))} "
    return any(len(re.sub(r"[^A-Za-z]", "", str(c))) >= 3 and f" {' '.join(words(str(c)))} " in said
               for c in choices)


def _counted(text: str, param: str, doc: str) -> bool:
    """Does the text hold a value for a number parameter that documents no form (`count_given`)?"""
    return count_given(text, param, doc) is not None


# Words that say a number parameter counts the people (or their places) a booking is for: a
# head count, which a request gives as a bare number after "for" ("a table for 4", "for 3
# please") as often as with its unit.
_HEADCOUNT = {stem(w) for w in ("party", "guests", "people", "persons", "pax", "covers", "seats", "diners",
                                "adults", "attendees", "tickets", "places", "spaces", "headcount",
                                "travellers", "travelers", "passengers", "participants", "heads")}
# A head count without its unit: a number of one or two digits after "for" (or "we are", "party
# of", before "of us"), not followed by a unit, a time's, a date's or a price's mark ("for 3
# nights", "for 10:30", "for 12/03", "for 40 euros", "for 2pm"), nor a month's name.
_BARE_COUNT = re.compile(
    r"(?:\bfor|\bwe\s+are|\bwe're|\bparty\s+of)\s+(?P<n>\d{1,2})(?![\d:./,-]|\s*(?:%|[$€£¥]|(?:st|nd|rd|th|am|pm|h)\b))"
    r"(?!\s+(?:nights?|days?|hours?|hrs?|minutes?|mins?|weeks?|months?|years?|o'?clock|euros?|dollars?|pounds?|"
    r"quid|eur|usd|gbp|kg|km|miles?|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*)\b)"
    r"|(?P<m>\b\d{1,2})\s+of\s+us\b", re.IGNORECASE)


def count_given(text: str, param: str, doc: str) -> str | None:
    """The value a text gives a number parameter that documents no form, or None: a number
    written with what the parameter counts, a word of its name or description beside it ("3
    weeks" for `weeks`, "hours: 2" for `hours`, "a party of 6" for `party_size`), for a sum of
    money with its currency ("59.00 EUR", "£412.50" for `amount`), or, for a head count
    (`_HEADCOUNT`: party_size, guests, seats), a bare number the request books for ("a table
    for 4", "for 3 please", "4 of us": `_BARE_COUNT`). Any number in a request ("Thursday 12
    March at 10:00 in court 4", "for 2026", "for 10:30") is no value for an `hours` or a `guests`
    nobody gave."""
    counts = {w.rstrip("s") for w in words(f"{param} {doc}") if len(w) > 2 and w not in STOPWORDS}
    money = bool(counts & _MONEY)
    for m in _NUMBER.finditer(text):
        near = re.findall(r"[$€£¥]|[^\W\d_]+", text[:m.start()])[-2:] + re.findall(r"[$€£¥]|[^\W\d_]+", text[m.end():])[:2]
        if {w.lower().rstrip("s") for w in near} & counts or money and any(_CURRENCY.match(w) for w in near):
            return m.group(0)
    if {stem(w) for w in words(f"{param} {doc}")} & _HEADCOUNT and (bare := _BARE_COUNT.search(text)):
        return bare.group("n") or bare.group("m")
    return None


def tool_doc_mismatch(trace: Trace, spec: WorkflowSpec | None) -> list[Failure]:
    """Kind 6 — a tool rejects a call whose arguments follow the format its own documentation
    prescribes: every argument whose parameter's description (or the docstring line naming it)
    prescribes a form ("date as YYYY-MM-DD", "amount in cents", "a six-character reference",
    "such as 14C", `like "-0.000 m"`, a quoted pattern: `documented_formats`) matches that form,
    and the tool answers with an error (or a failure in its payload) that rejects an argument's
    form, in words or by its structure (`_rejects_form`: a 400/422 code, a conversion's
    exception, a complaint filed under the parameter), gives no content reason, and names the
    parameter or the value (or quotes the piece of it a parser left over: `_quotes_leftover`); no argument breaks a bound its schema documents. Or the answer is
    the runtime's word for a pattern in the tool's
    code matching nothing (`NO_MATCH_CRASH`) while every text argument follows a documented
    form, or that has a validation error's shape in any language (`_echoed_input`), failed in
    English words or given up on by its caller (`_given_up`). An injected fault is masfuzz's,
    never this.

    Category tool_invocation, root cause Tool Specification Mismatch: the tool's documentation
    and its behaviour disagree, so every agent following the documentation fails. Blamed: no
    agent: the caller did as the documentation says, and the defect is the tool's (as a tool's
    own crash); elements name the agent that owns the tool in the spec (the calling agent when
    it is one of several owners), the tool and the parameters (as every tool finding: agent,
    tool, ...); step: the rejection.

    Cannot see: formats written in words it does not know ("the date in ISO form"), a rejection
    that does not say why, a tool that accepts a wrong form silently, or documentation outside
    the tool's description and parameter schema."""
    if spec is None:
        return []
    spec = with_offered_tools(spec, trace)
    calls = {c.call_id: (i, c) for i, c in enumerate(trace.events)
             if isinstance(c, ToolCall) and c.call_id}
    formats_of: dict[str, dict[str, list[tuple[str, str]]]] = {}
    out = []
    for ri, r in enumerate(trace.events):
        if not isinstance(r, ToolResult) or r.fault:
            continue
        failed = bool(_failed(r)) or _refusal_leaf(r.payload)
        if not failed and not _given_up(trace, ri, r.agent):
            continue
        found = calls.get(r.call_id) if r.call_id else _last_call(trace, ri, r)
        if found is None:
            continue
        ci, call = found
        formats = formats_of.setdefault(r.tool, documented_formats(spec, r.tool))
        followed = [(p, doc) for p, fs in formats.items() if p in call.arguments
                    for doc, regex in fs if re.fullmatch(regex, str(call.arguments[p]))]
        broken = [p for p, fs in formats.items() if p in call.arguments and not _a_number(spec, r.tool, p, call.arguments[p])
                  and not all(re.fullmatch(regex, str(call.arguments[p])) for _, regex in fs)]
        echoed = _echoed_input(r, call.arguments, followed)
        if not followed or broken or _out_of_documented_bounds(spec, r.tool, call.arguments) \
                or _outside_stated_range(r.payload, call.arguments, followed):
            continue
        named = echoed or [p for p, _ in followed if _names_parameter(r.payload, p) or str(call.arguments[p]) in r.payload
                           or _quotes_leftover(r.payload, p, call.arguments)]
        # a date only the documented order reads is a mismatch when the failure names that date
        # (its parameter or its value), not another argument (a policy refused on its merits)
        swapped = _day_month_swapped([f for f in followed if f[0] in named], call.arguments)
        if not (echoed or failed and (NO_MATCH_CRASH.search(r.payload) or swapped
                                      or _rejects_form(r.payload, named, list(map(str, call.arguments.values()))))):
            continue
        if not named and NO_MATCH_CRASH.search(r.payload) and _all_documented(call.arguments, formats):
            # a pattern in the tool's code matched none of the arguments' documented forms:
            # which one it read is not said, but every argument is as documented
            named = [p for p, _ in followed]
        if not named:
            continue
        who = owners(spec, r.tool)
        agent = call.agent if call.agent in who or not who else who[0]
        params = sorted(set(named))
        docs = "; ".join(f"{p} {d}" for p, d in followed if p in params)
        out.append(Failure(
            category="tool_invocation", root_cause="Tool Specification Mismatch",
            detector="tool_doc_mismatch", evidence=(ci, ri), scenario_id=trace.scenario_id,
            elements=(agent, r.tool, *params), agent=None, step=ri, subject=r.tool,
            description=f"{r.tool} rejected {call.agent}'s call (event {ci}) although its "
            f"arguments follow the tool's own documentation ({docs}): "
            f"\"{' '.join(r.payload.split())[:120]}\" — the documentation and the behaviour "
            "disagree"))
    return dedupe(out)


def rejected_off_form(trace: Trace, spec: WorkflowSpec | None, ri: int) -> str:
    """Why the failed result at `ri` is the caller's model's doing, or "": the call gave an
    argument in none of the forms the tool documents for it (free words for a start time
    documented "like 10:42"), and the tool's answer rejects that argument's form (it names the
    parameter or quotes the value, in words of `_rejects_form`). The tool refused what its
    documentation does not allow, as it should: the defect is the argument the model wrote, and
    the app's part is only how the reply passes the refusal on (the mirror of
    `tool_doc_mismatch`, where the argument followed the documentation)."""
    r = trace.events[ri]
    if spec is None or not isinstance(r, ToolResult) or r.fault:
        return ""
    found = next(((i, c) for i, c in enumerate(trace.events[:ri]) if isinstance(c, ToolCall)
                  and (c.call_id == r.call_id if r.call_id else (c.agent, c.tool) == (r.agent, r.tool))), None)
    if found is None:
        return ""
    call = found[1]
    formats = documented_formats(with_offered_tools(spec, trace), r.tool)
    sent = list(map(str, call.arguments.values()))
    for p, fs in formats.items():
        value = call.arguments.get(p)
        if value is None or _a_number(spec, r.tool, p, value) or any(re.fullmatch(x, str(value)) for _, x in fs):
            continue
        if (_names_parameter(r.payload, p) or str(value) in r.payload) and _rejects_form(r.payload, [p], sent):
            return (f"{call.agent}'s model sent {p} {str(value)[:60]!r}, in none of the forms {r.tool} documents "
                    f"({'; '.join(d for d, _ in fs)}), and the tool refused its form")
    return ""


def _names_parameter(payload: str, param: str) -> bool:
    """Does a tool's answer name the parameter: as the code spells it (`drop_off`), or as a word
    in any case, its parts joined by a space, a hyphen or nothing ("IMEI" for `imei`, "Drop-off"
    for `drop_off`, "dropOff")? A field list or a status tuple names the field its own way:
    `(422, "IMEI", "formato IMEI non valido ...")`."""
    if param in payload:
        return True
    parts = [re.escape(w) for w in re.split(r"_+|(?<=[a-z])(?=[A-Z])", param) if w]
    return bool(parts) and re.search(r"(?<![^\W_])" + r"[\s_-]?".join(parts) + r"(?![^\W_])",
                                     payload, re.IGNORECASE) is not None


def _quotes_leftover(payload: str, param: str, arguments: dict[str, Any]) -> bool:
    """Does a tool's answer quote the tail of the argument's value, not the whole: the part a
    parser could not read, left over after the form it expected (`strptime`'s "unconverted data
    remains:  pm" for "3:15 pm" read as `%H:%M`)? The value's last pieces (from a piece on, two
    characters or more), standing alone in the answer (not part of a longer token there: the
    "2026" of another date "01/06/2026" is none), and in no other argument's value: the answer
    then speaks of this argument, though it names neither it nor its whole value."""
    value = arguments.get(param)
    if not isinstance(value, str):
        return False
    others = " ".join(str(v) for k, v in arguments.items() if k != param)
    starts = [m.start() for m in re.finditer(r"[^\W_]+", value)][1:]
    for start in starts:
        tail = value[start:].strip()
        if len(tail) < 2 or tail in others:
            continue
        if re.search(rf"(?<![\w/:.-]){re.escape(tail)}(?![\w/:-]|\.\w)", payload, re.IGNORECASE):
            return True
    return False


def with_offered_tools(spec: WorkflowSpec, trace: Trace) -> WorkflowSpec:
    """The spec, with the documentation of the tools it does not hold at all taken from what the
    run's models were offered (`Trace.meta[OFFERED_TOOLS]`): an agent the app builds while the
    run goes (inside a PydanticAI output function, a tool's body) brings tools extraction never
    saw, and their documentation is what the model calling them followed. Documentation only, no
    permission: who may call a tool is not what one offer of it says."""
    known = {t.id for t in spec.tools}
    offered = {name: doc for tools in (trace.meta.get(OFFERED_TOOLS) or {}).values()
               for name, doc in tools.items() if name not in known}
    if not offered:
        return spec
    return spec.model_copy(update={"tools": spec.tools + tuple(
        ToolSpec(id=name, description=str(doc.get("description") or ""), parameters=dict(doc.get("parameters") or {}))
        for name, doc in offered.items())})


def _refusal_leaf(payload: str) -> bool:
    """Does a structured answer hold a state word of refusal (`FAILED_STATES`: "rejected",
    "abgelehnt", "geweigerd") as a whole value, under whatever key: its outcome under a name the
    oracle does not list (`{"resultaat": "geweigerd", ...}`, `{"ergebnis": "abgelehnt", ...}`)?
    A state word so plain says the failure whoever reads it, the caller's reply aside."""
    data = structured((payload or "").strip())
    return isinstance(data, dict) and any(isinstance(v, str) and v.strip().lower() in FAILED_STATES
                                          for _, v in nested_fields(data))


def _given_up(trace: Trace, ri: int, agent: str | None) -> bool:
    """Did the calling agent answer the result at `ri` by giving up (an apology, "did not go
    through"), before calling anything else: the system itself read it as a failure, in
    whatever language the tool answered."""
    for e in trace.events[ri + 1:]:
        if isinstance(e, ToolCall) and e.agent == agent:
            return False
        if isinstance(e, Message) and e.role == "assistant" and e.agent == agent and e.content.strip():
            # not a recap's earlier failure, labelled ("Recap: ... Now: ...") or told in order
            # before the newest outcome ("The first try failed. Kiln 1 is held for Friday."):
            # the reply's last word on an outcome is its answer
            told = [c for s in sentences(answer_given(e.content)) for c in _claim_clauses(s)]
            last = max((k for k, c in enumerate(told) if GIVE_UP.search(c)), default=None)
            tool = getattr(trace.events[ri], "tool", "")
            return last is not None and not any(claims_done(c) or says_held(c, tool, None) or says_done_by_verb(c, tool)
                                                for c in told[last + 1:])
    return False


def _echoed_input(r: ToolResult, arguments: dict[str, Any], followed: list[tuple[str, str]]) -> list[str]:
    """The documented-form parameters a failed answer hands back as bad input, or []: the answer
    is the shape of a validation error in any language (`{"status": "rejected", "field":
    "amount", "value": "12,50"}`): the argument's value verbatim under a key that is not the
    parameter's own (a refusal of the thing itself puts it under its name: `{"seat": "14C"}`),
    and besides it only single words (a state, the field's name) that say no English success:
    no figure, reason or reference that an action done or a refusal of content would give."""
    data = structured(r.payload.strip())
    if not isinstance(data, dict) or len(data) < 2:
        return []
    values = {str(v): p for p, v in arguments.items() if isinstance(v, (str, int, float))}
    echoed, word_leaves = [], 0
    for key, value in data.items():
        if not isinstance(value, str):
            return []
        if value in values:
            if values[value] in words(str(key)) or values[value] == key:
                return []
            echoed.append(values[value])
        elif re.fullmatch(r"[^\W\d]+", value) and value.lower() not in HOLDING_STATES \
                and value.lower() not in participles(r.tool):
            word_leaves += 1
        else:
            return []
    documented = {p for p, _ in followed}
    return sorted(set(echoed)) if echoed and word_leaves >= 2 and set(echoed) <= documented else []


def _rejects_form(payload: str, params: list[str], sent: list[str]) -> bool:
    """Does a failed answer reject an argument's form rather than its content? It says so in
    words (`FORMAT_REJECTION`, in six languages), or by its structure: a 400 or 422 code (in a
    field, or the status line the answer opens with: `status_line`), an error code naming a form
    (`FORM_CODE`: E_ABV_FORMAT), a conversion's exception,
    or a complaint the tool files under one of the parameters (`phone: '+44 ...' is not a
    number we can ring`, `{"errors": {"phone": ...}}`, `{"field": "phone"}`), in any language;
    never when it gives a content reason (`CONTENT_STATUS`, `CONTENT_REJECTION`). The values
    `sent` that the answer quotes back are the caller's words, not the tool's reason: the
    "vol" of a strength "13.5% vol" is no Dutch "full"."""
    data = structured(payload.strip())
    codes = {v for k, v in nested_fields(data) if k in STATUS_CODE_KEYS and type(v) is int}
    codes |= {code} if data is None and (code := status_line(payload)) is not None else set()
    own = payload
    for value in sorted((v for v in sent if len(v.strip()) > 1), key=len, reverse=True):
        own = own.replace(value, " ")
    own = own.replace("_", " ")
    if codes & set(CONTENT_STATUS):
        return False
    if any(k in CODE_KEYS and isinstance(v, str) and FORM_CODE.search(v) for k, v in nested_fields(data)):
        return True
    if CONTENT_REJECTION.search(own):
        return False
    return bool(FORMAT_REJECTION.search(own) or codes & set(FORM_STATUS)
                or FORM_EXCEPTION.search(payload) or any(_filed_under(data, payload, p) for p in params))


def _restates_state(sentence: str, payload: str) -> bool:
    """Does the sentence name the state the tool's answer gives, one that is no action done
    ("The 12th is pencilled in for 48 hours" after `"state": "PENCILLED"`)? Then it passes the
    tool's state on, in the tool's own word, whatever success words stand beside it ("pencilled
    in" says a booking too)."""
    states = [str(v) for k, v in nested_fields(structured((payload or "").strip()))
              if str(k).lower() in STATE_KEYS and isinstance(v, str) and ENUM.fullmatch(v.strip())
              and v.strip().lower() not in DONE_STATES]
    said = {w for w in words(sentence)} | {w[:-2] for w in words(sentence) if w.endswith("ed")}
    return any(all(w in said or w[:-2] in said for w in words(state)) for state in states)


QUOTED_WORDS = 3  # a part of a tool's answer at least this long, relayed word for word, is its words


def _relays_answer(sentence: str, payload: str) -> bool:
    """Is the sentence the failed tool's own answer, relayed word for word (a record's repr read
    out after "no dice, it came back:": `status_code=409 ... detail='engineer already booked'`)?
    Its success words are the tool's, said of its failure, not the agent's claim."""
    said = " ".join(re.findall(r"[\w=.:/-]+", sentence.lower()))
    return len(said.split()) >= QUOTED_WORDS and said in " ".join(re.findall(r"[\w=.:/-]+", payload.lower()))


def _done_only_in_relayed_words(claim: str, trace: Trace, ci: int, tool: str, spec: WorkflowSpec | None) -> bool:
    """Is every success word of the claim inside a value of a tool's answer it relays word for word
    (`QUOTED_WORDS` words or more), an answer given before the claim, to whatever agent, by a tool that is
    no hand-over to another agent ("The status is
    refused and the detail is the cleaner's sheet shows that clean done": "done" is the refusing
    tool's own detail)? With those values taken out the sentence claims nothing: the words are the
    tool's, passed on, not the agent's claim of an outcome."""
    def norm(text: str) -> str:
        return " ".join(re.findall(r"[\w'-]+", text.lower()))

    said = norm(claim)
    handovers = _handover_tools(trace)  # an agent's answer run as a tool holds its claims, not a tool's words
    for e in trace.events[:ci]:
        if not isinstance(e, ToolResult) or e.tool in handovers:
            continue
        data = structured((e.payload or "").strip())
        leaves = [v for _, v in nested_fields(data) if isinstance(v, str)] if data is not None else [e.payload or ""]
        for leaf in sorted({norm(v) for v in leaves}, key=len, reverse=True):
            if len(re.findall(r"[^\W\d_][\w'-]*", leaf)) >= QUOTED_WORDS and f" {leaf} " in f" {said} ":
                said = f" {said} ".replace(f" {leaf} ", " \u2026 ").strip()

    def claims(text: str) -> bool:
        return any(claims_done(c) or says_done_by_verb(c, tool) or says_held(c, tool, spec) for c in _claim_clauses(text))

    # only a claim these words make: one read another way (a check said passed) is not theirs to excuse
    return said != norm(claim) and claims(claim) and not claims(said)


def _filed_under(data: Any, payload: str, param: str) -> bool:
    """Is a complaint filed under the parameter: a field that names it (`"field": "phone"`), a
    key holding something else than the value sent (`"phone": "not a number we ring"`), or a
    message labelled with it (`phone: ...`, `phone - ...`)? A key echoing the value back is no
    complaint."""
    fields = nested_fields(data)
    if any(k in ("field", "param", "parameter", "argument", "loc", "path") and param in str(v) for k, v in fields):
        return True
    if any(k == param and isinstance(v, (list, dict)) and v for k, v in fields):
        return True
    texts = [v for _, v in fields if isinstance(v, str)] + [x for _, v in fields if isinstance(v, list)
                                                             for x in v if isinstance(x, str)]
    texts = texts if data is not None else [payload]
    return any(re.match(rf"\W*{re.escape(param)}\W*\s*[:=\-\u2013]\s*\S", t) for t in texts)


def _a_number(spec: WorkflowSpec, tool: str, param: str, value: Any) -> bool:
    """Is the value a JSON number given to a parameter its schema types as a number? Then it
    has the parameter's form, whatever the shape of the example its documentation gives ("like
    10452.3" for a reading of 6 kWh): a number's digits are no format of its own."""
    t = spec.find_tool(tool)
    schema = (((t.parameters if t is not None else None) or {}).get("properties") or {}).get(param) or {}
    kinds = {schema.get("type")} | {s.get("type") for s in schema.get("anyOf") or () if isinstance(s, dict)}
    return isinstance(value, (int, float)) and not isinstance(value, bool) and bool(kinds & {"number", "integer"})


def _out_of_documented_bounds(spec: WorkflowSpec, tool: str, arguments: dict[str, Any]) -> bool:
    """Does an argument break a bound its schema documents (enum, minimum, maximum, length,
    pattern)? Then the tool refused it for a documented reason, not for its form."""
    t = spec.find_tool(tool)
    props = ((t.parameters if t is not None else None) or {}).get("properties") or {}
    for param, value in arguments.items():
        schema = props.get(param) or {}
        text = str(value)
        number = re.search(r"[+-]?\d+(?:\.\d+)?", text)
        n = float(number.group()) if number else None
        if "enum" in schema and value not in schema["enum"] or \
                "pattern" in schema and not re.search(str(schema["pattern"]), text) or \
                len(text) > schema.get("maxLength", len(text)) or len(text) < schema.get("minLength", 0) or \
                n is not None and not (schema.get("minimum", n) <= n <= schema.get("maximum", n)):
            return True
    return False

# A range a tool's answer says a value must lie in ("passengers of 35 to 120 kg", "between 1 and
# 8 guests", "2-6"): two numbers joined by a range's connector, never a date's or a time's parts.
_STATED_RANGE = re.compile(r"(?<![\w.:/-])(?:between\s+(\d+(?:\.\d+)?)\s+and|(\d+(?:\.\d+)?)\s*(?:-|–|—|to|\.\.))"
                           r"\s*(\d+(?:\.\d+)?)(?![\w:/]|[.-]\d)", re.IGNORECASE)


def _outside_stated_range(payload: str, arguments: dict[str, Any], followed: list[tuple[str, str]]) -> bool:
    """Does the tool's answer state the range an argument must lie in, the argument lie outside
    it and the number the parameter's documentation gives ("e.g. 82") inside it? Then the
    documentation's own example passes the tool: it refused the value on its merits (a passenger
    of 2 kg for a wing that flies 35 to 120 kg), not its form. A documented example outside the
    stated range (weights documented in pounds, "like 180", for a tool that takes 35 to 120
    kg) is the documentation's mismatch, and stays one."""
    ranges = [(lo, hi) for a, b, c in _STATED_RANGE.findall(payload)
              if (lo := float(a or b)) < (hi := float(c))]
    for param, value in arguments.items():
        if isinstance(value, bool) or not isinstance(value, (int, float, str)) \
                or not re.fullmatch(r"\s*[+-]?\d+(?:\.\d+)?\s*", str(value)):
            continue
        examples = [float(n) for p, doc in followed if p == param for n in re.findall(r"\d+(?:\.\d+)?", doc)]
        x = float(value)
        if examples and any(not lo <= x <= hi and all(lo <= e <= hi for e in examples) for lo, hi in ranges):
            return True
    return False


def _all_documented(arguments: dict[str, Any], formats: dict[str, list[tuple[str, str]]]) -> bool:
    """Does every text argument of the call have a documented form (and so, as the caller
    checked, follow it)? Only then can a rejection that names no argument be laid on the
    documentation: an argument with no documented form may be the one the tool could not read."""
    return all(p in formats for p, v in arguments.items() if isinstance(v, str))


def _strptime_layout(doc: str) -> str:
    """A documented date layout (DD/MM/YYYY HH:MM) as `strptime`'s: MM after an hour is minutes."""
    fields = {"YYYY": "%Y", "YY": "%y", "DD": "%d", "HH": "%H", "hh": "%H", "SS": "%S", "ss": "%S", "mm": "%M"}
    out, prev = [], ""
    for part in re.findall(rf"{_FIELD}|.", doc):
        out.append("%M" if part == "MM" and prev in ("HH", "hh") else "%m" if part == "MM" else fields.get(part, part))
        if part not in (":", " "):
            prev = part if part in fields or part == "MM" else ""
    return "".join(out)


def _day_month_swapped(followed: list[tuple[str, str]], arguments: dict[str, Any]) -> list[str]:
    """The parameters whose value is a real date read in the documented layout (day first, or
    month first) and none read with day and month swapped (16/08/2026: no sixteenth month): a
    tool rejecting it read the other order than its documentation gives, whatever words its
    rejection uses."""
    from datetime import datetime

    out = []
    for param, doc in followed:
        layout = _strptime_layout(doc)
        if "%d" not in layout or "%m" not in layout:
            continue
        swapped = layout.replace("%d", "\0").replace("%m", "%d").replace("\0", "%m")
        value = str(arguments.get(param, ""))
        try:
            datetime.strptime(value, layout)
        except ValueError:
            continue
        try:
            datetime.strptime(value, swapped)
        except ValueError:
            out.append(param)
    return out


def _last_call(trace: Trace, ri: int, r: ToolResult) -> tuple[int, ToolCall] | None:
    for i in range(ri - 1, -1, -1):
        e = trace.events[i]
        if isinstance(e, ToolCall) and e.tool == r.tool and e.agent == r.agent:
            return i, e
    return None


SEMANTIC = [claimed_outcome, handover_facts, tool_doc_mismatch]
