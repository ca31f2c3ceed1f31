"""Tool specification mismatch, AG2 (`register_for_llm` / `register_for_execution`): a wine-tasting
tour operator's booking assistant in the Mosel valley. `tour_desk` books a tasting tour with
`book_tasting`, which documents the day as the leaflet writes it, "Sat 14 Jun 2026".

Seeded: `book_tasting` parses the day with `%B` (the full month name, as the old web form sent
it), so it answers `{"result": {"http": 400, "code": "DATE_UNREADABLE", ...}}` to the "Sat 13 Jun
2026" it documents; tour_desk reports the tour not booked. Fixed: it parses with `%b`, the
abbreviated month its documentation shows.
"""

from datetime import datetime
from typing import Annotated, Literal

import autogen

from .models import ag2_config

TOURS = {"riesling-walk": 39.0, "cellar-classic": 55.0, "steillage-grand": 89.0}
SEATS = {"riesling-walk": 14, "cellar-classic": 2, "steillage-grand": 8}


def tasting_diary(month_format: str):
    def book_tasting(
            tour_day: Annotated[str, 'The day of the tour as the leaflet writes it, e.g. "Sat 14 Jun 2026"'],
            guests: Annotated[int, "How many guests (people, adults) come"],
            tour: Annotated[Literal["riesling-walk", "cellar-classic", "steillage-grand"], "Which tour"]) -> dict:
        """Book places on a guided wine-tasting tour; the minibus leaves Bernkastel at 10:30."""
        try:
            day = datetime.strptime(tour_day, f"%a %d {month_format} %Y").date()
        except ValueError:
            return {"result": {"http": 400, "code": "DATE_UNREADABLE",
                               "message": f"Datum {tour_day!r} nicht lesbar"}}
        if SEATS[tour] < guests:
            return {"result": {"http": 409, "code": "FULL", "message": f"nur {SEATS[tour]} Plätze frei"}}
        SEATS[tour] -= guests
        return {"result": {"http": 201, "status": "booked", "ref": f"MT-{day:%m%d}{guests}",
                           "total": f"EUR {TOURS[tour] * guests:.2f}", "meet": "Bernkastel Kues, Kurgastzentrum"}}

    return book_tasting


SYSTEM = """You book tasting tours for Moselweinreisen.
Book the tour with book_tasting.
If book_tasting returns 400 or 409, report "Not booked" with the message.
Say "Your tasting tour:"."""


def run(task: str, month_format: str):
    tour_desk = autogen.AssistantAgent("tour_desk", llm_config=ag2_config(), system_message=SYSTEM)
    guest = autogen.UserProxyAgent("guest", human_input_mode="NEVER", code_execution_config=False,
                                   max_consecutive_auto_reply=3)
    tool = tasting_diary(month_format)
    tour_desk.register_for_llm(name="book_tasting", description=tool.__doc__)(tool)
    guest.register_for_execution(name="book_tasting")(tool)
    return guest.initiate_chat(tour_desk, message=task, max_turns=2)


TASK = ("Guten Tag! My wife and I are in Trier for our anniversary and would love the riesling-walk tour. "
        "The leaflet's booking slip wants the day written out, so that's Sat 13 Jun 2026, for 2 guests. "
        "We don't drive, is the minibus pick-up from Bernkastel? And can we buy bottles to take home?")


def seeded():
    return run(TASK, "%B")


def fixed():
    return run(TASK, "%b")
