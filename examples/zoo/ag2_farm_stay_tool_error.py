"""Tool error not handled, AG2 two-agent chat (tools declared with `register_for_llm` on the caller
and `register_for_execution` on the executor, `initiate_chat(..., summary_method="last_msg")`,
`is_termination_msg` on the host's closing offer): a hill farm's cabin stays. `host_f` checks the
shepherd's huts with `check_huts` and, if the hut book breaks, says sorry to the guest; `yard`
runs the tool and ends the chat when the host closes with an offer of more help.

Seeded: check_huts reads the month's nightly rate straight from the rate card, which has no row
for March (the farm closes to guests for lambing): an arrival in March raises KeyError, AG2 hands
the raw error back as the tool's answer, and the guest gets an apology and nothing else (no dates
they could come instead, no reason).
Fixed: a month off the rate card gets the farm's own answer, `{"ok": false, "reason": ...}`,
naming the lambing closure and the day the huts reopen.
"""

from typing import Annotated

import autogen

from .models import ag2_config

RATES = {"01": 85, "02": 85, "04": 110, "05": 120, "06": 135, "07": 150, "08": 150, "09": 120, "10": 110,
         "11": 85, "12": 95}
HUTS = ["Curlew", "Lapwing", "Skylark"]
CLOSED = {"03": "the farm closes to guests in March for lambing; the huts reopen on 2026-04-01"}


def rate_card_only(month: str):
    return RATES[month]


def with_closures(month: str):
    return RATES.get(month) or CLOSED.get(month, "no rate for that month yet")


def make_huts(rate_of):
    def check_huts(arrival: Annotated[str, 'The arrival day, e.g. "2026-01-31"'],
                   nights: Annotated[int, "How many nights the guests stay"]) -> dict:
        """Which shepherd's huts are free from an arrival day, and the price for the stay."""
        rate = rate_of(arrival[5:7])
        if isinstance(rate, str):
            return {"ok": False, "reason": rate}
        return {"ok": True, "huts": {"free": HUTS[:2], "sleeps": 2},
                "price": {"per_night": f"£{rate}", "total": f"£{rate * nights}"}}

    return check_huts


SYSTEM = ("You look after guests at Fell End Farm, a working hill farm with shepherd's huts.\n"
          "Check the huts with check_huts.\n"
          "If check_huts breaks, apologise.")


def run(task: str, rate_of):
    host_f = autogen.AssistantAgent("host_f", llm_config=ag2_config(), system_message=SYSTEM)
    yard = autogen.UserProxyAgent(
        "yard", human_input_mode="NEVER", code_execution_config=False, max_consecutive_auto_reply=4,
        is_termination_msg=lambda m: "anything else" in (m.get("content") or ""))
    tool = make_huts(rate_of)
    host_f.register_for_llm(description="Which shepherd's huts are free from an arrival day.")(tool)
    yard.register_for_execution()(tool)
    return yard.initiate_chat(host_f, message=task, summary_method="last_msg")


TASK = "Could we stay 3 nights from 2026-03-20?"


def seeded():
    return run(TASK, rate_card_only)


def fixed():
    return run(TASK, with_closures)
