"""Speaking order, AG2 (nested chats, `register_nested_chats`): a vineyard's harvest volunteer
scheme. A volunteer writes to `harvest_desk`, which answers through a queue of nested chats: one
with `vines_check`, who finds the rows ready to pick with `ripe_rows`, and one with `roster`, who
puts the volunteer on one of those rows with `assign_row`. Each nested chat gets the volunteer's
message, and AG2 carries the summaries of the chats already run over into the next one.

Seeded: the chat queue lists roster's chat before vines_check's (it was built as a dict of desks
and sorted by name), so roster runs with no ripe rows to choose from and asks for one, and the
rows are only found afterwards. Fixed: vines_check's chat comes first, as the scheme runs.
"""

from typing import Annotated

import autogen

from .models import ag2_config

# rows of the Ashcombe Hill vineyard, with the refractometer reading of the last sample (degrees Brix)
SAMPLES = {"R-03": ("Bacchus", 19.5), "R-07": ("Pinot Noir", 21.8), "R-11": ("Chardonnay", 22.4), "R-14": ("Ortega", 17.0)}
RIPE_AT = 21.0
ROTA: dict[str, list[str]] = {}


def ripe_rows(pick_day: Annotated[str, 'The harvest day, e.g. "2026-09-30"']) -> dict:
    """Which rows are ripe enough to pick on a harvest day, from the last samples."""
    ready = [{"row": row, "grape": grape, "brix": brix} for row, (grape, brix) in SAMPLES.items() if brix >= RIPE_AT]
    return {"day": pick_day, "ready": ready, "wait": [r for r, (_, b) in SAMPLES.items() if b < RIPE_AT]}


def assign_row(volunteer_id: Annotated[str, 'The volunteer\'s scheme number, e.g. "VH-1234"'],
               row: Annotated[str, 'A row that is ready to pick, e.g. "R-01"'],
               pick_day: Annotated[str, 'The harvest day, e.g. "2026-09-30"']) -> str:
    """Put a volunteer on a row's picking team for a harvest day."""
    if row not in SAMPLES:
        return f"Reihe {row} gibt es nicht - no such row"
    ROTA.setdefault(row, []).append(volunteer_id)
    return f"{volunteer_id} picks row {row} ({SAMPLES[row][0]}) on {pick_day}; team of {len(ROTA[row])}, secateurs at the barn."


def asking(instruction: str):
    """A nested chat's opening message: the desk's instruction and the volunteer's own words."""
    def message(recipient, messages, sender, config):
        return f"{instruction}\n\nThe volunteer wrote: {messages[-1]['content']}"
    return message


def run(task: str, rows_first: bool):
    volunteer = autogen.UserProxyAgent("volunteer", human_input_mode="NEVER", code_execution_config=False,
                                       max_consecutive_auto_reply=0)
    harvest_desk = autogen.ConversableAgent("harvest_desk", llm_config=False, human_input_mode="NEVER")
    vines_check = autogen.AssistantAgent("vines_check", llm_config=ag2_config(), system_message=(
        "You keep the sample book at Ashcombe Hill vineyard.\n"
        "Find the rows ready to pick with ripe_rows.\n"
        "Pass on what ripe_rows said."))
    roster = autogen.AssistantAgent("roster", llm_config=ag2_config(), system_message=(
        "You write the picking rota at Ashcombe Hill vineyard, from the rows found ready to pick.\n"
        "Put the volunteer on a ready row with assign_row.\n"
        "If assign_row says there is no such row, tell the volunteer which rows are ready instead.\n"
        "Confirm the picking slot."))
    vines_check.register_for_llm(name="ripe_rows", description=ripe_rows.__doc__)(ripe_rows)
    roster.register_for_llm(name="assign_row", description=assign_row.__doc__)(assign_row)
    harvest_desk.register_for_execution(name="ripe_rows")(ripe_rows)
    harvest_desk.register_for_execution(name="assign_row")(assign_row)
    chats = {
        "vines": {"recipient": vines_check, "message": asking("Which rows can be picked that day?"),
                  "summary_method": "last_msg", "max_turns": 2},
        "rota": {"recipient": roster, "message": asking("Please put this volunteer on the rota."),
                 "summary_method": "last_msg", "max_turns": 2},
    }
    queue = [chats["vines"], chats["rota"]] if rows_first else [chats[k] for k in sorted(chats, key=lambda k: k[0])]
    harvest_desk.register_nested_chats(queue, trigger=volunteer)
    return volunteer.initiate_chat(harvest_desk, message=task, max_turns=1)


TASK = ("Hello! I'm on your harvest volunteer list (VH-2231) and I've booked the day off work for "
        "2026-09-19, so count me in for picking that Saturday. My friend Jo might come too but she hasn't "
        "registered yet - can she just turn up? I'll bring my own gloves.")


def seeded():
    return run(TASK, False)


def fixed():
    return run(TASK, True)
