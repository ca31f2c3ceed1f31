"""The video team's scripted policy with one careless choice each, for the spec-aware oracles.

- `hasty`: the selector gives the floor to the director right after the script, before the voice
  actor and the graphic designer it depends on (a speaking-order violation); once rendering fails
  for lack of inputs, the pipeline resumes and the run ends properly.
- `silent_voice`: the voice actor promises the recording instead of calling `synthesize_voice`
  (a tool invocation omission); the director then cannot render, and the run hits its bound.
"""

from __future__ import annotations

import re
from pathlib import Path

from masfuzz.loader import load_target
from masfuzz.llm.scripted import say

_EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "video_team" / "policy.py"
careful = load_target(f"{_EXAMPLE}:policy").obj
select_speaker = load_target(f"{_EXAMPLE}:select_speaker").obj


SPEAKER = re.compile(r"^(user|script_writer|voice_actor|graphic_designer|director): (.*)$", re.M)


def _said(request) -> list[tuple[str, str]]:
    """(speaker, first line said) in the selector prompt's history."""
    history = (request.messages[0].content or "").split("The conversation so far:", 1)[-1]
    return SPEAKER.findall(history)


def hasty(request):
    if request.agent != "selector":
        return careful(request)
    choice, said = select_speaker(request), _said(request)
    if choice == "voice_actor" and all(who != "director" for who, _ in said):
        return "director"  # skip the voice-over and the image: the director goes first
    if choice == "director" and said[-1][0] == "director" and "Rendering failed" in said[-1][1]:
        return "voice_actor"  # the director asked for its inputs: resume the pipeline
    return choice


def silent_voice(request):
    if request.agent == "voice_actor":
        return say("I will record the voice-over once the script is final.")
    return careful(request)
