"""Incorrect verification, AG2 (AutoGen 0.2 API): a brewery's QA desk releases finished batches
to the canning line. The release goes through the lab's system, a German-speaking LIMS whose
client library answers a tuple `(released, note)`: a batch whose haze reading is over the limit
is held, with the reason in German.

Seeded: qa_desk's steps close with a cheerful line about the canning line whatever the tuple's
first item was. Fixed: steps before it answer every release the lab refused: a held batch
("gesperrt") with the lab's reason, any other refusal (a batch number the lab does not know,
"unbekannt") by keeping the batch in the tank, both read from the tuple's first item.
"""


from typing import Annotated

import autogen

from .models import ag2_config

HAZE_LIMIT_EBC = 2.0
HAZE = {"BR-2207": 4.1, "BR-2206": 0.8}  # the lab's last haze reading per batch, EBC units


def release_batch(batch: Annotated[str, 'The batch number on the tank card, like "BR-1000"']) -> tuple[bool, str]:
    """Release a finished batch to the canning line."""
    haze = HAZE.get(batch)
    if haze is None:
        return False, f"Charge {batch} unbekannt"
    if haze > HAZE_LIMIT_EBC:
        return False, f"Charge {batch} gesperrt: Trübung {haze} EBC über Grenzwert {HAZE_LIMIT_EBC} EBC"
    return True, f"Charge {batch} freigegeben für Abfüllung"


STEPS = """You are the QA desk of Fellside Brewing.
* Call release_batch.
* If release_batch raises an error, say "The lab system is not answering; the batch stays in the tank until it is back."
{check}* Say "Cheers! It's off to the canning line - cans should be on pallets by Friday."
"""

HELD = ('* If release_batch answers gesperrt, say "The lab has held this batch (gesperrt): its haze reading is '
        'over our limit, so it stays in the tank for another look."\n'
        '* If release_batch answers False, say "The lab did not release this batch; it stays in the tank until '
        'QA has checked the batch number and the lab\'s note."\n')


def run(task: str, check: str):
    qa_desk = autogen.AssistantAgent("qa_desk", llm_config=ag2_config(), system_message=STEPS.format(check=check))
    cellar = autogen.UserProxyAgent("cellar", human_input_mode="NEVER", code_execution_config=False,
                                    max_consecutive_auto_reply=3)
    autogen.register_function(release_batch, caller=qa_desk, executor=cellar,
                              description="Release a finished batch to the canning line.")
    return cellar.initiate_chat(qa_desk, message=task, max_turns=2)


TASK = "Batch BR-2207 finished lagering yesterday, please release it for canning."


def seeded():
    return run(TASK, "")


def fixed():
    return run(TASK, HELD)
