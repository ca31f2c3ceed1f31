"""AgentChat apps whose lead runs a team and an agent as tools in the ways the trace must still
place by call: both at once (the lead's model asks for them in one answer), the same team twice at
once (AgentChat refuses the second: its team is already running), through a workbench that does
not stream (`StaticWorkbench`), and a run whose agent's model fails; and a lead whose plain
function tool runs a team its factory built and the function closes over (no `TeamTool`). The app's clients are
OpenAI's: masfuzz replaces them; the scripted policy answers."""

from __future__ import annotations

from autogen_agentchat.agents import AssistantAgent
from autogen_agentchat.conditions import TextMentionTermination
from autogen_agentchat.teams import RoundRobinGroupChat
from autogen_agentchat.tools import AgentTool, TeamTool
from autogen_core.tools import StaticWorkbench
from autogen_ext.models.openai import OpenAIChatCompletionClient

from masfuzz.llm.scripted import call, say, tool_results


def search_notes(query: str) -> str:
    """Search the field notes."""
    return f"notes on {query}: tides follow the moon"


def lookup_source(claim: str) -> str:
    """Find the source of a claim."""
    return f"source for {claim!r}: Almanac 1998"


def _client(**settings):
    return OpenAIChatCompletionClient(model="gpt-4o-mini", **settings)


def _tools():
    researcher = AssistantAgent("researcher", model_client=_client(), tools=[search_notes],
                                system_message="Research: search the notes, then report.")
    summarizer = AssistantAgent("summarizer", model_client=_client(),
                                system_message="Summarize the research in one line. Say DONE.")
    research = RoundRobinGroupChat([researcher, summarizer], name="research_team",
                                   termination_condition=TextMentionTermination("DONE"))
    checker = AssistantAgent("fact_checker", model_client=_client(), tools=[lookup_source],
                             system_message="Check the claim: look up its source.",
                             description="checks a claim against its source")
    return [TeamTool(research, name="research", description="researches and summarizes"), AgentTool(checker)]


def _lead(**settings):
    return AssistantAgent("lead", model_client=_client(**settings), tools=_tools(), max_tool_iterations=3,
                          system_message="Lead: ask research and the fact checker, then answer.")


def team():
    return RoundRobinGroupChat([_lead()], max_turns=1)


def one_call_at_a_time():
    """The app asks its provider for one tool call per answer, as TeamTool's documentation says to."""
    return RoundRobinGroupChat([_lead(parallel_tool_calls=False)], max_turns=1)


def unstreamed():
    lead = AssistantAgent("lead", model_client=_client(), workbench=StaticWorkbench(_tools()),
                          max_tool_iterations=3, system_message="Lead: ask research and the fact checker, then answer.")
    return RoundRobinGroupChat([lead], max_turns=1)


def factory():
    """The team built here, captured by the tool's function: AgentChat never sees it as a team's."""
    archivist = AssistantAgent("archivist", model_client=_client(), system_message="Archive: answer from the archive.")
    archive = RoundRobinGroupChat([archivist], max_turns=1)

    async def ask_archive(question: str) -> str:
        """Ask the archive team a question."""
        result = await archive.run(task=question)
        return result.messages[-1].to_text()

    lead = AssistantAgent("lead", model_client=_client(), tools=[ask_archive], system_message="Lead: ask the archive.")
    return RoundRobinGroupChat([lead], max_turns=1)


def policy(request):
    system = next((m.content or "" for m in request.messages if m.role == "system"), "")
    task = next((m.content or "" for m in request.messages if m.role == "user"), "")
    if system.startswith("Lead: ask the archive"):
        return say("Tides follow the moon.") if tool_results(request) else call("ask_archive", question=task)
    if system.startswith("Lead"):
        if tool_results(request):
            return say("Tides follow the moon.")
        if "BOTH" in task:
            return [call("research", task="tides"), call("fact_checker", task="Tides follow the moon.")]
        if "TWICE" in task:
            return [call("research", task="tides"), call("research", task="waves")]
        return call("research", task=task)
    if system.startswith("Research"):
        if "FAIL" in task:
            raise RuntimeError("the research model is down")
        if not tool_results(request, "search_notes"):
            return call("search_notes", query="tides")
        return say("Report: tides follow the moon.")
    if system.startswith("Summarize"):
        return say("Tides follow the moon. DONE")
    if system.startswith("Archive"):  # what it was told so far: a run that saw an earlier run's shows it
        return say(f"archive answer after {sum(m.role == 'user' for m in request.messages)} question(s)")
    if system.startswith("Check"):
        if not tool_results(request, "lookup_source"):
            return call("lookup_source", claim="tides follow the moon")
        return say("Confirmed by the Almanac.")
    return say("ok")
