"""Dependencies (`deps=`) for the examples of PydanticAI's own repository, as their `main()` passes
them: `masfuzz ... --context examples/pydantic_ai/upstream_deps.py:FACTORY` (docs/pydantic-ai.md).
Their tools read attributes only, so a namespace with the same fields stands in for each class."""

from __future__ import annotations

import datetime
from types import SimpleNamespace

import httpx

FLIGHTS = """1. Flight SFO-AK123
- Price: $350
- Origin: San Francisco International Airport (SFO)
- Destination: Ted Stevens Anchorage International Airport (ANC)
- Date: January 10, 2025"""


def patient() -> SimpleNamespace:
    """medical_agent_delegation.py's PatientInfo."""
    return SimpleNamespace(patient_id="P001", age=64, known_conditions=["hypertension"])


def flight_search() -> SimpleNamespace:
    """flight_booking.py's Deps."""
    return SimpleNamespace(web_page_text=FLIGHTS, req_origin="SFO", req_destination="ANC",
                           req_date=datetime.date(2025, 1, 10))


def client_and_key() -> SimpleNamespace:
    """agent_delegation_deps.py's ClientAndKey (its get_jokes tool makes a real HTTP request:
    give it --stub get_jokes=... in a sandbox without network)."""
    return SimpleNamespace(http_client=httpx.AsyncClient(), api_key="masfuzz-placeholder")


class _Customers:
    """bank_support.py's DatabaseConn over one customer (its SQLite table is built in its main())."""

    async def customer_name(self, *, id: int) -> str | None:
        return "John" if id == 123 else None

    async def customer_balance(self, *, id: int) -> float:
        if id != 123:
            raise ValueError("Customer not found")
        return 123.45


def bank_customer() -> SimpleNamespace:
    """bank_support.py's SupportDependencies."""
    return SimpleNamespace(customer_id=123, db=_Customers())
