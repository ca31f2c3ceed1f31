"""Missing termination, AG2 two-agent code chat: a letterpress studio quotes a print run. The
estimator (`AssistantAgent`) works the sheets and the price out in a Python block; `press_room`
(`UserProxyAgent` with a `LocalCommandLineCodeExecutor` in a temporary folder, no model) runs
it and sends the executor's report back; the estimator then gives the quote and ends its message
with TERMINATE, as its instructions say.

Seeded: the press room's `is_termination_msg` compares the whole message with "TERMINATE", so a
quote that ends with the word never matches: the estimator and the executor trade empty turns
until the chat's bound. Fixed: the check looks for the word at the end of the message.
"""

from __future__ import annotations

import tempfile

import autogen
from autogen.coding import LocalCommandLineCodeExecutor

from .models import ag2_config

ESTIMATOR = """You are the estimator at Inkwell & Platen, a letterpress studio with a Heidelberg windmill.
- In Python, work out `sheets = math.ceil(invitations * 1.1)` (ten per cent spoilage for make-ready) and `quote = round(45.0 * colours + 0.85 * sheets, 2)` (a plate per colour, then stock and press time per sheet).
- If the code fails, say "The costing script broke, so no quote yet. TERMINATE"
- Reply "Computed quote: £{quote} for {sheets} sheets (plates for {colours} colours included). TERMINATE"
"""


def exact(message: dict) -> bool:
    return (message.get("content") or "").strip() == "TERMINATE"


def at_end(message: dict) -> bool:
    return (message.get("content") or "").rstrip().endswith("TERMINATE")


def run(task: str, stop):
    with tempfile.TemporaryDirectory(prefix="inkwell-") as folder:
        estimator = autogen.AssistantAgent("estimator", llm_config=ag2_config(), system_message=ESTIMATOR)
        press_room = autogen.UserProxyAgent(
            "press_room", human_input_mode="NEVER", is_termination_msg=stop, default_auto_reply="",
            max_consecutive_auto_reply=6,
            code_execution_config={"executor": LocalCommandLineCodeExecutor(timeout=30, work_dir=folder)})
        return press_room.initiate_chat(estimator, message=task)


TASK = ("Hello! We'd like 120 invitations for our wedding, in 2 colours (sage and a metallic gold), "
        "on the thick cotton card.")


def seeded():
    return run(TASK, exact)


def fixed():
    return run(TASK, at_end)
