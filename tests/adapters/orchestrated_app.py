"""A research app that orchestrates three Agents SDK agents in plain Python (not a test module).

`ResearchManager.run` calls the planner, then the searcher once per planned query, then the
writer, each with `Runner.run`: no agent hands off to another, so the objects hold no graph and
masfuzz needs `file.py:planner,searcher,writer` (a coordinator) or `--link` to see one. The
writer keeps a handoff of its own to an editor, which the coordinator must leave intact.
"""

from __future__ import annotations

from agents import Agent, Runner, function_tool

from masfuzz.llm.scripted import call, handoff, say, tool_results


@function_tool
def web_search(query: str) -> str:
    """Search the web for a query."""
    return f"three sources about {query}"


planner = Agent(name="Planner", instructions="Plan a few web searches for the user's question.",
                handoff_description="Turns a question into a list of searches.")
searcher = Agent(name="Searcher", instructions="Search the web and summarise what you find.",
                 tools=[web_search])
editor = Agent(name="Editor", instructions="Polish a draft report.")
writer = Agent(name="Writer", instructions="Write a short report from search summaries.",
               handoffs=[editor])


class ResearchManager:
    """The plain-Python orchestration the objects above do not show."""

    async def run(self, question: str) -> str:
        plan = await Runner.run(planner, question)
        notes = [await Runner.run(searcher, q) for q in str(plan.final_output).splitlines() if q]
        report = await Runner.run(writer, "\n".join(str(n.final_output) for n in notes))
        return str(report.final_output)


team = ResearchManager()
not_an_agent = web_search


def policy(request):
    """The coordinator sends search questions to the searcher, which searches once and answers;
    the planner, when linked to the searcher, hands the plan over."""
    if request.agent == "coordinator":
        return handoff("Searcher")
    if request.agent == "planner":
        return handoff("Searcher")
    if request.agent == "searcher":
        if not tool_results(request, "web_search"):
            return call("web_search", query="tides")
        return say("Summary: " + tool_results(request, "web_search")[-1].content)
    return say(f"{request.agent} answering")
