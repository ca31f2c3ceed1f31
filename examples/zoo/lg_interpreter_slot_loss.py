"""Information loss, LangGraph StateGraph of two prebuilt ReAct agents: a sign-language interpreting
agency's booking chat. intake finds the client's account from their email (`find_client`) and
passes the request on; slots_b books an interpreter for the day and the hours asked
(`book_interpreter`).

slots_b's prompt trims the conversation to a token budget before each model call, so that a long
thread does not outgrow the model (`trim_messages`, newest first). Seeded: the budget was set in
words where tokens were meant, 90: the client's message, the longest and the oldest, is the first
to go, and with it the hours of the booking; slots_b has the hand-over and intake's look-up, not
the request, and with it the day and the hours asked. Fixed: a budget of 4000 tokens.
"""

from __future__ import annotations

from langchain_core.messages import SystemMessage
from langchain_core.messages.utils import count_tokens_approximately, trim_messages
from langchain_core.tools import tool
from langgraph.graph import END, START, MessagesState, StateGraph
from langgraph.prebuilt import create_react_agent

from .models import chat_model

CLIENTS = {"facilities@hartwell-legal.co.uk": ("Hartwell Legal LLP", "acct 20-117", "invoice monthly")}


@tool(parse_docstring=True)
def find_client(email: str) -> str:
    """The client account an email address belongs to.

    Args:
        email: The email the request came from, like "name@firm-name.co.uk".
    """
    name, account, terms = CLIENTS.get(email, ("new client", "no account", "card up front"))
    return f"{email}: {name}, {account}, {terms}"


@tool(parse_docstring=True)
def travel_band(town: str) -> str:
    """The travel charge band for an assignment in a town.

    Args:
        town: The town, like "Leeds".
    """
    return f"{town}: band A, no travel charge"


@tool(parse_docstring=True)
def book_interpreter(day: str, hours: str) -> dict:
    """Book a registered BSL/English interpreter for an assignment.

    Args:
        day: The day of the assignment, like "2026-01-31".
        hours: The hours, like "09:00-10:30".
    """
    return {"day": day, "hours": hours, "interpreter": "Siobhan Carr (RSLI 1873)", "status": "booked"}


@tool(parse_docstring=True)
def interpreter_rates(hours: str) -> str:
    """What an assignment of these hours costs.

    Args:
        hours: The hours, like "09:00-10:30".
    """
    return f"{hours}: 3 hours minimum at £58.00 an hour"


SLOTS = ("you book interpreters for Signal Point Interpreting. If book_interpreter raises an error, say \"The "
         "diary is down; we will confirm your interpreter by email today.\" Call book_interpreter. Report the "
         "result of book_interpreter.")


def build(budget: int):
    model = chat_model()
    intake = create_react_agent(
        model, [find_client, travel_band], name="intake",
        prompt="you answer booking requests to Signal Point Interpreting. Call find_client. Say \"Thanks - "
               "passing this to our bookings team now.\"")

    def slots_prompt(state: MessagesState) -> list:
        recent = trim_messages(state["messages"], max_tokens=budget, strategy="last",
                               token_counter=count_tokens_approximately)
        return [SystemMessage(SLOTS), *recent]

    slots_b = create_react_agent(model, [book_interpreter, interpreter_rates], name="slots_b", prompt=slots_prompt)
    graph = StateGraph(MessagesState)
    graph.add_node("intake", intake)
    graph.add_node("slots_b", slots_b)
    graph.add_edge(START, "intake")
    graph.add_edge("intake", "slots_b")
    graph.add_edge("slots_b", END)
    return graph.compile()


seeded = build(90)
fixed = build(4000)
