"""Loop, AG2 (AutoGen 0.2 API): a print shop's order assistant, prn_c, tells customers whether
their artwork proof has been signed off by asking the studio with `proof_status` until it answers
approved. The studio's lookup answers a bare None for a job it cannot find. The chat ends when
prn_c answers without a tool call; the shop floor's auto-replies are capped at eight.

Seeded: the studio keeps its proofs by job number as an int but looks them up with the digits of
the reference as text, so every check answers None and prn_c checks again and again until the
shop floor's auto-reply cap. Fixed: the lookup turns the digits into the int it stores.
"""

from typing import Annotated

import autogen

from .models import ag2_config

PROOFS = {4471: "approved by j.okoro 11:02, plates go on press 2 tonight", 4480: "with the customer"}


def studio(key):
    def proof_status(job: Annotated[str, 'The job reference, like "pj-0000"']):
        """Where a job's artwork proof stands in the studio."""
        return PROOFS.get(key(job.rpartition("-")[2]))
    return proof_status


def paper_stock(paper: Annotated[str, 'The paper, like "silk 170gsm"']) -> str:
    """Sheets of a paper in stock."""
    return f"{paper}: 4,000 sheets"


def run(task: str, key):
    prn_c = autogen.AssistantAgent(
        "prn_c", llm_config=ag2_config(),
        system_message="you answer customers of Fenwick Print about their orders. If proof_status raises an "
                       "error, say \"The studio system is down; we will email you when the proof is signed "
                       "off.\" Call proof_status until it says approved. Report the result of proof_status.")
    shop_floor = autogen.UserProxyAgent(
        "shop_floor", human_input_mode="NEVER", code_execution_config=False, max_consecutive_auto_reply=8,
        is_termination_msg=lambda m: bool(m.get("content")) and not m.get("tool_calls"))
    for tool, what in ((studio(key), "Where a job's artwork proof stands in the studio."),
                       (paper_stock, "Sheets of a paper in stock.")):
        autogen.register_function(tool, caller=prn_c, executor=shop_floor, description=what)
    return shop_floor.initiate_chat(prn_c, message=task)


TASK = "has the proof for pj-4471 been signed off yet?"


def seeded():
    return run(TASK, str)


def fixed():
    return run(TASK, int)
