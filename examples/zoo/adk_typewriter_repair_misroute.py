"""Misrouted request, Google ADK (agents as tools, `AgentTool`, and a `before_tool_callback`): a
typewriter repair shop's counter. `desk_a` answers the web chat and passes each request to one of
two agents it holds as tools: `bench`, the workshop, books machines in for repair with
`book_service` (its `before_tool_callback` tidies the make's spelling first), and `parts_shop`
sells ribbons and spares from stock (`ribbon_stock`).

Seeded: desk_a's routing lines date from when the shop sent machines out for repair and the parts
counter took them in; they still give service and repair requests to parts_shop, which has no way
to book a machine in. Fixed: service and repair requests go to bench.
"""

from __future__ import annotations

from typing import Annotated, Literal

from google.adk.agents import LlmAgent
from google.adk.tools.agent_tool import AgentTool
from pydantic import Field

from .models import adk_model

MAKES = ("Olivetti", "Olympia", "Hermes", "Smith-Corona", "Imperial")
BENCH_DIARY: list[tuple] = []


def book_service(make: Literal["Olivetti", "Olympia", "Hermes", "Smith-Corona", "Imperial"],
                 fault: Literal["carriage", "keys", "ribbon", "platen"],
                 drop_off: Annotated[str, Field(description='The drop-off day, e.g. "2026-01-31"')]) -> dict:
    """Book a typewriter in at the bench for repair and a service."""
    BENCH_DIARY.append((make, fault, drop_off))
    return {"booking": {"status": "IN_DIARY", "job": f"TW-{560 + len(BENCH_DIARY)}"},
            "estimate": "approx. 2 wks", "from_price": "GBP 85 incl. clean & new ribbon"}


def ribbon_stock() -> str:
    """Ribbons and spares in stock today."""
    return "universal 13 mm nylon black/red: 14 in stock, GBP 7.50; Olivetti spools: 3 left"


def tidy_make(tool, args, tool_context):
    """The diary wants makes as the shop writes them ("smith corona" -> "Smith-Corona")."""
    if tool.name == "book_service" and "make" in args:
        wanted = {m.lower().replace("-", " "): m for m in MAKES}
        args["make"] = wanted.get(str(args["make"]).lower().replace("-", " "), args["make"])
    return None


ROUTES = {
    "seeded": ("You are desk_a at Keystroke Typewriter Repairs.\n"
               "Use parts_shop when the customer mentions ribbon, spares, service, repair or jammed.\n"
               "Report what it says."),
    "fixed": ("You are desk_a at Keystroke Typewriter Repairs.\n"
              "Use bench when the customer mentions service, repair, jammed or broken.\n"
              "Use parts_shop when the customer mentions ribbon or spares.\n"
              "Report what it says."),
}


def build(version: str) -> LlmAgent:
    bench = LlmAgent(name="bench", model=adk_model(), description="The workshop: books machines in for repair.",
                     instruction="You run the workshop.\nUse book_service.\nReport the booking.",
                     tools=[book_service], before_tool_callback=tidy_make)
    parts_shop = LlmAgent(name="parts_shop", model=adk_model(), description="Sells ribbons and spares.",
                          instruction="You run the parts counter.\nCheck ribbon_stock.\nReport the stock.",
                          tools=[ribbon_stock])
    return LlmAgent(name="desk_a", model=adk_model(), instruction=ROUTES[version],
                    tools=[AgentTool(agent=bench), AgentTool(agent=parts_shop)])


def seeded():
    return build("seeded")


def fixed():
    return build("fixed")
