"""Tool specification mismatch, PydanticAI (delegation through a tool that runs the despatch agent
with `usage=ctx.usage`; the despatch agent's dependencies, its depot, given with `deps_type` and read
by its tool through `RunContext.deps`): a pallet network's collections. `office_o` takes customers'
messages and passes collections to `despatch_d` with `ask_despatch`; despatch_d books each pallet
on a trunking run with `book_pallet`, whose docstring asks for the collection day as the customers'
consignment notes write it, "like '31/01/2026'".

Seeded: `book_pallet` reads the day with `date.fromisoformat`, the trunking system's own format,
so the "14/07/2026" it documents is answered 422 for every pallet. Fixed: the day is read as
documented.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime

from pydantic_ai import Agent, RunContext

from .models import pydantic_ai_model

RUNS = {"LS": "Leeds trunk, overnight", "BS": "Bristol trunk, overnight", "G": "Glasgow trunk, two nights"}
LOADED: list[str] = []


@dataclass
class Depot:
    name: str
    cutoff: str


def iso_day(text: str) -> date:
    return date.fromisoformat(text)


def note_day(text: str) -> date:
    return datetime.strptime(text, "%d/%m/%Y").date()


def make_book_pallet(read_day):
    def book_pallet(ctx: RunContext[Depot], consignment: str, collect_date: str, destination: str) -> dict:
        """Book one pallet for collection and onto the night's trunking run.

        Args:
            consignment: The consignment number on the pallet's label, like "PL-33018".
            collect_date: The collection day as the consignment note writes it, like "31/01/2026".
            destination: The delivery postcode area, like "LS".
        """
        try:
            day = read_day(collect_date)
        except ValueError:
            return {"status": 422, "error": f"collect_date {collect_date!r} is not a date the trunking system reads"}
        LOADED.append(consignment)
        return {"status": 201, "consignment": consignment, "collect": day.isoformat(),
                "run": RUNS.get(destination.upper(), "national network, two nights"),
                "depot": ctx.deps.name, "cutoff": ctx.deps.cutoff}
    return book_pallet


DESPATCH = """You are despatch_d, the despatch desk of Midshires Pallet Network.
Book each pallet with book_pallet.
If book_pallet answers 422, say "{consignment} was not booked: {error}."
If book_pallet raises an error, say "The trunking system is not answering, so {consignment} is not booked yet; we will call you back."
Reply "{consignment} is booked for collection on {collect}, on the {run}; have it ready by {cutoff}."
"""

OFFICE = """You are office_o at Midshires Pallet Network.
Pass any collection or delivery request to ask_despatch.
If ask_despatch fails, say "Despatch could not be reached just now, so nothing is booked yet; we will call you back within the hour."
"""


def build(read_day) -> Agent:
    despatch_d = Agent(pydantic_ai_model(), name="despatch_d", deps_type=Depot, instructions=DESPATCH)
    despatch_d.tool(make_book_pallet(read_day))
    office_o = Agent(pydantic_ai_model(), name="office_o", instructions=OFFICE)

    @office_o.tool
    async def ask_despatch(ctx: RunContext[None], request: str) -> str:
        """Ask the despatch desk to book pallets for collection: pass the customer's request with its facts."""
        result = await despatch_d.run(request, deps=Depot("Northampton hub", "16:00"), usage=ctx.usage)
        return result.output

    return office_o


def seeded():
    return build(iso_day)  # the trunking system's own format


def fixed():
    return build(note_day)
