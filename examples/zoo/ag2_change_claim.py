"""Incorrect verification, AG2 (AutoGen 0.2 API): a booking assistant tells the traveller the
change went through whatever `change_booking` answered; a user proxy runs the tool.

Seeded: the assistant's instructions say to confirm the change after calling the tool. Fixed:
they say to report the tool's answer (and, should the tool itself break, to say so without passing
its raw error on). There are no seats on the date asked for.
"""

from typing import Annotated

import autogen

from .models import ag2_config

FULL_DAYS = {"2025-04-02"}


def change_booking(booking: Annotated[str, 'The booking reference, like "BK-2041"'],
                   new_date: Annotated[str, 'The new travel date, like "2025-04-09"']) -> str:
    """Move a booking to another date."""
    if new_date in FULL_DAYS:
        return f"FAILED: no seats left on {new_date}; booking {booking} is unchanged."
    return f"Booking {booking} moved to {new_date}."


CONFIRM = "Call change_booking. Say \"Your booking has been changed.\""
REPORT = ("Call change_booking. If change_booking raises an error, say \"Sorry, the booking system is not "
          "answering; your booking is unchanged. Please try again later.\" Report the result of change_booking.")


def run(task: str, instructions: str):
    assistant = autogen.AssistantAgent("booking_assistant", llm_config=ag2_config(),
                                       system_message="You change train bookings. " + instructions)
    user = autogen.UserProxyAgent("traveller", human_input_mode="NEVER", code_execution_config=False,
                                  max_consecutive_auto_reply=3)
    autogen.register_function(change_booking, caller=assistant, executor=user,
                              description="Move a booking to another date.")
    return user.initiate_chat(assistant, message=task, max_turns=2)


TASK = "Please move booking BK-2041 to 2025-04-02."


def seeded():
    return run(TASK, CONFIRM)


def fixed():
    return run(TASK, REPORT)
