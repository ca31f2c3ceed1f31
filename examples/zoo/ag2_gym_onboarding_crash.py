"""Runtime crash, AG2 (`initiate_chats`: three chats in a row, each carried over into the next):
a climbing gym's onboarding of a new member, built like the customer-onboarding sequence of
AutoGen's course. `member_proxy` speaks for the new member and runs the tools; `intake_p` finds
the member's sign-up with `find_signup`, `prefs_k` records what they want to climb with
`save_preferences`, and `welcome_e` books the induction with `book_induction`. Each agent may
end its chat early by saying "terminate" when the member has nothing more to add.

Seeded: the proxy's stop test is the course's `"terminate" in msg.get("content").lower()`,
written for a chat of plain text. A message that calls a tool has no content (`None`), so the
first look-up the intake agent asks for crashes the app with an `AttributeError` before
anything is recorded. Fixed: a message without content is read as empty text.
"""

from typing import Annotated

import autogen

from .models import ag2_config

MEMBER = Annotated[str, 'The membership number on the sign-up email, e.g. "CW-00000"']
SIGNUPS = {"CW-40872": {"name": "Tomasz Wilk", "plan": "monthly off-peak", "waiver": "signed 2026-04-02"}}


def find_signup(member: MEMBER) -> dict:
    """The member's sign-up as the front desk system holds it."""
    found = SIGNUPS.get(member)
    return {"status": 404} if found is None else {"status": 200, "signup": {"member": member} | found}


def save_preferences(member: MEMBER, details: Annotated[str, "What the member says they want to climb, in their words"]) -> str:
    """Record what a new member wants to climb, for the route setters' newsletter."""
    return f"preferences saved for {member}"


def book_induction(member: MEMBER, slot: Annotated[str, 'An induction slot, e.g. "Sat 09:30"']) -> tuple:
    """Book a new member onto a wall induction with an instructor."""
    if member not in SIGNUPS:
        return (False, {"member": member, "reason": "no sign-up on file"})
    return (True, {"member": member, "slot": slot, "instructor": "Ines", "bring": "indoor shoes or hire at the desk"})


def crashes_on_tool_calls(msg: dict) -> bool:
    return "terminate" in msg.get("content").lower()


def reads_none_as_empty(msg: dict) -> bool:
    return "terminate" in (msg.get("content") or "").lower()


def note_and_reply(sender, recipient, summary_args) -> str:
    """The intake chat's carry-over: the member's own note, then the desk's answer, so the later
    desks read what the member asked for in their words."""
    messages = sender.chat_messages[recipient]
    return f"{messages[0]['content']}\n{messages[-1]['content']}"


def run(task: str, stop_test):
    intake_p = autogen.AssistantAgent(
        "intake_p", llm_config=ag2_config(),
        system_message="You welcome new members of Crux Works climbing gym.\n"
                       "- Look the member's sign-up up with find_signup.\n"
                       "- If find_signup comes back with 404, say \"We can't find that membership number yet - "
                       "could you check it against your sign-up email?\"\n"
                       "- Let the member know their sign-up is on file.")
    prefs_k = autogen.AssistantAgent(
        "prefs_k", llm_config=ag2_config(),
        system_message="You ask new members what they like to climb.\n"
                       "- Note what they said with save_preferences.\n"
                       "- Let the member know their preferences are saved.")
    welcome_e = autogen.AssistantAgent(
        "welcome_e", llm_config=ag2_config(),
        system_message="You book new members' wall inductions.\n"
                       "- Book the induction with book_induction.\n"
                       "- If book_induction comes back with False, say \"We couldn't book the induction: there is "
                       "no sign-up on file for that number yet.\"\n"
                       "- Let the member know the induction is booked.")
    member_proxy = autogen.UserProxyAgent("member_proxy", human_input_mode="NEVER", code_execution_config=False,
                                          is_termination_msg=stop_test)
    for tool, caller in ((find_signup, intake_p), (save_preferences, prefs_k), (book_induction, welcome_e)):
        autogen.register_function(tool, caller=caller, executor=member_proxy, description=tool.__doc__)
    return autogen.initiate_chats([
        {"sender": member_proxy, "recipient": intake_p, "message": task, "max_turns": 2,
         "summary_method": note_and_reply},
        {"sender": member_proxy, "recipient": prefs_k, "message": "Here is what I'd like to climb.", "max_turns": 2,
         "summary_method": "last_msg"},
        {"sender": member_proxy, "recipient": welcome_e, "message": "Please book my induction.", "max_turns": 2,
         "summary_method": "last_msg"},
    ])


TASK = ("Hi! I've just joined online, membership number CW-40872 (Tomasz). I mostly want to get into bouldering, "
        "maybe some top rope later with my sister once she's back from Kraków. I've climbed outdoors a bit in the "
        "Tatras but never indoors. Could I do the induction on Sat 09:30? I work shifts so weekdays are hard.")


def seeded():
    return run(TASK, crashes_on_tool_calls)


def fixed():
    return run(TASK, reads_none_as_empty)
