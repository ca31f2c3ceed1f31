"""Agents SDK apps that run the SDK once per customer message (not a test module), as chat
front-ends do: a help desk whose loop keeps the run's history (`result.to_input_list()`) and
appends the next message, and one that keeps it in an SDK `Session`, with `run`, `run_sync` and `run_streamed`. Each line of the task is
one message the customer typed. The policy below drives them through masfuzz's scripted provider.
"""

from __future__ import annotations

from agents import Agent, Runner, SQLiteSession, function_tool

from masfuzz.llm.scripted import call, handoff as hand_to, last_user_text, say, tool_results


@function_tool
def move_booking(booking: str, day: str) -> str:
    """Move a booking to another day."""
    return f"{booking} moved to {day}"


bookings = Agent(name="bookings", instructions="Move bookings.", tools=[move_booking])
INSTRUCTIONS = "Ask for the day, then hand over."


async def chat(task: str) -> str:
    history, result = [], None
    agent = Agent(name="desk", instructions=INSTRUCTIONS, handoffs=[bookings])
    for line in task.splitlines():
        history.append({"role": "user", "content": line})
        result = await Runner.run(agent, history)
        history, agent = result.to_input_list(), result.last_agent
    return result.final_output if result else ""


async def chat_in_session(task: str) -> str:
    session, result = SQLiteSession("masfuzz-test"), None
    agent = Agent(name="desk", instructions=INSTRUCTIONS, handoffs=[bookings])
    for line in task.splitlines():
        result = await Runner.run(agent, line, session=session)
        agent = result.last_agent
    return result.final_output if result else ""


def chat_sync(task: str) -> str:
    """The loop of a plain function: `run_sync`, which runs `run` inside."""
    history, result = [], None
    agent = Agent(name="desk", instructions=INSTRUCTIONS, handoffs=[bookings])
    for line in task.splitlines():
        result = Runner.run_sync(agent, history + [{"role": "user", "content": line}])
        history, agent = result.to_input_list(), result.last_agent
    return result.final_output if result else ""


async def chat_streamed(task: str) -> str:
    history, result = [], None
    agent = Agent(name="desk", instructions=INSTRUCTIONS, handoffs=[bookings])
    for line in task.splitlines():
        history.append({"role": "user", "content": [{"type": "input_text", "text": line}]})
        result = Runner.run_streamed(agent, history)
        async for _ in result.stream_events():
            pass
        history, agent = result.to_input_list(), result.last_agent
    return result.final_output if result else ""


def policy(request):
    """The desk asks for the day, then hands over once told; bookings moves the booking."""
    if request.agent == "desk":
        return hand_to("bookings") if "Friday" in last_user_text(request) else say("Which day would suit you?")
    if not tool_results(request, "move_booking"):
        return call("move_booking", booking="BK-4471", day="Friday")
    return say("Moved: " + tool_results(request, "move_booking")[-1].content)
