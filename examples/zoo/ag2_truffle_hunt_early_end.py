"""Premature termination, AG2 (`GroupChat` with `allowed_or_disallowed_speaker_transitions`, the
speakers' order set by a transition graph, under a `GroupChatManager` whose `is_termination_msg`
ends the chat): a truffle hunt in the Langhe. `accoglienza_a` acknowledges the request with the
farm's standard reply, `cane_k` checks which truffle dog is free that morning, and `guida_g`, the
trifolao, assigns himself and confirms the hunt; only a hunt he confirms goes in the diary.

Seeded: the manager's stop test was lifted from the farm's old booking bot, whose last word was
"prenotazione confermata": it ends the chat on any message mentioning "conferma", and the
standard acknowledgement says the confirmation will follow ("la conferma arriva dal trifolao"),
so the chat ends before the dog or the guide is ever asked. Fixed: it stops on the guide's
"CACCIA CONFERMATA".
"""

import autogen

from .models import ag2_config


def old_bot_stop(message: dict) -> bool:
    return "conferma" in (message.get("content") or "").lower()


def guide_confirmed(message: dict) -> bool:
    return "CACCIA CONFERMATA" in (message.get("content") or "")


def build(stop_test):
    cfg = ag2_config()
    cliente = autogen.UserProxyAgent("cliente", human_input_mode="NEVER", code_execution_config=False,
                                     default_auto_reply="")
    accoglienza_a = autogen.AssistantAgent(
        "accoglienza_a", llm_config=cfg,
        system_message="You answer the enquiries of Cascina Trifolè, a truffle farm near Alba.\n"
                       'Say "Grazie! Abbiamo ricevuto la richiesta: la conferma arriva dal trifolao appena '
                       'controllati cane e bosco."')
    cane_k = autogen.AssistantAgent(
        "cane_k", llm_config=cfg,
        system_message="You keep the diary of the farm's truffle dogs.\n"
                       "Write a note for the guide in English with the day and the party size of the hunt.")
    guida_g = autogen.AssistantAgent(
        "guida_g", llm_config=cfg,
        system_message="You are the farm's trifolao, who leads the hunts.\n"
                       'Say "Cane e guida assegnati. CACCIA CONFERMATA: ritrovo alle 8:30 alla cascina, '
                       'scarponi consigliati."')
    order = {cliente: [accoglienza_a], accoglienza_a: [cane_k], cane_k: [guida_g], guida_g: [cliente]}
    group = autogen.GroupChat(agents=[cliente, accoglienza_a, cane_k, guida_g], messages=[], max_round=8,
                              allowed_or_disallowed_speaker_transitions=order,
                              speaker_transitions_type="allowed")
    return autogen.GroupChatManager(groupchat=group, llm_config=cfg, is_termination_msg=stop_test)


def seeded():
    return build(old_bot_stop)


def fixed():
    return build(guide_confirmed)
