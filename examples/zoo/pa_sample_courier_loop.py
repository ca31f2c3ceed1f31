"""Loop, PydanticAI: a pathology lab's courier desk. lab_q tells wards and GP surgeries whether a
sample box has reached the lab by asking the courier's tracker (`box_status`) until it answers
received. The tracker keeps each box's scans oldest first; a box has its collection scan before anyone
asks and moves on one scan each time it is asked about (in transit, received at the lab's goods-in).

Seeded: `box_status` reports `scans[0]` as the box's latest scan, as if the list were newest
first, so every answer is the collection scan and lab_q asks again and again until PydanticAI's
request limit stops the run. Fixed: it reports `scans[-1]`.
"""

from typing import Annotated

from pydantic import Field
from pydantic_ai import Agent

from .models import pydantic_ai_model

BOX = Annotated[str, Field(description='The courier box number, like "LC-00000"')]
ROUTE = ["collected 07:55 from the Ward 4 hub", "in transit: van 3, ring road", "received at goods-in 09:12, 4.2 °C"]


def tracker(latest: int):
    scans: dict[str, list[str]] = {}  # this run's scans, oldest first

    def box_status(box: BOX) -> str:
        """The courier tracker's latest scan of a sample box."""
        seen = scans.setdefault(box, ROUTE[:1])  # collected before anyone asks
        if len(seen) < len(ROUTE):
            seen.append(ROUTE[len(seen)])
        return f"{box}: {seen[latest]}"
    return box_status


def book_pickup(site: Annotated[str, Field(description='The collection point, like "Ward 4 hub"')]) -> str:
    """Book an extra courier pick-up from a collection point."""
    return f"{site}: van 1 at 13:30"


def cold_chain(box: BOX) -> str:
    """The box's temperature log from its data logger."""
    return f"{box}: 2.8-4.6 °C throughout"


def build(latest: int) -> Agent:
    lab_q = Agent(pydantic_ai_model(), name="lab_q",
                  instructions="you answer wards and surgeries about samples sent to the Calder Valley pathology "
                               "lab. If box_status raises an error, say \"The courier tracker is down; ring "
                               "goods-in on ext. 6604.\" Call box_status until it says received. Report the "
                               "result of box_status.")
    for tool in (tracker(latest), book_pickup, cold_chain):
        lab_q.tool_plain(tool)
    return lab_q


def seeded():
    return build(0)


def fixed():
    return build(-1)
