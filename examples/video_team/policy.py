"""A scripted model for the video team: what a sensible model would answer, deterministically.

`request.agent` says who is asking: one of the four agents, or "selector" for the selector
team's speaker-selection call. The selector follows the pipeline (script, voice, image, director)
and, after the director said the video is done, picks the director again so it can close the
workflow; when AutoGen rejects that as a repeated speaker it complies and picks the first role
it is offered, as a real model does. That is how the bug plays out.

    masfuzz exec examples/video_team/team.py:selector_team \
        --sut-model scripted/examples/video_team/policy.py:policy --input "..."
"""

from __future__ import annotations

import re

from masfuzz.llm.scripted import call, say, tool_results
from masfuzz.llm.types import ChatRequest

PIPELINE = {
    "user": "script_writer",
    "script_writer": "voice_actor",
    "voice_actor": "graphic_designer",
    "graphic_designer": "director",
    "director": "director",  # the director has just said it is done: let it close the workflow
}
DONE = "The video is rendered"


def policy(request: ChatRequest):
    if request.agent == "selector":
        return select_speaker(request)
    agent = AGENTS.get(request.agent or "")
    if agent is None:
        return say(f"({request.agent} has nothing to add.)")
    return agent(request)


def select_speaker(request: ChatRequest) -> str:
    last = request.messages[-1].content or ""
    if last.startswith(("Repeated speaker is not allowed", "No valid name", "Expected exactly one")):
        offered = re.findall(r"'([^']+)'", last)  # the names in the feedback's list
        return offered[0] if offered else "script_writer"
    prompt = request.messages[0].content or ""
    history = prompt.split("The conversation so far:", 1)[-1]
    speakers = re.findall(r"^(user|script_writer|voice_actor|graphic_designer|director):", history, re.M)
    return PIPELINE[speakers[-1] if speakers else "user"]


def task(request: ChatRequest) -> str:
    for m in request.messages:
        if m.role == "user" and (m.name in (None, "user")):
            return m.content or ""
    return ""


def latest_from(request: ChatRequest, speaker: str) -> str:
    for m in reversed(request.messages):
        if m.name == speaker and m.role == "user" and m.content:
            return m.content
    return ""


def script_writer(request: ChatRequest):
    takes = sum(1 for m in request.messages if m.role == "assistant" and m.content and m.content.startswith("Script"))
    script = (
        f"Script (take {takes + 1}): Water rises from the sea as vapour, gathers into clouds, "
        "falls as rain and runs back to the sea. Every drink you take has made this trip."
    )
    if not tool_results(request, "count_words") or request.messages[-1].role != "tool":
        return call("count_words", text=script)
    return say(script)


def voice_actor(request: ChatRequest):
    return call("synthesize_voice", script=latest_from(request, "script_writer") or task(request))


def graphic_designer(request: ChatRequest):
    return call("generate_image", prompt="Cover: " + task(request)[:60], width=1080, height=1920)


def director(request: ChatRequest):
    last = request.messages[-1]
    if last.role == "assistant" and (last.content or "").startswith(DONE):
        return say("TERMINATE")  # second turn in a row: close the workflow
    if last.role == "tool":
        results = tool_results(request, "render_video")
        if results and results[-1].content.endswith(".json"):  # the path of a rendered video
            return say(f"{DONE} at {results[-1].content}. Our work is done, so I am ending the workflow.")
        return say("Rendering failed; I need the voice-over and the image first.")
    return call(
        "render_video",
        audio_path=latest_from(request, "voice_actor"),
        image_path=latest_from(request, "graphic_designer"),
        title=task(request)[:60],
    )


AGENTS = {
    "script_writer": script_writer,
    "voice_actor": voice_actor,
    "graphic_designer": graphic_designer,
    "director": director,
}
