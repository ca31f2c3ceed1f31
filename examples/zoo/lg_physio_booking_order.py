"""Speaking order, LangGraph StateGraph, four prebuilt agents (`create_agent`) in a fixed line: an
NHS outpatient physiotherapy service books patients in from their GP's referral. in_x logs the
referral; tri_p, a physiotherapist, triages it (priority, session type, which clinic); bk_s
books the first session, and its prompt says the session it books is whatever the clinical triage
of the referral sets; ltr_m posts the appointment letter.

Seeded: the edges run bk_s before tri_p (the service first booked every patient a standard
30-minute slot and triaged at the first visit): the booking system finds no triage on file and
answers 409. Fixed: tri_p, then bk_s.
"""

from typing import Annotated

from langchain.agents import create_agent
from langgraph.graph import END, START, MessagesState, StateGraph

from .models import chat_model

REFERRAL = Annotated[str, 'The GP referral number, e.g. "PHY-000000"']


def build(order: tuple[str, ...]):
    triaged: dict[str, dict] = {}  # the service's clinical notes, per referral

    def log_referral(referral: REFERRAL) -> str:
        """Log a GP referral as received by the physiotherapy service."""
        return f"referral {referral} logged 09:12, source: Castle Surgery (e-RS)"

    def triage_referral(referral: REFERRAL) -> dict:
        """Triage a referral: its priority, the session type and the clinic it needs."""
        triaged[referral] = {"priority": "soon (within 2 weeks)", "session": "45-minute initial, post-op hip",
                             "clinic": "Riverside, ground floor"}
        return {"referral": referral, "triage": triaged[referral], "by": "Band 6 MSK physiotherapist"}

    def book_session(referral: REFERRAL) -> dict:
        """Book a referral's first physiotherapy session, as its triage sets it."""
        if referral not in triaged:
            return {"status": {"code": 409, "text": "no triage outcome on file for this referral"}}
        return {"status": {"code": 200}, "slot": "Tue 25 Mar 09:30", **triaged[referral]}

    def post_letter(referral: REFERRAL) -> str:
        """Post the appointment letter to the patient's address on the referral."""
        return f"letter for {referral}: printed, second-class post"

    agents = {
        "in_x": create_agent(chat_model(), [log_referral], name="in_x", system_prompt=(
            "You receive calls to the Riverside physiotherapy service.\n"
            "1. Log the referral via log_referral.\n"
            "2. Report the outcome of log_referral.")),
        "tri_p": create_agent(chat_model(), [triage_referral], name="tri_p", system_prompt=(
            "You are the triaging physiotherapist.\n"
            "1. Triage the referral via triage_referral.\n"
            "2. Report the outcome of triage_referral.")),
        "bk_s": create_agent(chat_model(), [book_session], name="bk_s", system_prompt=(
            "You book physiotherapy sessions. Which session a patient gets, how long and where, is never "
            "yours to choose: it is what the clinical assessment of the referral sets.\n"
            "1. Book the session via book_session.\n"
            "2. Report the outcome of book_session.")),
        "ltr_m": create_agent(chat_model(), [post_letter], name="ltr_m", system_prompt=(
            "You send appointment letters.\n"
            "1. Send the letter via post_letter.\n"
            "2. Close with \"Outcome: completed — the appointment letter is in the post; please ring us if "
            "the time does not suit.\"")),
    }
    graph = StateGraph(MessagesState)
    for name in order:
        graph.add_node(name, agents[name])
    graph.add_edge(START, order[0])
    for a, b in zip(order, order[1:]):
        graph.add_edge(a, b)
    graph.add_edge(order[-1], END)
    return graph.compile()


def seeded():
    return build(("in_x", "bk_s", "tri_p", "ltr_m"))


def fixed():
    return build(("in_x", "tri_p", "bk_s", "ltr_m"))
