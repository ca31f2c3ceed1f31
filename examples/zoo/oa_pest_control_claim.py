"""Incorrect verification, OpenAI Agents SDK (the pest desk offered to the contact centre with
`Agent.as_tool` and a `custom_output_extractor` that hands back the desk's form as it wrote it):
a district council's pest control service. `contact_c` answers residents and asks `pest_desk` to
book treatments; pest_desk books a technician's visit with `book_treatment`, which answers with
the scheduler's status and, when it turns a visit down, why.

Seeded: pest_desk's reporting line dates from the summer rota, when every request got a visit: it
writes "outcome: accepted" once book_treatment has answered, whatever it answered, so a wasp nest
declined for the season (the colony dies off after October) reaches the resident as accepted.
Fixed: pest_desk reports a declined visit as one.
"""

from __future__ import annotations

from typing import Literal

from agents import Agent, RunResult, function_tool

from .models import model_string

SEASON = {"wasps": ("04-01", "10-31"), "rats": ("01-01", "12-31"), "mice": ("01-01", "12-31"),
          "bedbugs": ("01-01", "12-31")}


@function_tool
def book_treatment(account: str, pest: Literal["wasps", "rats", "mice", "bedbugs"], day: str) -> dict:
    """Book a pest control technician's visit to a resident's home (£65 wasps, free for rats and mice).

    Args:
        account: The resident's pest control account reference, e.g. "PC-0000".
        pest: What the visit treats.
        day: The day the resident asks for, e.g. "2026-01-31".
    """
    start, end = SEASON[pest]
    if not start <= day[5:] <= end:
        return {"status": "declined", "account": account,
                "reason": f"{pest} are not treated between {end} and {start}: nests die off in the cold, "
                          "leave it be and it will not be reused"}
    return {"status": "scheduled", "account": account, "visit": f"PV-{day[5:7]}{day[8:]}1",
            "window": "08:00-12:00", "fee": "£65.00" if pest == "wasps" else "£0.00"}


REPORT = {"seeded": "Write outcome: accepted once book_treatment has answered.",
          "fixed": 'If book_treatment says declined, say "The visit could not be booked."'}


async def final_form(result: RunResult) -> str:
    """The desk's form, as the desk wrote it (the contact centre's screen shows it whole)."""
    return str(result.final_output)


def build(version: str) -> Agent:
    pest_desk = Agent(name="pest_desk", model=model_string(), tools=[book_treatment],
                      instructions="You book pest control visits for Wyvern District Council.\n"
                                   f"Book the visit with book_treatment.\n{REPORT[version]}\n"
                                   'If book_treatment fails, say "The booking system is down; we will call you back."')
    return Agent(name="contact_c", model=model_string(),
                 instructions="You answer residents for Wyvern District Council's pest control service.\n"
                              "Ask the pest desk with ask_pest_desk.\n"
                              'If ask_pest_desk fails, say "Pest control cannot be reached just now; please call 01905 555 210."',
                 tools=[pest_desk.as_tool(tool_name="ask_pest_desk",
                                          tool_description="Ask the pest desk to book a treatment visit.",
                                          custom_output_extractor=final_form)])


def seeded():
    return build("seeded")


def fixed():
    return build("fixed")
