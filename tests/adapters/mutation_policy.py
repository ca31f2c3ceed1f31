"""Scripted models for tests/adapters/test_mutations_reach_agents.py.

`spy(system, family)` plays a system's own example policy and writes every request it answers
(agent, temperature, family, the names of the tools offered) as a JSON line to the file named by MASFUZZ_SPY_LOG. Two families
are two model strings, so a test sees which model each agent's calls reached, and with which
temperature, from the model's side rather than from masfuzz's own record.

`in_order` plays a video-production team whose speaker-selecting model picks the first candidate
listed in its prompt that has not spoken yet and whose predecessors in the pipeline have (the
script before the voice-over and the image, both before the director): the order it is shown
decides among the candidates that are ready.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

from masfuzz.llm.scripted import say
from masfuzz.llm.types import ChatRequest
from masfuzz.loader import load_target

ROOT = Path(__file__).resolve().parents[2]
BEHAVIOURS = {
    "video": "examples/video_team/policy.py:policy",
    "ag2": "examples/ag2_groupchat/policy.py:policy",
    "research": "examples/research_graph/policy.py:policy",
    "desk": "examples/customer_service/policy.py:policy",
}
LOG = "MASFUZZ_SPY_LOG"


def spy(system: str, family: str):
    play = load_target(str(ROOT / BEHAVIOURS[system])).obj

    def policy(request: ChatRequest):
        path = os.environ.get(LOG)
        if path:
            with open(path, "a", encoding="utf-8") as f:
                f.write(json.dumps({"agent": request.agent, "temperature": request.temperature,
                                    "family": family,
                                    "tools": [t.name for t in request.tools]}) + "\n")
        return play(request)

    return policy


PREDECESSORS = {
    "script_writer": (),
    "voice_actor": ("script_writer",),
    "graphic_designer": ("script_writer",),
    "director": ("voice_actor", "graphic_designer"),
}
_LIST = re.compile(r"\[('[^'\]]+'(?:, '[^'\]]+')*)\]")  # ['a', 'b'], as both frameworks print it
DONE = " has done its part."  # what every agent says: the history shows who spoke


def in_order(request: ChatRequest):
    if request.agent != "selector":
        return say(f"{request.agent}{DONE}")
    text = "\n".join(m.content or "" for m in request.messages)
    offered = re.findall(r"'([^']+)'", _LIST.findall(text)[-1])  # the latest list: the candidates
    spoken = set(re.findall(r"(\w+)" + re.escape(DONE), text))
    ready = [n for n in offered if n in PREDECESSORS and n not in spoken
             and all(p in spoken for p in PREDECESSORS[n])]
    return say((ready or offered)[0])
