"""Scripted model for the AG2 group chat: the speaker selector follows planner -> user (runs the
tool) -> planner -> writer -> critic; each agent answers in its role."""

from masfuzz.llm.scripted import call, say, tool_results

ORDER = {"user": "planner", "writer": "critic", "critic": "writer"}


def _last_speaker(request):
    for m in reversed(request.messages):
        if m.name:
            return m.name
    return "user"


def policy(request):
    text = "\n".join(m.content or "" for m in request.messages)
    if request.agent == "selector":
        if "Writer:" in text or "Note:" in text:
            return say("critic")
        if "330 m" in text:
            return say("writer")
        if "lookup_fact" in text and "TOOL_CALL" in text:
            return say("user")
        return say("planner")
    agent = (request.agent or "").lower()
    if agent == "planner":
        if not tool_results(request, "lookup_fact"):
            return call("lookup_fact", topic="Eiffel Tower")
        return say("Facts found: " + tool_results(request, "lookup_fact")[-1].content)
    if agent == "writer":
        return say("Note: the Eiffel Tower is 330 m tall and was finished in 1889.")
    if agent == "critic":
        return say("Good note. TERMINATE")
    return say("OK")
