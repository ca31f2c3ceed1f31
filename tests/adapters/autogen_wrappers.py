"""AgentChat teams whose members wrap other agents, as AgentChat's documentation builds them: a
GraphFlow of `MessageFilterAgent`s (each member sees only the messages its filter lets through)
a `SocietyOfMindAgent` whose inner team drafts (with a tool) and reviews, and a team with such a team
as a member; their clients are the app's own
(an OpenAI client, as the documentation writes it), which masfuzz must replace everywhere."""

from autogen_agentchat.agents import (AssistantAgent, MessageFilterAgent, MessageFilterConfig,
                                      PerSourceFilter, SocietyOfMindAgent)
from autogen_agentchat.conditions import MaxMessageTermination, TextMentionTermination
from autogen_agentchat.teams import DiGraphBuilder, GraphFlow, RoundRobinGroupChat
from autogen_ext.models.openai import OpenAIChatCompletionClient

from masfuzz.llm.scripted import call, say, tool_results


def word_count(text: str) -> str:
    """Count the words of a text."""
    return f"{len(text.split())} words"


def _client():
    return OpenAIChatCompletionClient(model="gpt-4o-mini")


def filtered_flow():
    researcher = AssistantAgent("researcher", model_client=_client(),
                                system_message="Research the topic: list three facts.")
    writer = AssistantAgent("writer_core", model_client=_client(), tools=[word_count],
                            system_message="Write a paragraph from the researcher's facts.")
    writer = MessageFilterAgent("writer", wrapped_agent=writer, filter=MessageFilterConfig(
        per_source=[PerSourceFilter(source="researcher", position="last", count=1)]))
    builder = DiGraphBuilder()
    builder.add_node(researcher).add_node(writer).add_edge(researcher, writer)
    return GraphFlow(builder.get_participants(), graph=builder.build(),
                     termination_condition=MaxMessageTermination(6))


def society():
    drafter = AssistantAgent("drafter", model_client=_client(), tools=[word_count],
                             system_message="Draft an answer. Count its words first.")
    reviewer = AssistantAgent("reviewer", model_client=_client(),
                              system_message="Review the draft. Say APPROVE when it is good.")
    inner = RoundRobinGroupChat([drafter, reviewer], termination_condition=TextMentionTermination("APPROVE"))
    mind = SocietyOfMindAgent("society", team=inner, model_client=_client())
    editor = AssistantAgent("editor", model_client=_client(), system_message="Polish the answer. Then say DONE.")
    return RoundRobinGroupChat([mind, editor], termination_condition=TextMentionTermination("DONE", sources=["editor"]))


def team_of_teams():
    """A round robin whose first member is a team of its own that drafts and reviews."""
    drafter = AssistantAgent("drafter", model_client=_client(), tools=[word_count],
                             system_message="Draft an answer. Count its words first.")
    reviewer = AssistantAgent("reviewer", model_client=_client(),
                              system_message="Review the draft. Say APPROVE when it is good.")
    writers = RoundRobinGroupChat([drafter, reviewer], termination_condition=TextMentionTermination("APPROVE"),
                                  name="writers")
    editor = AssistantAgent("editor", model_client=_client(), system_message="Polish the answer. Then say DONE.")
    return RoundRobinGroupChat([writers, editor], termination_condition=TextMentionTermination("DONE", sources=["editor"]))


def policy(request):
    system = next((m.content or "" for m in request.messages if m.role == "system"), "")
    if "three facts" in system:
        return say("Fact 1: water evaporates. Fact 2: vapour condenses. Fact 3: rain falls.")
    if "paragraph" in system:
        if not tool_results(request, "word_count"):
            return call("word_count", text="Water evaporates, condenses and falls as rain.")
        return say("Water evaporates, condenses and falls as rain.")
    if "Draft" in system:
        if not tool_results(request, "word_count"):
            return call("word_count", text="the sky is blue because of Rayleigh scattering")
        return say("Draft: the sky is blue because of Rayleigh scattering.")
    if "Review" in system:
        return say("APPROVE")
    if "Polish" in system:
        return say("The sky is blue because air scatters blue light most. DONE")
    return say("Answer: the sky is blue because of Rayleigh scattering.")  # the society's response
