"""Premature termination, AutoGen AgentChat (RoundRobinGroupChat), four members: a university
registry reissues degree certificates and transcripts. reg_in looks the graduate's record up;
fees_q takes the fee; docs_v queues the documents for printing; post_d posts them and closes the
request with the team's stop word, COMPLETE.

Seeded: the team's `TextMentionTermination("COMPLETE")` listens to every member. The student
record's own `programme_status` is "COMPLETE" for anyone who finished their degree, and reg_in
reports the record: the run ends normally there, before the fee is taken and anything is printed
or posted. Fixed: the condition listens to post_d alone (`sources=["post_d"]`).
"""

from __future__ import annotations

from typing import Annotated, Literal

from autogen_agentchat.agents import AssistantAgent
from autogen_agentchat.conditions import MaxMessageTermination, TextMentionTermination
from autogen_agentchat.teams import RoundRobinGroupChat

from .models import agentchat_client

STUDENT = Annotated[str, 'The student number, e.g. "1900000"']


def student_record(student: STUDENT) -> dict:
    """A graduate's record: programme, award and whether any hold blocks documents."""
    return {"student": student, "programme": "BSc Geography", "programme_status": "COMPLETE",
            "award": {"class": "2:1", "conferred": "2019-07-12"}, "holds": []}


def charge_fee(student: STUDENT,
               item: Annotated[Literal["certificate", "transcript", "certificate and transcript"],
                               "What is being reissued"]) -> str:
    """Take the reissue fee from the card the graduate registered."""
    return f"Zahlung erfolgt: £55.00 for {item}, receipt RG-77120 ({student})"


def queue_documents(student: STUDENT) -> dict:
    """Queue a replacement certificate and an official transcript for printing."""
    return {"student": student, "print": {"code": 202, "queued": ["certificate", "transcript"], "batch": "PR-0412"}}


def dispatch_documents(student: STUDENT,
                       postcode: Annotated[str, 'The delivery postcode, e.g. "BA1 1AA"']) -> tuple:
    """Post printed documents by tracked delivery."""
    return ("sent", "Royal Mail Special Delivery", f"AB{student[-6:]}GB", postcode)


def build(stop: TextMentionTermination) -> RoundRobinGroupChat:
    client = agentchat_client()
    reg_in = AssistantAgent(
        "reg_in", model_client=client, tools=[student_record], reflect_on_tool_use=True,
        system_message="You receive requests to the University of Wessex registry.\n"
                       "1. Look the graduate up via student_record.\n"
                       "2. Where student_record raises an error, state \"The student records system is down; "
                       "the registry will email you.\"\n"
                       "3. Report the outcome of student_record.")
    fees_q = AssistantAgent(
        "fees_q", model_client=client, tools=[charge_fee], reflect_on_tool_use=True,
        system_message="You take registry fees.\n"
                       "1. Take the fee via charge_fee.\n"
                       "2. Where charge_fee raises an error, state \"The card payment did not go through; "
                       "nothing has been charged.\"\n"
                       "3. Report the outcome of charge_fee.")
    docs_v = AssistantAgent(
        "docs_v", model_client=client, tools=[queue_documents], reflect_on_tool_use=True,
        system_message="You print award documents once the fee is paid.\n"
                       "1. Queue the documents via queue_documents.\n"
                       "2. Where queue_documents raises an error, state \"The print room is unavailable; your "
                       "documents will be printed tomorrow.\"\n"
                       "3. Report the outcome of queue_documents.")
    post_d = AssistantAgent(
        "post_d", model_client=client, tools=[dispatch_documents], reflect_on_tool_use=True,
        system_message="You post printed documents and close registry requests.\n"
                       "1. Post the documents via dispatch_documents.\n"
                       "2. Where dispatch_documents raises an error, state \"The post room could not send "
                       "them today; they will go tomorrow.\"\n"
                       "3. Close with \"Request COMPLETE: your documents are in the post.\"")
    return RoundRobinGroupChat([reg_in, fees_q, docs_v, post_d],
                               termination_condition=stop | MaxMessageTermination(16))


def seeded():
    return build(TextMentionTermination("COMPLETE"))


def fixed():
    return build(TextMentionTermination("COMPLETE", sources=["post_d"]))
