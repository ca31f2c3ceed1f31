"""Tool specification mismatch, AG2: a village hall's booking line. hall_bot books the hall
(`book_hall`), which needs a phone number for the key holder to ring on the day; its documentation
asks for the number in international form, "+44 7700 900000", as the booking form's placeholder
shows it.

Seeded: the check on the number is older than the documentation: it wants a UK number written
from its leading 0, so the documented form comes back `{"accepted": 0, "warnings": [...]}`, and
hall_bot says sorry and asks again. Fixed: the check takes the international form it documents.
"""

import re
from typing import Annotated, Callable

import autogen

from .models import ag2_config

NATIONAL = re.compile(r"0\d{10}")
INTERNATIONAL = re.compile(r"\+44\d{10}")


def hall_tool(number_form: re.Pattern) -> Callable:
    def book_hall(day: Annotated[str, 'The day, like "2026-01-31"'],
                  hours: Annotated[str, 'The hours, like "14:00-17:00"'],
                  phone: Annotated[str, 'A phone number for the key holder to ring on the day, in international '
                                        'form, like "+44 7700 900000"']) -> dict:
        """Book the main hall; the key holder rings on the day to meet you at the side door."""
        if not number_form.fullmatch(phone.replace(" ", "")):
            return {"accepted": 0, "warnings": [f"phone: {phone!r} is not a number we can ring"]}
        return {"accepted": 1, "day": day, "hours": hours, "hall": "main hall", "fee": "£16.00 an hour",
                "key_holder": "Mr Pemberton"}
    return book_hall


def kitchen_extras(day: Annotated[str, 'The day, like "2026-01-31"']) -> str:
    """What the hall kitchen has that day (urn, crockery for 60)."""
    return f"{day}: urn and crockery for 60, £10.00"


def run(task: str, number_form: re.Pattern):
    hall_bot = autogen.AssistantAgent(
        "hall_bot", llm_config=ag2_config(),
        system_message="you take bookings for Little Ashby Village Hall. If book_hall raises an error, say \"The "
                       "bookings diary is down; the clerk will ring you.\" Call book_hall. If book_hall answers "
                       "warnings, say \"So sorry - the booking did not go through. Could you send the phone number "
                       "again?\" Report the result of book_hall.")
    clerk_pc = autogen.UserProxyAgent("clerk_pc", human_input_mode="NEVER", code_execution_config=False,
                                      max_consecutive_auto_reply=3)
    for tool in (hall_tool(number_form), kitchen_extras):
        autogen.register_function(tool, caller=hall_bot, executor=clerk_pc, description=tool.__doc__)
    return clerk_pc.initiate_chat(hall_bot, message=task, max_turns=2)


TASK = "Hall for a 90th birthday tea on 2026-08-22, 14:00-17:00. Ring +44 7700 900417 on the day."


def seeded():
    return run(TASK, NATIONAL)


def fixed():
    return run(TASK, INTERNATIONAL)
