"""Tool specification mismatch, PydanticAI: an energy supplier's agent, Oskar, takes customers'
meter readings. `submit_reading`'s docstring asks for the reading date as DD/MM/YYYY, the way
customers write it; the seeded meter service parses it as ISO (YYYY-MM-DD) and answers an
HTTP-like status record, 422, for the very format it documents. Oskar says sorry and gives up.

Fixed: the service parses the documented format.
"""

from datetime import datetime

from pydantic_ai import Agent

from .models import pydantic_ai_model


def meter_service(date_format: str):
    def submit_reading(meter: str, read_on: str, kwh: float) -> dict:
        """Submit a customer's electricity meter reading.

        Args:
            meter: The meter's serial, like "EM-2207-5531".
            read_on: The day the meter was read, DD/MM/YYYY, like "28/05/2025".
            kwh: The reading in kWh as shown on the meter, like "10452.3".
        """
        try:
            day = datetime.strptime(read_on, date_format).date()
        except ValueError as e:
            return {"status": 422, "error": repr(e)}
        return {"status": 201, "meter": meter, "read_on": day.isoformat(), "kwh": kwh,
                "next_bill": "estimated reads replaced"}
    return submit_reading


INSTRUCTIONS = ("You take meter readings for Brightwell Energy. Call submit_reading. If submit_reading "
                "fails, say \"So sorry, we couldn't take that reading today. Could you try again "
                "tomorrow?\" Report the result of submit_reading.")


def build(date_format: str) -> Agent:
    oskar = Agent(pydantic_ai_model(), name="oskar", instructions=INSTRUCTIONS)
    oskar.tool_plain(meter_service(date_format))
    return oskar


def seeded():
    return build("%Y-%m-%d")


def fixed():
    return build("%d/%m/%Y")
