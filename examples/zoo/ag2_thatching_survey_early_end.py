"""Premature termination, AG2 (a `GroupChat` whose speaker order is a function, tools declared
with `register_for_llm` on the caller and `register_for_execution` on the yard's proxy, the
manager's own `is_termination_msg`): a thatcher's roof surveys. `records_r` finds the property on
the yard's books with `find_property`; `surveyor_s` then books the survey visit with
`book_survey`. The chat is meant to end once the customer's survey is booked and they have been
written to.

Seeded: "end once the customer has had a signed reply" was written as any message signed off
"regards": records_r's own reply, reporting the property it found, is signed the same way, so the
chat ends, normally, before surveyor_s has booked anything.
Fixed: it ends on surveyor_s's reply.
"""

from __future__ import annotations

from typing import Annotated

import autogen

from .models import ag2_config

PROPERTIES = {"TH-2291": {"property_id": "PR-5530", "address": "Rose Cottage, Lower Slaughter",
                          "roof": "long straw, ridge 2009", "listed": True}}
VISITS: list[str] = []


def build(ends_chat):
    cfg = ag2_config()
    yard_pc = autogen.UserProxyAgent("yard_pc", human_input_mode="NEVER", code_execution_config=False,
                                     default_auto_reply="")
    records_r = autogen.AssistantAgent("records_r", llm_config=cfg, system_message=(
        "You are records_r at Cotswold Reed & Straw Thatchers.\n"
        "Find the property with find_property.\n"
        'If find_property fails, write "Our property records are not answering; we will write again shortly."\n'
        "Report what find_property answered."))
    surveyor_s = autogen.AssistantAgent("surveyor_s", llm_config=cfg, system_message=(
        "You are surveyor_s, the roof surveyor at Cotswold Reed & Straw Thatchers.\n"
        "Book the survey visit with book_survey.\n"
        'If book_survey fails, write "The survey diary is not answering; nothing is booked yet."\n'
        "Report what book_survey answered."))

    @yard_pc.register_for_execution()
    @records_r.register_for_llm(description="Find a property on the yard's books by the customer's reference.")
    def find_property(customer_ref: Annotated[str, 'The customer\'s reference from past invoices, like "TH-1000"']) -> dict:
        return PROPERTIES.get(customer_ref.strip().upper(), {"status": "not_found", "customer_ref": customer_ref})

    @yard_pc.register_for_execution()
    @surveyor_s.register_for_llm(description="Book a surveyor's visit to inspect a thatched roof.")
    def book_survey(property_id: Annotated[str, 'The yard\'s property id, like "PR-1000"'],
                    day: Annotated[str, 'The day of the visit, like "2026-01-31"']) -> dict:
        VISITS.append(property_id)
        return {"status": "booked", "visit": f"SV-{8800 + len(VISITS)}", "property_id": property_id,
                "day": day, "arrive": "between 08:00 and 10:00", "bring": "access to the loft"}

    order = {"yard_pc": records_r, "records_r": surveyor_s}

    def next_speaker(last, chat):
        if chat.messages[-1].get("tool_calls"):
            return yard_pc  # the yard's proxy runs the tool ...
        if last is yard_pc and len(chat.messages) > 1 and chat.messages[-2].get("tool_calls"):
            return chat.agent_by_name(chat.messages[-2]["name"])  # ... and its answer goes back to who asked
        return order.get(last.name)

    group = autogen.GroupChat(agents=[yard_pc, records_r, surveyor_s], messages=[], max_round=12,
                              speaker_selection_method=next_speaker)
    return autogen.GroupChatManager(groupchat=group, llm_config=cfg, is_termination_msg=ends_chat)


def seeded():
    # "end once the customer has had a signed reply", written as any signed message
    return build(lambda message: "regards" in str(message.get("content") or "").lower())


def fixed():
    return build(lambda message: message.get("name") == "surveyor_s" and bool(message.get("content"))
                 and not message.get("tool_calls"))
