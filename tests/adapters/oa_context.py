"""An Agents SDK app whose tool reads the run context its web server passes (`ctx.context`), as
the SDK's customer-service demos do; the factory a user gives masfuzz for it (`--context`); and
the scripted model that drives the agent. `concierge` hands off to a seat agent through a hook
that sets the flight its tool asserts, as the SDK's customer_service example does."""

from dataclasses import dataclass, field

from agents import Agent, RunContextWrapper, function_tool, handoff

from masfuzz.llm.scripted import call, say, tool_results


@dataclass
class AirlineContext:
    passenger: str = ""
    seats: dict[str, str] = field(default_factory=dict)
    flight: str | None = None


@function_tool
def book_seat(ctx: RunContextWrapper[AirlineContext], seat: str) -> str:
    """Book a seat for the passenger of this session."""
    ctx.context.seats[ctx.context.passenger] = seat
    return f"seat {seat} booked for {ctx.context.passenger}"


desk = Agent(name="desk", instructions="Book the seat the passenger asks for.", tools=[book_seat])


def session() -> AirlineContext:
    return AirlineContext(passenger="Ada Lovelace")


def policy(request):
    booked = tool_results(request, "book_seat")
    if not booked:
        return call("book_seat", seat="14C")
    if "booked" not in booked[-1].content:
        return say("Sorry, I could not book your seat.")
    return say(f"Done: {booked[-1].content}")


def _greeting(ctx: RunContextWrapper[AirlineContext], agent) -> str:
    return f"Greet {ctx.context.passenger} by name, then hand the seat request to the desk."


# instructions read from the context: without the app's, the run crashes before any model call
greeter = Agent(name="greeter", instructions=_greeting, handoffs=[desk])


@function_tool
def move_seat(ctx: RunContextWrapper[AirlineContext], seat: str) -> str:
    """Move the passenger to another seat on their flight."""
    assert ctx.context.flight is not None, "the flight is required"
    return f"moved to {seat} on {ctx.context.flight}"


def _flight_of_session(ctx: RunContextWrapper[AirlineContext]) -> None:
    ctx.context.flight = "FLT-123"


seat_agent = Agent[AirlineContext](name="seat_agent", instructions="Move the passenger's seat.",
                                   tools=[move_seat])
concierge = Agent[AirlineContext](name="concierge", instructions="Hand seat requests over.",
                                  handoffs=[handoff(seat_agent, on_handoff=_flight_of_session)])
