"""Agents SDK desks for the semantic oracles' end-to-end tests, each bug beside its fixed twin.

- `forgetful_triage`: the triage agent's handoff to the seat desk carries an `input_filter` that
  drops the conversation, so the customer's confirmation number never reaches the seat booking
  agent (kind 2); `careful_triage` hands over with the history.
- `misrouting_triage`: the triage agent's instructions send seat changes to the FAQ agent, which
  holds only the FAQ lookup (kind 5); `routing_triage` sends them to the seat desk.
- `date_booker`: `book_flight` documents its date as YYYY-MM-DD and parses DD/MM/YYYY (kind 6);
  `iso_booker` parses what it documents.

Every tool and agent is the app's own; the scripted policy (`semantic_policy.py`) plays the
models by reading the instructions and tool documentation it is given.
"""

from __future__ import annotations

from datetime import datetime

from agents import Agent, HandoffInputData, function_tool, handoff


@function_tool
def faq_lookup_tool(question: str) -> str:
    """Look up the airline's answer to a frequently asked question.

    Args:
        question: The customer's question, in their own words.
    """
    if "seat" in question.lower():
        return "The aircraft has 150 seats: rows 10 and 22 are exit rows."
    return "No answer on file for that question."


@function_tool
def update_seat(confirmation_number: str, new_seat: str) -> str:
    """Move the passenger with this confirmation number to a new seat.

    Args:
        confirmation_number: The six-character booking reference.
        new_seat: The seat to move to, such as 14C.
    """
    if len(confirmation_number) != 6:
        raise ValueError(f"invalid confirmation number {confirmation_number!r}")
    return f"Seat changed to {new_seat} for booking {confirmation_number}."


def _forget_history(data: HandoffInputData) -> HandoffInputData:
    """The bug of kind 2: only the hand-over itself goes on, the customer's words stay behind."""
    return data.clone(input_history=(), pre_handoff_items=())


def _desk(seat_route: str, forget: bool = False) -> Agent:
    faq = Agent(name="FAQ Agent", handoff_description="Answers questions about the flight.",
                instructions="You answer customers' questions with the FAQ lookup tool.",
                tools=[faq_lookup_tool])
    seat = Agent(name="Seat Booking Agent", handoff_description="Changes the seat on a booking.",
                 instructions="You change seats. You need the booking's confirmation number and "
                              "the new seat; ask for whichever is missing, then use the seat "
                              "update tool.",
                 tools=[update_seat])
    return Agent(name="Triage Agent", handoff_description="Routes the customer.",
                 instructions="You are the first contact of an airline's customer service. Do not "
                              f"answer yourself: hand seat changes to the {seat_route} agent and "
                              "other questions to the FAQ agent.",
                 handoffs=[faq, handoff(seat, input_filter=_forget_history) if forget else seat])


forgetful_triage = _desk("seat booking", forget=True)
careful_triage = _desk("seat booking")
misrouting_triage = _desk("FAQ")
routing_triage = careful_triage


def _booker(parse_as: str) -> Agent:
    @function_tool
    def book_flight(destination: str, date: str) -> str:
        """Book a seat on the flight to a destination on a date.

        Args:
            destination: The city to fly to.
            date: The departure date as YYYY-MM-DD, such as 2025-03-14.
        """
        day = datetime.strptime(date, parse_as)
        return f"Booked: {destination} on {day:%d %B %Y}, reference BK{day:%m%d}."

    return Agent(name="Booking Agent", instructions="You book flights with the booking tool.",
                 tools=[book_flight])


date_booker = _booker("%d/%m/%Y")  # the bug of kind 6: not the documented form
iso_booker = _booker("%Y-%m-%d")
