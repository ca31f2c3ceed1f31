"""A scripted model for the CrewAI trip crew (`request.agent` is the agent asking).

It reads what CrewAI gives each agent: the researcher calls its weather tool for the city in its
task and reports the result (or says the tool failed); the planner asks the researcher a
question when its context has no forecast (`ask_question_to_researcher`: masfuzz shows CrewAI's
delegation tools one per coworker), else plans around it; the editor names the weather its
context carries. CrewAI's manager delegates each task to the agent whose role fits it.

    masfuzz exec examples/crewai/crew.py:crew --input "Lisbon" \\
        --sut-model scripted/examples/crewai/policy.py:policy
"""

from __future__ import annotations

import re

from masfuzz.llm.scripted import call, last_user_text, offered, say, tool_results
from masfuzz.llm.types import ChatRequest

TOOL = "city_weather"


def policy(request: ChatRequest):
    agent = request.agent or ""
    return {"researcher": researcher, "planner": planner, "editor": editor,
            "crew_manager": manager}.get(agent, editor)(request)


def _task(request: ChatRequest) -> str:
    first = next((m.content or "" for m in request.messages if m.role == "user"), "")
    found = re.search(r"Current Task: (.*)", first)
    return found.group(1) if found else first


def _city(text: str) -> str | None:
    found = re.search(r"(?:weather in|day in|plan for) ([A-Z][a-z]+)", text)
    return found.group(1) if found else None


def researcher(request: ChatRequest):
    results = tool_results(request, TOOL)
    if results:
        content = results[-1].content or ""
        if "Error" in content or not content.strip():
            return say(f"The weather tool failed: {content[:80]}")
        return say(f"Forecast: {content}")
    city = _city(_task(request)) or _city(last_user_text(request))
    if city is None:
        return say("Which city?")
    if offered(request, TOOL):
        return call(TOOL, city=city)
    return say(f"I cannot look up {city}'s weather.")


def _forecast(request: ChatRequest) -> str | None:
    text = "\n".join(m.content or "" for m in request.messages if m.role in ("user", "tool"))
    found = re.search(r"[A-Z][a-z]+: (sunny|rain|hot)[^\n]*", text)
    return found.group(0) if found else None


def planner(request: ChatRequest):
    forecast = _forecast(request)
    if forecast is None and not tool_results(request) and offered(request, "ask_question_to_researcher"):
        return call("ask_question_to_researcher", question="What is the weather?",
                    context=_task(request))
    return say(f"Morning walk, afternoon museum, evening dinner ({forecast or 'weather unknown'}).")


def editor(request: ChatRequest):
    forecast = _forecast(request)
    return say(f"Final plan: {forecast or 'no forecast'}; morning walk, afternoon museum.")


def manager(request: ChatRequest):
    task = _task(request)
    if tool_results(request):
        return say(tool_results(request)[-1].content or "")
    coworker = "editor" if "Edit the plan" in task else "planner" if "Plan a day" in task else "researcher"
    return call(f"delegate_work_to_{coworker}", task=task, context=last_user_text(request))
