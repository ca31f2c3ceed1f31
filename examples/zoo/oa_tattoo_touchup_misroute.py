"""Misrouted request, OpenAI Agents SDK (agents as tools, the SDK's "manager" pattern): a tattoo
studio's message inbox. `front` reads clients' messages and puts each to one of two desks it
runs as tools: `aftercare_m`, who answers healing questions from the studio's aftercare sheet
with `aftercare_sheet`, and `ink_b`, who books sessions in the artists' diary with
`book_session` (touch-ups on work under three months old are free).

Seeded: front's routing lines come from before the studio took touch-ups into the diary, when
the aftercare desk sent clients a touch-up form; they still list touch-ups under aftercare, so a
client asking for a touch-up gets the aftercare sheet and never reaches ink_b, the one desk that
can book it. Fixed: touch-ups are listed under the bookings desk.
"""

from __future__ import annotations

from typing import Literal

from agents import Agent, function_tool

from .models import model_string

CLIENTS = {"TS-5530": ("Robin Achterberg", "swallow, inner wrist, by Mara, 2026-02-19")}
DIARY = {("Mara", "2026-04-09"): ["16:30"], ("Dev", "2026-04-09"): []}
SHEET = {"healing": "Keep it clean, thin layer of balm twice a day, no swimming for 2 weeks.",
         "fading": "Patchy lines after peeling are normal; a touch-up is booked by the bookings desk.",
         "sun": "SPF 50 on healed work; none on fresh work."}


@function_tool
def aftercare_sheet(question: str) -> str:
    """The parts of the studio's aftercare sheet that answer a client's question.

    Args:
        question: The client's question, in their words.
    """
    asked = question.lower()
    found = {topic: advice for topic, advice in SHEET.items() if topic[:4] in asked}
    return "\n".join(f"{topic.title()}: {advice}" for topic, advice in (found or SHEET).items())


@function_tool
def book_session(client_ref: str, artist: Literal["Mara", "Dev"], day: str,
                 session: Literal["touch-up", "consultation", "full session"]) -> str:
    """Book a session in an artist's diary.

    Args:
        client_ref: The client's card number, e.g. "TS-0000".
        artist: The artist the client wants.
        day: The day asked for, e.g. "2026-01-31".
        session: What the session is for.
    """
    if client_ref not in CLIENTS:
        return f"No client card {client_ref} - ask them to fill in the consent form first."
    free = DIARY.get((artist, day), [])
    if not free:
        return f"{artist} has nothing free on {day}."
    start = free.pop(0)
    fee = "free (work under 3 months)" if session == "touch-up" else "£60 deposit"
    return f"{artist} has you down on {day} at {start} for a {session}, {fee}. Ref {client_ref}-{day[5:7]}{day[8:]}."


ROUTES = {
    "seeded": ("Anything about healing, itching, swelling, fading or touch-ups is put to aftercare_m through "
               "ask_aftercare.\n"
               "Anything about consultations, deposits, cover-ups or new designs is put to ink_b through "
               "ask_bookings.\n"),
    "fixed": ("Anything about healing, itching, swelling or fading is put to aftercare_m through ask_aftercare.\n"
              "Anything about consultations, deposits, cover-ups, touch-ups or new designs is put to ink_b through "
              "ask_bookings.\n"),
}


def build(routes: str) -> Agent:
    aftercare_m = Agent(name="aftercare_m", model=model_string(), tools=[aftercare_sheet], instructions=(
        "You give Black Lantern Tattoo's aftercare advice and nothing else.\n"
        "Look the advice up with aftercare_sheet.\n"
        'If aftercare_sheet raises an error, say "The aftercare sheet is not to hand; the studio will email it to you."\n'
        "Then pass on what aftercare_sheet says, word for word."))
    ink_b = Agent(name="ink_b", model=model_string(), tools=[book_session], instructions=(
        "You keep the artists' diary at Black Lantern Tattoo.\n"
        "Book the session with book_session.\n"
        'If book_session raises an error, say "The diary is not answering just now; we will message you back today."\n'
        "Then pass on what book_session says, word for word."))
    return Agent(name="front", model=model_string(), tools=[
        aftercare_m.as_tool(tool_name="ask_aftercare", tool_description="Ask the aftercare desk."),
        ink_b.as_tool(tool_name="ask_bookings", tool_description="Ask the bookings desk."),
    ], instructions=(
        "You read messages sent to Black Lantern Tattoo, Leith Walk.\n" + routes
        + 'If ask_aftercare or ask_bookings raises an error, say "Sorry, the desk cannot be reached; '
          'we will reply by email."\n'
        + "Pass on whatever ask_aftercare or ask_bookings says, word for word.\n"
        'Otherwise reply "Walk-ins are Saturdays from 12:00; bring photo ID."'))


def seeded():
    return build(ROUTES["seeded"])


def fixed():
    return build(ROUTES["fixed"])
