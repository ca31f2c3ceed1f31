"""Speaking order, AG2 (`GroupChat` with `speaker_selection_method="round_robin"` under a
`GroupChatManager` with `is_termination_msg`; tools declared with `register_for_llm` on each
caller and `register_for_execution` on the office's proxy, which runs them): a heating engineers'
boiler service desk. `gas_safe_t` finds the home's gas safety certificate with
`gas_safety_record`; `quote_q` prices and books the annual service with `price_service`, which
needs that certificate's number (no service without an in-date certificate on file).

Seeded: the round robin's list was typed in alphabetical order when the desk added the
certificate check: quote_q, who books "from the gas safety certificate gas_safe_t has found",
speaks before gas_safe_t and asks the customer for a certificate number.
Fixed: gas_safe_t is listed before quote_q.
"""

from typing import Annotated

import autogen

from .models import ag2_config

CERTIFICATES = {"HP-2047": {"certificate": "GS-88213", "issued": "2025-04-02", "appliance": "Worcester Greenstar 30i"}}


def gas_safety_record(property_ref: Annotated[str, 'The property reference on the customer\'s invoices, e.g. "HP-0000"']) -> dict:
    """The home's latest gas safety certificate (CP12) and the boiler it covers."""
    found = CERTIFICATES.get(property_ref)
    if found is None:
        return {"property": property_ref, "certificate": None, "note": "no certificate on file"}
    return {"property": property_ref, **found}


def price_service(property_ref: Annotated[str, 'The property reference, e.g. "HP-0000"'],
                  certificate: Annotated[str, 'The gas safety certificate number, e.g. "GS-00000"'],
                  visit_day: Annotated[str, 'The day the customer wants the engineer, e.g. "2026-01-31"']) -> str:
    """Price and book the annual boiler service (£89 inc. VAT, flue check and certificate renewal)."""
    if CERTIFICATES.get(property_ref, {}).get("certificate") != certificate:
        return f"rejected: certificate {certificate} is not on file for {property_ref}"
    return f"booked: service SV-{visit_day[5:7]}{visit_day[8:]} on {visit_day}, 08:00-12:00, £89.00, engineer Carys Bevan"


def signed_off(message: dict) -> bool:
    # the desk's closing lines, booked or not: a rejected booking ends the chat too
    return any(line in (message.get("content") or "") for line in ("engineer will text", "ring you back"))


def build(order: list[str]):
    office_pc = autogen.UserProxyAgent("office_pc", human_input_mode="NEVER", code_execution_config=False,
                                       default_auto_reply="")
    gas_safe_t = autogen.AssistantAgent(
        "gas_safe_t", llm_config=ag2_config(),
        system_message="You keep the gas safety records at Bevan & Daughters Heating.\n"
                       "Look up the certificate with gas_safety_record.\n"
                       'If gas_safety_record fails, say "The records system is down; we will ring you back."')
    quote_q = autogen.AssistantAgent(
        "quote_q", llm_config=ag2_config(),
        system_message="You price and book boiler services at Bevan & Daughters Heating, from the gas safety "
                       "certificate gas_safe_t has found.\n"
                       "Book the service with price_service.\n"
                       'If price_service says booked, say "Service booked - the engineer will text you the day before."\n'
                       'If price_service says rejected, say "We need an in-date gas safety certificate first; '
                       'we will ring you back."\n'
                       'If price_service fails, say "The diary is down; we will ring you back to book."')
    gas_safe_t.register_for_llm(description=gas_safety_record.__doc__)(gas_safety_record)
    quote_q.register_for_llm(description=price_service.__doc__)(price_service)
    office_pc.register_for_execution()(gas_safety_record)
    office_pc.register_for_execution()(price_service)
    desks = {"gas_safe_t": gas_safe_t, "quote_q": quote_q}
    group = autogen.GroupChat(agents=[office_pc, *(desks[n] for n in order)], messages=[], max_round=14,
                              speaker_selection_method="round_robin")
    return autogen.GroupChatManager(groupchat=group, llm_config=ag2_config(), is_termination_msg=signed_off)


def seeded():
    return build(["quote_q", "gas_safe_t"])


def fixed():
    return build(["gas_safe_t", "quote_q"])
