"""Systems and scripted models for tests/mutate/test_rewiring.py: delegations a mutant drops or
sends elsewhere, with models that delegate only through what they are offered (as a real model
does), so a rewired run shows in its trace instead of stopping at a refused handoff.

- `desk_swarm`: an AgentChat Swarm, triage -> billing -> shipping -> the user, played by
  `relay` (each agent hands off to the first agent its handoff tools offer, else to the user);
- `prebuilt`: LangGraph's prebuilt supervisor and swarm (tests/adapters/langgraph_prebuilt.py)
  played as its own policy does, except that a handoff not offered is not asked for: the
  supervisor, or Alice, answers itself instead.
"""

from __future__ import annotations

from masfuzz.llm.scripted import handoff, say, tool_results
from masfuzz.llm.types import ChatRequest

RELAY = "scripted/tests/mutate/rewiring.py:relay"
PREBUILT = "scripted/tests/mutate/rewiring.py:prebuilt"


def desk_swarm():
    from autogen_agentchat.agents import AssistantAgent
    from autogen_agentchat.conditions import HandoffTermination, MaxMessageTermination
    from autogen_agentchat.teams import Swarm

    from masfuzz.adapters.autogen.bridge import MasfuzzChatCompletionClient

    def agent(name: str, *handoffs: str) -> AssistantAgent:
        return AssistantAgent(name, model_client=MasfuzzChatCompletionClient(RELAY),
                              handoffs=list(handoffs), system_message=f"You are the {name} desk.")

    return Swarm([agent("triage", "billing", "user"), agent("billing", "shipping"),
                  agent("shipping", "user")],
                 termination_condition=HandoffTermination("user") | MaxMessageTermination(12))


def _handoffs(request: ChatRequest) -> list[str]:
    return [t.handoff_to for t in request.tools if t.handoff_to]


def relay(request: ChatRequest):
    offered = _handoffs(request)
    agents = [a for a in offered if a != "user"]
    if agents:
        return handoff(agents[0])
    if "user" in offered:
        return handoff("user")
    return say(f"{request.agent} can pass this to no one.")


def prebuilt(request: ChatRequest):
    from tests.adapters.langgraph_prebuilt import policy

    offered = [t.name for t in request.tools]
    if request.agent == "supervisor" and not tool_results(request, "transfer_back_to_supervisor") \
            and "transfer_to_math_expert" not in offered:
        return say("FINAL: the supervisor answers alone")
    if request.agent == "Alice" and tool_results(request, "add") and "transfer_to_bob" not in offered:
        return say("Alice: the sum is " + tool_results(request, "add")[-1].content)
    return policy(request)
