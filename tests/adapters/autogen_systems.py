"""Small AgentChat teams and scripted policies for the adapter tests (Swarm, GraphFlow, probes)."""

from __future__ import annotations

from autogen_agentchat.agents import AssistantAgent
from autogen_agentchat.conditions import HandoffTermination, MaxMessageTermination, TextMentionTermination
from autogen_agentchat.teams import DiGraphBuilder, GraphFlow, Swarm

from masfuzz.adapters.autogen.bridge import MasfuzzChatCompletionClient
from masfuzz.llm.scripted import call, handoff, say, tool_results

def lookup_order(order_id: str) -> str:
    """Look up an order's status."""
    return f"order {order_id}: shipped"


def refund(order_id: str) -> str:
    """Refund an order."""
    return f"order {order_id}: refunded"


def _client():
    return MasfuzzChatCompletionClient("scripted/tests/adapters/autogen_systems.py:swarm_policy")


def swarm_team():
    triage = AssistantAgent("triage", model_client=_client(), handoffs=["billing", "user"],
                            system_message="Route the customer.")
    billing = AssistantAgent("billing", model_client=_client(), tools=[lookup_order, refund],
                             handoffs=["triage"], system_message="Handle refunds.")
    return Swarm([triage, billing], termination_condition=HandoffTermination("user") | MaxMessageTermination(8))


def magentic_team():
    """A kind of team masfuzz cannot rebuild with its own members (refused at load)."""
    from autogen_agentchat.teams import MagenticOneGroupChat

    coder = AssistantAgent("coder", model_client=_client(), system_message="Write code.")
    return MagenticOneGroupChat([coder], model_client=_client())


def swarm_policy(request):
    if request.agent == "triage":
        return handoff("billing")
    if not tool_results(request, "lookup_order"):
        return call("lookup_order", order_id="A1")
    if not tool_results(request, "refund"):
        return call("refund", order_id="A1")
    return handoff("triage") if request.messages[-1].role == "tool" else say("done")


def graph_team():
    a = AssistantAgent("drafter", model_client=_client())
    b = AssistantAgent("reviewer", model_client=_client())
    c = AssistantAgent("publisher", model_client=_client())
    builder = DiGraphBuilder()
    builder.add_node(a).add_node(b).add_node(c)
    builder.add_edge(a, b)
    builder.add_edge(b, c, condition="APPROVE")
    builder.add_edge(b, a, condition="REVISE")
    builder.set_entry_point(a)
    return GraphFlow([a, b, c], graph=builder.build(),
                     termination_condition=TextMentionTermination("PUBLISHED") | MaxMessageTermination(10))


def graph_policy(request):
    return {"drafter": "draft v1", "reviewer": "APPROVE", "publisher": "PUBLISHED"}[request.agent]


def probe_policy(request):
    """The video team's policy, except that the voice actor reaches for the director's tool."""
    if request.agent == "voice_actor" and request.messages[-1].role != "tool":
        return call("render_video", audio_path="x.wav", image_path="y.svg", title="t")
    from video_team.policy import policy  # importable once the video team target is loaded

    return policy(request)


def coder_team():
    """A coder writes code, a `CodeExecutorAgent` runs it; the code creates $CODER_MARKER."""
    import tempfile

    from autogen_agentchat.agents import CodeExecutorAgent
    from autogen_agentchat.teams import RoundRobinGroupChat
    from autogen_ext.code_executors.local import LocalCommandLineCodeExecutor

    coder = AssistantAgent("coder", model_client=_client(), system_message="You write Python code.")
    runner = CodeExecutorAgent("runner", code_executor=LocalCommandLineCodeExecutor(work_dir=tempfile.mkdtemp()))
    return RoundRobinGroupChat([coder, runner], max_turns=2)


def coder_policy(request):
    import os

    marker = os.environ["CODER_MARKER"]
    return say(f"```python\nopen({marker!r}, 'w').write('ran')\nprint('written')\n```")


SLOW = "scripted/tests/adapters/autogen_systems.py:slow_policy"
SLOW_LOG = "MASFUZZ_SLOW_LOG"


def relay_team():
    """Two agents taking turns until eight messages: a run long enough to be cut off."""
    from autogen_agentchat.teams import RoundRobinGroupChat

    first = AssistantAgent("first", model_client=MasfuzzChatCompletionClient(SLOW))
    second = AssistantAgent("second", model_client=MasfuzzChatCompletionClient(SLOW))
    return RoundRobinGroupChat([first, second], termination_condition=MaxMessageTermination(8))


async def slow_policy(request):
    """Answers after 100 ms (an awaited wait, as a hosted model's round trip), and appends the
    asking agent to the file $MASFUZZ_SLOW_LOG names: the calls seen from the model's side."""
    import asyncio
    import os

    path = os.environ.get(SLOW_LOG)
    if path:
        with open(path, "a", encoding="utf-8") as f:
            f.write(f"{request.agent}\n")
    await asyncio.sleep(0.1)
    return say(f"{request.agent} passes it on.")


def approval_team():
    """The AgentChat docs' selector-group-chat shape: a writer and a UserProxyAgent that asks the
    human at the terminal (its default input function) for approval."""
    from autogen_agentchat.agents import UserProxyAgent
    from autogen_agentchat.teams import RoundRobinGroupChat

    writer = AssistantAgent("writer", model_client=_client(), system_message="Draft, then ask for approval.")
    user = UserProxyAgent("user", description="Approves or disapproves the draft.")
    return RoundRobinGroupChat([writer, user], termination_condition=TextMentionTermination("APPROVE")
                               | MaxMessageTermination(4))


def endless_team():
    """Two agents taking turns with no turn or message limit: the team ends only when one says
    TERMINATE, which a model that answers anything else never does (the AgentChat docs'
    travel-planning team under a probe model)."""
    from autogen_agentchat.teams import RoundRobinGroupChat

    first = AssistantAgent("first", model_client=_client(), system_message="Plan, then say TERMINATE.")
    second = AssistantAgent("second", model_client=_client(), system_message="Check the plan.")
    return RoundRobinGroupChat([first, second], termination_condition=TextMentionTermination("TERMINATE"))


def approval_selector_team():
    """The AgentChat docs' last selector-group-chat team: two workers and a UserProxyAgent at the
    terminal; it ends when someone says TERMINATE (the human can) or at 25 messages."""
    from autogen_agentchat.agents import UserProxyAgent
    from autogen_agentchat.teams import SelectorGroupChat

    searcher = AssistantAgent("searcher", model_client=_client(), system_message="Find the data.")
    analyst = AssistantAgent("analyst", model_client=_client(), system_message="Compute the answer.")
    user = UserProxyAgent("user", description="A user to approve or disapprove tasks.")
    return SelectorGroupChat([searcher, analyst, user], model_client=_client(),
                             termination_condition=TextMentionTermination("TERMINATE")
                             | MaxMessageTermination(25),
                             selector_prompt="Select an agent from {participants}. When the task is "
                             "complete, let the user approve or disapprove the task.\n{roles}\n{history}",
                             allow_repeated_speaker=True)
