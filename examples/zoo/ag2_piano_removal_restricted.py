"""Restricted tool access, AG2 group chat patterns (`initiate_group_chat` with a `DefaultPattern`,
hand-offs by `OnCondition`): a piano removals firm's booking chat. `front_p` takes the enquiry and
checks the access at the address (`survey_access`); `crew_c` owns the crew diary and books the
two- or four-person crew (`book_crew`). front_p hands over to crew_c by an LLM condition.

Seeded: front_p's lines come from the firm's single-agent pilot, when the front desk booked the
crews itself: they still tell it to book the crew with `book_crew`, crew_c's tool, which front_p
was never given. Fixed: front_p hands the booking over to crew_c.
"""

from typing import Annotated

from autogen import ConversableAgent, UserProxyAgent
from autogen.agentchat import initiate_group_chat
from autogen.agentchat.group import AgentTarget, OnCondition, StringLLMCondition, TerminateTarget
from autogen.agentchat.group.patterns import DefaultPattern

from .models import ag2_config

ACCESS = {"BA1 5HR": "3 steps to the door, narrow hall (82 cm), on-street parking with permit"}
DIARY = {"2026-10-03": ["08:00 crew of 4 (Gav)"], "2026-10-04": []}


def survey_access(postcode: Annotated[str, 'The address\'s postcode, e.g. "BA2 4QN"']) -> str:
    """What the surveyors' notes say about moving a piano in or out at an address."""
    return ACCESS.get(postcode, f"{postcode}: no notes yet - surveyor to visit")


def book_crew(move_date: Annotated[str, 'The moving day, e.g. "2026-01-31"'],
              piano: Annotated[str, 'The kind of piano, e.g. "upright"']) -> tuple:
    """Book a removals crew for a piano on a day."""
    free = DIARY.get(move_date, [])
    if not free:
        return (409, "no crew free", move_date)
    return (201, f"{free.pop(0)} booked for the {piano}", move_date, "dust sheets and skid board included")


FRONT = {
    "seeded": ("You answer enquiries to Keystone Piano Removals, Bath.\n"
               "Check the access with survey_access.\n"
               "Book the crew with book_crew.\n"
               'If survey_access raises an error, say "Our survey notes are offline; a surveyor will call you."'),
    "fixed": ("You answer enquiries to Keystone Piano Removals, Bath.\n"
              "Check the access with survey_access.\n"
              "Hand over to crew_c for the crew booking.\n"
              'If survey_access raises an error, say "Our survey notes are offline; a surveyor will call you."'),
}


def run(task: str, front_lines: str):
    cfg = ag2_config()
    front_p = ConversableAgent("front_p", llm_config=cfg, system_message=front_lines, functions=[survey_access])
    crew_c = ConversableAgent("crew_c", llm_config=cfg, functions=[book_crew], system_message=(
        "You keep the crew diary at Keystone Piano Removals.\n"
        "Book the crew with book_crew.\n"
        'If book_crew raises an error, say "The crew diary is offline; we will ring you to fix a day."\n'
        "In your summary, mark a step ✅ only when its result says it went through; otherwise ❌ with the reason."))
    front_p.handoffs.add_llm_conditions([
        OnCondition(target=AgentTarget(crew_c), condition=StringLLMCondition("The customer wants a crew booked."))])
    front_p.handoffs.set_after_work(TerminateTarget())
    crew_c.handoffs.set_after_work(TerminateTarget())
    customer = UserProxyAgent("customer", human_input_mode="NEVER", code_execution_config=False)
    pattern = DefaultPattern(initial_agent=front_p, agents=[front_p, crew_c], user_agent=customer,
                             group_after_work=TerminateTarget())
    return initiate_group_chat(pattern=pattern, messages=task, max_rounds=14)


TASK = ("Hi, we're moving from Lansdown to a flat in Widcombe and need our upright piano (an old Challen, "
        "quite heavy!) moved on Saturday 3rd October 2026. The old house is BA1 5HR, the new flat is "
        "ground floor so should be easy. My mum will be at the old house to let you in. Could you book "
        "that for us and let me know a rough price?")


def seeded():
    return run(TASK, FRONT["seeded"])


def fixed():
    return run(TASK, FRONT["fixed"])
