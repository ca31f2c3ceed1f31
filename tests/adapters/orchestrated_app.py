"""A research app that orchestrates three Agents SDK agents in plain Python (not a test module).

`ResearchManager.run` calls the planner, then the searcher once per planned query, then the
writer, each with `Runner.run`: no agent hands off to another, so the objects hold no graph and
masfuzz needs `file.py:planner,searcher,writer` (a coordinator) or `--link` to see one. The
writer keeps a handoff of its own to an editor, which the coordinator must leave intact.
"""

from __future__ import annotations

from agents import Agent, Runner, function_tool

from masfuzz.llm.scripted import call, handoff, last_user_text, offered, say, tool_results


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
    """A well-behaved model for the orchestrated graph: the coordinator routes by the words of
    the request; the planner, when linked to the searcher, hands the plan over; the searcher
    searches once and summarises; the writer passes a draft to its editor when asked to polish."""
    text = last_user_text(request).lower()
    if request.agent == "coordinator":
        for word, specialist in (("polish", "Writer"), ("plan", "Planner"),
                                 ("list of searches", "Planner"), ("report", "Writer"),
                                 ("search", "Searcher")):
            if word in text:
                return handoff(specialist)
        return say("Which specialist do you need?")
    if request.agent == "planner":
        if offered(request, "transfer_to_searcher"):
            return handoff("Searcher")
        return say("1. tides\n2. moon")
    if request.agent == "searcher":
        if not tool_results(request, "web_search"):
            return call("web_search", query="tides")
        return say("Summary: " + tool_results(request, "web_search")[-1].content)
    if request.agent == "writer" and "polish" in text:
        return handoff("Editor")
    return say(f"{request.agent} answering")
