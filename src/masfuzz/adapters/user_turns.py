"""The user's messages of a run whose app starts one framework run per customer message.

A chat front-end calls its framework once per message the customer types (the Agents SDK's
`Runner.run` with `result.to_input_list()` plus the next message, or with a `Session`; a
PydanticAI agent's `run(prompt, message_history=...)`), each run after the agents answered the
one before. A trace must show those messages as the user said them: each once, in order, with
the agents' turns between them, not the scenario's whole input as one opening message, and not
again each time the app replays the history to the next run.

What the user said is the scenario's input, the task; the app may split it (one line a message)
or wrap it ("Customer says: ..."). `UserWords` records the task as the run's opening message, as
every adapter does, and then follows what the app's own runs are given (`heard`): the user-role
texts of a run the app's code starts (not one an agent's tool starts). A text that holds the
whole task leaves the opening message as it is; a piece of the task found after the pieces
already said is the next message (the first piece replaces the opening message, which then
said more than the user had said yet). Anything else is no new word of the user's: history
replayed, an earlier agent's answer passed on (the app's `sequence` hand-over, recorded as
such), or the app's own text.
"""

from __future__ import annotations

from collections.abc import Iterable

from masfuzz.trace import Message, TraceRecorder


class UserWords:
    def __init__(self, recorder: TraceRecorder, task: str | None) -> None:
        self.recorder = recorder
        self.task = task or ""
        self.said = 0  # how much of the task the app has given its agents so far
        recorder.add(Message(agent=None, role="user", content=self.task, t=recorder.now()))
        self.opening = len(recorder.events) - 1  # the index of the opening message

    def heard(self, texts: Iterable[str]) -> None:
        """The user-role texts, in order, of a run the app's own code starts."""
        task = self.task.strip()
        for text in texts:
            text = (text or "").strip()
            if not text or not task or self.said >= len(self.task):
                continue
            if self.said == 0 and task in text:  # the whole task, as given or wrapped
                self.said = len(self.task)
                continue
            at = self.task.find(text, self.said)
            if at < 0:
                continue
            events = self.recorder.events
            if self.said == 0 and isinstance(events[self.opening], Message):
                events[self.opening] = events[self.opening].model_copy(update={"content": text})
            else:
                self.recorder.add(Message(agent=None, role="user", content=text, t=self.recorder.now()))
            self.said = at + len(text)
