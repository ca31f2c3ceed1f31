"""Tool specification mismatch, AG2 (a two-agent chat whose user proxy runs the tools, as in AG2's
tool-use examples): a locksmith's call-out desk. `keyline` books a locksmith's visit with
`book_callout`, whose documentation asks for the arrival window as the customers' texts and the
website write it, "09:30-11:00". The van planner answers a tuple: (accepted, HTTP-like code, note).

Seeded: the window is parsed with `%H.%M`, the dotted times of the planner's Dutch export the
booking service was first written against: "09:30" never parses, and the planner answers
`(False, 400, "tijdvak ... onleesbaar")` to the window its own documentation shows; keyline
apologises and asks for another window. Fixed: it parses `%H:%M`.
"""

from datetime import datetime
from typing import Annotated

import autogen

from .models import ag2_config

VANS = {"LS": "van 3 (Dariusz)", "BD": "van 1 (Kerry)"}


def planner(time_format: str):
    def book_callout(job: Annotated[str, 'The job number from the enquiry form, e.g. "KL-00000"'],
                     postcode: Annotated[str, 'The postcode of the property, e.g. "LS6 2AB"'],
                     window: Annotated[str, 'The arrival window the customer can do, e.g. "09:30-11:00"'],
                     problem: Annotated[str, "What is wrong with the lock, in the customer's words"]) -> tuple:
        """Book a locksmith's visit into the van planner."""
        try:
            start, end = (datetime.strptime(part.strip(), time_format) for part in window.split("-", 1))
        except ValueError:
            return (False, 400, f"tijdvak {window!r} onleesbaar - geen bezoek gepland")
        if end <= start:
            return (False, 400, f"tijdvak {window!r} eindigt voor het begint")
        van = VANS.get(postcode[:2], "van 2 (Sunil)")
        return (True, 201, f"{job}: {van} between {start:%H:%M} and {end:%H:%M}, call-out fee £65 + parts")

    return book_callout


PROMPT = """You are keyline, the call-out desk of Kirkstall Keys, a 24-hour locksmith in Leeds.
- Book the visit with `book_callout`.
- If `book_callout` fails, apologise, explain what the van planner said and ask for another window.
- Once `book_callout` has answered, tell the customer the locksmith is on the way and the call-out fee is £65 plus parts.
"""


def run(task: str, time_format: str):
    keyline = autogen.AssistantAgent("keyline", llm_config=ag2_config(), system_message=PROMPT)
    caller = autogen.UserProxyAgent("caller", human_input_mode="NEVER", code_execution_config=False,
                                    max_consecutive_auto_reply=3)
    autogen.register_function(planner(time_format), name="book_callout", caller=keyline, executor=caller,
                              description="Book a locksmith's visit into the van planner.")
    return caller.initiate_chat(keyline, message=task, max_turns=2)


TASK = ("Hi there, I've snapped my key off in the back door lock (the uPVC one, multipoint I think) and "
        "half of it is stuck inside. Job number on your form was KL-40918. We're at 14 Ash Grove, LS6 2AB. "
        "I'm home between 09:30-11:00 tomorrow, after that I'm at work until six. The front door is fine "
        "so no rush tonight.")


def seeded():
    return run(TASK, "%H.%M")


def fixed():
    return run(TASK, "%H:%M")
