"""AgentChat teams whose members wrap other agents, as AgentChat's documentation builds them: a
GraphFlow of `MessageFilterAgent`s (each member sees only the messages its filter lets through)
a `SocietyOfMindAgent` whose inner team drafts (with a tool) and reviews, and a team with such a team
as a member; their clients are the app's own
(an OpenAI client, as the documentation writes it), which masfuzz must replace everywhere."""

from autogen_agentchat.agents import (AssistantAgent, MessageFilterAgent, MessageFilterConfig,
                                      PerSourceFilter, SocietyOfMindAgent)
from autogen_agentchat.conditions import MaxMessageTermination, TextMentionTermination
from autogen_agentchat.teams import DiGraphBuilder, GraphFlow, RoundRobinGroupChat, SelectorGroupChat
from autogen_agentchat.tools import AgentTool, TeamTool
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


def _writers(team=RoundRobinGroupChat, **settings):
    drafter = AssistantAgent("drafter", model_client=_client(), tools=[word_count],
                             system_message="Draft an answer. Count its words first.")
    reviewer = AssistantAgent("reviewer", model_client=_client(),
                              system_message="Review the draft. Say APPROVE when it is good.")
    return team([drafter, reviewer], termination_condition=TextMentionTermination("APPROVE"),
                name="writers", **settings)


def selector_society():
    """A selector team whose member is a society of mind over a selector team that drafts and
    reviews (each selector's model picks: the society first, then the editor; inside, the
    drafter, then the reviewer)."""
    writers = _writers(SelectorGroupChat, model_client=_client(), allow_repeated_speaker=False)
    mind = SocietyOfMindAgent("society", team=writers, model_client=_client())
    editor = AssistantAgent("editor", model_client=_client(), system_message="Polish the answer. Then say DONE.")
    return SelectorGroupChat([mind, editor], model_client=_client(), allow_repeated_speaker=False,
                             termination_condition=TextMentionTermination("DONE", sources=["editor"]))


def tools_of_teams():
    """An agent that runs the drafting team as a tool (`TeamTool`) and a society of mind over
    another as a second (`AgentTool`), then answers."""
    inner = RoundRobinGroupChat([AssistantAgent("checker", model_client=_client(),
                                                system_message="Check the facts. Say APPROVE.")],
                                termination_condition=TextMentionTermination("APPROVE"))
    checkers = SocietyOfMindAgent("checkers", team=inner, model_client=_client())
    lead = AssistantAgent("lead", model_client=_client(), system_message="Delegate: ask the writers, then the checkers.",
                          tools=[TeamTool(_writers(), name="writers", description="drafts and reviews"),
                                 AgentTool(checkers)],
                          reflect_on_tool_use=True, max_tool_iterations=3)
    return RoundRobinGroupChat([lead], max_turns=1)


def policy(request):
    system = next((m.content or "" for m in request.messages if m.role == "system"), "")
    if request.agent == "selector":  # outside the society first, then the editor; inside the drafter, then the reviewer
        said = " ".join(m.content or "" for m in request.messages)
        if "'drafter'" in said:
            return say("reviewer" if "Draft:" in said or "words" in said else "drafter")
        return say("editor" if "Rayleigh" in said else "society")
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
    if "Delegate" in system:
        if not tool_results(request, "writers"):
            return call("writers", task="Why is the sky blue?")
        if not tool_results(request, "checkers"):
            return call("checkers", task="Check: Rayleigh scattering.")
        return say("The sky is blue because of Rayleigh scattering.")
    if "Check the facts" in system:
        return say("APPROVE")
    if "Polish" in system:
        return say("The sky is blue because air scatters blue light most. DONE")
    return say("Answer: the sky is blue because of Rayleigh scattering.")  # the society's response
