"""An AG2 script in the group-pattern API (`initiate_group_chat(pattern=DefaultPattern(...))`), the
shape of AG2's agent-pattern cookbook: who speaks next is decided by each agent's hand-offs and
its tools' `ReplyResult` targets, not by the manager's model. Hand-written edges:

- desk -> billing (an LLM condition: a `transfer_to_*` tool), desk -> tech (a context condition);
- billing -> supervisor (`settle`'s ReplyResult, the name a module constant), then billing ->
  desk (its after-work);
- tech -> desk (its after-work), tech -> the user (`diagnose`'s ReplyResult: nobody);
- supervisor -> a nested chat with the reviewer (a `NestedChatTarget`: supervisor -> reviewer),
  then the group's after-work (terminate);
- archivist: in the group, never handed to: unreachable."""

from autogen import ConversableAgent, LLMConfig
from autogen.agentchat import initiate_group_chat
from autogen.agentchat.group import (
    AgentNameTarget, AgentTarget, ContextExpression, ContextVariables, ExpressionContextCondition,
    NestedChatTarget, OnCondition, OnContextCondition, ReplyResult, RevertToUserTarget,
    StringLLMCondition,
)
from autogen.agentchat.group.patterns import DefaultPattern

config = LLMConfig({"model": "gpt-4o-mini", "api_key": "sk-unused"})
SUPERVISOR = "supervisor"


def settle(amount: int, context_variables: ContextVariables) -> ReplyResult:
    """Refund an amount; large ones go to the supervisor."""
    if amount > 100:
        return ReplyResult(message="needs approval", target=AgentNameTarget(SUPERVISOR),
                           context_variables=context_variables)
    return ReplyResult(message=f"refunded {amount}", context_variables=context_variables)


def diagnose(symptom: str) -> ReplyResult:
    """Diagnose a symptom; ask the user when it is unclear."""
    if not symptom:
        return ReplyResult(message="what happens?", target=RevertToUserTarget())
    return ReplyResult(message=f"restart fixes {symptom}")


desk = ConversableAgent("desk", llm_config=config, system_message="Route the customer.")
billing = ConversableAgent("billing", llm_config=config, functions=[settle],
                           system_message="Settle refunds with settle.")
tech = ConversableAgent("tech", llm_config=config, functions=[diagnose],
                        system_message="Diagnose with diagnose.")
supervisor = ConversableAgent(SUPERVISOR, llm_config=config, system_message="Approve refunds.")
reviewer = ConversableAgent("reviewer", llm_config=config, system_message="Review the refund.")
archivist = ConversableAgent("archivist", llm_config=config, system_message="File the case.")

desk.handoffs.add_llm_condition(
    OnCondition(target=AgentTarget(billing), condition=StringLLMCondition("a refund is asked for")))
desk.handoffs.add_context_condition(
    OnContextCondition(target=AgentTarget(tech),
                       condition=ExpressionContextCondition(ContextExpression("${broken} == True"))))
billing.handoffs.set_after_work(AgentTarget(desk))
tech.handoffs.set_after_work(AgentTarget(desk))
supervisor.handoffs.add_context_condition(
    OnContextCondition(target=NestedChatTarget(nested_chat_config={"chat_queue": [
        {"recipient": reviewer, "message": "Review this refund.", "max_turns": 1}]}),
        condition=ExpressionContextCondition(ContextExpression("${reviewed} == False"))))

pattern = DefaultPattern(initial_agent=desk, agents=[desk, billing, tech, supervisor, archivist],
                         context_variables=ContextVariables(data={"broken": False, "reviewed": False}))
initiate_group_chat(pattern=pattern, messages="I want a refund of 300 EUR.", max_rounds=6)
