"""An app as the Agents SDK's own examples are written: the SDK's default model, which speaks the
Responses API, a function tool, the task from input(); `--stream` runs it streamed."""

import sys

from agents import Agent, Runner, function_tool


@function_tool
def get_weather(city: str) -> str:
    """The weather in a city."""
    return f"sunny in {city}"


agent = Agent(name="Forecaster", instructions="You are Forecaster. Use tools.", tools=[get_weather])


async def streamed(task: str) -> str:
    result = Runner.run_streamed(agent, task)
    async for _ in result.stream_events():
        pass
    return result.final_output


if __name__ == "__main__":
    task = input("Your question: ")
    if "--stream" in sys.argv:
        import asyncio

        print("ANSWER:", asyncio.run(streamed(task)))
    else:
        print("ANSWER:", Runner.run_sync(agent, task).final_output)
