"""Missing termination, AG2 (`GroupChat` whose speaker-selection function follows the hand-over
note and sends tool calls to the yard's computer, the manager's own `is_termination_msg`): a
firewood merchant's log deliveries. `orders_o` takes the customer's order and passes it to
`yard_y`, who books a load on the delivery lorry with `book_logs`; `yard_pc` runs the tool.

Seeded: the chat is to end once the delivery is booked. The stop test looks for the old reply
template's "Delivery confirmed"; yard_y's line was reworded when the merchant began selling by
the cubic metre ("Your logs are on the lorry: ..."), and the stop test was never changed: the
chat goes on to `max_round`.
Fixed: the stop test looks for the reworded reply (or the yard's line for a broken diary).
"""

from __future__ import annotations

from typing import Annotated, Literal

import autogen

from .models import ag2_config

LOADS: list[str] = []


def book_logs(wood: Annotated[Literal["kiln-dried hardwood", "seasoned ash", "softwood"], "Which logs"],
              cubic_metres: Annotated[int, "How many cubic metres, loose-tipped"],
              postcode: Annotated[str, 'Where to tip them, like "HR2 6AB"'],
              delivery_day: Annotated[str, 'The delivery day, like "2026-01-31"']) -> dict:
    """Book a load of logs on the delivery lorry (tipped on the drive; barrowing in is extra)."""
    LOADS.append(postcode)
    price = {"kiln-dried hardwood": 145, "seasoned ash": 120, "softwood": 95}[wood] * cubic_metres
    return {"status": "on the lorry", "load": f"LG-{2240 + len(LOADS)}", "day": delivery_day,
            "price": f"{price}.00 GBP", "tip": "on the drive"}


ORDERS = """You are orders_o at Black Mountain Logs.
Pass the wood, the cubic metres, the postcode and the delivery day to yard_y.
"""

YARD = """You are yard_y, who runs the log yard at Black Mountain Logs.
Book the load with book_logs.
If book_logs fails, say "The lorry diary is not answering, so nothing is booked yet; we will ring you."
Reply "Your logs are on the lorry: load {load}, {day}, {price}, tipped {tip}."
"""


def build(ends_chat):
    cfg = ag2_config()
    yard_pc = autogen.UserProxyAgent("yard_pc", human_input_mode="NEVER", code_execution_config=False,
                                     default_auto_reply="")
    orders_o = autogen.AssistantAgent("orders_o", llm_config=cfg, system_message=ORDERS)
    yard_y = autogen.AssistantAgent("yard_y", llm_config=cfg, system_message=YARD)
    autogen.register_function(book_logs, caller=yard_y, executor=yard_pc, description=book_logs.__doc__)

    def next_speaker(last, chat):
        newest = chat.messages[-1]
        if len(chat.messages) <= 1:
            return orders_o  # the customer's order comes in at the desk
        if newest.get("tool_calls"):
            return yard_pc  # it runs the tool; the answer goes back to the yard
        if last is yard_pc or "yard_y" in (newest.get("content") or "").split("\n", 1)[0]:
            return yard_y  # the tool's answer, or a note addressed to the yard
        return yard_y

    group = autogen.GroupChat(agents=[orders_o, yard_y, yard_pc], messages=[], max_round=8,
                              speaker_selection_method=next_speaker)
    return autogen.GroupChatManager(groupchat=group, llm_config=cfg, is_termination_msg=ends_chat)


def seeded():
    # the reply template before the yard sold by the cubic metre
    return build(lambda message: "Delivery confirmed" in (message.get("content") or ""))


def fixed():
    # either of yard_y's closing lines ends the chat: booked, or the lorry diary down
    return build(lambda message: any(line in (message.get("content") or "")
                                     for line in ("Your logs are on the lorry", "nothing is booked yet")))
