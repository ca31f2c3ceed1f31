"""Tool execution error not handled, AG2 (an assistant whose tools a user proxy runs, registered
with `autogen.register_function`): a hot-air balloon ride operator's passenger chat. `skyline`
looks a flight voucher up with `find_voucher` and gives the passenger the morning's launch
decision for their site with `launch_window`.

Seeded: `launch_window` looks the site up in the pilots' briefing table, which is keyed by the
booking system's slugs ("ashton-court"), with the site's name as the passenger and the tool's own
schema give it: it raises KeyError, AG2 hands the assistant the exception's text, and skyline,
told to read out the tool's answer word for word, passes the raw error to the passenger. Fixed:
the tool turns the name into its slug before the look-up, and skyline has a line for a tool that
still breaks.
"""


import re
from typing import Annotated, Literal

import autogen

from .models import ag2_config

VOUCHERS = {"SKY-40217": {"holder": "Jonas Whitfield", "seats": 2, "site": "Ashton Court", "valid_to": "2026-10-31"}}
BRIEFING = {
    "ashton-court": {"2026-06-20": {"decision": "GO", "meet": "05:15 at the Clifton Lodge gate", "wind": "6 kt SW"}},
    "castle-combe": {"2026-06-20": {"decision": "STAND DOWN", "meet": None, "wind": "17 kt gusting 24"}},
}


def find_voucher(voucher: Annotated[str, 'The voucher number on the gift card, e.g. "SKY-00000"']) -> dict:
    """A flight voucher: who holds it, how many seats and the launch site it is for."""
    found = VOUCHERS.get(voucher.strip().upper())
    return {"found": bool(found), "voucher": found}


def slug(name: str) -> str:
    return re.sub(r"[^a-z]+", "-", name.lower()).strip("-")


def briefing(keyed: bool):
    def launch_window(site: Annotated[Literal["Ashton Court", "Castle Combe"], "The launch site"],
                      flight_day: Annotated[str, 'The morning of the flight, e.g. "2026-01-31"']) -> dict:
        """The pilots' launch decision for a site on a morning, and where to meet."""
        days = BRIEFING[slug(site)] if keyed else BRIEFING[site]
        return days.get(flight_day, {"decision": "NOT YET", "meet": None, "note": "decided by 20:00 the evening before"})

    return launch_window


LINES = ("You answer passengers of Skyline Balloon Flights, Bristol.\n"
         "Look the voucher up with find_voucher.\n"
         "Check the morning's launch decision with launch_window.\n"
         "{handled}"
         "Then read the passenger exactly what launch_window says, word for word.")
HANDLED = ('If launch_window raises an error or breaks, say "The pilots\' briefing cannot be reached just now; '
           'we will text you the launch decision by 20:00 tonight."\n')


def run(task: str, keyed: bool):
    skyline = autogen.AssistantAgent("skyline", llm_config=ag2_config(),
                                     system_message=LINES.format(handled=HANDLED if keyed else ""))
    passenger = autogen.UserProxyAgent("passenger", human_input_mode="NEVER", code_execution_config=False,
                                       max_consecutive_auto_reply=3)
    autogen.register_function(find_voucher, caller=skyline, executor=passenger,
                              description=find_voucher.__doc__)
    launch_window = briefing(keyed)
    autogen.register_function(launch_window, caller=skyline, executor=passenger,
                              description=launch_window.__doc__)
    return passenger.initiate_chat(skyline, message=task, max_turns=3)


TASK = ("Morning! My wife bought me a balloon flight for my 60th (voucher SKY-40217, two seats, from Ashton "
        "Court). We're booked in for the sunrise flight on 2026-06-20 and I'm already up and dressed - is it "
        "going ahead? Last time it was called off at the last minute and we'd driven all the way from Frome.")


def seeded():
    return run(TASK, False)


def fixed():
    return run(TASK, True)
