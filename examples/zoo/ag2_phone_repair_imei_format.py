"""Tool specification mismatch, AG2 (`register_function` with a separate caller and executor: the
assistant proposes the call, a user proxy standing for the repair till runs it): a mobile phone
repair counter in a market hall. `counter_r` books a repair with `book_repair`, whose documentation
asks for the IMEI the way the phone's box and the `*#06#` screen print it, in groups ("35 209900
176148 1").

Seeded: the till checks the IMEI against the parts supplier's warranty feed, fifteen bare digits,
and answers `(422, "IMEI", ...)` to the documented grouped form. Fixed: the till drops the spaces
before it checks, as its documentation promises.
"""

from typing import Annotated, Literal

import autogen

from .models import ag2_config

JOBS: dict[str, str] = {}


def till(strip_groups: bool):
    def book_repair(
            imei: Annotated[str, 'The phone\'s IMEI as the box prints it, e.g. "35 209900 176148 1"'],
            fault: Literal["screen", "battery", "port", "camera", "water"],
            drop_off: Annotated[str, 'The day the phone is dropped off, e.g. "2026-01-31"']) -> tuple:
        """Book a repair at the FixIt Phones counter, Kirkgate Market (parts ordered the same day)."""
        digits = imei.replace(" ", "") if strip_groups else imei
        if not (digits.isdigit() and len(digits) == 15):
            return (422, "IMEI", "formato IMEI non valido per il fornitore - 15 cifre")
        JOBS[digits] = fault
        return (201, f"FX-{7700 + len(JOBS)}", {"fault": fault, "drop_off": drop_off, "ready": "after 15:00 next day"})
    return book_repair


SYSTEM = """You book repairs at the counter of FixIt Phones, Kirkgate Market, Leeds.
Book the repair with book_repair.
If book_repair raises an error, say "The repair till isn't answering - we'll ring you back to book it in."
If book_repair says 422, explain that the repair could not be booked and why.
Report what book_repair said."""


def run(task: str, strip_groups: bool):
    counter_r = autogen.AssistantAgent("counter_r", llm_config=ag2_config(), system_message=SYSTEM)
    repair_till = autogen.UserProxyAgent(
        "repair_till", human_input_mode="NEVER", code_execution_config=False, max_consecutive_auto_reply=3,
        is_termination_msg=lambda m: bool(m.get("content")) and not m.get("tool_calls"))
    tool = till(strip_groups)
    autogen.register_function(tool, caller=counter_r, executor=repair_till, name="book_repair",
                              description=tool.__doc__)
    return repair_till.initiate_chat(counter_r, message=task)


TASK = ("Hiya, I dropped my phone on the bus this morning and the screen's cracked right across. "
        "The IMEI on the box is 35 420871 553019 6. Could I bring it in on 2026-03-14?")


def seeded():
    return run(TASK, False)


def fixed():
    return run(TASK, True)
