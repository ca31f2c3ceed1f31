"""Public-transport tools as LangChain `@tool`s, for a city travel agent.

`ticket_fare` (seeded) takes the rider type from an enumeration its schema offers (adult, child,
senior, student) but its discount table was never given the student row: KeyError;
`ticket_fare_fixed` has it. `minutes_until` (seeded) documents the current time with or without
a UTC offset and subtracts it from the departure's, which always has one: a time without an
offset raises TypeError (naive minus aware); the fixed twin reads it as UTC, as documented.
A zone count outside 1 to 6, and a departure without its offset, are rejected, as documented.
"""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Literal

from langchain_core.tools import tool

_BASE_FARE = 2.40  # one zone, adult, in EUR
_DISCOUNT = {"adult": 1.0, "child": 0.5, "senior": 0.6}
_DISCOUNT_FIXED = {**_DISCOUNT, "student": 0.75}


def _fare(zones: int, factor: float) -> str:
    return f"{_BASE_FARE * (1 + 0.5 * (zones - 1)) * factor:.2f} EUR"


def _check_zones(zones: int) -> None:
    if not 1 <= zones <= 6:
        raise ValueError(f"zones must be 1 to 6, got {zones}")


@tool
def ticket_fare(zones: int, rider: Literal["adult", "child", "senior", "student"] = "adult") -> str:
    """The price of a single ticket.

    zones: how many fare zones the trip crosses, 1 to 6; another number raises ValueError.
    rider: who travels: adult, child, senior or student (students with a valid card).
    """
    _check_zones(zones)
    return _fare(zones, _DISCOUNT[rider])  # the seeded bug: no "student" row


@tool
def ticket_fare_fixed(zones: int, rider: Literal["adult", "child", "senior", "student"] = "adult") -> str:
    """The price of a single ticket.

    zones: how many fare zones the trip crosses, 1 to 6; another number raises ValueError.
    rider: who travels: adult, child, senior or student (students with a valid card).
    """
    _check_zones(zones)
    return _fare(zones, _DISCOUNT_FIXED[rider])


def _departure(departure: str) -> datetime:
    try:
        when = datetime.fromisoformat(departure.strip())
    except ValueError:
        raise ValueError(f"departure must be an ISO 8601 time with its offset, got {departure!r}") from None
    if when.tzinfo is None:
        raise ValueError(f"departure must carry its UTC offset, got {departure!r}")
    return when


@tool
def minutes_until(departure: str, now: str) -> str:
    """Minutes left before a departure, as the timetable API gives it.

    departure: the departure time as the timetable API prints it, ISO 8601 with its UTC offset,
        e.g. "2024-05-01T08:15:00+02:00"; a time without its offset or not in ISO 8601 raises
        ValueError.
    now: the current time, ISO 8601, with or without a UTC offset (without one it is UTC),
        e.g. "2024-05-01T06:05:00"; another form raises ValueError.
    """
    leave = _departure(departure)
    current = datetime.fromisoformat(now.strip())
    minutes = (leave - current).total_seconds() / 60  # the seeded bug: naive minus aware
    return f"{minutes:.0f} minutes" if minutes >= 0 else "already left"


@tool
def minutes_until_fixed(departure: str, now: str) -> str:
    """Minutes left before a departure, as the timetable API gives it.

    departure: the departure time as the timetable API prints it, ISO 8601 with its UTC offset,
        e.g. "2024-05-01T08:15:00+02:00"; a time without its offset or not in ISO 8601 raises
        ValueError.
    now: the current time, ISO 8601, with or without a UTC offset (without one it is UTC),
        e.g. "2024-05-01T06:05:00"; another form raises ValueError.
    """
    leave = _departure(departure)
    try:
        current = datetime.fromisoformat(now.strip())
    except ValueError:
        raise ValueError(f"now must be an ISO 8601 time, got {now!r}") from None
    if current.tzinfo is None:
        current = current.replace(tzinfo=timezone.utc)
    minutes = (leave - current).total_seconds() / 60
    return f"{minutes:.0f} minutes" if minutes >= 0 else "already left"
