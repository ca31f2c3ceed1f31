"""What an agent's model is given on its first call after a hand-over to it
(`Trace.meta[HANDOVER_INPUTS]`), for the adapters that see model inputs: whether a fact the
user gave reached the receiving agent is then seen, not guessed (the hand-over oracle)."""

from __future__ import annotations

from masfuzz.trace import HANDOVER_INPUTS, DelegationEvent, TraceRecorder

# What a trace keeps of the input an agent received at a hand-over (a long history would make
# every trace of a many-hand-over run quadratic in size).
HANDOVER_TEXT_CHARS = 20_000


class HandoverInputs:
    def __init__(self, recorder: TraceRecorder) -> None:
        self.recorder = recorder
        self.handed_at: dict[str, int] = {}  # agent id -> its latest hand-over's event index
        self.scanned = 0  # events read for hand-overs so far

    def received(self, agent: str, texts: list[str]) -> None:
        """`agent`'s model is given `texts` (the non-system messages, after the framework's
        hand-over filters): kept when it is the agent's first call since a hand-over to it."""
        events = self.recorder.events
        for i in range(self.scanned, len(events)):  # each event read once over the run
            if isinstance(events[i], DelegationEvent):
                self.handed_at[events[i].to] = i
        self.scanned = len(events)
        d = self.handed_at.get(agent)
        if d is None:
            return
        seen = self.recorder.meta.setdefault(HANDOVER_INPUTS, [])
        if not any(x["delegation"] == d and x["agent"] == agent for x in seen):  # the first call
            text = "\n".join(texts)
            if len(text) > HANDOVER_TEXT_CHARS:  # the user's opening and the latest words
                half = HANDOVER_TEXT_CHARS // 2
                text = f"{text[:half]}\n…\n{text[-half:]}"
            seen.append({"delegation": d, "agent": agent, "text": text})
