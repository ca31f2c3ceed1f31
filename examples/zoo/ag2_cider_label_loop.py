"""Loop, AG2 GroupChat: a community cider press prints bottle labels for the orchards that
press with it. A checker and a fixer take turns: `a2` checks a label against the labelling rules
with `check_label` ("FAIL: ..." or "PASS"), `Worker` corrects it with `fix_label`; the chat ends
when a2 says APPROVED (or STOPPED: a label the store does not hold). The labels are pydantic
models kept in the press's label store; the app's speaker-selection function passes the turn
between the two, via `press`, who runs the tools: a failed check goes to Worker, a correction
back to a2.

Seeded: `fix_label` builds the corrected label with `model_copy(update=...)` and reports it, but
never puts it back in the store: every check reads the old label, fails the same way, and the two
take turns until the group chat's `max_round`. Fixed: the corrected label is stored.
"""

from typing import Annotated

import autogen
from pydantic import BaseModel

from .models import ag2_config


class Label(BaseModel):
    ref: str
    product: str
    abv: float
    allergens: tuple[str, ...] = ()
    contains_sulphites: bool = True  # the press adds campden tablets to every batch


def fresh_store() -> dict[str, Label]:
    return {"LB-0712": Label(ref="LB-0712", product="Kingston Black medium dry, 500 ml", abv=6.2),
            "LB-0713": Label(ref="LB-0713", product="Dabinett perry, 750 ml", abv=5.4, allergens=("sulphites",))}


REF = Annotated[str, 'The label\'s reference, like "LB-0001"']


def make_tools(store: dict[str, Label], keep: bool):
    def check_label(ref: REF) -> str:
        """Check a bottle label against the labelling rules."""
        label = store.get(ref)
        if label is None:
            return f"UNKNOWN: no label {ref} in the store"
        if label.contains_sulphites and "sulphites" not in label.allergens:
            return f"FAIL: {ref} contains sulphites but does not declare them"
        return f"PASS: {ref} meets the labelling rules"

    def fix_label(ref: REF) -> str:
        """Correct a bottle label so that it declares every allergen it contains."""
        label = store.get(ref)
        if label is None:
            return f"No label {ref} to correct."
        corrected = label.model_copy(update={"allergens": (*label.allergens, "sulphites")})
        if keep:
            store[ref] = corrected
        return f"Corrected {ref}: allergens now {', '.join(corrected.allergens)}."

    return check_label, fix_label


A2 = ('You check bottle labels before they go to the printer.\n'
      'If check_label answers UNKNOWN, say "STOPPED - there is no such label to print."\n'
      'Call check_label until it says PASS.\n'
      'If check_label raises an error, say "The rules checker is down; hold the print run."\n'
      'If check_label answers PASS, say "APPROVED - the label can go to the printer."')

WORKER = ('You correct bottle labels the checker has failed.\n'
          'Call fix_label.\n'
          'If fix_label raises an error, say "The label store is down; I will correct it by hand."\n'
          'Report the result of fix_label.')


def run(task: str, keep: bool):
    a2 = autogen.AssistantAgent("a2", llm_config=ag2_config(), system_message=A2)
    worker = autogen.AssistantAgent("Worker", llm_config=ag2_config(), system_message=WORKER)
    press = autogen.UserProxyAgent("press", human_input_mode="NEVER", code_execution_config=False)
    check_label, fix_label = make_tools(fresh_store(), keep)
    autogen.register_function(check_label, caller=a2, executor=press, description="Check a bottle label.")
    autogen.register_function(fix_label, caller=worker, executor=press, description="Correct a bottle label.")

    def next_speaker(last, groupchat):
        if groupchat.messages[-1].get("tool_calls"):
            return press
        if last is press and len(groupchat.messages) > 1:  # a tool answered
            if groupchat.messages[-2].get("name") == "a2":  # a check: a failed label goes to the fixer
                return worker if "FAIL" in (groupchat.messages[-1].get("content") or "") else a2
            return a2  # a correction: checked again
        return worker if last is a2 else a2  # the request goes to a2 first

    chat = autogen.GroupChat([a2, worker, press], messages=[], max_round=10, speaker_selection_method=next_speaker)
    manager = autogen.GroupChatManager(chat, llm_config=ag2_config(),
                                       is_termination_msg=lambda m: any(w in (m.get("content") or "") for w in ("APPROVED", "STOPPED")))
    return press.initiate_chat(manager, message=task)


TASK = "Please check label LB-0713 before tomorrow's print run."


def seeded():
    return run(TASK, keep=False)


def fixed():
    return run(TASK, keep=True)
