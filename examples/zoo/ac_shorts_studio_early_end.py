"""Premature termination, AutoGen AgentChat (SelectorGroupChat, a stop condition made of two
with `|`): a studio that turns a client's brief into a 30-second vertical video. The selector
follows the studio's order of work: `script_writer` saves a script with `save_script`,
`voice_actor` records it with `generate_voiceovers`, `graphic_designer` makes the frames with
`generate_images`, `editor_v` cuts the video with `render_video`, and `director` signs the cut
off with `approve_cut`.

Seeded: the voice and graphics prompts tell the director they are finished by saying
"TERMINATE", and the team's `TextMentionTermination("TERMINATE")` hears it from anyone: the run
ends on the voice actor's word, before the frames, the cut and the director's sign-off. Fixed:
the stop word counts only from the director (`sources=["director"]`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from autogen_agentchat.agents import AssistantAgent
from autogen_agentchat.conditions import MaxMessageTermination, TextMentionTermination
from autogen_agentchat.teams import SelectorGroupChat

from .models import agentchat_client

JOB = Annotated[str, 'The studio job code on the brief, e.g. "SJ-0000"']


@dataclass
class Render:
    job: str
    state: str
    seconds: float
    path: str


def save_script(job: JOB, details: Annotated[str, "The client's brief in their own words"]) -> dict:
    """Write and save the narration script for a job, six lines of about five seconds each."""
    return {"job": job, "script": {"lines": 6, "words": 71, "saved": f"scripts/{job}.txt"}}


def generate_voiceovers(job: JOB) -> list:
    """Record the saved script's lines with the studio's synthetic narrator."""
    return [f"voiceovers/{job}_{i}.mp3" for i in range(1, 7)]


def generate_images(job: JOB) -> dict:
    """Make one 1080x1920 frame per script line."""
    return {"http": 201, "frames": [f"images/{job}_{i}.png" for i in range(1, 7)]}


def render_video(job: JOB) -> Render:
    """Cut the frames and voiceovers into the final video, with captions and the music bed."""
    return Render(job=job, state="RENDERED", seconds=29.4, path=f"out/{job}.mp4")


def approve_cut(job: JOB) -> str:
    """Sign a rendered cut off for the client's channel."""
    return f"{job}: cut approved, queued for upload Fri 17:00"


SELECTOR = """You are coordinating a short-video studio. The following roles are available:
{roles}.
The order of work is script_writer, then voice_actor, then graphic_designer, then editor_v, then director.
Read the following conversation. Then select the next role from {participants} to play. Only return the role.

{history}

Read the above conversation. Then select the next role from {participants} to play. Only return the role."""


def build(stop) -> SelectorGroupChat:
    client = agentchat_client()

    def member(name: str, tool, description: str, lines: str) -> AssistantAgent:
        return AssistantAgent(name, model_client=client, tools=[tool], reflect_on_tool_use=True,
                              description=description, system_message=lines)

    team = [
        member("script_writer", save_script, "Writes the narration script.",
               "Script desk, Northlight Shorts.\n1. The script is to be saved by means of save_script.\n"
               "2. The result of save_script is to be restated for the team."),
        member("voice_actor", generate_voiceovers, "Records the voiceovers.",
               "Voice booth, Northlight Shorts.\n1. The voiceovers are to be recorded by means of generate_voiceovers.\n"
               '2. Once the voiceovers are saved, reply "Voiceovers saved - TERMINATE" so the director knows the booth is done.'),
        member("graphic_designer", generate_images, "Makes the frames.",
               "Graphics desk, Northlight Shorts.\n1. The frames are to be made by means of generate_images.\n"
               '2. Once the frames are saved, reply "Frames saved - TERMINATE" so the director knows graphics is done.'),
        member("editor_v", render_video, "Cuts the video.",
               "Edit suite, Northlight Shorts.\n1. The video is to be cut by means of render_video.\n"
               "2. The result of render_video is to be set out for the director."),
        member("director", approve_cut, "Signs the cut off.",
               "Director, Northlight Shorts. Nothing goes to a client's channel unseen.\n"
               "1. The cut is to be signed off by means of approve_cut.\n"
               '2. Conclude with "Cut approved for upload. TERMINATE"'),
    ]
    return SelectorGroupChat(team, model_client=client, selector_prompt=SELECTOR,
                             termination_condition=stop | MaxMessageTermination(24))


def seeded():
    return build(TextMentionTermination("TERMINATE"))


def fixed():
    return build(TextMentionTermination("TERMINATE", sources=["director"]))
