"""A PydanticAI app that runs an agent once per customer message (not a test module): its loop
passes the history on (`message_history=result.all_messages()`) with the next message; a day
named goes to the bookings agent. Each line of the task is one message the customer typed.
"""

from __future__ import annotations

from pydantic_ai import Agent

from masfuzz.llm.scripted import last_user_text, say

desk = Agent(name="desk", instructions="Ask which day suits.")
bookings = Agent(name="bookings", instructions="Move bookings.")


async def chat(task: str) -> str:
    history, out = [], ""
    for line in task.splitlines():
        if "Friday" in line:
            result = await bookings.run(line, message_history=history)
        else:
            result = await desk.run(line, message_history=history)
        history, out = result.all_messages(), result.output
    return out


def policy(request):
    if request.agent == "desk":
        return say("Which day would suit you?")
    return say("Moved to " + last_user_text(request).split()[0])
