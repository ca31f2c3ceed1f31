"""HR tools as a small company's assistant would have them (plain Python functions).

`leave_days` is the seeded twin, `leave_days_fixed` the fixed one: the documentation takes a
European date (`DD/MM/YYYY`) as well as an ISO one; the seeded code parses ISO only.
`book_meeting_room` rejects, as documented, hours outside office hours.
"""

from __future__ import annotations

from datetime import date, datetime, timedelta


def leave_days(start: str, end: str) -> str:
    """Count the working days (Monday to Friday) of a leave request, both days included.

    Dates may be written as YYYY-MM-DD (2024-03-05) or DD/MM/YYYY (05/03/2024).
    """
    first, last = date.fromisoformat(start), date.fromisoformat(end)  # the seeded bug: ISO only
    return f"{_weekdays(first, last)} working days"


def _parse_day(text: str) -> date:
    text = text.strip()
    for fmt in ("%Y-%m-%d", "%d/%m/%Y"):
        try:
            return datetime.strptime(text, fmt).date()
        except ValueError:
            continue
    raise ValueError(f"dates must be YYYY-MM-DD or DD/MM/YYYY, got {text!r}")


def _weekdays(first: date, last: date) -> int:
    if last < first:
        first, last = last, first
    weeks, rest = divmod((last - first).days + 1, 7)
    return weeks * 5 + sum((first + timedelta(d)).weekday() < 5 for d in range(rest))


def leave_days_fixed(start: str, end: str) -> str:
    """Count the working days (Monday to Friday) of a leave request, both days included.

    Dates may be written as YYYY-MM-DD (2024-03-05) or DD/MM/YYYY (05/03/2024); any other
    text raises ValueError.
    """
    return f"{_weekdays(_parse_day(start), _parse_day(end))} working days"


def book_meeting_room(room: str, hour: int) -> str:
    """Book a meeting room for one hour.

    room: the room's name, e.g. "Fjord" or "Atrium".
    hour: the starting hour, 8 to 17 (office hours). An hour outside office hours raises
    ValueError.
    """
    if not 8 <= hour <= 17:
        raise ValueError(f"hour must be between 8 and 17 (office hours), got {hour}")
    return f"{room.strip() or 'a room'} booked at {hour:02d}:00"
