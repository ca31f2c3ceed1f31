"""A scripted model for the research graph (`request.agent` is the LangGraph node asking).

The planner lists steps; the researcher searches, reads the best page and reports; the writer
answers from the findings, or asks for more research when the library has nothing on the
question, which loops until the recursion limit.

    masfuzz exec examples/research_graph/graph.py:graph --input "How does the water cycle work?" \
        --sut-model scripted/examples/research_graph/policy.py:policy
"""

from __future__ import annotations

import json

from masfuzz.llm.scripted import call, say, tool_results
from masfuzz.llm.types import ChatRequest


def question(request: ChatRequest) -> str:
    return next((m.content or "" for m in request.messages if m.role == "user"), "")


def policy(request: ChatRequest):
    if request.agent == "planner":
        return say(f"1. Search the library for: {question(request)}\n2. Read the best page.\n3. Summarise.")
    if request.agent == "researcher":
        return researcher(request)
    if request.agent == "writer":
        return writer(request)
    return say("")


def researcher(request: ChatRequest):
    last = request.messages[-1]
    if last.role == "tool" and last.name == "fetch_page":
        return say(f"Findings: {last.content}")
    if last.role == "tool" and last.name == "web_search":
        hits = json.loads(last.content or "[]") if not (last.content or "").startswith("Error") else []
        if hits:
            return call("fetch_page", url=hits[0]["url"])
        return say("Findings: nothing in the library.")
    return call("web_search", query=question(request))


def writer(request: ChatRequest):
    findings = [m.content or "" for m in request.messages if m.role == "assistant" and (m.content or "").startswith("Findings")]
    latest = findings[-1] if findings else ""
    if not latest or "nothing in the library" in latest:
        return say(f"NEED MORE RESEARCH: no source covers '{question(request)}'.")
    return say("Answer: " + latest.removeprefix("Findings: "))
