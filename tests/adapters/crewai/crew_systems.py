"""Small CrewAI crews for the adapter's tests (tests/adapters/crewai/test_crewai.py), and the
scripted policy that answers their agents from what CrewAI gives each one."""

from __future__ import annotations

import json

from crewai import Agent, Crew, Process, Task
from crewai.project import CrewBase, agent, crew, task
from crewai.tools import BaseTool, tool
from pydantic import BaseModel, Field

from masfuzz.llm.scripted import call, handoff, offered, say, tool_results
from masfuzz.llm.types import ChatRequest


@tool("Count words")
def count_words(text: str) -> int:
    """How many words a text has."""
    return len(text.split())


class LookupArgs(BaseModel):
    term: str = Field(description="the term to look up")


class Glossary(BaseTool):
    name: str = "Glossary lookup"
    description: str = "The definition of a term."
    args_schema: type[BaseModel] = LookupArgs

    def _run(self, term: str) -> str:
        return {"crew": "a team of agents"}.get(term.lower(), f"no entry for {term}")


def _agents():
    counter = Agent(role="Counter", goal="Count words", backstory="Precise.", tools=[count_words],
                    llm="gpt-4o-mini")
    definer = Agent(role="Definer", goal="Define terms", backstory="Knows words.",
                    tools=[Glossary()], llm="gpt-4o-mini", allow_delegation=True)
    writer = Agent(role="Writer", goal="Write the answer", backstory="Clear.", llm="gpt-4o-mini")
    return counter, definer, writer


def sequential() -> Crew:
    counter, definer, writer = _agents()
    count = Task(description="Count the words of: {text}", expected_output="a number",
                 agent=counter, name="count")
    define = Task(description="Define the word crew for: {text}", expected_output="a definition",
                  agent=definer, name="define")
    write = Task(description="Answer about: {text}", expected_output="an answer", agent=writer,
                 context=[count, define], name="write")
    return Crew(agents=[counter, definer, writer], tasks=[count, define, write],
                process=Process.sequential)


def hierarchical() -> Crew:
    counter, definer, writer = _agents()
    tasks = [Task(description="Count the words of: {text}", expected_output="a number", name="count"),
             Task(description="Answer about: {text}", expected_output="an answer", name="write")]
    return Crew(agents=[counter, definer, writer], tasks=tasks, process=Process.hierarchical,
                manager_llm="gpt-4o-mini")


def policy(request: ChatRequest):
    """The counter counts; the definer calls the probe of count_words when offered it, delegates
    to the writer when the input asks for it, and looks the word up; the manager delegates a
    counting task to the counter and the rest to the writer; each then says who it is and the
    last tool result it heard."""
    agent = request.agent or ""
    task = next((m.content or "" for m in request.messages if m.role == "user"), "")
    done = tool_results(request)
    if agent == "counter" and not done:
        return call("count_words", text=task.split("Count the words of: ", 1)[-1].split("\n")[0])
    if agent == "definer" and not done:
        if "delegate" in task and offered(request, "delegate_work_to_writer"):
            return handoff("writer")  # CrewAI is given the task and the writer's role
        if offered(request, "count_words"):  # the probe of a tool it does not have
            return call("count_words", text="a b")
    if agent == "definer" and not tool_results(request, "glossary_lookup"):
        return call("glossary_lookup", term="crew")
    if agent == "crew_manager" and not done:
        return call("delegate_work_to_counter" if "Count" in task else "delegate_work_to_writer",
                    task=task[:80], context="")
    heard = done[-1].content if done else ""
    return say(f"I am {agent}: {heard}".strip())


@CrewBase
class Project:
    """A CrewAI project as `crewai create` lays it out (agents and tasks by decorated methods,
    the crew by its `@crew` method), its configuration in code rather than YAML."""

    @agent
    def counter(self) -> Agent:
        return _agents()[0]

    @task
    def count(self) -> Task:
        return Task(description="Count the words of: {text}", expected_output="a number",
                    agent=self.counter())

    @crew
    def team(self) -> Crew:
        return Crew(agents=self.agents, tasks=self.tasks, process=Process.sequential)


class Answer(BaseModel):
    text: str


def converted() -> Crew:
    """One task whose answer CrewAI converts into JSON (`output_json`): a second model call."""
    writer = _agents()[2]
    return Crew(agents=[writer], tasks=[Task(description="Answer about: {text}", expected_output="an answer",
                                             agent=writer, output_json=Answer)])


def converting(request: ChatRequest):
    """The writer's answer in text (as a model without structured output gives it), and its
    JSON when CrewAI's converter asks for it."""
    system = " ".join(m.content or "" for m in request.messages if m.role == "system")
    if "You are Writer" in system:
        return say("the crew is a team")
    return say(json.dumps({"text": request.messages[-1].content or ""}))  # the converter's call
