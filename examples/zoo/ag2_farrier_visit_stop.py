"""Missing termination, AG2 two-agent chat (`register_function`, `is_termination_msg`,
`max_consecutive_auto_reply`): a travelling farrier's booking line. `forge_desk` finds the horse
on the forge's books with `find_horse` and books a yard visit with `book_visit`; `yard_log` runs
the tools and replies until the desk's sign-off, which ends "TERMINATE." as its instructions say.

Seeded: the yard's stop test asks for a message that ends with "TERMINATE" - the sign-off's full
stop after the word defeats it, so the chat goes on, the desk signing off again and again, until
the yard's auto-reply cap. Fixed: the stop test looks for the word anywhere in the message.
"""


from typing import Annotated, Literal

import autogen

from .models import ag2_config

HORSES = {"ASH-2207": {"name": "Bramble", "feet": "flat soles, pads on fronts", "last": "2026-03-02"}}
VISITS: list[tuple] = []


def find_horse(passport: Annotated[str, 'The horse\'s number on our books, e.g. "ASH-0000"']) -> dict:
    """A horse's record at Ashcombe Forge: name, notes on its feet, last visit."""
    horse = HORSES.get(passport)
    return {"found": bool(horse), "horse": horse or {}, "passport": passport}


def book_visit(passport: Annotated[str, 'The horse\'s number on our books, e.g. "ASH-0000"'],
               day: Annotated[str, 'The day of the visit, e.g. "2026-01-31"'],
               work: Literal["trim", "fronts", "full set"]) -> tuple:
    """Put a yard visit in the farrier's round."""
    VISITS.append((passport, day, work))
    return ("ok", f"visit V{830 + len(VISITS)}: {work} for {passport} on {day}, between 8 and 10 - Hufschmied kommt")


SYSTEM = ("you take bookings for Ashcombe Forge, a travelling farrier.\n"
          "Look the horse up with find_horse.\n"
          "Book the visit with book_visit.\n"
          "If book_visit fails, say \"Sorry, the round book is playing up - we'll ring you to fix a day.\"\n"
          "Then say \"That's the visit in the round book. TERMINATE.\"")


def ends_with_terminate(message: dict) -> bool:
    return (message.get("content") or "").endswith("TERMINATE")


def mentions_terminate(message: dict) -> bool:
    return "TERMINATE" in (message.get("content") or "")


def run(task: str, stop_test):
    forge_desk = autogen.AssistantAgent("forge_desk", llm_config=ag2_config(), system_message=SYSTEM)
    yard_log = autogen.UserProxyAgent("yard_log", human_input_mode="NEVER", code_execution_config=False,
                                      max_consecutive_auto_reply=6, is_termination_msg=stop_test)
    for tool in (find_horse, book_visit):
        autogen.register_function(tool, caller=forge_desk, executor=yard_log, description=tool.__doc__)
    return yard_log.initiate_chat(forge_desk, message=task)


TASK = "Bramble (ASH-2207) has lost a front shoe, can you come on 2026-05-12 and do fronts?"


def seeded():
    return run(TASK, ends_with_terminate)


def fixed():
    return run(TASK, mentions_terminate)
