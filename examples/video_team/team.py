"""A short-video production team in AutoGen AgentChat: script writer, voice actor, graphic
designer and director (the ShortsMaker system of the FLARE paper, Fig. 1).

It deliberately carries FLARE's motivating bug. The director renders the video, says the work is
done, and means to close the workflow with "TERMINATE" on its next turn, but the team never lets
one agent speak twice in a row: a round-robin order cannot, and the selector variant sets
`allow_repeated_speaker=False`. So the director cannot end the workflow; the others keep
revising and the team runs until its message limit. `selector_team(allow_repeated_speaker=True)`
is the fixed variant.

    masfuzz exec examples/video_team/team.py:selector_team --input "..." \
        --sut-model scripted/examples/video_team/policy.py:policy
"""

from __future__ import annotations

import os

from autogen_agentchat.agents import AssistantAgent
from autogen_agentchat.conditions import MaxMessageTermination, TextMentionTermination
from autogen_agentchat.teams import RoundRobinGroupChat, SelectorGroupChat
from autogen_core.models import ChatCompletionClient

from .tools import count_words, generate_image, render_video, synthesize_voice

MAX_MESSAGES = 10

SELECTOR_PROMPT = """You coordinate a short-video production team. The roles:
{roles}

The conversation so far:
{history}

The work goes script_writer, then voice_actor and graphic_designer, then director, who renders
the video and closes the workflow. Select the next role from {participants}. Only return the role.
"""


def default_model_client() -> ChatCompletionClient:
    """Any masfuzz model string (`local/gemma-3-270m`, `openai/gpt-4.1-mini`, `scripted/...`)."""
    from masfuzz.adapters.autogen.bridge import MasfuzzChatCompletionClient

    return MasfuzzChatCompletionClient(os.environ.get("VIDEO_TEAM_MODEL", "local/gemma-3-270m"))


def build_agents(model_client: ChatCompletionClient) -> list[AssistantAgent]:
    script_writer = AssistantAgent(
        "script_writer",
        model_client=model_client,
        description="Writes the narration script of the video.",
        system_message="You write a narration script of at most 75 words for the requested video. "
        "Check its length with count_words, then reply with the script only.",
        tools=[count_words],
        reflect_on_tool_use=True,
    )
    voice_actor = AssistantAgent(
        "voice_actor", model_client=model_client, tools=[synthesize_voice],
        description="Records the voice-over from the latest script.",
        system_message="You record the voice-over: call synthesize_voice with the latest script.",
    )
    graphic_designer = AssistantAgent(
        "graphic_designer", model_client=model_client, tools=[generate_image],
        description="Draws the cover image of the video.",
        system_message="You draw the video's image: call generate_image with a prompt describing it.",
    )
    director = AssistantAgent(
        "director",
        model_client=model_client,
        description="Renders the final video from the voice-over and the image, then ends the workflow.",
        system_message="You direct the production. When the voice-over and the image are ready, call "
        "render_video with their paths. After the video is rendered, say it is done, and on your "
        "next turn reply TERMINATE to end the workflow.",
        tools=[render_video],
        reflect_on_tool_use=True,
    )
    return [script_writer, voice_actor, graphic_designer, director]


def termination():
    return TextMentionTermination("TERMINATE", sources=["director"]) | MaxMessageTermination(MAX_MESSAGES)


def build_team(model_client: ChatCompletionClient, variant: str = "selector",
               allow_repeated_speaker: bool = False):
    agents = build_agents(model_client)
    if variant == "round_robin":
        return RoundRobinGroupChat(agents, name="video_team_round_robin", termination_condition=termination())
    if variant == "selector":
        return SelectorGroupChat(
            agents,
            model_client=model_client,
            name="video_team_selector",
            termination_condition=termination(),
            selector_prompt=SELECTOR_PROMPT,
            allow_repeated_speaker=allow_repeated_speaker,
        )
    raise ValueError(f"unknown variant {variant!r}: expected 'selector' or 'round_robin'")


def selector_team(allow_repeated_speaker: bool = False):
    return build_team(default_model_client(), "selector", allow_repeated_speaker)


def round_robin_team():
    return build_team(default_model_client(), "round_robin")
