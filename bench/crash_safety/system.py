"""A generated workflow for the crash-safety bench: a coordinator over specialists that each
own a few tools, as a manifest, and a scripted model that does what a request asks.

Every agent and tool carries one word no other has, so the template tester's requests (written
from descriptions) name exactly one agent or tool, and the policy below acts on that word the way
an obedient model would.
"""

from __future__ import annotations

import yaml

WORDS = ["amber", "basalt", "cobalt", "dahlia", "ember", "fjord", "garnet", "harbor", "indigo",
         "juniper", "kelp", "lagoon", "marble", "nectar", "opal", "pepper", "quartz", "raven",
         "saffron", "tundra", "umber", "violet", "walnut", "xenon", "yarrow", "zephyr", "acorn",
         "birch", "cedar", "delta", "eagle", "falcon", "glacier", "heron", "iris", "jasper"]


def layout(specialists: int = 5, tools: int = 5) -> dict:
    words = iter(WORDS)
    agents = {f"agent_{i}": next(words) for i in range(specialists)}
    owned = {a: {f"tool_{i}_{j}": next(words) for j in range(tools)} for i, a in enumerate(agents)}
    return {"agents": agents, "tools": owned}


def manifest(shape: dict) -> str:
    agents = [{"id": "coordinator", "description": "Sends each request to the right specialist."}]
    agents += [{"id": a, "description": f"Handles {w} matters."} for a, w in shape["agents"].items()]
    tools, allow, delegations = [], [], []
    for a, owned in shape["tools"].items():
        delegations.append({"from": "coordinator", "to": a, "trigger": "handoff"})
        for t, w in owned.items():
            tools.append({"id": t, "description": f"Looks up {w} records.",
                          "parameters": {"type": "object", "properties": {"ref": {"type": "string"}}}})
            allow.append([a, t])
    doc = {"format_version": 1, "system": {"id": "crash_bench", "entry_agent": "coordinator"},
           "agents": agents, "tools": tools,
           "permissions": {"allow": allow, "restrict_mode": "closed_world"},
           "delegations": delegations}
    return yaml.safe_dump(doc, sort_keys=False)


POLICY = '''
from masfuzz.llm.scripted import call, handoff, last_user_text, say, tool_results

AGENTS = {agents!r}
TOOLS = {tool_words!r}


def policy(request):
    text = last_user_text(request).lower()
    offered = {{t.name: t for t in request.tools}}
    if tool_results(request):
        return say("Done.")
    me = request.agent
    own_word = AGENTS.get(me)
    # a tool whose word the request names, if this agent is offered it (its own, or a probe)
    for tool, word in TOOLS.items():
        mine = me != "coordinator" or not any(w in text for w in AGENTS.values())
        if word in text and tool in offered and mine:
            return call(tool, ref="R1")
    if me == "coordinator":
        for agent, word in AGENTS.items():  # the agent the request is about...
            if word in text:
                return handoff(agent)
        for tool, word in TOOLS.items():  # ...else the owner of the tool it needs
            if word in text:
                return handoff(OWNER[tool])
    return say("Nothing for me to do." if own_word is None else "Done.")


OWNER = {owner!r}
'''


def policy_source(shape: dict) -> str:
    tool_words = {t: w for owned in shape["tools"].values() for t, w in owned.items()}
    owner = {t: a for a, owned in shape["tools"].items() for t in owned}
    return POLICY.format(agents=shape["agents"], tool_words=tool_words, owner=owner)
