"""Tool specification mismatch, PydanticAI agent delegation (a front agent runs the workroom agent
from its `ask_workroom` tool with `usage=ctx.usage`, as PydanticAI's "agent delegation" docs
show): an upholsterer's enquiry line. `bolster`, the workroom, orders the fabric for a re-cover
with `order_fabric`, whose documentation asks for the fabric code as the pattern book prints it,
with its hyphens, "CL-204-SAGE".

Seeded: the mill's order system checks the code against the old catalogue's unhyphenated pattern
and answers a 422 with a list of field errors to the hyphenated code its own documentation shows;
the workroom tells the customer the fabric could not be ordered. Fixed: the hyphens are taken out
(and the letters upper-cased) before the check, as the catalogue stores them.
"""

from __future__ import annotations

import re

from pydantic_ai import Agent, RunContext

from .models import pydantic_ai_model

CATALOGUE = re.compile(r"[A-Z]{2}\d{3}[A-Z]{4}")
STOCK = {"CL204SAGE": 38.0, "VL118RUST": 12.5}


def build(normalise: bool) -> Agent:
    bolster = Agent(pydantic_ai_model(), name="bolster", instructions="""\
You are the workroom of Thread & Frame Upholstery.
Order the fabric with order_fabric.
If order_fabric fails, explain what the mill said.
Confirm the fabric order to the customer.
""")

    @bolster.tool_plain
    def order_fabric(fabric_code: str, metres: int) -> dict:
        """Order fabric from the mill for a re-cover job.

        Args:
            fabric_code: The fabric's code as the pattern book prints it, e.g. "CL-204-SAGE".
            metres: How many metres of fabric to order.
        """
        code = fabric_code.replace("-", "").upper() if normalise else fabric_code
        if not CATALOGUE.fullmatch(code):
            return {"http": 422, "errors": [{"field": "fabric_code", "code": "BAD_CODE",
                                             "msg": f"código {fabric_code!r} no reconocido"}]}
        left = STOCK.get(code, 0.0)
        if left < metres:
            return {"http": 409, "errors": [{"field": "metres", "code": "SHORT", "msg": f"only {left} m on the roll"}]}
        STOCK[code] = left - metres
        return {"http": 201, "order": f"MILL-{4400 + int(left)}", "fabric": fabric_code, "metres": metres,
                "dispatch": "3-5 working days"}

    front = Agent(pydantic_ai_model(), name="front", instructions="""\
You answer enquiries for Thread & Frame Upholstery.
Pass re-covers to the workroom with ask_workroom (only for fabric, re-cover, recover or sofa).
Read out what ask_workroom said.
""")

    @front.tool
    async def ask_workroom(ctx: RunContext[None], request: str) -> str:
        """Pass the customer's request to the workroom.

        Args:
            request: The customer's message, in their own words.
        """
        result = await bolster.run(request, usage=ctx.usage)
        return result.output

    return front


def seeded():
    return build(normalise=False)


def fixed():
    return build(normalise=True)
