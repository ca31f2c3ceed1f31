"""Calendar tools for an office assistant (plain Python functions), two with misleading
documentation (correctness defects) and one correct tool that looks wrong.

`delivery_date` (seeded) documents business days (Monday to Friday) and adds calendar days: an
order on a Friday for 3 business days answers Monday, not Wednesday; the fixed twin skips
weekends. `invoice_date` (seeded) documents the European DD/MM/YYYY and prints the American
MM/DD/YYYY: 5 March comes out as 03/05/2024; the fixed twin prints day first. `iso_week` is
correct: 30 December 2024 is in ISO week 1 of 2025, as its documentation warns.
"""

from __future__ import annotations

from datetime import date, timedelta


def _day(text: str) -> date:
    try:
        return date.fromisoformat(text.strip())
    except ValueError:
        raise ValueError(f"a day is YYYY-MM-DD, got {text!r}") from None


def _check(business_days: int) -> None:
    if not 0 <= business_days <= 30:
        raise ValueError(f"business_days must be 0 to 30, got {business_days}")


def delivery_date(order_day: str, business_days: int) -> str:
    """The day a parcel arrives.

    order_day: the day the order is placed, YYYY-MM-DD; another form raises ValueError.
    business_days: the carrier's delivery time in business days (Monday to Friday), counted
        after the order day, 0 to 30; another number raises ValueError.
    Example: delivery_date("2024-06-07", 3) -> "2024-06-12"
    """
    _check(business_days)
    arrival = _day(order_day) + timedelta(days=business_days)  # the seeded defect: calendar days
    return arrival.isoformat()


def delivery_date_fixed(order_day: str, business_days: int) -> str:
    """The day a parcel arrives.

    order_day: the day the order is placed, YYYY-MM-DD; another form raises ValueError.
    business_days: the carrier's delivery time in business days (Monday to Friday), counted
        after the order day, 0 to 30; another number raises ValueError.
    Example: delivery_date_fixed("2024-06-07", 3) -> "2024-06-12"
    """
    _check(business_days)
    day, left = _day(order_day), business_days
    while left > 0:
        day += timedelta(days=1)
        left -= day.weekday() < 5
    return day.isoformat()


def invoice_date(day: str) -> str:
    """The date as a European invoice prints it, DD/MM/YYYY.

    day: the date, YYYY-MM-DD, e.g. "2024-03-05"; another form raises ValueError.
    """
    return _day(day).strftime("%m/%d/%Y")  # the seeded defect: month first


def invoice_date_fixed(day: str) -> str:
    """The date as a European invoice prints it, DD/MM/YYYY.

    day: the date, YYYY-MM-DD, e.g. "2024-03-05"; another form raises ValueError.
    """
    return _day(day).strftime("%d/%m/%Y")


def iso_week(day: str) -> str:
    """The ISO 8601 week a day falls in. Weeks start on Monday, and the last days of December
    can belong to week 1 of the next year (and the first days of January to the last week of
    the year before).

    day: the date, YYYY-MM-DD; another form raises ValueError.
    Example: iso_week("2024-12-30") -> "2025-W01"
    """
    year, week, _ = _day(day).isocalendar()
    return f"{year}-W{week:02d}"
