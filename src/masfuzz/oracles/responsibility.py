"""Who and when for a judged log: the ONE agent most responsible for a failed run and the
decisive step, the first step at which the run went irrecoverably wrong.

`masfuzz judge --chat` answers "agent, step, why" per log from the findings, each blamed by
`masfuzz.oracles.blame` (the one place that says whom and when a detector's finding blames), and
adds what only a whole log shows:
- a final answer that is not the expected one (`answer_check`, with `--expected`): the step
  that first put the wrong value forward (the wrong fact introduced), by its agent: the first
  message that states it, or the code whose run first printed it (its author's, never the
  executor's that only ran it), or the instruction that sent the agent after it.
The final answer is what the log gives as such: a "FINAL ANSWER:" line, else the last agent
message that is more than a stop word and not an executor's relay. Executors are told by what
they say (`runners`), never by their names. Each rule was kept only if it helped on real logs
it was not written on (docs/judge.md, "On real logs").
A tool error the run went on from is no failure of its own, but the first failed call that no
later call made good is often where a run started to go wrong (the agent works around a result
it never got): it is a candidate for the decisive step of a run that failed, never a verdict by
itself. A call that failed and was then made to work (code fixed and run again) is no candidate.
A run cut off while still working (it did not end by itself, and gave no answer line) has no
answer to trace: its last message is where it was cut, and the wrong answer's step is its first
call or code run that failed or gave back nothing (`first_fruitless_run`), made good later or not.
Any run with a wrong answer that no run printed answered around that first run that gave nothing
(`answered_around`): a candidate too, when it came first.
A failed call whose log shows the turn that went on from it without a real fix (an unchanged
retry that made a loop; a turn that says the run failed and puts the wrong value forward anyway)
gives way to that turn (`went_on_around`): the failure was recoverable, that turn was not.
The decisive step is the earliest candidate; its agent is the one blamed (of candidates at the
same step, the one naming the agent that took it).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from masfuzz.oracles.blame import event_ref, source_of
from masfuzz.oracles.failure import RULE, Failure
from masfuzz.oracles.semantic import fact_values
from masfuzz.oracles.wording import (REPORTED_PAGE, STOPWORDS, numbers_in, only_courtesy, own_words, says_failed, sentences,
                                     stem, words)
from masfuzz.trace import (
    CODE_TOOL, EVENT_SOURCES, USER_REQUEST, AgentTurn, DelegationEvent, Message, ToolCall, ToolResult, Trace,
    agent_at, said_by_user, user_text,
)

WRONG_ANSWER = "expected_answer"  # the detector name of the deterministic final-answer check
_WORDS = re.compile(r"[^\w.]+")
_FULL_STOP = re.compile(r"\.(?!\d)")
# a web address: it names a page, it states nothing (a search's "&first=12&sp=-1" is no value)
_ADDRESS = re.compile(r"\bhttps?://[^\s)\]]+")


def _stated_numbers(text: str) -> list[float]:
    """The numbers a message states: in its own words, not in the addresses of pages it saw."""
    return numbers_in(_ADDRESS.sub(" ", own_words(text)))


@dataclass(frozen=True)
class Blame:
    agent: str | None
    step: int | None  # the decisive event's index in the trace
    step_ref: str | None  # that event's number in the user's own log
    why: str

    def as_dict(self) -> dict[str, Any]:
        return {"agent": self.agent, "step": self.step, "step_ref": self.step_ref, "why": self.why}


def _call_of(trace: Trace, i: int) -> int:
    """The call a tool result at `i` answers (by call id, else the caller's last call of it)."""
    r = trace.events[i]
    for j in range(i - 1, -1, -1):
        c = trace.events[j]
        if isinstance(c, ToolCall) and c.tool == r.tool and (
                c.call_id == r.call_id if r.call_id and c.call_id else c.agent == r.agent):
            return j
    return i


# -- the final answer -----------------------------------------------------------------------------

# An answer given as such: the "FINAL ANSWER: ..." line of GAIA-style runs (Magentic-One's
# orchestrator prints it when it closes); the rest of that line is the answer.
_FINAL = re.compile(r"^\s*FINAL ANSWER:\s*(.*?)\s*$", re.MULTILINE | re.IGNORECASE)
# A code executor's stock reply to a message that held no code (AG2's; Magentic-One's
# ComputerTerminal's): it ran nothing and says nothing
_NO_CODE = re.compile(r"^\s*(?:There is no code from the last \d+ message|No code block detected in the messages)",
                      re.IGNORECASE)


def _relays(trace: Trace, i: int) -> bool:
    """Is the message at `i` the output of the run recorded just before it, relayed?"""
    before = trace.events[i - 1] if i else None
    return isinstance(before, ToolResult) and before.payload == trace.events[i].content


def runners(trace: Trace) -> set[str]:
    """The agents that only run code (AG2's code executor, Magentic-One's ComputerTerminal), told
    by what they said, not by their names: every message of theirs relays the output of a run
    just recorded, or is the executor's stock reply that there was no code to run. Such an agent
    states no fact and writes no code: what its runs show is the code's author's."""
    said: dict[str, bool] = {}
    for i, e in enumerate(trace.events):
        if isinstance(e, Message) and e.role == "assistant" and e.agent:
            said[e.agent] = said.get(e.agent, True) and (_relays(trace, i) or bool(_NO_CODE.match(e.content)))
    return {agent for agent, only in said.items() if only}


def final_answer(trace: Trace) -> tuple[int | None, str]:
    """The run's final answer and the event that gave it: a "FINAL ANSWER:" line, else the
    termination's final output, else the last assistant message with more than a stop word in
    it that is not a code executor's relay of a run, nor only the courtesies that close a chat
    (`wording.only_courtesy`: "You're very welcome! Have a wonderful day!" gives no answer)."""
    end = trace.termination
    for i in range(len(trace.events) - 1, -1, -1):
        e = trace.events[i]
        if isinstance(e, Message) and e.role == "assistant":
            stated = _FINAL.findall(e.content)
            if stated and stated[-1]:
                return i, stated[-1]
    quiet = runners(trace)
    for i in range(len(trace.events) - 1, -1, -1):
        e = trace.events[i]
        if isinstance(e, Message) and e.role == "assistant" and e.agent not in quiet and \
                (said := re.sub(r"\bTERMINATE\b", "", e.content).strip()) and not only_courtesy(said):
            if end is None or not end.final_output or end.final_output == e.content or \
                    trace.meta.get("source") == "transcript":  # an importer's guess, not the app's output
                return i, e.content
            break
    return None, (end.final_output or "") if end is not None else ""


# the words that end a chat or approve a step (AG2's, AgentChat's): no value an answer gives
STOP_WORDS = ("TERMINATE", "APPROVE")
_STOP_WORD = re.compile(rf"\b(?:{'|'.join(STOP_WORDS)})\b")


def _norm(text: str) -> str:
    """Lower-case words and numbers, a sentence's full stop dropped (3.5 keeps its point)."""
    return " ".join(_WORDS.sub(" ", _FULL_STOP.sub(" ", text.lower())).split())


# a phrase an answer gives as its value: in double quotes or in bold
# (not a label set in bold with its colon, "**Distance Verification:**", which names what follows
# and states nothing; "**O'Jung's Tavern**: 790 m" gives its name)
_QUOTED = re.compile(r'"([^"\n]{2,80})"|“([^”\n]{2,80})”|\*\*(?![^*\n]*:\*\*)([^*\n]{2,80})\*\*')
# how a list answer separates its items ("Harbinger, Tidal"; one item a line)
_ITEMS = re.compile(r"\s*(?:[;\n]|(?<!\d),|,(?!\d{3}(?!\d)))\s*")  # not a number's 1,000
# a sentence, not a bare value: its punctuation, or a verb that states ("the answer is 56")
_SENTENCE = re.compile(r"[.!?](?:\s|$)|:(?!\d)|\b(?:is|are|was|were|be|been|has|have|had)\b", re.IGNORECASE)


def _number(text: str) -> float | None:
    """The one number a value is ("$55", "1,000", "12.5%"), or None."""
    found = numbers_in(text)
    if len(found) == 1 and _norm(text).replace(" ", "").replace(".", "").lstrip("-").isdigit():
        return found[0]
    return None


def _same(value: str, expected: str) -> bool:
    """One value against one expected value: a number by value (1,000 and 1000.0 alike, "$55"
    and 55), else the same words once normalised (case, punctuation)."""
    want, got = _number(expected), _number(value)
    if want is not None:
        return got is not None and abs(got - want) <= 1e-9 * max(1.0, abs(want))
    return bool(_norm(expected)) and _norm(value) == _norm(expected)


def _items(text: str) -> list[str]:
    return [i for i in _ITEMS.split(text.strip()) if _norm(i)]


def matches(answer: str, expected: str) -> bool:
    """Does the final answer give the expected one? A bare value (one line, no sentence: "shrimp
    and grits", "$55") is compared whole: the same words, a number by value, a list as the same
    set of items in any order ("shrimp and grits" is not "shrimp"). A sentence is read for the
    expected value: its words in it, not inside a longer phrase the answer quotes or sets in bold
    (the dish "shrimp and grits" is not "shrimp"), or, for a number, among the answer's numbers;
    for a list, each item so."""
    answer = _STOP_WORD.sub(" ", answer).strip()
    wanted = _items(expected)
    if "\n" not in answer and not _SENTENCE.search(answer):
        given = _items(answer)
        if len(wanted) > 1:
            return len(given) == len(wanted) and all(any(_same(g, w) for g in given) for w in wanted) \
                and all(any(_same(g, w) for w in wanted) for g in given)
        return _same(answer, expected)
    return all(_stated(answer, w) for w in wanted) if wanted else False


def _stated(text: str, expected: str) -> bool:
    """Does a sentence give this one expected value (see `matches`)?"""
    want = _norm(expected)
    number = _number(expected)
    if number is not None:  # a number by value: the 17 of "17,000" or of "17.5" is not 17
        return any(abs(x - number) <= 1e-9 * max(1.0, abs(x)) for x in numbers_in(text))
    wider = [q for g in _QUOTED.findall(text) if (q := _norm("".join(g))) != want and f" {want} " in f" {q} "]
    free = _norm(text)
    for q in wider:  # the expected words as part of a longer name the answer gives
        free = f" {free} ".replace(f" {q} ", " | ")
    return bool(want) and f" {want} " in f" {free} "


def _task_numbers(trace: Trace) -> set[float]:
    """The user's numbers, and the opening message's (a log often opens with an agent relaying
    the task): the task's, no value an agent put forward. The code an opening carries is not
    the task (AG2's "## Results from last response" holds an earlier run's code, its sample data
    made up): its numbers are that code's author's."""
    opening = next((e for e in trace.events if isinstance(e, Message)), None)
    return {n for e in trace.events if isinstance(e, Message) and (said_by_user(e) or e is opening)
            for n in numbers_in(e.content if said_by_user(e) else own_words(e.content))}


def _year(n: float) -> bool:
    """A number that reads as a year: in an answer of another number, its context ("610
    revisions before April 2018": the count is what the answer says, the year where)."""
    return n.is_integer() and 1800 <= n <= 2100


def _introduced(trace: Trace, at: int, answer: str, expected: str) -> int:
    """The step that first put forward what the final answer says wrongly: its numbers that are
    neither the expected one nor the task's, else its last line. The agent that first states a
    wrong value introduced it, even when a tool's output held it among others (the agent picked
    it); code an agent wrote states no fact, and a message that relays the tool result before it
    (an executor printing its run) says nothing of its own. A value that first appeared in the
    output of code an agent wrote and ran came from that code: the step is the code's, its
    author's (the executor only ran it), unless the run printed pages (`_retrieved`: a search's
    results), whose values are the pages' as a reported page's are. A page a surfer reported is
    no statement of its own, but a value first stated by a director (an orchestrator restating
    what a worker's report showed) or by the surfer itself came from the first reported page
    that showed it: that report."""
    given = set(_stated_numbers(answer)) - set(numbers_in(expected)) if numbers_in(expected) else set()
    wrong = given - _task_numbers(trace)
    # every wrong number the answer gives is one the task names too ("ball 2" of balls 1 to
    # 100): still its value when the answer asked for is a number; the task's own mention of it
    # is no statement, so the first agent after the opening to give it introduced it
    beyond_task = not wrong and given and _number(expected) is not None
    if beyond_task:
        wrong = given
    if not any(_year(n) for n in numbers_in(expected)) and any(not _year(n) for n in wrong):
        wrong = {n for n in wrong if not _year(n)}  # an expected year keeps years as values
    # a text answer: the phrases the answer quotes or sets in bold (the value it gives), those
    # that are not the expected one nor the user's (a name the request gives: what was asked
    # about); else its last line
    said = " ".join([user_text(trace), str(trace.meta.get(USER_REQUEST) or "")])
    quoted = {_norm("".join(g)) for g in _QUOTED.findall(own_words(answer))} - {""}
    phrases = {q for q in quoted if not matches(q, expected) and f" {q} " not in f" {_norm(said)} "
               and q.upper() not in STOP_WORDS}  # "**TERMINATE**" ends the chat, it is no value
    last = next((ln.strip() for ln in reversed(answer.splitlines())
                 if _norm(_STOP_WORD.sub(" ", ln))), "")
    quiet = runners(trace)
    opening = next((e for e in trace.events if isinstance(e, Message)), None)
    # the agents that address a worker in their own message ("Orchestrator (-> WebSurfer)"): a
    # hand-over recorded right after a message of theirs, not a change of speaker
    refs = trace.meta.get(EVENT_SOURCES) or [None] * len(trace.events)
    directors = {d.from_ for k, d in enumerate(trace.events) if isinstance(d, DelegationEvent) and k
                 and refs[k] is not None and refs[k] == refs[k - 1]
                 and isinstance(trace.events[k - 1], Message) and trace.events[k - 1].agent == d.from_}

    def states(text: str) -> bool:
        if wrong:  # a page's address states no number
            return bool(wrong & set(numbers_in(_ADDRESS.sub(" ", text))))
        if phrases:
            return any(f" {q} " in f" {_norm(text)} " for q in phrases)
        return bool(last and _norm(last) and f" {_norm(last)} " in f" {_norm(text)} ")

    def wrote(code: str) -> bool:  # the value as a literal of the code (its made-up data)
        if wrong:
            return bool({w for w in wrong if abs(w) >= 10} & set(numbers_in(" ".join(_FIGURE.findall(code)))))
        return bool(phrases) and any(f" {q} " in f" {_norm(code)} " for q in phrases)

    for i, e in enumerate(trace.events[:at + 1]):
        if isinstance(e, ToolResult) and e.tool == CODE_TOOL and e.status == "ok" and \
                not _retrieved(e.payload) and states(_RUN_HEADER.sub("", e.payload)):
            call = _call_of(trace, i)
            # a run that printed a value some earlier code held as data: that code made it up
            return next((j for j in range(call) if isinstance(c := trace.events[j], ToolCall)
                         and c.tool == CODE_TOOL and wrote(str(c.arguments.get("code", "")))), call)
        if not isinstance(e, Message) or e.role != "assistant" or e.agent in quiet:
            continue
        if _relays(trace, i) or (beyond_task and e is opening):
            continue
        if states(own_words(e.content)):
            # a value read off a page: its first statement took it from the page that showed it
            # first, when that page was its own report, or a worker's report to the director
            return next((j for j in range(i) if isinstance(page := trace.events[j], Message)
                         and page.role == "assistant" and page.agent not in quiet and REPORTED_PAGE.search(page.content)
                         and (page.agent == e.agent or e.agent in directors)
                         and states(_ADDRESS.sub(" ", page.content))), i)
    return at


def _retrieved(output: str) -> bool:
    """A run that printed pages (a web search's results, a scraped listing: two web addresses or
    more): what it shows is the pages' words, as a surfer's reported page is, not a value the
    code computed or made up; the agent that then states one of them picked it."""
    return len(_ADDRESS.findall(output)) >= 2


# the executor's report of how a run ended ("exitcode: 0 (execution succeeded)\nCode output:"):
# not the run's output, its exit code no value the run printed
_RUN_HEADER = re.compile(r"^\s*exit\s*code:?\s*-?\d+[^\n]*\n?(?:\s*Code output:)?", re.IGNORECASE)


# a capitalised word: a name (a place, a person, a product) or a sentence's first word
_CAPITALISED = re.compile(r"\b[A-Z][a-z]{2,}\b")
# a name inside a sentence: a capitalised word that does not open it
_NAME = re.compile(r"(?<![.!?:\n]\s)(?<!^)\b[A-Z][a-z]{2,}\b")


_FIGURE = re.compile(r"(?<![\w.,])\d[\d,]*\d(?:\.\d+)?(?!\w)")  # a number as a message writes it


def _premise(trace: Trace, step: int, wrong: set[float] = frozenset()) -> int:
    """The step a wrong value really came from: the instruction the agent that stated it was
    following, when that instruction named something no earlier message (the task included) had
    named and the agent's message names it too ("search the population of Sydney" for the
    capital of Australia: the worker did what it was told, the instruction was wrong; "look up
    order so-4471", "use the 2019 figures": a name, or a fact of any form); else `step`. Only
    the nearest message of another agent since the user last spoke counts; the opening message,
    when an agent opens the log relaying the task, speaks for the user: its names are the task's.
    Or, for a value (`wrong`, the answer's wrong numbers) the worker's reported page shows, when
    the page's sentence that holds it has a word the instruction brought in and the user's request
    does not have ("search the Boise metropolitan area population" for the city's: the page's
    "Metropolitan Statistical Area ... 764,718"): the worker read what it was sent to find; the
    step is the instructing agent's first message since the request that used that word (its
    ledger, before the instruction it relayed)."""
    if not isinstance(trace.events[step], Message):
        return step  # code that computed the value: no instruction named it
    worker = getattr(trace.events[step], "agent", None)
    quiet = runners(trace)
    agents = {e.agent for e in trace.events if isinstance(e, AgentTurn)}
    opening = next((e for e in trace.events if isinstance(e, Message)), None)
    for j in range(step - 1, -1, -1):
        e = trace.events[j]
        if not isinstance(e, Message):
            continue
        if said_by_user(e) or e is opening:
            return step  # the task itself (a log often opens with an agent relaying it)
        if e.role != "assistant" or not e.agent or e.agent == worker:
            continue
        if e.agent in quiet:
            return step  # the agent answered a run's output, not an instruction
        said = " ".join(m.content for m in trace.events[:j] if isinstance(m, Message))
        worked = trace.events[step].content
        new = set(_NAME.findall(e.content.strip())) - set(_CAPITALISED.findall(said)) - agents
        # or a fact of any form the instruction brought in: an id, a code, a date, an amount, a
        # postcode, a lower-case reference (`semantic.FACTS`), or a figure of two digits or more
        values = (fact_values(e.content) | set(_FIGURE.findall(e.content))) \
            - fact_values(said) - set(_FIGURE.findall(said))
        hit = new & set(_CAPITALISED.findall(worked)) or {v for v in values if v in worked}
        if hit:
            return j
        steered = _steered(trace, e.content, worked, set(wrong))
        if not steered:
            return step
        since = max((k for k, m in enumerate(trace.events[:j]) if said_by_user(m)), default=-1)
        return next((k for k in range(since + 1, j) if isinstance(m := trace.events[k], Message)
                     and m.agent == e.agent and steered & {stem(w) for w in words(m.content)}), j)
    return step


def _steered(trace: Trace, instruction: str, worked: str, wrong: set[float]) -> set[str]:
    """The words (stems) an instruction brought in that the user's request does not have and that
    the sentence of the worker's reported page holding a wrong value has (`_premise`)."""
    page = REPORTED_PAGE.search(worked)
    if page is None or not wrong:
        return set()
    asked = {stem(w) for w in words(" ".join([user_text(trace), str(trace.meta.get(USER_REQUEST) or "")]))}
    agents = {stem(w) for e in trace.events if isinstance(e, AgentTurn) for w in words(e.agent)}
    brought = {stem(w) for w in words(instruction) if w.isalpha() and len(w) > 3 and w not in STOPWORDS} \
        - asked - agents
    held = [t for t in sentences(_ADDRESS.sub(" ", page.group(0))) if wrong & set(numbers_in(t))]
    return brought & {stem(w) for t in held for w in words(t)}


def _last_figure(trace: Trace, at: int) -> int | None:
    """The answer to a question whose answer is a number, when the final message states none
    (a closing remark: "no objections, I will finalize"): the last agent message before it
    that states a number in its own words (not a relay of a run). A message whose numbers are
    all the task's counts too (leaving it out did worse on real logs: docs/judge.md)."""
    quiet = runners(trace)
    for i in range(at - 1, -1, -1):
        e = trace.events[i]
        if isinstance(e, Message) and e.role == "assistant" and e.agent not in quiet and \
                not _relays(trace, i) and _stated_numbers(e.content):
            return i
    return None


def answer_check(trace: Trace, expected: str | None) -> Failure | None:
    """A final answer that is not `expected`: an agent task execution failure (its result is
    semantically wrong, FLARE §3.4), blamed on the step that introduced it."""
    if not expected:
        return None
    at, answer = final_answer(trace)
    if matches(answer, expected):
        return None
    wasted = answered_around(trace, expected)
    if wasted is not None and at is not None and _cut_off(trace, at):
        return _wrong_answer(trace, wasted, at, answer, expected, (
            f"the run stopped without an answer (its end not announced, no answer line: cut off "
            f"while still working), and {_what(trace, wasted)} at {event_ref(trace, wasted)} was its "
            "first run that failed or printed nothing: the turns spent from there never gave the result"))
    if at is not None and _number(expected) is not None and not _stated_numbers(answer) \
            and not _FINAL.search(trace.events[at].content):  # an answer given as such is the answer
        # a closing remark states no number: the number the run last put forward is what it
        # answered, and where a wrong one came from (one that matches is no answer it gave)
        figure = _last_figure(trace, at)
        if figure is not None and not matches(trace.events[figure].content, expected):
            at, answer = figure, trace.events[figure].content
    if at is None:
        at = len(trace.events) - 1
    stated = _introduced(trace, at, answer, expected)
    step = _premise(trace, stated, set(_stated_numbers(answer)) - set(numbers_in(expected)))
    return _wrong_answer(trace, step, at, answer, expected, (
        f"the code {agent_at(trace, step)} wrote at {event_ref(trace, step)} printed it first"
        if isinstance(trace.events[step], ToolCall) else
        f"{agent_at(trace, stated)} took it up at {event_ref(trace, stated)} following what "
        f"{agent_at(trace, step)} said at {event_ref(trace, step)}, which sent it there"
        if step != stated else f"{agent_at(trace, step) or 'the run'} first said it at {event_ref(trace, step)}"))


def _wrong_answer(trace: Trace, step: int, at: int, answer: str, expected: str, why: str) -> Failure:
    """The answer check's finding: the final answer at `at` is not `expected`, decided at `step`."""
    agent = agent_at(trace, step)
    # about the clause it violates, as FLARE's failure agent names it (`blame.SUBJECTS`): the
    # agent's answer; so the failure agent's finding of this wrong answer is this one failure
    clause = f"task::{agent}::answer" if agent else None
    return Failure(
        category="agent_task_execution", root_cause="Prompt and Instruction Deviation",
        detector=WRONG_ANSWER, evidence=(step, at), scenario_id=trace.scenario_id, clause=clause,
        decided_by=RULE,  # a comparison of the final answer with the expected one
        subject=clause, elements=(agent or "-",), agent=agent, step=step, step_ref=source_of(trace, step),
        description=f"the final answer ({' '.join(answer.split())[:120]!r}) is not the expected "
        f"{expected!r}; {why}")


# how a run that did not end by itself stopped: a bound, the harness, a crash, or not known (a
# transcript with no stop word last: a round limit the dump does not state, a crash)
_STOPPED = ("max_turns", "message_limit", "timeout", "crash", "interrupted", "other")


def _cut_off(trace: Trace, at: int) -> bool:
    """A run that stopped while still working: it did not end by itself (no stop word, no
    answer it completed with, no hand-back to the user: `_STOPPED`), and its final message `at`
    gives no answer as such (no "FINAL ANSWER:" line; nor is it the log's last message closing
    with a stop word: "1931. APPROVE" puts an answer forward, whatever ended the run, where a
    stop word the chat went on past was not the end). Its last message is where it was cut, not
    an answer the team put forward."""
    end = trace.termination
    said = trace.events[at].content
    last = not any(isinstance(e, Message) for e in trace.events[at + 1:])
    return end is not None and end.reason in _STOPPED and not _FINAL.search(said) \
        and not (last and _CLOSED.search(said))


# a message that closes with a stop word of its own ("It first shone in 1931. APPROVE", a last
# line "TERMINATE"): it puts its words forward as the answer; a stop word it asks for or quotes
# ('reply with "TERMINATE"'), or one inside a sentence, closes nothing
_CLOSED = re.compile(rf"(?:\A|[.!?]\s+|\n)\s*(?:{'|'.join(STOP_WORDS)})[.!]?\s*\Z")


def _fruitless(e: Any) -> bool:
    """A tool call or code run that failed, or that gave back nothing (a run that exited well
    and printed nothing, "Code output: " or "[]"; a search with no results): no result for the
    team to go on from."""
    return isinstance(e, ToolResult) and (
        e.status == "error" or not re.search(r"[^\W_]", _RUN_HEADER.sub("", e.payload)))


def answered_around(trace: Trace, expected: str) -> int | None:
    """The first call or run that gave the team nothing (`first_fruitless_run`), unless a later
    run printed the expected answer: then the team got the result, and what went wrong came
    after it (a misreading of what the run printed)."""
    wasted = first_fruitless_run(trace)
    return None if wasted is None or _printed(trace, wasted, expected) else wasted


def _printed(trace: Trace, since: int, expected: str) -> bool:
    """Did a run after event `since` print the expected answer (each of its items)?"""
    wanted = _items(expected)
    return bool(wanted) and any(
        isinstance(r, ToolResult) and r.status == "ok"
        and all(_stated(_RUN_HEADER.sub("", r.payload), w) for w in wanted) for r in trace.events[since:])


def _what(trace: Trace, call: int) -> str:
    """A call as a finding names it: the code its author wrote, or an agent's call of a tool."""
    c = trace.events[call]
    return f"the code {c.agent} wrote" if c.tool == CODE_TOOL else f"{c.agent}'s call of {c.tool}"


def first_fruitless_run(trace: Trace) -> int | None:
    """The first call or code run that failed or gave back nothing, whether or not a later one
    made it good: in a run cut off while still working (`_cut_off`), where the team's turns
    went. A code run is its author's (the executor only ran it)."""
    return next((_call_of(trace, i) for i, e in enumerate(trace.events) if _fruitless(e)), None)


# -- the one agent and the decisive step ----------------------------------------------------------

def first_uncorrected_error(trace: Trace) -> int | None:
    """The call of the first failed tool or code execution that no later call of the same tool
    by the same agent made good, whether or not the run went on after it."""
    for i, e in enumerate(trace.events):
        if isinstance(e, ToolResult) and e.status == "error" and not any(
                isinstance(r, ToolResult) and r.status == "ok" and (r.agent, r.tool) == (e.agent, e.tool)
                for r in trace.events[i + 1:]):
            return _call_of(trace, i)
    return None


def _turn_words(trace: Trace, step: int) -> str:
    """What the turn that holds the event at `step` says in its own words: the message itself, or
    for a call (code an agent wrote and an executor ran) the message of its agent that the log
    gives the same number (the prose around the code)."""
    e = trace.events[step]
    if isinstance(e, Message):
        return own_words(e.content)
    refs = trace.meta.get(EVENT_SOURCES) or [None] * len(trace.events)
    agent = agent_at(trace, step)
    return " ".join(own_words(m.content) for k, m in enumerate(trace.events)
                    if isinstance(m, Message) and m.agent == agent and refs[k] is not None and refs[k] == refs[step])


def went_on_around(trace: Trace, call: int, own: list[Failure]) -> tuple[int, str | None, str] | None:
    """The turn that went on from the failed (or fruitless) call at `call` without a real fix, when
    the log shows it; the call itself was recoverable, its error said what was wrong. (step,
    agent, why), or None:
    - the call sent again unchanged until it made a loop (`loop`'s finding of that very call):
      the first unchanged retry, where the agent stopped acting on the error;
    - the step that first put the wrong final answer forward (the answer check's), after the
      call, at a turn that says in a failure's words that the run did not work ("the execution
      failed", "openpyxl is not available ... I'll proceed with a representative sample"): the
      agent knew it had no result and put a value forward anyway (a guess, made-up data); only
      the failed call's own agent (on the public Who&When logs, another agent's later answer
      taken as decisive lost more labels than it won). A turn
      that answers as if nothing had failed leaves the failed call the decisive step (the labelled
      transcripts' "code that fails and is not fixed": its agent never registered the failure)."""
    for f in own:
        if f.detector == "loop" and f.elements[:1] == ("tool",) and f.evidence[:1] == (call,) \
                and len(f.evidence) > 1:
            retry = f.evidence[1]
            return retry, f.elements[1], (
                f"{_what(trace, call)} at {event_ref(trace, call)} failed, and {f.elements[1]} sent it again "
                f"unchanged at {event_ref(trace, retry)}: the error said what to fix, and the unchanged retry "
                f"began a loop ({f.description})")
    for f in own:
        if f.detector != WRONG_ANSWER or f.step is None or f.step <= call:
            continue
        agent = agent_at(trace, f.step)
        if agent != agent_at(trace, call):
            continue  # another agent put the answer forward: the failed call stays decisive
        if any(says_failed(s) for s in sentences(_turn_words(trace, f.step))):
            return f.step, agent, (
                f"{_what(trace, call)} at {event_ref(trace, call)} failed, and {agent} said so at "
                f"{event_ref(trace, f.step)} yet put forward a value there without a result to take it "
                f"from (a guess, made-up data): {f.description}")
    return None


# how much of the user's request an agent's relay of it names, at least, to be that request
# (a relay quotes it whole; a relay of another task names a few of its common words)
_RELAYED = 0.5


def task_not_relayed(trace: Trace) -> int | None:
    """The opening message, when an agent opens the log relaying the task (AG2's "You are given:
    ... # General Task") and it names less than half the words of the user's request the log
    keeps (`USER_REQUEST`): the team was set on another task ("# General Task\nError: Function
    seek_experts_help not found."), and whatever it then did answered that one. A candidate for
    the decisive step of a run that failed, never a failure by itself."""
    request = trace.meta.get(USER_REQUEST)
    opening = next((i for i, e in enumerate(trace.events) if isinstance(e, Message)), None)
    if not isinstance(request, str) or opening is None:
        return None
    e = trace.events[opening]
    asked = set(_norm(request).split())
    if e.role != "assistant" or not e.agent or not asked:
        return None
    return opening if len(asked & set(_norm(e.content).split())) < _RELAYED * len(asked) else None


def decisive(trace: Trace, failures: list[Failure], expected: str | None = None) -> Blame | None:
    """The one agent most responsible and the decisive step of a run with failures of its own
    (`failures` as `blame.blame_all` gives them); None when it has none. `expected`, the answer
    the run was to give: a run whose answer was wrong answered around its first call or run
    that gave nothing, when no run printed the answer (`answered_around`)."""
    own = [f for f in failures if f.attribution == "sut" and f.step is not None]
    if not own:
        return None
    candidates = [(f.step, f.agent, f"{f.root_cause} ({f.detector}): {f.description}") for f in own]
    error = first_uncorrected_error(trace)
    # a failed call that a claim of success contradicts (Incorrect Verification) is that
    # finding's evidence: the tool answered, the agent told the user otherwise, and the claim is
    # the step that went wrong (the call is not the first fault merely for coming first)
    contradicted = {_call_of(trace, i) if isinstance(trace.events[i], ToolResult) else i
                    for f in own if f.root_cause == "Incorrect Verification"
                    for i in f.evidence if 0 <= i < len(trace.events)}
    if error is not None and error not in contradicted:
        call = trace.events[error]
        candidates.append(went_on_around(trace, error, own) or (
            error, call.agent, f"the first failed tool call never corrected ({call.tool} by {call.agent} "
            f"at {event_ref(trace, error)}): the run went on without its result"))
    wasted = answered_around(trace, expected) if expected and any(
        f.detector == WRONG_ANSWER for f in own) else None
    if wasted is not None:
        candidates.append(went_on_around(trace, wasted, own) or (wasted, trace.events[wasted].agent, (
            f"{_what(trace, wasted)} at {event_ref(trace, wasted)} was the first run that failed or printed "
            "nothing, and no run printed the expected answer: the team answered around a result it "
            "never got")))
    elsewhere = task_not_relayed(trace)
    if elsewhere is not None:
        candidates.append((elsewhere, trace.events[elsewhere].agent, (
            f"{trace.events[elsewhere].agent} opened the run at {event_ref(trace, elsewhere)} with a task that is not "
            "the user's request (it names little of what the user asked): the team worked on that task")))
    # of findings decided at the same step, the one that blames the agent that took it (a turn
    # past an announced end that also starts a loop: the agent that went on and repeated itself,
    # rather than the one whose end it ignored)
    step, agent, why = min(candidates, key=lambda c: (c[0], c[1] != agent_at(trace, c[0])))
    return Blame(agent=agent, step=step, step_ref=source_of(trace, step), why=why)
