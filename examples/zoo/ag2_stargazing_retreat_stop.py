"""Missing termination, AG2 two-agent chat (`register_function` with parallel tool calls, a
`register_reply` hook, `is_termination_msg`, `max_consecutive_auto_reply`): a dark-sky retreat's
booking line. `obs_7` checks the cloud forecast with `sky_forecast` and books a cabin with
`book_cabin` in one go; `dome_log` runs the tools, keeps the night log through a reply hook, and
replies until obs_7 signs off with the retreat's "All set. Clear skies!".

Seeded: dome_log's stop test looks for "clear skies" in lower case, as the sign-off was written
when the retreat's house style was lower case; the sign-off's capital C defeats it, so obs_7 signs
off again and again until dome_log's auto-reply cap. Fixed: the stop test ignores case.
"""


from typing import Annotated, Literal

import autogen

from .models import ag2_config

CLOUD = {"2026-10-09": 12, "2026-10-10": 64}  # % cover after 21:00, from the Met feed
CABINS = {"Orion": 2, "Lyra": 4, "Cassiopeia": 6}
NIGHT_LOG: list[str] = []
BOOKED: list[tuple] = []


def sky_forecast(night: Annotated[str, 'The night, e.g. "2026-01-31"']) -> tuple:
    """Cloud cover after 21:00 and the moon for a night."""
    cover = CLOUD.get(night, 40)
    return (night, f"{cover}% cloud", "new moon" if night.startswith("2026-10-1") else "waxing", cover < 30)


def book_cabin(night: Annotated[str, 'The night, e.g. "2026-01-31"'],
               guests: Annotated[int, "How many guests"],
               cabin: Literal["Orion", "Lyra", "Cassiopeia"]) -> dict:
    """Book a cabin with its own telescope pad for one night."""
    if guests > CABINS[cabin]:
        return {"state": "too small", "sleeps": CABINS[cabin]}
    BOOKED.append((night, cabin))
    return {"state": "booked", "ref": f"DS-{300 + len(BOOKED)}", "telescope": "8in Dobsonian on the pad"}


def keep_log(recipient, messages, sender, config):
    """Every message into the night log; the chat goes on as it would."""
    NIGHT_LOG.append((messages[-1].get("content") or "")[:120])
    return False, None


SYSTEM = ("You are obs_7 at Kielder Dark Sky Retreat.\n"
          "Check sky_forecast and book_cabin for the night asked.\n"
          "If book_cabin fails, give the reason.\n"
          "Reply \"All set. Clear skies!\"")


def lower_case_sign_off(message: dict) -> bool:
    return "clear skies" in (message.get("content") or "")


def sign_off(message: dict) -> bool:
    return "clear skies" in (message.get("content") or "").lower()


def run(task: str, stop_test):
    obs_7 = autogen.AssistantAgent("obs_7", llm_config=ag2_config(), system_message=SYSTEM)
    dome_log = autogen.UserProxyAgent("dome_log", human_input_mode="NEVER", code_execution_config=False,
                                      max_consecutive_auto_reply=6, is_termination_msg=stop_test)
    dome_log.register_reply([autogen.Agent, None], keep_log, position=0)
    for tool in (sky_forecast, book_cabin):
        autogen.register_function(tool, caller=obs_7, executor=dome_log, description=tool.__doc__)
    return dome_log.initiate_chat(obs_7, message=task)


TASK = ("Hi, we'd like a cabin for the night of 2026-10-09, 2 guests - it's our anniversary and my "
        "husband finally bought a telescope. The Orion cabin looked lovely on the website. Will it be dark enough?")


def seeded():
    return run(TASK, lower_case_sign_off)


def fixed():
    return run(TASK, sign_off)
