"""Tool specification mismatch, AG2 (`register_function` with the caller/executor split: the
tailor's assistant proposes the call, the shop's till executes it; `initiate_chat(max_turns=...)`
with an `is_termination_msg` that ends the chat on the first answer that calls no tool): a
tailor's alterations counter. `tailor_a` books the customer's fitting for an alteration with
`book_fitting`, whose parameter documents the day the way the shop's appointment card writes it,
day first ("21/03/2026").

Seeded: book_fitting was lifted from the shop's web form, which sent ISO dates, and still reads
the day with `date.fromisoformat`: the documented day-first date is answered with a 422 and no
fitting is booked. Fixed: it reads the documented format.
"""


from datetime import date, datetime
from typing import Annotated, Literal

import autogen

from .models import ag2_config

CHAIRS = {date(2026, 3, 21): ["10:00", "11:30"], date(2026, 3, 28): ["14:00"]}
FITTINGS: list[tuple] = []


def card_day(text: str) -> date:
    return datetime.strptime(text, "%d/%m/%Y").date()


def make_booker(parse_day):
    def book_fitting(
            garment: Annotated[Literal["trousers", "suit jacket", "dress", "coat"], "The garment to alter"],
            alteration: Annotated[str, "The alteration wanted, in the customer's own words"],
            fitting_day: Annotated[str, 'The day of the fitting as the appointment card writes it, e.g. "31/01/2026"']) -> dict:
        """Book a pinning fitting for an alteration (about twenty minutes with the tailor)."""
        try:
            day = parse_day(fitting_day)
        except ValueError as exc:
            return {"status": 422, "errors": [{"loc": ["fitting_day"], "msg": str(exc)}]}
        slots = CHAIRS.get(day, [])
        if not slots:
            return {"status": 409, "errors": [{"msg": "no fitting slots that day"}]}
        FITTINGS.append((garment, day))
        return {"status": 201, "fitting": {"ref": f"TA-{2200 + len(FITTINGS)}", "time": slots.pop(0),
                                           "bring": "the shoes you'll wear with it"}}
    return book_fitting


def answered(message: dict) -> bool:
    return bool(message.get("content")) and not message.get("tool_calls")


def run(task: str, parse_day):
    cfg = ag2_config()
    tailor_a = autogen.AssistantAgent(
        "tailor_a", llm_config=cfg,
        system_message="You take alterations at Threadgold & Sons, tailors since 1931.\n"
                       "Book the pinning fitting with book_fitting.")
    till_x = autogen.UserProxyAgent("till_x", human_input_mode="NEVER", code_execution_config=False,
                                    is_termination_msg=answered)
    autogen.register_function(make_booker(parse_day), caller=tailor_a, executor=till_x, name="book_fitting",
                              description="Book a pinning fitting for an alteration (about twenty minutes with the tailor).")
    return till_x.initiate_chat(tailor_a, message=task, max_turns=4)


TASK = ("Good afternoon. I've a wedding in April (I'm the best man, no pressure) and the suit jacket I bought "
        "sits too long in the sleeve - I'd like the sleeves taken up about an inch so the shirt cuff shows. "
        "Could I come in for the pinning on 21/03/2026? I'm in town all day, and I'll bring the jacket on a hanger.")


def seeded():
    return run(TASK, date.fromisoformat)


def fixed():
    return run(TASK, card_day)
