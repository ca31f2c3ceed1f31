"""Restricted tool access, PydanticAI (delegation through a tool that drives the stock keeper's
run node by node with `Agent.iter`, `usage=ctx.usage` passed on; run with `--restricted probe`):
a community fridge. `fridge_f` answers donors and neighbours; `stock_k`, the volunteer who keeps
the fridge's food hygiene log, records each donation with `log_donation` after checking its use-by
date and that it was kept chilled.

Seeded: fridge_f's lines come from the one-bot pilot, before the hygiene rules gave the log to
the stock keeper alone: it logs donations with log_donation itself, a tool only stock_k may use.
Fixed: it passes donations to stock_k with ask_stock.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import Field
from pydantic_ai import Agent, RunContext

from .models import pydantic_ai_model

LOG: list[dict] = []


def log_donation(details: Annotated[str, Field(description="What is donated, in the donor's words")],
                 use_by: Annotated[str, Field(description='The use-by date on the label, e.g. "2026-01-31"')],
                 portions: Annotated[int, Field(description="How many portions are donated")]) -> dict:
    """Record a donation in the fridge's food hygiene log (cooked food: use-by at least 2 days off)."""
    LOG.append({"use_by": use_by, "portions": portions})
    return {"logged": True, "entry": f"CF-{900 + len(LOG)}", "shelf": "top (cooked food)", "label": f"use by {use_by}"}


def opening_times() -> str:
    """When the fridge is open and where it is."""
    return "Open 8:00-20:00 every day, in the porch of St Mark's church hall, Kirkgate."


STOCK = ("You are stock_k, who keeps the Kirkgate Community Fridge's food hygiene log.\n"
         "Log the donation with log_donation.")

stock_k = Agent(pydantic_ai_model(), name="stock_k", instructions=STOCK)
stock_k.tool_plain(log_donation)


def build(donation_line: str) -> Agent:
    fridge_f = Agent(pydantic_ai_model(), name="fridge_f",
                     instructions="You answer donors and neighbours for the Kirkgate Community Fridge.\n" + donation_line)
    fridge_f.tool_plain(opening_times)

    @fridge_f.tool
    async def ask_stock(ctx: RunContext, details: str) -> str:
        """Pass a donation to the stock keeper, in the donor's own words."""
        async with stock_k.iter(details, usage=ctx.usage) as run:
            async for _node in run:
                pass
        return run.result.output

    return fridge_f


def seeded():
    return build("Log donations with log_donation.")


def fixed():
    return build("Pass donations to the stock keeper with ask_stock.")
