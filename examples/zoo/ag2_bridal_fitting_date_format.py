"""Tool specification mismatch, AG2 (`autogen.register_function`: an assistant that calls, a proxy
that runs the tool): a bridal alteration shop's appointment line. `atelier` books a bride's
fitting with `book_fitting`, whose documentation asks for the day the way the shop's
appointment cards print it, day first, "14/03/2026".

Seeded: the booking module was bought from a US vendor and parses the day month first
(`%m/%d/%Y`); to a day after the 12th it answers `{"status": {"code": 400, ...}}` with a Spanish
note from the vendor's own message table, and atelier tells the bride the fitting did not go
through. Fixed: the module parses the day as its documentation prints it.
"""

from datetime import datetime
from typing import Annotated, Literal

import autogen

from .models import ag2_config

DIARY: dict[str, list[str]] = {"2026-03-14": ["BR-5498"]}


def booking_module(day_format: str):
    def book_fitting(order_no: Annotated[str, 'The alteration order, e.g. "BR-00000"'],
                     fitting_date: Annotated[str, 'The day of the fitting as on the appointment card, e.g. '
                                                  '"31/01/2026"'],
                     alteration: Literal["hem", "bustle", "take in", "straps"]) -> dict:
        """Book a bride's fitting with the seamstress for an alteration order."""
        try:
            day = datetime.strptime(fitting_date, day_format).date()
        except ValueError:
            return {"status": {"code": 400, "msg": f"fecha inválida: {fitting_date}"}, "order": order_no}
        slots = DIARY.setdefault(day.isoformat(), [])
        slots.append(order_no)
        return {"status": {"code": 201, "msg": "ok"}, "order": order_no, "fitting": f"{day:%a %d %b} 10:{15 * len(slots):02d}",
                "seamstress": "Ilse", "bring": "shoes and underwear for the day"}

    return book_fitting


SYSTEM = ("Appointments, Tulle & Thread bridal alterations.\n"
          "- Book fittings with book_fitting.\n"
          "- If book_fitting comes back 400 or error, tell the bride it didn't go through, with the reason.\n"
          "- Confirm the fitting to the bride.")


def run(task: str, day_format: str):
    atelier = autogen.AssistantAgent("atelier", llm_config=ag2_config(), system_message=SYSTEM)
    bride = autogen.UserProxyAgent("bride", human_input_mode="NEVER", code_execution_config=False,
                                   max_consecutive_auto_reply=3)
    tool = booking_module(day_format)
    autogen.register_function(tool, caller=atelier, executor=bride, name="book_fitting", description=tool.__doc__)
    return bride.initiate_chat(atelier, message=task, max_turns=2)


TASK = ("hi!! it's me again, Sofia Brennan, order br5512. could I come in for my 2nd fitting on saturday the 14th "
        "of march? it's for the hem, the lace is still dragging even with my heels on. the wedding's on 2 may 2026 "
        "and my mum wants to come along too if that's ok x")


def seeded():
    return run(TASK, "%m/%d/%Y")


def fixed():
    return run(TASK, "%d/%m/%Y")
