"""An app as PydanticAI's documentation writes one: a typed output (which PydanticAI asks the model
for through an output tool, `final_result`), a function tool, the task from input()."""

from pydantic import BaseModel
from pydantic_ai import Agent


class Forecast(BaseModel):
    city: str
    weather: str


agent = Agent("openai:gpt-4o", output_type=Forecast, name="Forecaster",
              instructions="You are Forecaster. Use tools.")


@agent.tool_plain
def get_weather(city: str) -> str:
    """The weather in a city."""
    return f"sunny in {city}"


if __name__ == "__main__":
    print("ANSWER:", agent.run_sync(input("Your question: ")).output.model_dump_json())
