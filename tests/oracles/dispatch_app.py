"""An Agents SDK app whose own code picks the agent to run: `handle` reads the customer's message
and runs the refunds agent when it asks for a refund, else the shipping agent. Seeded: it looks
for "Refund" with a capital, so a request in lower case goes to shipping, which cannot refund.
Fixed: it reads the message in lower case."""

from typing import Annotated

from agents import Agent, Runner, function_tool

ORDER = Annotated[str, 'The order number, like "ORD-1000"']


@function_tool
def refund_order(order: ORDER) -> dict:
    """Refund an order to the card it was paid with."""
    return {"order": order, "refunded": True, "amount": "EUR 42.00"}


@function_tool
def track_parcel(order: ORDER) -> str:
    """Where an order's parcel is now."""
    return f"{order}: at the Leipzig depot, out for delivery tomorrow"


refunds = Agent(name="refunds", tools=[refund_order],
                instructions="You refund orders. Call refund_order. Report the result of refund_order.")
shipping = Agent(name="shipping", tools=[track_parcel],
                 instructions="You track parcels. Call track_parcel. Report the result of track_parcel.")


async def handle_seeded(text: str) -> str:
    agent = refunds if "Refund" in text else shipping
    return (await Runner.run(agent, text)).final_output


async def handle_fixed(text: str) -> str:
    if "refund" in text.lower():
        agent = refunds
    else:
        agent = shipping
    return (await Runner.run(agent, text)).final_output


def handle_sync(text: str) -> str:
    """The seeded dispatcher as a plain function, its agent run with `Runner.run_sync`."""
    agent = refunds if "Refund" in text else shipping
    return Runner.run_sync(agent, text).final_output
