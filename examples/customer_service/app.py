"""An airline customer-service desk built with the OpenAI Agents SDK: a triage agent routes the
customer to an FAQ agent or a seat-booking agent, and both can hand the customer back.

This is the shape of the Agents SDK's own customer-service example (three agents, two function
tools, handoffs both ways), written for masfuzz as a system under test:

    masfuzz inspect examples/customer_service/app.py:triage_agent --obligations
    masfuzz exec examples/customer_service/app.py:triage_agent \
        --input "Please move me to seat 14C, confirmation ABC123" \
        --sut-model scripted/examples/customer_service/policy.py:policy

Run it directly (`python examples/customer_service/app.py`) to chat with it through a real
model; masfuzz never runs the block at the bottom.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from agents import Agent, RunContextWrapper, function_tool, handoff


@dataclass
class Booking:
    """What the desk knows about the customer's trip, shared by all agents of one run."""

    confirmation_number: str | None = None
    seat: str | None = None
    flight: str | None = "FLT-204"
    changes: list[str] = field(default_factory=list)


# Answers to the questions customers ask most, keyed by words that signal the topic.
FAQ = {
    ("bag", "baggage", "luggage", "suitcase", "carry-on"):
        "One carry-on bag of up to 10 kg and 55 x 40 x 23 cm is included; checked bags cost extra.",
    ("seat", "seats", "legroom", "exit row"):
        "The aircraft has 150 seats: rows 1-4 are business, rows 10 and 22 are exit rows.",
    ("wifi", "wi-fi", "internet", "online"):
        "Wi-Fi is free on all flights: connect to the network called SkyNet-Guest.",
    ("food", "meal", "snack", "drink"):
        "Snacks and soft drinks are free; hot meals can be ordered up to 24 hours before departure.",
}


@function_tool
def faq_lookup_tool(question: str) -> str:
    """Look up the airline's answer to a frequently asked question.

    Args:
        question: The customer's question, in their own words.
    """
    words = question.lower()
    for keys, answer in FAQ.items():
        if any(k in words for k in keys):
            return answer
    return "No answer on file for that question."


@function_tool
def update_seat(ctx: RunContextWrapper[Booking], confirmation_number: str, new_seat: str) -> str:
    """Move the passenger with this confirmation number to a new seat.

    Args:
        confirmation_number: The six-character booking reference.
        new_seat: The seat to move to, such as 14C.
    """
    if not confirmation_number or len(confirmation_number) != 6:
        raise ValueError(f"invalid confirmation number {confirmation_number!r}")
    booking = ctx.context if isinstance(ctx.context, Booking) else Booking()
    booking.confirmation_number, booking.seat = confirmation_number, new_seat
    booking.changes.append(new_seat)
    return f"Seat changed to {new_seat} for booking {confirmation_number} on {booking.flight}."


faq_agent = Agent[Booking](
    name="FAQ Agent",
    handoff_description="Answers questions about baggage, seats, wi-fi and food on board.",
    instructions=(
        "You answer customers' questions about the airline. Find the answer with the FAQ lookup "
        "tool instead of your own knowledge. If the customer wants something else, such as a "
        "seat change, hand them back to the triage agent."
    ),
    tools=[faq_lookup_tool],
)

seat_booking_agent = Agent[Booking](
    name="Seat Booking Agent",
    handoff_description="Changes the seat on a customer's booking.",
    instructions=(
        "You change seats. You need the booking's confirmation number and the new seat; ask for "
        "whichever is missing, then use the seat update tool. For anything else, hand the "
        "customer back to the triage agent."
    ),
    tools=[update_seat],
)

triage_agent = Agent[Booking](
    name="Triage Agent",
    handoff_description="Routes the customer to the right specialist.",
    instructions=(
        "You are the first contact of an airline's customer service. Do not answer yourself: "
        "hand questions to the FAQ agent and seat changes to the seat booking agent."
    ),
    handoffs=[faq_agent, handoff(seat_booking_agent)],
)

# The specialists can send the customer back; added afterwards because triage names them.
faq_agent.handoffs.append(triage_agent)
seat_booking_agent.handoffs.append(handoff(triage_agent))


if __name__ == "__main__":
    import asyncio

    from agents import Runner

    async def chat() -> None:
        agent, history, booking = triage_agent, [], Booking()
        while (text := input("you> ").strip()) not in ("", "quit"):
            history.append({"role": "user", "content": text})
            result = await Runner.run(agent, history, context=booking)
            print(f"{result.last_agent.name}> {result.final_output}")
            history, agent = result.to_input_list(), result.last_agent

    asyncio.run(chat())
