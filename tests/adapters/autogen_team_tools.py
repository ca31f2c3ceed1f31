"""AgentChat apps whose agents run other agents as tools: a lead with a `TeamTool` over a round
robin of two agents with a tool each, and an `AgentTool` over a third agent with a tool of its
own. The clients are the app's own (OpenAI's): masfuzz replaces them; scripted policies answer."""

from __future__ import annotations

from autogen_agentchat.agents import AssistantAgent
from autogen_agentchat.conditions import TextMentionTermination
from autogen_agentchat.teams import RoundRobinGroupChat
from autogen_agentchat.tools import AgentTool, TeamTool
from autogen_ext.models.openai import OpenAIChatCompletionClient

from masfuzz.llm.scripted import call, say, tool_results


def search_notes(query: str) -> str:
    """Search the field notes."""
    return f"notes on {query}: tides follow the moon"


def count_words(text: str) -> str:
    """Count the words of a text."""
    return f"{len(text.split())} words"


def lookup_source(claim: str) -> str:
    """Find the source of a claim."""
    return f"source for {claim!r}: Almanac 1998"


def publish(text: str) -> str:
    """Publish the final answer (the lead's alone)."""
    return "published"


def _client():
    return OpenAIChatCompletionClient(model="gpt-4o-mini")


def agent_tools():
    """A `TeamTool` over the researcher and the summarizer, and an `AgentTool` over the fact checker."""
    researcher = AssistantAgent("researcher", model_client=_client(), tools=[search_notes],
                                system_message="Research: search the notes, then report.")
    summarizer = AssistantAgent("summarizer", model_client=_client(), tools=[count_words],
                                system_message="Summarize the research in one line. Count its words. Say DONE.")
    research = RoundRobinGroupChat([researcher, summarizer], name="research_team",
                                   termination_condition=TextMentionTermination("DONE"))
    checker = AssistantAgent("fact_checker", model_client=_client(), tools=[lookup_source],
                             system_message="Check the claim: look up its source.",
                             description="checks a claim against its source")
    return [TeamTool(research, name="research", description="researches and summarizes"), AgentTool(checker)]


def lead():
    return AssistantAgent(
        "lead", model_client=_client(), system_message="Lead: ask research, then the fact checker, then publish.",
        tools=[*agent_tools(), publish], max_tool_iterations=4)


def team():
    return RoundRobinGroupChat([lead()], max_turns=1)


def policy(request):
    system = next((m.content or "" for m in request.messages if m.role == "system"), "")
    said = " ".join(m.content or "" for m in request.messages)
    if system.startswith("Lead"):
        if not tool_results(request, "research"):
            task = next(m.content for m in request.messages if m.role == "user")
            return call("research", task=task)
        if not tool_results(request, "fact_checker"):
            return call("fact_checker", task="Tides follow the moon.")
        if not tool_results(request, "publish"):
            return call("publish", text="Tides follow the moon.")
        return say("Tides follow the moon.")
    if system.startswith("Research"):
        if "RESTRICTED" in said and not tool_results(request, "publish"):
            return call("publish", text="unchecked draft")  # the lead's tool, not the researcher's
        if not tool_results(request, "search_notes"):
            return call("search_notes", query="tides")
        return say("Report: tides follow the moon.")
    if system.startswith("Summarize"):
        if not tool_results(request, "count_words"):
            return call("count_words", text="tides follow the moon")
        return say("Tides follow the moon. DONE")
    if system.startswith("Check"):
        if not tool_results(request, "lookup_source"):
            return call("lookup_source", claim="tides follow the moon")
        return say("Confirmed by the Almanac.")
    return say("ok")


def other_policy(request):
    """Another model, given to one agent with `--agent-model`: it says so."""
    if not tool_results(request, "search_notes"):
        return call("search_notes", query="tides (other model)")
    return say("Report from the other model.")


def clash():
    """A member named as an agent the lead's team tool runs: two agents, one name."""
    researcher = AssistantAgent("researcher", model_client=_client(), system_message="Research on your own.")
    return RoundRobinGroupChat([lead(), researcher], max_turns=2)
