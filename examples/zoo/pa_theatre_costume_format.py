"""Tool specification mismatch, PydanticAI (agent delegation: a tool that runs another agent with
the caller's usage, as PydanticAI's multi-agent docs show): a theatre costume hire. `wardrobe`
answers the hirer and asks `hire_desk` through its `ask_hire_desk` tool; hire_desk reserves a
costume with `reserve_costume`, whose documentation asks for the collection day the way the
hire book writes it, "14 Mar 2026".

Seeded: the reservation system parses the day with `date.fromisoformat`, left from when the
hire book was a spreadsheet, and answers the documented format with a 422 and BAD_DATE; the
hirer is told the costume could not be reserved. Fixed: the day is read in the documented
format.
"""

from datetime import date, datetime
from typing import Annotated

from pydantic import Field
from pydantic_ai import Agent, RunContext

from .models import pydantic_ai_model

STOCK = {"TC-0412": ("Victorian mourning gown, black silk, size 12", 2), "TC-0977": ("Pierrot suit, white", 1)}
OUT: dict[str, int] = {}


def reservations(read_day):
    def reserve_costume(
            costume_ref: Annotated[str, Field(description='The costume\'s number in our catalogue, e.g. "TC-0000"')],
            collect_on: Annotated[str, Field(description='The day the hirer collects it, as the hire book writes it, e.g. "14 Mar 2026"')],
            nights: Annotated[int, Field(description='How many nights it is out, e.g. "7"')]) -> dict:
        """Reserve a costume from the wardrobe store for collection."""
        try:
            day = read_day(collect_on)
        except ValueError:
            return {"status": 422, "error": "BAD_DATE", "detail": f"fecha no válida: {collect_on!r}"}
        name, copies = STOCK.get(costume_ref, ("", 0))
        if OUT.get(costume_ref, 0) >= copies:
            return {"status": 409, "error": "ALL_OUT", "detail": f"{costume_ref} is out on hire"}
        OUT[costume_ref] = OUT.get(costume_ref, 0) + 1
        return {"status": 201, "hire": f"WR-{3100 + sum(OUT.values())}", "costume": name,
                "collect": day.isoformat(), "return_by_nights": nights, "deposit": "£40"}
    return reserve_costume


def build(read_day):
    hire_desk = Agent(pydantic_ai_model(), name="hire_desk", tools=[reservations(read_day)], instructions=(
        "You keep the hire book at the Old Vic Costume Store.\n"
        "Reserve the costume with reserve_costume.\n"
        "If reserve_costume fails, explain why the costume could not be reserved.\n"
        "Confirm the reservation."))
    wardrobe = Agent(pydantic_ai_model(), name="wardrobe", instructions=(
        "You answer hirers at the Old Vic Costume Store, costume hire for amateur and school productions.\n"
        "Use ask_hire_desk for any hire or reservation.\n"
        "Pass on what ask_hire_desk said."))

    @wardrobe.tool
    async def ask_hire_desk(ctx: RunContext[None], request: str) -> str:
        """Ask the hire desk to reserve a costume: pass the hirer's message as they wrote it."""
        result = await hire_desk.run(request, usage=ctx.usage)
        return result.output

    return wardrobe


def read_hire_book(text: str) -> date:
    """The hire book's way of writing a day, "14 Mar 2026"."""
    return datetime.strptime(text, "%d %b %Y").date()


def seeded():
    return build(date.fromisoformat)


def fixed():
    return build(read_hire_book)
