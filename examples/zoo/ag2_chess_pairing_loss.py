"""Information loss, AG2 (AutoGen 0.2 API), two chats started one after the other by the app's
own function: a chess club's rapidplay night. The club's inbox (`club`, a proxy) first talks to
`a1`, who welcomes late entries, then opens a second chat with `Worker`, who pairs the player into
the round with `pair_late_entry`. Pairing needs the player's club membership number
("CC-2231"), which players write inside their message.

Seeded: the second chat opens with a hand-over line built from the first chat's summary (AG2's
default: its last message, a1's welcome), so the membership number never reaches Worker, who
asks for it. Fixed: the hand-over line quotes the player's own message, read from the first
chat's history, above the summary.
"""

from typing import Annotated

import autogen

from .models import ag2_config

MEMBERS = {"CC-2231": {"name": "Ana Ruiz", "rating": 1712}, "CC-0907": {"name": "Tom Hale", "rating": 1480}}
BOARDS_USED = 11
ROUND = "round 1 of the March rapidplay"


def pair_late_entry(member: Annotated[str, 'The player\'s club membership number, like "CC-1000"']) -> str:
    """Pair a late entry into tonight's first round (against the reserve or the bye player)."""
    player = MEMBERS.get(member)
    if player is None:
        return f"Unknown member {member}: nobody paired."
    return (f"Paired {player['name']} ({member}, rapid {player['rating']}) on board {BOARDS_USED + 1} "
            f"with black against the club reserve in {ROUND}.")


A1 = ('You welcome players who enter the rapidplay late.\n'
      'Say "Thanks for entering! Late entries are fine until 19:25; I am passing you to the pairings desk."')

WORKER = ('You make the pairings for the club\'s rapidplay nights.\n'
          'Call pair_late_entry.\n'
          'If pair_late_entry raises an error, say "The pairing program has crashed; the arbiter will pair you by hand at the board."\n'
          'Report the result of pair_late_entry.')


def run(task: str, with_message: bool):
    a1 = autogen.AssistantAgent("a1", llm_config=ag2_config(), system_message=A1)
    worker = autogen.AssistantAgent("Worker", llm_config=ag2_config(), system_message=WORKER)
    club = autogen.UserProxyAgent("club", human_input_mode="NEVER", code_execution_config=False,
                                  max_consecutive_auto_reply=2)
    autogen.register_function(pair_late_entry, caller=worker, executor=club,
                              description="Pair a late entry into tonight's first round.")
    welcome = club.initiate_chat(a1, message=task, max_turns=1)
    handover = f"Late entry for {ROUND}. From the welcome desk: {welcome.summary}"
    if with_message:
        handover = f"The player wrote: {welcome.chat_history[0]['content']}\n\n{handover}"
    return club.initiate_chat(worker, message=handover, max_turns=2)


TASK = "Hi, can I still get into tonight's rapidplay? Membership CC-0907."


def seeded():
    return run(TASK, with_message=False)


def fixed():
    return run(TASK, with_message=True)
