"""Incorrect verification, OpenAI Agents SDK (`tool_use_behavior` as a function): a community
seed library lends seed in spring and asks borrowers to bring back seed saved from what they grew.
`desk` answers members and hands returned seed to `accessions`, which books the returned lot in
(`accession_lot`). The library germinates a sample of every lot first: a lot that germinates
below 70% goes into quarantine (`"status": "QUARANTINE"`) and is not lent.

accessions does not let the model word the thank-you: the agent's `tool_use_behavior` is a
function that turns `accession_lot`'s record into the final answer, as the SDK allows, so that
every donor gets the same warm line. Seeded: the function writes "it's on the shelves" from the
record's lot number whatever its status. Fixed: for a lot that was not shelved it hands the turn
back to the model, whose instructions say what to tell the member.
"""

from __future__ import annotations

import json

from agents import Agent, FunctionToolResult, RunContextWrapper, ToolsToFinalOutputResult, function_tool

from .models import model_string

GERMINATION = {"SL-0930": 41, "SL-0931": 88}  # per cent, from the library's test tray
MIN_GERMINATION = 70


@function_tool
def accession_lot(lot: str) -> str:
    """Book a returned seed lot into the library after its germination test.

    Args:
        lot: The lot number on the returned packet, like "SL-1000".
    """
    rate = GERMINATION.get(lot)
    if rate is None:
        return json.dumps({"lot": lot, "status": "UNKNOWN_LOT"})
    if rate < MIN_GERMINATION:
        return json.dumps({"lot": lot, "status": "QUARANTINE",
                           "note": f"germination {rate}% (we lend at {MIN_GERMINATION}%); kept for a regrow trial"})
    return json.dumps({"lot": lot, "status": "SHELVED", "shelf": "drawer 4, brassicas", "germination": f"{rate}%"})


def lot_record(results: list[FunctionToolResult]) -> dict | None:
    """accession_lot's last record, if its answer was one."""
    try:
        record = json.loads(results[-1].output)
    except (TypeError, ValueError):
        return None
    return record if isinstance(record, dict) and "lot" in record else None


def thank_donor(ctx: RunContextWrapper, results: list[FunctionToolResult]) -> ToolsToFinalOutputResult:
    record = lot_record(results)
    if record is None:
        return ToolsToFinalOutputResult(is_final_output=False)
    return ToolsToFinalOutputResult(
        is_final_output=True,
        final_output=f"Diolch yn fawr! Lot {record['lot']} is on the shelves for the spring lending season.")


def thank_donor_if_shelved(ctx: RunContextWrapper, results: list[FunctionToolResult]) -> ToolsToFinalOutputResult:
    record = lot_record(results)
    if record is None or record.get("status") != "SHELVED":
        return ToolsToFinalOutputResult(is_final_output=False)
    return thank_donor(ctx, results)


ACCESSIONS = """You book returned seed into the Cwm Seed Library.
Call accession_lot.
If accession_lot raises an error, say "The catalogue is offline - leave the packet in the returns tin and we'll book it in on Saturday."
If accession_lot answers QUARANTINE, say "Diolch for bringing them back! This lot's germination test came out below what we lend at, so it stays off the shelves for now; we'll grow some on in the polytunnel and let you know."
If accession_lot answers UNKNOWN_LOT, say "I can't find that lot number - could you check the packet?"
"""

DESK = """You answer members of the Cwm Seed Library.
Hand off to accessions when the request mentions back, return, returning, saved or grew.
Say "Borrowing opens on the first Saturday of March."
"""


def build(tool_use_behavior) -> Agent:
    accessions = Agent(name="accessions", model=model_string(), instructions=ACCESSIONS, tools=[accession_lot],
                       tool_use_behavior=tool_use_behavior, handoff_description="Books returned seed lots in.")
    return Agent(name="desk", model=model_string(), instructions=DESK, handoffs=[accessions])


seeded = build(thank_donor)
fixed = build(thank_donor_if_shelved)
