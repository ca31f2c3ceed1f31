"""A PydanticAI programmatic agent hand-off: the app's main() runs one agent, then the next."""

from pydantic import BaseModel
from pydantic_ai import Agent

class Flight(BaseModel):
    flight_number: str

search = Agent("openai:gpt-4o-mini", name="search", output_type=Flight, instructions="Find a flight.")
seats = Agent("openai:gpt-4o-mini", name="seats", instructions="Pick a seat.")

async def main():
    task = input("Where to? ")
    flight = await search.run(task)
    seat = await seats.run(f"seat on {flight.output.flight_number}")
    return seat.output
