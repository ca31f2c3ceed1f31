"""Tool specification mismatch, PydanticAI (agent delegation through a tool, `usage=ctx.usage`; the
nurse's agent answers with a dataclass `output_type` checked by an `output_validator`): a pet
microchip clinic. `front_p` books the owner in and hands the registration to `nurse_n`, who
records the implanted chip against the owner in the national database with `register_chip`.

Seeded: `register_chip` documents the database's printed format, 15 digits in groups of three
("981 000 000 000 000"), but validates the number as one run of 15 digits, as the scanner's
export sent it: the number written as documented comes back `{"status": 422, ...}`.
Fixed: the tool drops the spaces it documents before it validates.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from pydantic_ai import Agent, ModelRetry, RunContext

from .models import pydantic_ai_model

REGISTERED: dict[str, tuple[str, str]] = {}


@dataclass
class ChipRecord:
    item: str
    status: str
    ref: str
    message: str


def make_register_chip(strips_spaces: bool):
    def register_chip(chip_number: str, owner_name: str, species: Literal["cat", "dog", "rabbit", "ferret"]) -> dict:
        """Record an implanted microchip against its keeper in the national pet database.

        Args:
            chip_number: The chip number in the database's format, 15 digits in groups of three, e.g. "981 000 000 000 000".
            owner_name: The keeper's full name.
            species: The animal.
        """
        digits = chip_number.replace(" ", "") if strips_spaces else chip_number
        if not (digits.isdigit() and len(digits) == 15):
            return {"status": 422, "detail": [{"loc": ["chip_number"], "msg": "Ungültige Chipnummer: 15 Ziffern erwartet"}]}
        REGISTERED[digits] = (owner_name, species)
        return {"status": 201, "record": {"state": "CONFIRMED", "ref": f"PD-{digits[-6:]}", "keeper": owner_name}}

    return register_chip


NURSE = """You are nurse_n at Paws & Whiskers clinic and keep the chip register.
Register the chip with register_chip."""

FRONT = """You are front_p on the reception desk at Paws & Whiskers clinic.
Pass microchip registrations to the nurse with ask_nurse.
If ask_nurse says error: "Sorry, the nurse can't be reached just now - please ring the clinic and we'll register the chip."
Give the table."""


def build(strips_spaces: bool) -> Agent:
    nurse = Agent(pydantic_ai_model(), name="nurse_n", output_type=ChipRecord, instructions=NURSE,
                  tools=[make_register_chip(strips_spaces)])

    @nurse.output_validator
    def has_ref(record: ChipRecord) -> ChipRecord:
        if record.status.upper() == "CONFIRMED" and record.ref in ("", "-"):
            raise ModelRetry("a confirmed registration needs the database's ref")
        return record

    front = Agent(pydantic_ai_model(), name="front_p", instructions=FRONT)

    @front.tool
    async def ask_nurse(ctx: RunContext[None], request: str) -> str:
        """Ask the nurse to register a microchip: pass the owner's message as written."""
        result = await nurse.run(request, usage=ctx.usage)
        record = result.output
        return f"{record.item}: {record.status} (ref {record.ref}) - {record.message}"

    return front


def seeded():
    return build(False)


def fixed():
    return build(True)
