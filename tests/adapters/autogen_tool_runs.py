"""AgentChat apps whose lead runs a team and an agent as tools (`autogen_team_tools.agent_tools`)
in the ways the trace must still place by call: both at once (the lead's model asks for them in
one answer), the same team twice at once (AgentChat refuses the second: its team is already
running), through a workbench that does not stream (`StaticWorkbench`), and a run whose agent's
model fails (and then an agent of the app's crashes the run: `audited`), and inside a team tool
of its own (`department`); and a lead whose plain function tool runs a team its factory built and the function
closes over (no `TeamTool`). The app's clients are OpenAI's: masfuzz replaces them; the scripted
policy answers."""

from __future__ import annotations

from autogen_agentchat.agents import AssistantAgent, BaseChatAgent
from autogen_agentchat.messages import TextMessage
from autogen_agentchat.teams import RoundRobinGroupChat
from autogen_agentchat.tools import TeamTool
from autogen_core.tools import StaticWorkbench
from autogen_ext.models.openai import OpenAIChatCompletionClient

from masfuzz.llm.scripted import call, say, tool_results
from tests.adapters.autogen_team_tools import agent_tools
from tests.adapters.autogen_team_tools import policy as team_tools_policy


def _client(**settings):
    return OpenAIChatCompletionClient(model="gpt-4o-mini", **settings)


def _lead(**settings):
    return AssistantAgent("lead", model_client=_client(**settings), tools=agent_tools(), max_tool_iterations=3,
                          system_message="Lead: ask research and the fact checker, then answer.")


def team():
    return RoundRobinGroupChat([_lead()], max_turns=1)


def one_call_at_a_time():
    """The app asks its provider for one tool call per answer, as TeamTool's documentation says to."""
    return RoundRobinGroupChat([_lead(parallel_tool_calls=False)], max_turns=1)


def department():
    """A head whose team tool runs a department whose lead asks both agent tools at once."""
    deputy = AssistantAgent("deputy", model_client=_client(), tools=agent_tools(), max_tool_iterations=2,
                            system_message="Deputy: ask research and the fact checker at once.")
    dept = RoundRobinGroupChat([deputy], max_turns=1, name="dept")
    head = AssistantAgent("head", model_client=_client(), system_message="Head: ask the department.",
                          tools=[TeamTool(dept, name="department", description="the research department")])
    return RoundRobinGroupChat([head], max_turns=1)


def unstreamed():
    lead = AssistantAgent("lead", model_client=_client(), workbench=StaticWorkbench(agent_tools()),
                          max_tool_iterations=3, system_message="Lead: ask research and the fact checker, then answer.")
    return RoundRobinGroupChat([lead], max_turns=1)


def factory():
    """The team built here, captured by the tool's function: AgentChat never sees it as a team's."""
    archivist = AssistantAgent("archivist", model_client=_client(), system_message="Archive: answer from the archive.")
    archive = RoundRobinGroupChat([archivist], max_turns=1)

    async def ask_archive(question: str) -> str:
        """Ask the archive team a question."""
        result = await archive.run(task=question)
        return result.messages[-1].to_text()

    lead = AssistantAgent("lead", model_client=_client(), tools=[ask_archive], system_message="Lead: ask the archive.")
    return RoundRobinGroupChat([lead], max_turns=1)


class Auditor(BaseChatAgent):
    """The app's own agent, without a model: its ledger is missing, so it fails when it speaks."""

    @property
    def produced_message_types(self):
        return (TextMessage,)

    async def on_messages(self, messages, cancellation_token):
        raise ValueError("the audit ledger is missing")

    async def on_reset(self, cancellation_token):
        pass


def audited():
    """The lead, then an auditor of the app's that crashes the run."""
    return RoundRobinGroupChat([_lead(), Auditor("auditor", description="audits the answer")], max_turns=2)


def policy(request):
    system = next((m.content or "" for m in request.messages if m.role == "system"), "")
    task = next((m.content or "" for m in request.messages if m.role == "user"), "")
    if system.startswith("Lead: ask the archive"):
        return say("Tides follow the moon.") if tool_results(request) else call("ask_archive", question=task)
    if system.startswith("Head"):
        return say("Tides follow the moon.") if tool_results(request) else call("department", task=task)
    if system.startswith("Deputy"):
        if tool_results(request):
            return say("The department says: tides follow the moon.")
        return [call("research", task="tides"), call("fact_checker", task="Tides follow the moon.")]
    if system.startswith("Lead"):
        if tool_results(request):
            return say("Tides follow the moon.")
        if "BOTH" in task:
            return [call("research", task="tides"), call("fact_checker", task="Tides follow the moon.")]
        if "TWICE" in task:
            return [call("research", task="tides"), call("research", task="waves")]
        return call("research", task=task)
    if system.startswith("Research") and "FAIL" in task:
        raise RuntimeError("the research model is down")
    if system.startswith("Archive"):  # what it was told so far: a run that saw an earlier run's shows it
        return say(f"archive answer after {sum(m.role == 'user' for m in request.messages)} question(s)")
    return team_tools_policy(request)  # the agents the tools run: autogen_team_tools' own
