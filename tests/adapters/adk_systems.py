"""Small Google ADK systems for the adapter's tests, with the scripted policy that drives them.

`lead` routes by transfer to `math` (which may not transfer back to its parent) or to `fanout`,
a parallel agent of `a1` and `a2`, and asks `scout`, an agent tool. The policy reacts to the
request: the agent asking (`request.agent`), the tools it is offered, the results it has.
"""

from __future__ import annotations

import time

from google.adk import Context, Event, Workflow
from google.adk.workflow import JoinNode, node
from google.adk.agents import BaseAgent, LlmAgent, ParallelAgent
from google.adk.tools.agent_tool import AgentTool

from masfuzz.llm.scripted import call, handoff, last_user_text, offered, say, tool_results


def add(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


math = LlmAgent(name="math", model="gemini-2.0-flash", instruction="Add numbers with add.",
                tools=[add], disallow_transfer_to_parent=True)
fanout = ParallelAgent(name="fanout", sub_agents=[
    LlmAgent(name="a1", instruction="One view."), LlmAgent(name="a2", instruction="Another view.")])
scout = LlmAgent(name="scout", model="gemini-2.0-flash", instruction="Look around.")
lead = LlmAgent(name="lead", model="gemini-2.0-flash", instruction="Route the user.",
                sub_agents=[math, fanout], tools=[AgentTool(agent=scout)])


class Gate(BaseAgent):
    """An app's own agent class (ADK's custom agents): it runs its sub-agents in its own code."""

    async def _run_async_impl(self, ctx):
        for sub in self.sub_agents:
            async for event in sub.run_async(ctx):
                yield event


gate = Gate(name="gate", sub_agents=[LlmAgent(name="inner", model="gemini-2.0-flash", instruction="Answer.")])


# `desk_flow`: ADK 2's graph Workflow. A function node keeps the request, `classify` answers
# refund or question, a function node routes on it: to `refunds` (which has a tool), or fanned
# out to `facts` and `tone` in parallel, joined for `editor`. By hand: 6 agents (the workflow
# and its 5 agent nodes), 1 tool, delegations desk_flow -> classify (delegate), classify ->
# refunds, facts, tone, and facts, tone -> editor (graph edges).
def refund(invoice: str) -> str:
    """Refund an invoice."""
    return f"refunded {invoice}"


def intake(node_input: str):
    return Event(state={"ask": node_input})


def route(node_input: str):
    yield Event(route="refund" if "refund" in str(node_input) else "question")


classify = LlmAgent(name="classify", model="gemini-2.0-flash", output_schema=str,
                    instruction="Answer refund or question for: {ask}")
refunds = LlmAgent(name="refunds", model="gemini-2.0-flash", instruction="Refund with refund.",
                   tools=[refund])
facts = LlmAgent(name="facts", model="gemini-2.0-flash", instruction="Facts.")
tone = LlmAgent(name="tone", model="gemini-2.0-flash", instruction="Tone.")
both = JoinNode(name="both")
desk_flow = Workflow(name="desk_flow", edges=[
    ("START", intake, classify, route),
    (route, {"refund": refunds, "question": (facts, tone)}),
    (facts, both), (tone, both),
    (both, LlmAgent(name="editor", model="gemini-2.0-flash", instruction="Edit the answers.")),
])


# `drafts_flow`: ADK 2's dynamic workflow. Its one node's code runs `drafter`, then `polisher`
# (`ctx.run_node`). By hand: 3 agents, drafts_flow -> drafter (delegate), drafter -> polisher
# (sequence).
drafter = LlmAgent(name="drafter", model="gemini-2.0-flash", instruction="Draft.")
polisher = LlmAgent(name="polisher", model="gemini-2.0-flash", instruction="Polish.")


@node(rerun_on_resume=True)
async def draft_then_polish(ctx: Context, node_input: str) -> str:
    draft = await ctx.run_node(drafter, node_input)
    return await ctx.run_node(polisher, draft)


drafts_flow = Workflow(name="drafts_flow", edges=[("START", draft_then_polish)])
# a workflow nested in another as its second node: outer -> opener -> drafts_flow -> drafter...
nested_flow = Workflow(name="outer", edges=[("START", LlmAgent(name="opener", model="gemini-2.0-flash",
                                                              instruction="Open."), drafts_flow)])


def policy(request):
    """Each agent answers as itself, so a trace shows whose model call masfuzz answered."""
    agent = request.agent or "?"
    if agent == "lead":
        done = tool_results(request, "scout")
        if done:
            return say(f"lead heard: {done[-1].content}")
        text = last_user_text(request)
        if "add" in text and offered(request, "transfer_to_math"):
            return handoff("math")
        if "views" in text:
            return handoff("fanout")
        return call("scout", request=text)
    if agent == "classify":
        return say('"refund"' if "refund" in last_user_text(request) else '"question"')  # its output_schema: JSON
    if agent == "refunds":
        results = tool_results(request, "refund")
        return say(f"refunds: {results[-1].content}") if results else call("refund", invoice="INV-7")
    if agent == "math":
        results = tool_results(request, "add")
        return say(f"math: {results[-1].content}") if results else call("add", a=2, b=3)
    if agent == "a2" and offered(request, "add") and not tool_results(request):
        return call("add", a=1, b=1)  # a restricted tool, when masfuzz offers it as a probe
    return say(f"I am {agent}")


def plain_policy(request):
    """Plain text for every agent, `classify`'s JSON output_schema included (the model's fault)."""
    return say(f"I am {request.agent}")


# `poller`: an app with no bound of its own around a tool it polls. The job never leaves
# "pending", the policy asks again while it is, and the third poll blocks the thread (a plain
# function that waits, as ADK runs it on the event loop) past the run's time limit `POLL_LIMIT`.
POLL_LIMIT = 10.0
polls: list[str] = []


def job_status(job: str) -> dict:
    """The state of a print job."""
    polls.append(job)
    if len(polls) == 3:
        time.sleep(POLL_LIMIT)
    return {"job": job, "state": "pending"}


poller = LlmAgent(name="poller", model="gemini-2.0-flash", instruction="Wait for the job with job_status.",
                  tools=[job_status])


def polling_policy(request):
    """Calls job_status again as long as its last answer says pending, as a model told to wait would."""
    results = tool_results(request, "job_status")
    if not results or "pending" in results[-1].content:
        return call("job_status", job="J-7")
    return say(f"done: {results[-1].content}")
