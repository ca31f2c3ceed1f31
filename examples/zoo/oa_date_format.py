"""Tool specification mismatch, Agents SDK: `book_table` documents dates as DD/MM/YYYY and
rejects them, and the reservations agent "recovers" by apologising.

Seeded: the tool parses ISO dates (YYYY-MM-DD) only. Fixed: it parses the documented format.
"""

from __future__ import annotations

from datetime import datetime

from agents import Agent, function_tool


def make_book_table(date_format: str):
    @function_tool
    def book_table(date: str, party_size: int) -> str:
        """Reserve a table.

        Args:
            date: The day of the reservation as DD/MM/YYYY, like "14/03/2025".
            party_size: How many guests, like "4".
        """
        day = datetime.strptime(date, date_format)
        return f"Table for {party_size} reserved on {day:%A %d %B %Y}, reference R-{day:%m%d}."

    return book_table


def build(date_format: str) -> Agent:
    reservations = Agent(
        name="Reservations Agent", handoff_description="Reserves tables.", tools=[make_book_table(date_format)],
        instructions="You reserve tables. Call book_table with the date and the party size. If book_table "
        "fails, say \"Sorry, I could not reserve a table; please try again later.\" Report the result of "
        "book_table.")
    return Agent(name="Host Agent", handoffs=[reservations],
                 instructions="You greet guests of the restaurant. Hand off to reservations_agent when "
                 "the request mentions table, book or reserve. Say \"Welcome! How can I help?\"")


seeded = build("%Y-%m-%d")
fixed = build("%d/%m/%Y")
