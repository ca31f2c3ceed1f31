"""An AG2 group pattern whose front desk hands over by an `OnCondition` (AG2 offers it as a
`transfer_to_groomer_1` tool), and the scripted model that drives it: the desk calls the
hand-over tool, found by `resolve_handoff` whatever number AG2 gave it; the groomer books."""

from autogen import ConversableAgent, UserProxyAgent
from autogen.agentchat import initiate_group_chat
from autogen.agentchat.group import AgentTarget, OnCondition, StringLLMCondition, TerminateTarget
from autogen.agentchat.group.patterns import DefaultPattern

from masfuzz.llm.scripted import call, resolve_handoff, say, tool_results

CONFIG = {"config_list": [{"model": "gpt-4o-mini", "api_key": "sk-unused"}], "cache_seed": None}


def book_trim(dog: str) -> str:
    """Book a trim for a dog."""
    return f"trim booked for {dog}"


def app():
    desk = ConversableAgent("desk", llm_config=CONFIG, system_message="Greet owners; pass trims to the groomer.")
    groomer = ConversableAgent("groomer", llm_config=CONFIG, functions=[book_trim],
                               system_message="Book trims with book_trim.")
    desk.handoffs.add_llm_conditions([
        OnCondition(target=AgentTarget(groomer), condition=StringLLMCondition("The owner wants a trim."))])
    desk.handoffs.set_after_work(TerminateTarget())
    groomer.handoffs.set_after_work(TerminateTarget())
    owner = UserProxyAgent("owner", human_input_mode="NEVER", code_execution_config=False)
    pattern = DefaultPattern(initial_agent=desk, agents=[desk, groomer], user_agent=owner,
                             group_after_work=TerminateTarget())
    return initiate_group_chat(pattern=pattern, messages="A trim for Biscuit please", max_rounds=8)


def policy(request):
    if request.agent == "desk":
        handover = resolve_handoff("groomer", request.tools)
        return call(handover.name) if handover is not None else say("No groomer to pass you to.")
    if request.agent == "groomer" and not tool_results(request, "book_trim"):
        return call("book_trim", dog="Biscuit")
    return say("Trim booked for Biscuit.")
