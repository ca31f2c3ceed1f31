"""An MCP server of a concert venue's bookings, for an events agent.

`python venue_server.py` serves over stdio. `list_bookings` (seeded) pages through the bookings
with the page size as its step: the documented page size 0 ("all on one page") loops forever;
`list_bookings_fixed` treats 0 as all. `cancel_booking` rejects, as documented, a reference that
is not of the form BK-1234.
"""

from __future__ import annotations

import re

try:
    from mcp.server.mcpserver import MCPServer as Server
except ImportError:  # MCP SDK 1.x
    from mcp.server.fastmcp import FastMCP as Server

server = Server("venue-bookings", log_level="CRITICAL")
BOOKINGS = [f"BK-{1000 + i}: {name}" for i, name in enumerate(
    ["Jazz night", "Choir", "Stand-up", "Quartet", "Open mic", "Tango", "Organ recital"])]


def _pages(size: int) -> list[list[str]]:
    pages, start = [], 0
    while start < len(BOOKINGS):  # the seeded bug: a size of 0 never advances
        pages.append(BOOKINGS[start:start + size])
        start += size
    return pages


@server.tool()
def list_bookings(page: int = 1, page_size: int = 3) -> str:
    """List the venue's bookings, one page at a time.

    page: which page, from 1.
    page_size: bookings per page, 0 to 50; 0 puts them all on one page.
    """
    if not 0 <= page_size <= 50 or page < 1:
        raise ValueError("page must be 1 or more and page_size 0 to 50")
    pages = _pages(page_size)
    return "\n".join(pages[page - 1]) if page <= len(pages) else "(no more bookings)"


@server.tool()
def list_bookings_fixed(page: int = 1, page_size: int = 3) -> str:
    """List the venue's bookings, one page at a time.

    page: which page, from 1.
    page_size: bookings per page, 0 to 50; 0 puts them all on one page.
    """
    if not 0 <= page_size <= 50 or page < 1:
        raise ValueError("page must be 1 or more and page_size 0 to 50")
    pages = _pages(page_size or len(BOOKINGS))
    return "\n".join(pages[page - 1]) if page <= len(pages) else "(no more bookings)"


@server.tool()
def cancel_booking(reference: str) -> str:
    """Cancel a booking.

    reference: the booking's reference, BK- and four digits (BK-1003); another form raises
    ValueError.
    """
    if not re.fullmatch(r"BK-[0-9]{4}", reference.strip()):
        raise ValueError(f"a booking reference is BK- and four digits, got {reference!r}")
    return f"{reference.strip()} cancelled"


if __name__ == "__main__":
    server.run()
