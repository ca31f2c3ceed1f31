"""Tool specification mismatch, AG2 (a two-agent chat whose user proxy runs the tools, as in AG2's
tool-use examples): a violin repair shop's booking assistant, `bench`, books instruments in for
repair. `book_repair` documents the drop-off day the way the shop's paper forms write it,
"12 Mar 2026", and answers an HTTP-like status line.

Seeded: the booking service parses the day with `%d %B %Y` (full month names, the format the
invoices print) and answers "422 Unprocessable Entity" to the abbreviated month its own
documentation shows; bench apologises and asks for another day. Fixed: it parses `%d %b %Y`.
"""

from datetime import datetime
from typing import Annotated

import autogen

from .models import ag2_config

BENCH_DAYS = {1: "Tuesday", 3: "Thursday"}  # weekday -> the luthier's bench day


def repair_desk(day_format: str):
    def book_repair(customer: Annotated[str, 'The customer reference from a previous job ticket, e.g. "VR-0000"'],
                    drop_off: Annotated[str, 'The day the instrument is brought in, e.g. "12 Mar 2026"'],
                    fault: Annotated[str, "What is wrong with the instrument, in the customer's own words"]) -> str:
        """Book an instrument in for the repair bench."""
        try:
            day = datetime.strptime(drop_off, day_format).date()
        except ValueError:
            return f"422 Unprocessable Entity: drop_off {drop_off!r} does not match the booking format"
        bench = BENCH_DAYS.get(day.weekday(), "Tuesday")
        return f"201 Created: job VR-{4100 + len(fault) % 50} for {customer}, in on {day:%a %d %b}, on the bench {bench}"

    return book_repair


RUNBOOK = """You are the booking assistant of Tallis & Reed, violin makers and repairers.
* Book the instrument in with `book_repair`.
* If `book_repair` fails, apologise, explain what the booking system said and ask for another day.
* Confirm the booking and say the bench looks at instruments on Tuesdays and Thursdays.
"""


def run(task: str, day_format: str):
    bench = autogen.AssistantAgent("bench", llm_config=ag2_config(), system_message=RUNBOOK)
    customer = autogen.UserProxyAgent("customer", human_input_mode="NEVER", code_execution_config=False,
                                      max_consecutive_auto_reply=3)
    autogen.register_function(repair_desk(day_format), name="book_repair", caller=bench, executor=customer,
                              description="Book an instrument in for the repair bench.")
    return customer.initiate_chat(bench, message=task, max_turns=2)


TASK = ("Hello! The seam on my viola has opened along the lower bout and it buzzes on the C string. Could I drop "
        "it in on 17 Mar 2026? It's a 16.5-inch Czech instrument, nothing precious, but I have a concert in April. "
        "My ticket from last time was VR-0388 if that helps.")


def seeded():
    return run(TASK, "%d %B %Y")


def fixed():
    return run(TASK, "%d %b %Y")
