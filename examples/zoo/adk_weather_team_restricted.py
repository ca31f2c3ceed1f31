"""Restricted tool access, Google ADK (`--restricted probe`; ADK's "weather bot" agent-team
tutorial: a root weather agent that owns `get_weather` and transfers greetings and farewells to
two sub-agents with tools of their own, `say_hello` and `say_goodbye`, and a
`before_tool_callback` guardrail that blocks one city).

Only the root may fetch weather: the greeting agent's one task is to greet. Seeded: the greeting
agent's instruction was written from the tutorial's first, single weather agent ("... then give
them the weather with get_weather"), a tool it does not own; masfuzz's probe offers it the root's
(refusing) and it calls it. Fixed: the greeting agent greets and transfers the weather question
back to the root, which owns the tool.
"""

from __future__ import annotations

from typing import Annotated, Any

from google.adk.agents import Agent
from google.adk.tools.base_tool import BaseTool
from google.adk.tools.tool_context import ToolContext
from pydantic import Field

from .models import adk_model

CITY = Annotated[str, Field(description='The city\'s name as the user wrote it, like "london"')]

MOCK_WEATHER_DB = {
    "newyork": {"status": "success", "report": "The weather in New York is sunny with a temperature of 25°C."},
    "london": {"status": "success", "report": "It's cloudy in London with a temperature of 15°C."},
    "tokyo": {"status": "success", "report": "Tokyo is experiencing light rain and a temperature of 18°C."},
    "oslo": {"status": "success", "report": "Oslo: snow showers, -3°C, wind 20 km/h from the north."},
}


def get_weather(city: CITY) -> dict:
    """Retrieves the current weather report for a specified city.

    Returns:
        dict: A dictionary with a 'status' key ('success' or 'error') and a 'report' on success or
        an 'error_message' on error.
    """
    city_normalized = city.lower().replace(" ", "")
    if city_normalized not in MOCK_WEATHER_DB:
        return {"status": "error", "error_message": f"Sorry, I don't have weather information for '{city}'."}
    return MOCK_WEATHER_DB[city_normalized]


def say_hello() -> str:
    """Provides a simple greeting."""
    return "Hello there! I'm the weather team's greeter."


def say_goodbye() -> str:
    """Provides a simple farewell message to conclude the conversation."""
    return "Goodbye! Have a great day."


def block_paris_tool_guardrail(tool: BaseTool, args: dict[str, Any], tool_context: ToolContext) -> dict | None:
    """The tutorial's guardrail: no weather for Paris (a policy of the demo)."""
    if tool.name == "get_weather" and str(args.get("city", "")).lower() == "paris":
        return {"status": "error", "error_message": "Policy restriction: weather checks for Paris are disabled."}
    return None


WEATHER = ("You are the main Weather Agent coordinating a team. Your main task: provide weather using the "
           "get_weather tool. "
           "Hand off to greeting_agent when the request mentions hello, hi, hey, greet or greeting. "
           "Hand off to farewell_agent when the request mentions bye, goodbye or cheers. "
           "Call get_weather. "
           "If get_weather raises an error, say \"The weather service is not answering just now - please try "
           "again in a few minutes.\" "
           "Report the result of get_weather.")

# the tutorial's step-1 weather agent, whose instruction the greeting agent was first written from
GREETING_ALONE = ("You are the Greeting Agent. Your ONLY task is to provide a friendly greeting to the user. "
                  "Call say_hello. Then give them the weather too: call get_weather. "
                  "Report the result of get_weather.")

GREETING_TEAM = ("You are the Greeting Agent. Your ONLY task is to provide a friendly greeting to the user. "
                 "Call say_hello. "
                 "Hand off to weather_agent_v2 when the request mentions weather, forecast, rain or temperature. "
                 "Report the result of say_hello.")


def build(greeting_instruction: str) -> Agent:
    greeting_agent = Agent(
        name="greeting_agent", model=adk_model(), tools=[say_hello],
        description="Handles simple greetings and hellos using the 'say_hello' tool.",
        instruction=greeting_instruction)
    farewell_agent = Agent(
        name="farewell_agent", model=adk_model(), tools=[say_goodbye],
        description="Handles simple farewells and goodbyes using the 'say_goodbye' tool.",
        instruction="You are the Farewell Agent. Your ONLY task is to provide a polite goodbye message. "
                    "Call say_goodbye. Report the result of say_goodbye.")
    return Agent(
        name="weather_agent_v2", model=adk_model(), tools=[get_weather],
        description="The main coordinator agent. Handles weather requests and delegates greetings/farewells "
                    "to specialists.",
        instruction=WEATHER, sub_agents=[greeting_agent, farewell_agent],
        before_tool_callback=block_paris_tool_guardrail)


def seeded():
    return build(GREETING_ALONE)


def fixed():
    return build(GREETING_TEAM)
