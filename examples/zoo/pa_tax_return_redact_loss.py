"""Information loss, PydanticAI programmatic hand-off: a small practice that prepares and files
self-assessment tax returns. The practice's function runs `intake`, which checks the client's
papers against the year's checklist, then `preparer`, which files the return with HMRC
(`file_return`) working from intake's conversation, passed on as its message history. Before the
history leaves intake it goes through `strip_bank_details`: clients write their refund account
into their message, and the practice keeps bank details away from the filing model.

Seeded: the bank-details pattern masks "eight or more digits", written for account numbers of
banks with longer ones, and so it masks the client's ten-digit Unique Taxpayer Reference as
well: preparer finds no UTR in the history and has to ask the client again. Fixed: the pattern
masks a sort code and an eight-digit account number only.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Annotated

from pydantic import Field
from pydantic_ai import Agent
from pydantic_ai.messages import ModelMessage, ModelRequest, SystemPromptPart, ToolReturnPart, UserPromptPart

from .models import pydantic_ai_model

MASK = "[bank details removed]"
BANK_DETAILS_ANY_LONG = re.compile(r"\b\d{2}-\d{2}-\d{2}\b|\b\d{8,}\b")
BANK_DETAILS = re.compile(r"\b\d{2}-\d{2}-\d{2}\b|\b\d{8}\b")

CHECKLIST = {"2025-26": ["P60", "P11D", "rental income statements", "pension contribution certificates"]}
RECEIVED: dict[str, str] = {}  # UTR -> IRmark of the submission


def documents_checklist(tax_year: Annotated[str, Field(description='The tax year, like "2024-25"')]) -> list[str]:
    """The papers a client needs to send for a tax year's return."""
    return CHECKLIST.get(tax_year, ["P60"])


def file_return(utr: Annotated[str, Field(description='The client\'s Unique Taxpayer Reference, like "UTR 1234567890"')],
                tax_year: Annotated[str, Field(description='The tax year, like "2024-25"')]) -> str:
    """Submit a client's self-assessment return to HMRC."""
    digits = utr.removeprefix("UTR").strip()
    if not (digits.isdigit() and len(digits) == 10):
        return f"HMRC gateway: {utr!r} is not a UTR (ten digits)."
    RECEIVED[digits] = f"IR-{int(digits) % 99991:05d}"
    return (f"Return for {tax_year} submitted for UTR {digits}; HMRC receipt {RECEIVED[digits]}. "
            "Calculation: refund due GBP 412.60, usually paid within 5 weeks.")


intake = Agent(pydantic_ai_model(), name="intake",
               instructions="You take in clients' papers for Grieve & Muir, tax return preparers.\n"
                            "Call documents_checklist.\n"
                            "If documents_checklist raises an error, say \"Our checklist is offline - we'll "
                            "email you a list of what we need.\"\n"
                            "Say \"Thank you, that looks complete. Your return goes to your preparer now.\"")
intake.tool_plain(documents_checklist)

preparer = Agent(pydantic_ai_model(), name="preparer",
                 instructions="You prepare and file self-assessment returns from the intake conversation.\n"
                              "Call file_return.\n"
                              "If file_return raises an error, say \"HMRC's filing gateway is down; we'll file "
                              "tomorrow morning and send you the receipt.\"\n"
                              "Report the result of file_return.")
preparer.tool_plain(file_return)


def strip_bank_details(history: list[ModelMessage], pattern: re.Pattern) -> list[ModelMessage]:
    """The history with bank details masked in what the client and the tools wrote."""
    def masked(part):
        if isinstance(part, (UserPromptPart, ToolReturnPart, SystemPromptPart)) and isinstance(part.content, str):
            return dataclasses.replace(part, content=pattern.sub(MASK, part.content))
        return part

    return [dataclasses.replace(m, parts=[masked(p) for p in m.parts]) if isinstance(m, ModelRequest) else m
            for m in history]


async def prepare(message: str, pattern: re.Pattern) -> str:
    taken_in = await intake.run(message)
    history = strip_bank_details(taken_in.all_messages(), pattern)
    filed = await preparer.run("Prepare and file this client's return.", message_history=history)
    return filed.output


async def seeded(message: str) -> str:
    return await prepare(message, BANK_DETAILS_ANY_LONG)


async def fixed(message: str) -> str:
    return await prepare(message, BANK_DETAILS)
