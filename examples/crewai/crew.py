"""A small trip-planning crew in CrewAI: sequential tasks, a task's context, a tool, delegation.

The researcher looks up a city's weather with its tool; the planner, given the research as its
task's context, writes a day plan and may ask the researcher a question or delegate work to it
("Ask question to coworker", "Delegate work to coworker": it allows delegation); the editor,
given both earlier tasks as context, writes the final plan. `hierarchical` is the same agents
run by CrewAI's manager.

    masfuzz inspect examples/crewai/crew.py:crew
    masfuzz exec examples/crewai/crew.py:crew --input "Lisbon" \\
        --sut-model scripted/examples/crewai/policy.py:policy
"""

from __future__ import annotations

from crewai import Agent, Crew, Process, Task
from crewai.tools import tool

MODEL = "gpt-4o-mini"  # what the app runs with; masfuzz puts its own model in its place

FORECASTS = {"lisbon": "sunny, 24 C", "oslo": "rain, 9 C", "cairo": "hot, 35 C"}


@tool("City weather")
def city_weather(city: str) -> str:
    """Today's weather forecast for a city."""
    forecast = FORECASTS.get(city.strip().lower())
    if forecast is None:
        raise ValueError(f"no forecast for {city!r}")
    return f"{city.strip().title()}: {forecast}"


researcher = Agent(role="Researcher", goal="Find the facts a trip to {city} needs",
                   backstory="You check the weather before anything else.",
                   tools=[city_weather], llm=MODEL, allow_delegation=False)
planner = Agent(role="Planner", goal="Plan a day in {city}",
                backstory="You plan days around the weather.", llm=MODEL, allow_delegation=True)
editor = Agent(role="Editor", goal="Write the final day plan",
               backstory="You keep plans short and name the weather.", llm=MODEL)

research = Task(description="Find today's weather in {city}.", expected_output="the forecast",
                agent=researcher, name="research")
plan = Task(description="Plan a day in {city} suited to the weather.",
            expected_output="a plan of morning, afternoon and evening", agent=planner,
            context=[research], name="plan")
edit = Task(description="Edit the plan for {city} into its final form.",
            expected_output="the final plan, naming the weather", agent=editor,
            context=[research, plan], name="edit")

crew = Crew(agents=[researcher, planner, editor], tasks=[research, plan, edit],
            process=Process.sequential)


def hierarchical() -> Crew:
    """The same agents and tasks under CrewAI's manager (made from `manager_llm` at kickoff)."""
    tasks = [Task(description=t.description, expected_output=t.expected_output, name=t.name)
             for t in (research, plan, edit)]
    return Crew(agents=[researcher, planner, editor], tasks=tasks, process=Process.hierarchical,
                manager_llm=MODEL)
