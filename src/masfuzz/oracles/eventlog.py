"""FLARE's semantic event log (§3.4): what the failure and judge agents read instead of the raw
trace.

Four parts, as the paper lists them: the speaking order (the actual turn sequence), the tool-call
log (caller, tool, arguments, output, status), per-agent utterance excerpts (the first, a middle
and the last sentence of what each agent said), and the dead-loop flag (the run timed out, hit a
bound, or cycled without progress). Every entry keeps the index of the trace event it came from, so a finding that
quotes the log carries evidence, and `quoted` can check that a quote really is in it.
"""

from __future__ import annotations

import re

from pydantic import BaseModel, ConfigDict

from masfuzz.oracles.detectors import progressed
from masfuzz.trace import AgentTurn, Message, ToolCall, ToolResult, Trace

EVENT_LOG_FORMAT_VERSION = 1
DEAD_LOOP_REASONS = ("timeout", "max_turns", "message_limit")
_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+")


class _Entry(BaseModel):
    model_config = ConfigDict(frozen=True)
    event: int  # index of the trace event this entry came from


class Turn(_Entry):
    agent: str


class ToolRecord(_Entry):
    caller: str
    tool: str
    arguments: dict = {}
    status: str = "unanswered"  # ok | error | blocked | unanswered (the run ended first)
    output: str = ""
    result_event: int | None = None


class Quote(_Entry):
    text: str


class Excerpt(BaseModel):
    model_config = ConfigDict(frozen=True)
    agent: str
    first: Quote
    middle: Quote | None = None
    last: Quote | None = None


class EventLog(BaseModel):
    model_config = ConfigDict(frozen=True)
    format_version: int = EVENT_LOG_FORMAT_VERSION
    scenario_id: str = ""
    speaking_order: tuple[Turn, ...] = ()
    tools: tuple[ToolRecord, ...] = ()
    excerpts: tuple[Excerpt, ...] = ()
    dead_loop: bool = False
    dead_loop_reason: str = ""

    def quoted(self, text: str) -> bool:
        """Does `text` appear in the log (an excerpt, a tool's output or arguments)? The guard
        a model-written finding must pass before it is believed."""
        needle = " ".join(text.split()).lower()
        if not needle:
            return False
        hay = [q.text for e in self.excerpts for q in (e.first, e.middle, e.last) if q]
        hay += [t.output for t in self.tools] + [str(t.arguments) for t in self.tools]
        return any(needle in " ".join(h.split()).lower() for h in hay)

    def render(self, limit: int = 200) -> str:
        """The log as the prompt text of the failure and judge agents."""
        out = ["speaking order: " + " -> ".join(t.agent for t in self.speaking_order)]
        out.append("tool calls:")
        for t in self.tools:
            out.append(f"  [{t.event}] {t.caller} -> {t.tool}({_cut(str(t.arguments), limit)}) "
                       f"= {t.status}: {_cut(t.output, limit)}")
        out.append("utterances:")
        for e in self.excerpts:
            parts = [f"first [{e.first.event}] {_cut(e.first.text, limit)!r}"]
            for name, q in (("middle", e.middle), ("last", e.last)):
                if q is not None:
                    parts.append(f"{name} [{q.event}] {_cut(q.text, limit)!r}")
            out.append(f"  {e.agent}: " + "; ".join(parts))
        out.append(f"dead loop: {'yes, ' + self.dead_loop_reason if self.dead_loop else 'no'}")
        return "\n".join(out)


def event_log(trace: Trace) -> EventLog:
    turns = tuple(Turn(event=i, agent=e.agent) for i, e in enumerate(trace.events)
                  if isinstance(e, AgentTurn))
    return EventLog(scenario_id=trace.scenario_id, speaking_order=turns, tools=_tools(trace),
                    excerpts=_excerpts(trace), **_dead_loop(trace, [t.agent for t in turns]))


def _tools(trace: Trace) -> tuple[ToolRecord, ...]:
    results = {}
    for i, e in enumerate(trace.events):
        if isinstance(e, ToolResult):
            results.setdefault(e.call_id or (e.agent, e.tool, len(results)), (i, e))
    records, used = [], set()
    for i, e in enumerate(trace.events):
        if not isinstance(e, ToolCall):
            continue
        hit = None
        for key, (j, r) in results.items():
            if key not in used and j > i and r.tool == e.tool and r.agent == e.agent and \
                    (not e.call_id or r.call_id == e.call_id):
                hit = key
                break
        if hit is None:
            records.append(ToolRecord(event=i, caller=e.agent, tool=e.tool, arguments=e.arguments))
            continue
        used.add(hit)
        j, r = results[hit]
        records.append(ToolRecord(event=i, caller=e.agent, tool=e.tool, arguments=e.arguments,
                                  status=r.status, output=r.payload, result_event=j))
    return tuple(records)


def _excerpts(trace: Trace) -> tuple[Excerpt, ...]:
    said: dict[str, list[Quote]] = {}
    for i, e in enumerate(trace.events):
        if isinstance(e, Message) and e.role == "assistant" and e.agent and e.content.strip():
            for sentence in _SENTENCE.split(e.content.strip()):
                if sentence.strip():
                    said.setdefault(e.agent, []).append(Quote(event=i, text=sentence.strip()))
    out = []
    for agent, quotes in said.items():
        middle = quotes[len(quotes) // 2] if len(quotes) > 2 else None
        last = quotes[-1] if len(quotes) > 1 else None
        out.append(Excerpt(agent=agent, first=quotes[0], middle=middle, last=last))
    return tuple(out)


def _dead_loop(trace: Trace, order: list[str]) -> dict:
    end = trace.termination
    if end is not None and end.reason in DEAD_LOOP_REASONS:
        return {"dead_loop": True, "dead_loop_reason": f"the run ended by {end.reason}"}
    turns = [(i, e) for i, e in enumerate(trace.events) if isinstance(e, AgentTurn)]
    for size in (1, 2, 3):  # the same speaker cycle repeated three times at the end
        tail = order[-3 * size:]
        # an orchestrator and its workers going round while saying new things make progress
        if len(tail) == 3 * size and tail[:size] * 3 == tail and len(set(tail)) == size and \
                (_same_words(trace, order[-1]) if size == 1 else
                 not progressed(trace, turns, len(turns) - 3 * size, len(turns), size)):
            return {"dead_loop": True,
                    "dead_loop_reason": f"cycle {' -> '.join(tail[:size])} repeated 3 times"}
    return {"dead_loop": False, "dead_loop_reason": ""}


def _same_words(trace: Trace, agent: str) -> bool:
    """One agent alone in a loop only counts when it keeps saying the same thing."""
    texts = [e.content.strip() for e in trace.events
             if isinstance(e, Message) and e.agent == agent and e.role == "assistant"][-3:]
    return len(texts) == 3 and len(set(texts)) == 1


def _cut(text: str, limit: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."
