"""Tool error not handled, LangGraph (a hand-built tool loop: a model node bound to its tools, a
`ToolNode` whose `handle_tool_errors` turns a tool's exception into a message, `tools_condition`
routing between them): a seaside deckchair and windbreak delivery service. `beach_b` prices a
delivery to the customer's holiday address with `price_delivery`, from the postcode district.

Seeded: the zone table was typed in from the old leaflet, which predates the new-build estate's
district TR27: `price_delivery` raises KeyError for it, and the customer gets no price.
Fixed: districts missing from the leaflet are priced as the outer zone.
"""

from __future__ import annotations

from langchain_core.messages import SystemMessage
from langgraph.graph import END, START, MessagesState, StateGraph
from langgraph.prebuilt import ToolNode, tools_condition

from .models import chat_model

ZONES = {"TR26": ("inner", 6.0), "TR25": ("inner", 6.0), "TR20": ("outer", 11.0), "TR17": ("outer", 11.0)}


def make_price_delivery(unknown_zone: tuple | None):
    def price_delivery(postcode: str, chairs: int) -> dict:
        """Price delivering deckchairs to a holiday address for the week (a windbreak comes free
        with four chairs or more).

        Args:
            postcode: The holiday address's postcode, like "TR26 1AB".
            chairs: How many deckchairs.
        """
        district = postcode.split()[0].upper()
        zone, fee = ZONES[district] if unknown_zone is None else ZONES.get(district, unknown_zone)
        return {"zone": zone, "delivery": f"£{fee:.2f}", "hire": f"£{4.5 * chairs:.2f}",
                "windbreak": chairs >= 4, "quote": f"DQ-{chairs}{len(postcode)}{int(fee)}"}
    return price_delivery


LINES = """You are beach_b at Porthmeor Deckchairs.
Price the delivery with price_delivery.
If price_delivery fails, say "Sorry, our price list can't work that address out right now; we'll ring you with a price."
Report the result of price_delivery."""


def errors_as_text(e: Exception) -> str:
    return f"Error: {type(e).__name__}: {e}"


def build(unknown_zone: tuple | None):
    tools = [make_price_delivery(unknown_zone)]
    model = chat_model().bind_tools(tools)

    def beach_b(state: MessagesState) -> dict:
        return {"messages": [model.invoke([SystemMessage(LINES), *state["messages"]])]}

    graph = StateGraph(MessagesState)
    graph.add_node("beach_b", beach_b)
    graph.add_node("tools", ToolNode(tools, handle_tool_errors=errors_as_text))
    graph.add_edge(START, "beach_b")
    graph.add_conditional_edges("beach_b", tools_condition, ["tools", END])
    graph.add_edge("tools", "beach_b")
    return graph.compile()


seeded = build(None)
fixed = build(("outer", 11.0))
