"""Information loss, LangGraph (a `StateGraph` whose counter node routes with `Command(goto=...)`
and writes its hand-over note into the state; the tasting room is a prebuilt
`create_react_agent` given only that note): an olive oil mill's tastings. `balcao` reads the
enquiry and writes the tasting room a note; `sala_p` books the tasting with `book_tasting`,
which takes a gift voucher's code and the balance printed on it (the mill's till checks the two
match before it takes the voucher).

Seeded: the counter's note line was written before the mill took gift vouchers: the note carries
the day, the party and the voucher number but not the balance the customer gave ("37,50 €"),
so sala_p has no balance to book with and asks for it again. Fixed: the note carries the
balance as the customer wrote it.
"""

from __future__ import annotations

from typing import Annotated, Literal, TypedDict

from langchain_core.messages import HumanMessage, SystemMessage
from langchain_core.tools import tool
from langgraph.graph import END, START, StateGraph
from langgraph.graph.message import add_messages
from langgraph.prebuilt import create_react_agent
from langgraph.types import Command

from .models import chat_model

VOUCHERS = {"VO-58213": "37,50"}
SEATS = {"2026-04-18": 10, "2026-04-19": 0}
BOOKED: list[str] = []


@tool(parse_docstring=True)
def book_tasting(day: str, people: int, voucher_code: str, voucher_balance: str) -> str:
    """Book a guided tasting of the mill's oils (three oils, bread, one hour), paid with a gift voucher.

    Args:
        day: The day of the tasting, e.g. "2026-01-31".
        people: How many people taste.
        voucher_code: The gift voucher's number, e.g. "VO-00000".
        voucher_balance: The balance printed on the voucher, in euros with a decimal comma, e.g. "20,00".
    """
    if VOUCHERS.get(voucher_code) != voucher_balance:
        return f"REJECTED: voucher {voucher_code} does not show a balance of {voucher_balance}"
    if SEATS.get(day, 0) < people:
        return f"NO_SEATS on {day}"
    SEATS[day] -= people
    BOOKED.append(day)
    return (f"Tasting booked, ref OL-{2210 + len(BOOKED)}, {people} people at 11:00; voucher {voucher_code} "
            f"used, {people * 15 - 37.5:.2f} EUR left to pay at the mill")


class Visit(TypedDict):
    messages: Annotated[list, add_messages]
    note: str


COUNTER = """You are balcao, at the counter of Lagar do Freixo, an olive oil mill near Moura.
{note_line}"""

NOTE_LINES = {"seeded": "Write a note for the tasting room in English with the day, the party size and the voucher number.",
              "fixed": "Write a note for the tasting room in English with the day, the party size, the voucher number "
                       "and the voucher balance as the customer wrote it."}

ROOM = """You are sala_p, who runs the tastings at Lagar do Freixo.
Book the tasting with book_tasting.
If book_tasting says NO_SEATS, explain that the day is full and suggest the next Saturday.
If book_tasting says REJECTED, explain that the voucher could not be used and why."""


def build(version: str):
    model = chat_model()
    sala_p = create_react_agent(model, [book_tasting], prompt=ROOM, name="sala_p")

    def balcao(state: Visit) -> Command[Literal["sala_p", "__end__"]]:
        reply = model.invoke([SystemMessage(COUNTER.format(note_line=NOTE_LINES[version])), *state["messages"]])
        return Command(goto="sala_p", update={"messages": [reply], "note": reply.content})

    def room(state: Visit) -> dict:
        out = sala_p.invoke({"messages": [HumanMessage(state["note"])]})
        return {"messages": out["messages"][1:]}

    graph = StateGraph(Visit)
    graph.add_node("balcao", balcao)
    graph.add_node("sala_p", room)
    graph.add_edge(START, "balcao")
    graph.add_edge("sala_p", END)
    return graph.compile()


def seeded():
    return build("seeded")


def fixed():
    return build("fixed")
