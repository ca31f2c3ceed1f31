"""Speaking order, AutoGen AgentChat SelectorGroupChat: a seed library's swap table. tester_g logs
a donated lot's germination test (`log_germination`); listing_b puts the lot on the swap table
(`list_for_swap`), which the library's catalogue refuses, with an HTTP-style `{"code": 409}`,
for a lot with no test logged. The dependency is stated only in listing_b's description, the
text the team reads to pick a speaker: it lists a lot "once its germination test is logged".

The team picks its speakers with a `selector_func` that walks a rota, so no model chooses.
Seeded: the rota was written in the order the volunteers sit at the table, listing_b first:
listing_b lists the lot before tester_g has logged its test, and the catalogue answers 409.
Fixed: tester_g, then listing_b. Either way the team ends when the rota's last member answers.
"""

from typing import Annotated

from autogen_agentchat.agents import AssistantAgent
from autogen_agentchat.conditions import MaxMessageTermination, TextMessageTermination
from autogen_agentchat.teams import SelectorGroupChat

from .models import agentchat_client

LOT = Annotated[str, 'The seed lot, like "sl-0000"']


def build(rota: list[str]) -> SelectorGroupChat:
    tested: dict[str, str] = {}  # this run's catalogue: lot -> germination rate

    def log_germination(lot: LOT, rate: Annotated[str, 'The share of seeds that came up, like "80%"']) -> dict:
        """Log a donated lot's germination test in the catalogue."""
        tested[lot] = rate
        return {"lot": lot, "germination": rate, "logged": True}

    def list_for_swap(lot: LOT) -> dict:
        """Put a donated lot on this Saturday's swap table."""
        if lot not in tested:
            return {"code": 409, "lot": lot, "detail": "no germination test on file for this lot"}
        return {"code": 201, "lot": lot, "table": "B (beans and peas)", "germination": tested[lot]}

    def packet_count(lot: LOT) -> str:
        """Packets of a lot in the library's drawers."""
        return f"{lot}: 0 packets in the drawers"

    client = agentchat_client()

    def volunteer(name: str, tool, description: str, job: str, down: str) -> AssistantAgent:
        """A volunteer at the table: calls its tool, reports what the catalogue answered."""
        tool_name = tool.__name__
        return AssistantAgent(
            name, model_client=client, tools=[tool, packet_count], reflect_on_tool_use=True,
            description=description,
            system_message=f"you {job} of the Eastfield Seed Library. If {tool_name} raises an error, say "
                           f"\"{down}\" Call {tool_name}. Report the result of {tool_name}.")

    tester_g = volunteer("tester_g", log_germination, "Logs germination tests of donated seed lots.",
                         "keep the germination records", "The catalogue is down; bring the test sheet on Saturday.")
    listing_b = volunteer("listing_b", list_for_swap,
                          "Lists a donated seed lot for the swap table once its germination test is logged.",
                          "set out the swap table", "The catalogue is down; we will list your lot by hand on Saturday.")

    def next_on_rota(messages) -> str | None:
        spoke = {m.source for m in messages}
        return next((name for name in rota if name not in spoke), None)

    return SelectorGroupChat([tester_g, listing_b], model_client=client, selector_func=next_on_rota,
                             termination_condition=TextMessageTermination(rota[-1]) | MaxMessageTermination(10))


def seeded():
    return build(["listing_b", "tester_g"])


def fixed():
    return build(["tester_g", "listing_b"])
