"""Tool specification mismatch, AutoGen AgentChat (`GraphFlow` built with `DiGraphBuilder`,
`FunctionCallTermination` combined with `MaxMessageTermination`): a husky kennel's sled ride
bookings. `greeter` writes the request up as JSON; the graph's edge takes it to `musher`, who
books a ride with `book_sled_ride` and reports it; a conditional edge takes a booked ride (its
"SR-" reference) on to `kennel`, and the flow stops once `notify_kennel` has told the kennel hands
how many dogs to harness.

Seeded: `book_sled_ride` documents its date as day/month/year ("07/02/2027"), the way the
kennel's printed diary writes it, but parses it as an ISO date and answers a 422 to exactly the
format it asks for. Fixed: it parses the day/month/year it documents.
"""

from datetime import datetime
from typing import Annotated

from autogen_agentchat.agents import AssistantAgent
from autogen_agentchat.conditions import FunctionCallTermination, MaxMessageTermination
from autogen_agentchat.teams import DiGraphBuilder, GraphFlow

from .models import agentchat_client

TEAMS = {"2027-02-06": 2, "2027-02-13": 1}
RIDES: list[tuple] = []


def make_book_sled_ride(date_format: str):
    def book_sled_ride(
            ride_date: Annotated[str, 'The day of the ride, day/month/year, e.g. "07/02/2027"'],
            riders: Annotated[int, "How many ride, two to a sled"]) -> dict:
        """Book a morning husky sled ride through Glenmore forest."""
        try:
            day = datetime.strptime(ride_date, date_format).date().isoformat()
        except ValueError:
            return {"http": 422, "detail": f"ride_date {ride_date!r} unreadable"}
        sleds = -(-riders // 2)
        if TEAMS.get(day, 0) < sleds:
            return {"http": 409, "detail": f"only {TEAMS.get(day, 0)} teams free on {day}"}
        RIDES.append((day, riders))
        return {"http": 201, "ride": {"ref": f"SR-{430 + len(RIDES)}", "day": day, "sleds": sleds}}
    return book_sled_ride


def notify_kennel(dogs: Annotated[int, "How many dogs to harness"]) -> str:
    """Tell the kennel hands how many dogs to harness."""
    return f"kennel told: harness {dogs} dogs"


def build(date_format: str) -> GraphFlow:
    greeter = AssistantAgent(
        "greeter", model_client=agentchat_client(), description="Answers the kennel's messages.",
        system_message="You answer messages to Glenmore Huskies.\n"
                       "Summarise the request as JSON with the keys ride_date and riders.")
    musher = AssistantAgent(
        "musher", model_client=agentchat_client(), tools=[make_book_sled_ride(date_format)], reflect_on_tool_use=True,
        description="Runs the sled teams.",
        system_message="You run the sled teams at Glenmore Huskies.\n"
                       "Book the ride with book_sled_ride.\n"
                       "If book_sled_ride says 409, say \"No team is free that morning.\"\n"
                       "Report the booking.")
    kennel = AssistantAgent(
        "kennel", model_client=agentchat_client(), tools=[notify_kennel], description="Harnesses the dogs.",
        system_message="You look after the dogs at Glenmore Huskies.\n"
                       "Tell the kennel hands with notify_kennel.")
    graph = DiGraphBuilder()
    graph.add_node(greeter).add_node(musher).add_node(kennel)
    graph.add_edge(greeter, musher)
    graph.add_edge(musher, kennel, condition="SR-")  # only a booked ride (its reference) needs dogs
    stop = FunctionCallTermination("notify_kennel") | MaxMessageTermination(12)
    return GraphFlow(participants=graph.get_participants(), graph=graph.build(), termination_condition=stop)


def seeded():
    return build("%Y-%m-%d")


def fixed():
    return build("%d/%m/%Y")
