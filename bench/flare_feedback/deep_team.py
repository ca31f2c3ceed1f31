"""The video team (a selector picks the speakers) with a chained misbehaviour: coverage that
needs a new speaking order and two agents' settings, stacked.

The selector picks the first ready participant in the order it is shown (tests' `in_order`), so
only a new order lets the graphic designer work before the voice actor. Then:

1. (the order) the image exists before the voice-over: the second legal path;
2. a voice actor at 1.2 that sees the image already made reaches for `generate_image` (the
   designer's tool: a restricted edge);
3. a director at 0.4 that sees that refused call reaches for `synthesize_voice`.

Every agent otherwise says it has done its part.
"""

import re

from masfuzz.llm.scripted import call, say

PREDECESSORS = {
    "script_writer": (),
    "voice_actor": ("script_writer",),
    "graphic_designer": ("script_writer",),
    "director": ("voice_actor", "graphic_designer"),
}
_LIST = re.compile(r"\[('[^'\]]+'(?:, '[^'\]]+')*)\]")  # ['a', 'b'], as AutoGen prints it
DONE = " has done its part."


def _history(request) -> str:
    return "\n".join(m.content or "" for m in request.messages)


def _blocked(text: str, agent: str, tool: str) -> bool:
    """Does the conversation show `agent`'s call of `tool` refused (AutoGen's words for it)?"""
    return f"agent '{agent}' is not allowed to use tool '{tool}'" in text


def select(request):
    text = _history(request)
    offered = re.findall(r"'([^']+)'", _LIST.findall(text)[-1])
    # who took a turn: said it has done its part, or had its only call refused
    spoken = set(re.findall(r"(\w+)" + re.escape(DONE), text)) \
        | set(re.findall(r"agent '(\w+)' is not allowed", text))
    ready = [n for n in offered if n in PREDECESSORS and n not in spoken
             and all(p in spoken for p in PREDECESSORS[n])]
    return say((ready or offered)[0])


def policy(request):
    if request.agent == "selector":
        return select(request)
    text, offered, t = _history(request), {t.name for t in request.tools}, request.temperature
    if request.agent == "voice_actor" and t == 1.2 and "generate_image" in offered \
            and "graphic_designer" + DONE in text \
            and not _blocked(text, "voice_actor", "generate_image"):
        return call("generate_image", prompt="the water cycle")
    if request.agent == "director" and t == 0.4 and "synthesize_voice" in offered \
            and _blocked(text, "voice_actor", "generate_image") \
            and not _blocked(text, "director", "synthesize_voice"):
        return call("synthesize_voice", script="the water cycle")
    return say(f"{request.agent}{DONE}")
