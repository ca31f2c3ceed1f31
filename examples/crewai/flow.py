"""A CrewAI Flow around the trip crew's agents: a start, a router, listeners, `or_`.

`research` kicks off a one-task crew of the researcher (made inside the method, as flows do);
the router `weather` sends a rainy forecast to `indoor_day` and any other to `outdoor_day`;
`outdoor_day` runs the planner agent itself (`Agent.kickoff`), `indoor_day` an agent it makes
at run time; `edit` listens to either (`or_`) and kicks off the editor's crew, which a helper
function makes.

    masfuzz inspect examples/crewai/flow.py:TripFlow
    masfuzz exec examples/crewai/flow.py:TripFlow --input "Oslo" \\
        --sut-model scripted/examples/crewai/policy.py:policy
"""

from __future__ import annotations

from crewai import Agent, Crew, Task
from crewai.flow.flow import Flow, listen, or_, router, start
from pydantic import BaseModel

from examples.crewai.crew import MODEL, editor, planner, researcher


class TripState(BaseModel):
    city: str = ""  # the caller's input
    forecast: str = ""
    plan: str = ""


class TripFlow(Flow[TripState]):
    @start()
    def research(self):
        task = Task(description=f"Find today's weather in {self.state.city}.",
                    expected_output="the forecast", agent=researcher)
        self.state.forecast = Crew(agents=[researcher], tasks=[task]).kickoff().raw

    @router(research)
    def weather(self):
        return "indoor" if "rain" in self.state.forecast.lower() else "outdoor"

    @listen("outdoor")
    def outdoor_day(self):
        self.state.plan = planner.kickoff(
            f"Plan a day in {self.state.city} outdoors. Forecast: {self.state.forecast}").raw

    @listen("indoor")
    def indoor_day(self):
        indoors = Agent(role="Planner", goal="Plan a day indoors", llm=MODEL,
                        backstory="You plan museum and cafe days.")
        self.state.plan = indoors.kickoff(
            f"Plan a day in {self.state.city} indoors. Forecast: {self.state.forecast}").raw

    @listen(or_(outdoor_day, indoor_day))
    def edit(self):
        return editing(self.state).kickoff().raw


def editing(state: TripState) -> Crew:
    """The editor's crew, made by a helper the method calls."""
    task = Task(description=f"Edit the plan for {state.city} into its final form: {state.plan}\n"
                            f"Forecast: {state.forecast}",
                expected_output="the final plan, naming the weather", agent=editor)
    return Crew(agents=[editor], tasks=[task])
