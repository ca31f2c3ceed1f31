"""Misrouted request, LangGraph supervisor (`langgraph_supervisor`): a piano firm's enquiries line.
`keys_front` reads each customer's message and hands it to the desk that can act on it: `tune_w`
books tunings with `book_tuning`, `moves_x` quotes piano removals with `quote_move`.

Seeded: keys_front's routing lines date from the "move and tune" package, when every tuning was
sold with a removal: tunings still fall under the removals desk, whose line comes first, so a
plain tuning goes to moves_x, who can only quote a move and asks for two postcodes. Fixed:
tunings are tune_w's.
"""

from __future__ import annotations

import re

from langchain_core.tools import tool
from langgraph.prebuilt import create_react_agent
from langgraph_supervisor import create_supervisor

from .models import chat_model

DIARY: list[str] = []


@tool(parse_docstring=True)
def book_tuning(postcode: str, day: str) -> str:
    """Book a tuner's home visit (an hour and a half, pitch raise included if the piano needs one).

    Args:
        postcode: Where the piano is, a postcode, e.g. "LS1 4AB".
        day: The day of the visit, e.g. "2026-01-31".
    """
    area = re.match(r"[A-Z]+", postcode)
    if not area or area[0] not in ("LS", "HG", "BD"):
        return f"Outside our round ({postcode}): we tune in Leeds, Harrogate and Bradford only."
    DIARY.append(day)
    return f"Tuner Alf (Mi) booked {day}, window 10:00-12:00, job PT-{3390 + len(DIARY)}; bring nothing, tuner has mutes"


@tool(parse_docstring=True)
def quote_move(from_postcode: str, to_postcode: str) -> dict:
    """Quote a piano removal between two addresses (two movers, a skid board, insured in transit).

    Args:
        from_postcode: Where the piano is collected, e.g. "LS1 4AB".
        to_postcode: Where it goes, e.g. "LS1 4AB".
    """
    return {"quote": {"gbp": 285, "movers": 2, "valid_days": 30}, "route": [from_postcode, to_postcode]}


ROUTING = {
    "move and tune": ("Pass to moves_x for a removal, move, stairs or tuning.\n"
                      "Pass to tune_w for regulation or repairs.\n"),
    "tunings apart": ("Pass to tune_w for tuning, a tune, pitch, regulation or repairs.\n"
                      "Pass to moves_x for a removal, move or stairs.\n"),
}


def build(routing: str):
    model = chat_model()
    tune_w = create_react_agent(
        model, [book_tuning], name="tune_w",
        prompt="Tuning diary, Aireborough Pianos.\n"
               "Book the visit with book_tuning.\n"
               'If book_tuning says Outside: "Outside our round."\n'
               "Confirm the visit.")
    moves_x = create_react_agent(
        model, [quote_move], name="moves_x",
        prompt="Removals desk, Aireborough Pianos.\n"
               "Quote the removal with quote_move.\n"
               "Confirm the quote.")
    return create_supervisor(
        [tune_w, moves_x], model=model, supervisor_name="keys_front",
        prompt="Enquiries, Aireborough Pianos.\n" + routing + 'Reply "Anything else?"').compile()


seeded = build(ROUTING["move and tune"])
fixed = build(ROUTING["tunings apart"])
