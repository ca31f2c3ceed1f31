"""Missing termination, AG2 (`GroupChat` with a speaker-selection function that sends each tool
call to the hall's booking computer and its answer back, the manager's own `is_termination_msg`):
a choral society's hire store, which lends robes, music folders and staging to visiting choirs.
`store_s` reserves each thing asked for with `reserve_kit`; `kit_pc` runs the tool.

Seeded: the chat is to end once the hire is confirmed. The stop test was written against the old
reply template, all in capitals ("HIRE CONFIRMED"), and compares case-sensitively; store_s's lines
were reworded to "Hire confirmed: ...", so the test never matches and the chat goes on to
`max_round`, the store repeating its answer. Fixed: the test ignores case.
"""

from __future__ import annotations

from typing import Annotated, Literal

import autogen

from .models import ag2_config

STOCK = {"robes": 40, "folders": 60, "risers": 3, "lectern": 1}
OUT: dict[str, int] = {}


def reserve_kit(kit: Annotated[Literal["robes", "folders", "risers", "lectern"], "What is hired"],
                event_date: Annotated[str, 'The day of the concert, like "2026-01-31"']) -> dict:
    """Reserve one kind of kit from the hire store for a concert (collected the day before)."""
    if STOCK[kit] - OUT.get(kit, 0) < 1:
        return {"status": "unavailable", "kit": kit, "reason": "all out on hire that week"}
    OUT[kit] = OUT.get(kit, 0) + 1
    return {"status": "reserved", "kit": kit, "hire": f"CH-{620 + sum(OUT.values())}", "concert": event_date}


STORE = """You are store_s at the Dales Choral Society's hire store.
Reserve each kind of kit with reserve_kit.
If reserve_kit answers unavailable, say "The {kit} could not be reserved: {reason}."
If reserve_kit raises an error, say "The hire book is not answering, so the {kit} is not reserved yet; we will email you."
Reply "Hire confirmed: the {kit} under {hire}, for the concert on {concert}."
"""


def build(ends_chat):
    cfg = ag2_config()
    kit_pc = autogen.UserProxyAgent("kit_pc", human_input_mode="NEVER", code_execution_config=False,
                                    default_auto_reply="")
    store_s = autogen.AssistantAgent("store_s", llm_config=cfg, system_message=STORE)
    autogen.register_function(reserve_kit, caller=store_s, executor=kit_pc, description=reserve_kit.__doc__)

    def next_speaker(last, chat):
        if chat.messages[-1].get("tool_calls"):
            return kit_pc  # it runs the tool, and the answer goes back to the store
        return store_s

    group = autogen.GroupChat(agents=[kit_pc, store_s], messages=[], max_round=8,
                              speaker_selection_method=next_speaker)
    return autogen.GroupChatManager(groupchat=group, llm_config=cfg, is_termination_msg=ends_chat)


def seeded():
    # written against the old template, "HIRE CONFIRMED", and compared as written
    return build(lambda message: "HIRE CONFIRMED" in (message.get("content") or ""))


def fixed():
    return build(lambda message: "hire confirmed" in (message.get("content") or "").lower())
