"""Agents SDK systems with the shapes the extractor must count right (not a test module).

Each is real SDK code; the policies below drive them through masfuzz's scripted provider.
"""

from __future__ import annotations

from agents import Agent, Runner, WebSearchTool, function_tool, handoff
from agents.mcp import MCPServerStdio

from masfuzz.llm.scripted import call, handoff as hand_to, say, tool_results


@function_tool
def lookup(topic: str) -> str:
    """Look a topic up."""
    return f"notes on {topic}"


@function_tool
def crash_tool(x: int) -> str:
    """Always fails."""
    raise ZeroDivisionError(f"cannot handle {x}")


@function_tool
async def delegate_inside(question: str) -> str:
    """Answers by running another agent from inside the tool."""
    result = await Runner.run(Agent(name="Hidden", instructions="hidden"), question)
    return str(result.final_output)


def only_on_weekdays(ctx, agent) -> bool:
    return True


def dynamic_instructions(ctx, agent) -> str:
    return "computed at run time"


# --- agent-as-tool: a manager calling two specialists as tools, one of them twice named ------
researcher = Agent(name="Researcher", instructions="Research.", tools=[lookup])
writer = Agent(name="Writer", instructions=dynamic_instructions)
manager = Agent(
    name="Manager",
    instructions="Coordinate.",
    tools=[
        researcher.as_tool(tool_name="research", tool_description="Research a topic."),
        writer.as_tool(tool_name="write", tool_description="Write text.",
                       is_enabled=only_on_weekdays),
        WebSearchTool(),
    ],
)

# --- human approval: an agent tool and, inside it, a function tool that need it -----------
@function_tool(needs_approval=True)
def archive(topic: str) -> str:
    """Archive a topic (a human approves each call)."""
    return f"{topic} archived"


archivist = Agent(name="Archivist", instructions="Archive.", tools=[archive])
curator = Agent(name="Curator", instructions="Curate.", tools=[
    archivist.as_tool(tool_name="file", tool_description="File a topic.", needs_approval=True)])

# --- two agents sharing one name; a Handoff placed among the tools; a shared tool name -----
helper_a = Agent(name="Helper", instructions="first helper", tools=[lookup])
helper_b = Agent(name="Helper", instructions="second helper", tools=[lookup, crash_tool])
files_agent = Agent(name="Files", instructions="Files.", tools=[handoff(helper_a)],
                    mcp_servers=[MCPServerStdio(name="files", params={"command": "true"})])
front = Agent(
    name="Front Desk",
    instructions="Route.",
    handoffs=[helper_a, handoff(helper_b, tool_name_override="to_second_helper"), files_agent],
    tools=[delegate_inside],
)


def build_front():
    """A zero-argument factory returning the entry agent."""
    return front


# --- policies --------------------------------------------------------------------------------
def manager_policy(request):
    """Manager asks the researcher (as a tool), who looks the topic up; then answers."""
    if request.agent == "researcher":
        if not tool_results(request, "lookup"):
            return call("lookup", topic="tides")
        return say("Tides follow the moon.")
    if request.agent == "manager":
        if not tool_results(request, "research"):
            return call("research", input="tides")
        return say("Report: " + tool_results(request, "research")[-1].content)
    return say("?")


def curator_policy(request):
    """The curator files the topic with the archivist (as a tool), who archives it; each then
    answers with what it got back."""
    if request.agent == "archivist":
        if not tool_results(request, "archive"):
            return call("archive", topic="tides")
        return say("Filed: " + tool_results(request, "archive")[-1].content)
    if not tool_results(request, "file"):
        return call("file", input="tides")
    return say("Done: " + tool_results(request, "file")[-1].content)


def helpers_policy(request):
    """Front desk hands to the *second* Helper, which calls the crashing tool, then answers."""
    if request.agent == "front_desk":
        return hand_to("helper#2")
    if request.agent == "helper#2":
        if not tool_results(request, "crash_tool"):
            return call("crash_tool", x=7)
        return say("The tool failed; sorry about that.")
    return say("first helper answering")


def looping_policy(request):
    """Never finishes: keeps looking things up."""
    return call("lookup", topic="again")
