"""Information loss, AG2 (`initiate_chats`, a chat sequence with `summary_method` and
`carryover`): a county sheet-music library's sets-on-loan service for choirs and orchestras.
`front_r` reads a reader's message and writes the hand-over note for the loans desk; that note
is the first chat's summary (`last_msg`), carried over into the second chat, where `loans_2`
finds the set with `find_set` and lends it with `lend_set`, which needs the reader's card.

Seeded: front_r's note line was written when sets were lent against the choir's name alone: it
gives the pieces and how many copies, not the reader's card, so the card the reader gave in
passing never reaches loans_2, who has to ask for it. Fixed: the note gives the card too.
"""

from typing import Annotated

import autogen

from .models import ag2_config

SETS = {"VS-118": ("Faure", "Requiem, Op. 48 (vocal score, Rutter ed.)", 40),
        "VS-240": ("Vivaldi", "Gloria, RV 589 (vocal score)", 32)}
READERS = {"SM-40718": "Ashby Community Choir"}


def find_set(request: Annotated[str, "The reader's request, in the words of the note"]) -> list[dict]:
    """Find the performance sets that match a request."""
    low = request.lower()
    return [{"set_no": no, "composer": c, "title": t, "copies_held": n} for no, (c, t, n) in SETS.items()
            if c.lower() in low or t.split(",")[0].lower() in low]


def lend_set(card: Annotated[str, 'The reader\'s library card, e.g. "SM-10000"'],
             set_no: Annotated[str, 'The set\'s number, e.g. "VS-100"'],
             copies: Annotated[int, "How many copies are wanted"]) -> dict:
    """Lend copies of a performance set to a reader for twelve weeks."""
    if card not in READERS:
        return {"lent": 0, "reason": f"kein Leser {card}"}
    composer, title, held = SETS[set_no]
    return {"lent": min(copies, held), "to": READERS[card], "title": title, "due_back": "in 12 weeks"}


NOTE = {
    "seeded": "Write the hand-over note for the loans desk, giving the pieces wanted and how many copies.",
    "fixed": "Write the hand-over note for the loans desk, giving the pieces wanted, how many copies and the reader's card.",
}


def run(task: str, note: str):
    cfg = ag2_config()
    counter = autogen.UserProxyAgent("counter", human_input_mode="NEVER", code_execution_config=False,
                                     max_consecutive_auto_reply=0)
    front_r = autogen.AssistantAgent("front_r", llm_config=cfg, system_message=(
        "You read messages to the Leicestershire Music Library's performance-sets service.\n" + note))
    loans_2 = autogen.AssistantAgent("loans_2", llm_config=cfg, system_message=(
        "You run the loans desk of the performance-sets service.\n"
        "Find the set with find_set.\n"
        "Lend the copies with lend_set.\n"
        'If lend_set raises an error, say "The loans system is down; we will post the set and confirm by email."\n'
        "In your summary, mark a step ✅ only when its result says it went through; otherwise ❌ with the reason."))
    desk = autogen.UserProxyAgent("desk", human_input_mode="NEVER", code_execution_config=False)
    for f in (find_set, lend_set):
        autogen.register_function(f, caller=loans_2, executor=desk, description=f.__doc__)
    return autogen.initiate_chats([
        {"sender": counter, "recipient": front_r, "message": task, "max_turns": 1, "summary_method": "last_msg"},
        {"sender": desk, "recipient": loans_2, "message": "A reader would like a performance set.",
         "carryover": "Sets go out for 12 weeks; postage is charged at cost.", "max_turns": 3,
         "summary_method": "last_msg"},
    ])


TASK = ("Good afternoon - I'm the new librarian for the Ashby Community Choir and we're doing the Faure "
        "Requiem for our spring concert on 16 May 2026, so could we please borrow 36 copies of the vocal "
        "score? We'd prefer the Rutter edition if you have it, our conductor is fussy about that. "
        "My reader's card is SM-40718, it's in my name, Margaret Ellison-Pryce. Many thanks!")


def seeded():
    return run(TASK, NOTE["seeded"])


def fixed():
    return run(TASK, NOTE["fixed"])
