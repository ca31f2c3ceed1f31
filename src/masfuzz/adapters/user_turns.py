"""The user's messages of a run whose app starts one framework run per customer message.

A chat front-end calls its framework once per message the customer types (the Agents SDK's
`Runner.run` with `result.to_input_list()` plus the next message, or with a `Session`; a
PydanticAI agent's `run(prompt, message_history=...)`), each run after the agents answered the
one before. A trace must show those messages as the user said them: each once, in order, with
the agents' turns between them, not the scenario's whole input as one opening message, and not
again each time the app replays the history to the next run.

What the user said is the scenario's input, the task; the app may give it whole, wrapped
("Customer says: ..."), or split (one line a message). `UserWords` records the task as the
run's opening message, as every adapter does, and then follows what the runs the app's own code
starts are given (`heard`: their user-role texts; not a run an agent's tool starts). A text that
holds the whole task leaves the opening as it is. A piece of the task found after the pieces
already given is a message of its own once there are two: the opening then says the first
piece only, and each later piece is recorded when the run that gets it starts. Anything else
is no new word of the user's: history replayed, an earlier agent's answer passed on (the app's
`sequence` hand-over, recorded as such), or the app's own text.
"""

from __future__ import annotations

from collections.abc import Iterable

from masfuzz.trace import Message, TraceRecorder


class UserWords:
    def __init__(self, recorder: TraceRecorder, task: str | None) -> None:
        self.recorder = recorder
        self.task = task or ""
        self.said = 0  # how much of the task the app has given its agents so far
        self.pieces: list[str] = []  # the pieces of the task given, each in a run of its own
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
            self.said = at + len(text)
            self.pieces.append(text)
            if len(self.pieces) == 2:  # the task was split: its opening said its first piece
                events = self.recorder.events
                events[self.opening] = events[self.opening].model_copy(update={"content": self.pieces[0]})
            if len(self.pieces) >= 2:
                self.recorder.add(Message(agent=None, role="user", content=text, t=self.recorder.now()))
