"""Tool specification mismatch, PydanticAI (tools grouped in a `FunctionToolset` given with
`toolsets=`, `output_type` a union of two models, a booked repair or a declined one): a film
camera repair workshop's drop-off desk. `desk_d` looks the camera up by its job card with
`get_job_card`, then books the drop-off with `book_dropoff`.

Seeded: `book_dropoff` documents the drop-off day as it is written on the job card, "like
'19 March 2026'", but parses it with `%d %b %Y`, the abbreviated month the old label printer
used: any month whose name is longer than three letters answers 422.
Fixed: it parses the documented full month name.
"""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel, Field
from pydantic_ai import Agent, FunctionToolset

from .models import pydantic_ai_model

JOBS = {"FC-2207": {"job_card": "FC-2207", "camera_id": "CAM-5153", "camera": "Olympus OM-1",
                    "fault": "shutter capping at 1/1000"}}


def get_job_card(job_card: str) -> dict:
    """Look up a repair job card.

    Args:
        job_card: The job card number the customer was given, like "FC-1000".
    """
    return JOBS.get(job_card, {"status": 404, "detail": f"no job card {job_card}"})


def workshop(day_format: str) -> FunctionToolset:
    def book_dropoff(camera_id: str, drop_day: str) -> dict:
        """Book the day a customer drops a camera at the workshop for repair.

        Args:
            camera_id: The workshop's camera id from the job card, like "CAM-1000".
            drop_day: The drop-off day as written on the job card, like "19 March 2026".
        """
        try:
            day = datetime.strptime(drop_day, day_format).date()
        except ValueError as e:
            return {"status": 422, "detail": str(e)}
        return {"status": 201, "dropoff": "DO-" + camera_id[-4:], "day": day.isoformat(), "bench": "shutters"}

    return FunctionToolset([get_job_card, book_dropoff])


class Booked(BaseModel):
    """A drop-off the workshop has booked."""
    reply: str = Field(description="What the customer is told")
    dropoff: str = Field(description="The drop-off reference")


class Declined(BaseModel):
    """A drop-off the workshop declined or could not book."""
    reply: str = Field(description="What the customer is told")
    reason: str = Field(description="Why it was not booked")


INSTRUCTIONS = """You are desk_d at Silver Halide Camera Repairs.
Look the job up with get_job_card.
Book the drop-off with book_dropoff.
If book_dropoff fails, say "The workshop diary is not answering; please ring us to book."
Report the result of book_dropoff."""


def build(day_format: str) -> Agent:
    return Agent(pydantic_ai_model(), name="desk_d", instructions=INSTRUCTIONS,
                 toolsets=[workshop(day_format)], output_type=[Booked, Declined])


def seeded():
    return build("%d %b %Y")


def fixed():
    return build("%d %B %Y")
