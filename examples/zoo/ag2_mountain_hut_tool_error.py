"""Tool error not handled, AG2 (two chats in sequence with `initiate_chats`, the first carried
over to the second by its last message; `register_function` for the bunk tool): a mountain hut in
the Dolomites. `accoglienza_r` reads the request and writes the bunk desk a note; `cuccette_l`
checks free bunks for the night with `check_bunks` and, since hikers kept quarrelling about the
numbers, gives them check_bunks' answer exactly as it comes.

Seeded: check_bunks reads the night from the staffed season's table (mid-June to late September)
and raises KeyError for any other night, where only the unstaffed winter room is open: AG2 hands
the raw error back as the tool's answer and cuccette_l passes it to the hikers as it came. Fixed:
outside the season check_bunks answers with the winter room's terms.
"""

from datetime import date, timedelta
from typing import Annotated

import autogen

from .models import ag2_config

SEASON = {(date(2026, 6, 15) + timedelta(days=i)).isoformat(): 38 for i in range(105)}
SEASON["2026-07-11"] = 0
WINTER_ROOM = {"open": "winter room only (locale invernale), 12 bunks, no warden, no booking",
               "bring": "sleeping bag, stove"}


def table_only(night: str) -> dict:
    free = SEASON[night]
    return {"night": night, "free_bunks": free, "half_board": "62,00 EUR"}


def with_winter_room(night: str) -> dict:
    if night not in SEASON:
        return {"night": night, "free_bunks": None, **WINTER_ROOM}
    return table_only(night)


def bunks(lookup):
    def check_bunks(night: Annotated[str, 'The night of the stay, e.g. "2026-01-31"'],
                    people: Annotated[int, "How many hikers"]) -> dict:
        """Free bunks at the hut for one night."""
        answer = lookup(night)
        if answer["free_bunks"] is not None:
            answer["fits"] = answer["free_bunks"] >= people
        return answer
    return check_bunks


def run(task: str, lookup):
    cfg = ag2_config()
    rifugio = autogen.UserProxyAgent("rifugio", human_input_mode="NEVER", code_execution_config=False)
    accoglienza_r = autogen.AssistantAgent(
        "accoglienza_r", llm_config=cfg,
        system_message="You read the messages sent to Rifugio Forcella Nera.\n"
                       "Write a note for the bunk desk in English with the night asked for and the party size.")
    cuccette_l = autogen.AssistantAgent(
        "cuccette_l", llm_config=cfg,
        system_message="You keep the bunk book of Rifugio Forcella Nera.\n"
                       "Check the bunks with check_bunks.\n"
                       "Give the hikers check_bunks' answer exactly as it comes, so the numbers are never argued over.")
    autogen.register_function(bunks(lookup), caller=cuccette_l, executor=rifugio,
                              description="Free bunks at the hut for one night.")
    return autogen.initiate_chats([
        {"sender": rifugio, "recipient": accoglienza_r, "message": task, "max_turns": 1, "summary_method": "last_msg"},
        {"sender": rifugio, "recipient": cuccette_l, "message": "Controlla le cuccette per questa richiesta.",
         "max_turns": 2, "summary_method": "last_msg"}])


TASK = "Vorremmo dormire al rifugio la notte del 6 giugno, siamo 3 persone."


def seeded():
    return run(TASK, table_only)


def fixed():
    return run(TASK, with_winter_room)
