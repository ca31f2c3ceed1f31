"""Premature termination, AG2 GroupChat (a speaker-selection function, the manager's own
`is_termination_msg`): a railway station's left-luggage office. `counter_c` reads the traveller's
request back before anything is done; `porter_p` then stores the bags with `store_bags`, which
tags them and says when the office closes. `office_pc`, the office computer, runs the tools.

Seeded: the manager is to end the chat once the storage is confirmed, and was written as "any
message mentioning confirm": the counter's read-back ("To confirm: ...") already matches, so the
chat ends, normally, before the porter has stored anything. Fixed: it ends on the porter's
"Storage confirmed" only.
"""

from __future__ import annotations

from typing import Annotated

import autogen

from .models import ag2_config

OPEN_UNTIL = {"2026-04-03": "23:00", "2026-04-04": "20:00"}
SHELF_SPACE = 40  # bags the shelves hold
TAGS: list[str] = []


def store_bags(drop_day: Annotated[str, 'The day the bags come in, like "2026-01-31"'],
               bags: Annotated[int, "How many bags, suitcases and rucksacks alike"],
               collect_time: Annotated[str, 'When they will be collected, 24-hour clock, like "18:30"']) -> dict:
    """Store bags at the left-luggage office (7.50 pounds a bag for the day) and tag them."""
    closes = OPEN_UNTIL.get(drop_day, "22:00")
    if collect_time > closes:
        return {"status": "refused", "why": f"the office closes at {closes} on {drop_day}"}
    if bags > SHELF_SPACE:
        return {"status": "full", "why": "no shelf space left today"}
    TAGS.append(drop_day)
    return {"status": "stored", "tag": f"LL-{3100 + len(TAGS)}", "bags": bags, "closes": closes,
            "fee": f"{7.5 * bags:.2f} GBP"}


COUNTER = """You are counter_c at the York station left-luggage office.
Read the request back to the traveller.
Pass it to porter_p.
"""

PORTER = """You are porter_p, the porter at the York station left-luggage office.
Store the bags with store_bags.
If store_bags answers refused or full, say "The bags could not be stored by the office: '{why}'."
Reply "Storage confirmed: {bags} bags under tag {tag}, {fee} to pay; the office closes at {closes}."
"""


def build(ends_chat):
    cfg = ag2_config()
    office_pc = autogen.UserProxyAgent("office_pc", human_input_mode="NEVER", code_execution_config=False,
                                       default_auto_reply="")
    counter_c = autogen.AssistantAgent("counter_c", llm_config=cfg, system_message=COUNTER)
    porter_p = autogen.AssistantAgent("porter_p", llm_config=cfg, system_message=PORTER)
    autogen.register_function(store_bags, caller=porter_p, executor=office_pc, description=store_bags.__doc__)
    order = {"office_pc": counter_c, "counter_c": porter_p}

    def next_speaker(last, chat):
        if chat.messages[-1].get("tool_calls"):
            return office_pc  # it runs the tool ...
        if last is office_pc and len(chat.messages) > 1 and chat.messages[-2].get("tool_calls"):
            return chat.agent_by_name(chat.messages[-2]["name"])  # ... and the answer goes back to who asked
        return order.get(last.name)

    group = autogen.GroupChat(agents=[office_pc, counter_c, porter_p], messages=[], max_round=10,
                              speaker_selection_method=next_speaker)
    return autogen.GroupChatManager(groupchat=group, llm_config=cfg, is_termination_msg=ends_chat)


def seeded():
    # "end once the storage is confirmed", written as any message that mentions it
    return build(lambda message: "confirm" in (message.get("content") or "").lower())


def fixed():
    return build(lambda message: "storage confirmed" in (message.get("content") or "").lower())
