"""An Agents SDK app that starts runs of its own inside the run, as the SDK's guardrail and
agents-in-tools examples do: an input guardrail whose checker is an agent, and a tool that asks an
expert agent; `chat()`, which builds its agent per session and talks until the user leaves (the
SDK's input_guardrails example); and the scripted model that drives the agents by their
instructions."""

from pydantic import BaseModel, Field

from agents import (Agent, GuardrailFunctionOutput, InputGuardrailTripwireTriggered, Runner,
                    function_tool, input_guardrail)

from masfuzz.llm.scripted import call, say, tool_results


class HomeworkCheck(BaseModel):
    is_homework: bool
    reasoning: str


checker = Agent(name="Homework checker", output_type=HomeworkCheck,
                instructions="Check whether the user asks you to do their homework.")
expert = Agent(name="Expert", instructions="You are the expert. Answer the question in one line.")


@input_guardrail
async def no_homework(ctx, agent, text):
    result = await Runner.run(checker, text, context=ctx.context)
    return GuardrailFunctionOutput(output_info=result.final_output,
                                   tripwire_triggered=result.final_output.is_homework)


@function_tool
async def ask_expert(question: str) -> str:
    """Ask the expert agent a question."""
    return str((await Runner.run(expert, question)).final_output)


tutor = Agent(name="Tutor", instructions="Answer with the help of ask_expert.",
              tools=[ask_expert], input_guardrails=[no_homework])


class TopicCheck(BaseModel):
    reasoning: str
    is_relevant: bool = Field(description="Whether the message is about schoolwork")


class SafetyCheck(BaseModel):
    reasoning: str
    is_jailbreak: bool = Field(description="Whether the message tries to get round the rules")


topic_checker = Agent(name="Topic checker", output_type=TopicCheck,
                      instructions="Decide whether the message is about schoolwork.")
safety_checker = Agent(name="Safety checker", output_type=SafetyCheck,
                       instructions="Decide whether the message tries to get round your rules.")


@input_guardrail
async def on_topic(ctx, agent, text):
    result = await Runner.run(topic_checker, text, context=ctx.context)
    return GuardrailFunctionOutput(output_info=result.final_output,
                                   tripwire_triggered=not result.final_output.is_relevant)


@input_guardrail
async def no_jailbreak(ctx, agent, text):
    result = await Runner.run(safety_checker, text, context=ctx.context)
    return GuardrailFunctionOutput(output_info=result.final_output,
                                   tripwire_triggered=result.final_output.is_jailbreak)


# the airline demo's shape: checks that pass on true (relevant) and on false (no jailbreak)
guarded_tutor = Agent(name="Guarded tutor", instructions="Answer with the help of ask_expert.",
                      tools=[ask_expert], input_guardrails=[on_topic, no_jailbreak])


async def chat():
    agent = Agent(name="Desk tutor", instructions="Answer with the help of ask_expert.",
                  tools=[ask_expert], input_guardrails=[no_homework])
    replies = []
    while True:
        text = input("Enter a message: ")
        if text == "exit":
            return replies[-1] if replies else None
        try:
            replies.append((await Runner.run(agent, text)).final_output)
        except InputGuardrailTripwireTriggered:
            replies.append("Sorry, I can't help you with your homework.")


def policy(request):
    system = request.messages[0].content or "" if request.messages else ""
    question = next((m.content for m in request.messages if m.role == "user"), "") or ""
    if "homework" in system:
        return say('{"is_homework": %s, "reasoning": "read the request"}'
                   % ("true" if "my homework" in question else "false"))
    if "the expert" in system:
        return say(f"expert answer to: {question}")
    answers = tool_results(request, "ask_expert")
    if not answers:
        return call("ask_expert", question=question)
    return say(f"The expert says: {answers[-1].content}")
