"""Scripted model for fixtures_agentchat/research.ipynb: the researcher searches once and
passes on what the search said; the writer reports it."""

from masfuzz.llm.scripted import call, say, tool_results


def policy(request):
    if request.agent == "researcher":
        found = tool_results(request, "web_search")
        if not found:
            return call("web_search", query="American Airlines")
        return say(f"Research: {found[-1].content}")
    return say("Report written from the research. TERMINATE")
