"""Scripted models for the PydanticAI adapter's test systems (pai_systems.py, pai_handoff.py,
pai_desk_factory.py)."""

from __future__ import annotations

from masfuzz.llm.scripted import call, say, tool_results


def policy(request):
    """Each agent says who it is (a probe per agent), after calling its tools the task names."""
    task = next((m.content or "" for m in request.messages if m.role == "user"), "")
    if request.agent == "lead":
        if "write" in task and not tool_results(request, "write"):
            return call("write", topic="fail" if "fail" in task else "owls")
        if "review" in task and not tool_results(request, "review"):
            return call("review", text="a draft", which=1)
        if "archive" in task and not tool_results(request, "archive"):
            return call("archive", text="a draft")
        if "translate" in task and not tool_results(request, "translate"):
            return call("translate", text="a draft")
        return say("lead: " + " | ".join(r.content for r in tool_results(request)))
    if request.agent == "writer":
        if "fail" in task and not tool_results(request, "fail_always"):
            return call("fail_always", reason="asked to")
        return say('{"title": "writer", "words": 3}')
    return say(f"{request.agent} here")


def handoff_policy(request):
    """The programmatic hand-off of pai_handoff.py: a typed flight, then a seat."""
    if request.agent == "search":
        return say('{"flight_number": "AK456"}')
    return say("seat 1A on " + (request.messages[-1].content or "").split()[-1])


def graph_policy(request):
    """pai_graph.py's agents: each reacts to the text it is given, so a wrong prompt shows."""
    text = next((m.content or "" for m in reversed(request.messages) if m.role == "user"), "")
    if request.agent == "classifier":
        return say("refuse" if "refuse" in text else "draft")
    if request.agent == "writer":
        if not tool_results(request, "lookup"):
            return call("lookup", topic=text)
        return say(f"draft of {text}: " + tool_results(request, "lookup")[0].content)
    return say("REDO" if "forever" in text else "OK")


def persistent_policy(request):
    """The lead calls `write` again after every failure, as a model may on a retry prompt."""
    if request.agent == "lead":
        done = [r for r in tool_results(request, "write") if "failed" not in (r.content or "")]
        return say("lead: " + done[0].content) if done else call("write", topic="owls")
    return say(f"{request.agent} here")


def desk_policy(request):
    """pai_desk_factory.py: the concierge asks the loans desk and passes its answer on."""
    if request.agent == "concierge":
        done = tool_results(request, "ask_loans")
        return say("concierge: " + done[0].content) if done else call("ask_loans", question="renew LB-1")
    return say(f"{request.agent}: done")
