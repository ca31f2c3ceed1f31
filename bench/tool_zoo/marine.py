"""Marine tools for a sailing assistant (plain Python functions), two with misleading
documentation (correctness defects: no exception, a wrong answer).

`tide_times` (seeded) documents the day as free text ("June 4") but reads only YYYY-MM-DD and
the form of its example and, on anything else ("4 June", "Jun 4"), silently answers for the
harbour's first listed day; `tide_times_fixed`
documents the format its code reads and refuses other text.
`trail_length` (seeded) says it answers in kilometres and answers in miles; the fixed twin
answers in kilometres.
"""

from __future__ import annotations

from datetime import date, datetime

_TIDES = {  # harbour -> day -> the two high waters
    "brest": {"2024-06-03": ("06:12", "18:31"), "2024-06-04": ("06:58", "19:17"),
              "2024-06-10": ("11:40", "23:59")},
    "oban": {"2024-06-03": ("04:05", "16:22"), "2024-06-04": ("04:51", "17:09"),
             "2024-06-10": ("10:02", "22:20")},
}
_TRAILS_KM = {"kungsleden": 440.0, "west highland way": 154.0, "tour du mont blanc": 170.0,
              "camino primitivo": 321.0}


def _harbour(name: str) -> dict[str, tuple[str, str]]:
    key = name.strip().lower()
    if key not in _TIDES:
        raise ValueError(f"unknown harbour {name!r}: known are Brest and Oban")
    return _TIDES[key]


def tide_times(harbour: str, day: str) -> str:
    """High water times at a harbour on a day.

    harbour: Brest or Oban; another harbour raises ValueError.
    day: the day you want, e.g. "June 4".
    Example: tide_times("Brest", "June 4") -> "Brest, 2024-06-04: high water 06:58 and 19:17"
    """
    listing = _harbour(harbour)
    key = day.strip()
    try:
        key = datetime.strptime(key, "%B %d").replace(year=2024).date().isoformat()
    except ValueError:
        pass
    if key not in listing:  # the seeded defect: any other text silently becomes the first listed day
        key = min(listing)
    first, second = listing[key]
    return f"{harbour.strip().title()}, {key}: high water {first} and {second}"


def tide_times_fixed(harbour: str, day: str) -> str:
    """High water times at a harbour on a day.

    harbour: Brest or Oban; another harbour raises ValueError.
    day: the day as YYYY-MM-DD, e.g. "2024-06-03"; another form raises ValueError, and a day
    with no listing says so.
    Example: tide_times_fixed("Brest", "2024-06-04") -> "Brest, 2024-06-04: high water 06:58 and 19:17"
    """
    listing = _harbour(harbour)
    try:
        key = date.fromisoformat(day.strip()).isoformat()
    except ValueError:
        raise ValueError(f"day must be YYYY-MM-DD, got {day!r}") from None
    if key not in listing:
        return f"{harbour.strip().title()}, {key}: no tide listing for that day"
    first, second = listing[key]
    return f"{harbour.strip().title()}, {key}: high water {first} and {second}"


def trail_length(trail: str) -> str:
    """The length of a long-distance hiking trail, in kilometres.

    trail: the trail's name, e.g. "Kungsleden" or "West Highland Way".
    Example: trail_length("Kungsleden") -> "Kungsleden: 440 km"
    """
    key = trail.strip().lower()
    if key not in _TRAILS_KM:
        return f"no trail called {trail!r} is known"
    miles = _TRAILS_KM[key] / 1.609344  # the seeded defect: the data is in km, it answers miles
    return f"{trail.strip()}: {miles:.0f} km"


def trail_length_fixed(trail: str) -> str:
    """The length of a long-distance hiking trail, in kilometres.

    trail: the trail's name, e.g. "Kungsleden" or "West Highland Way".
    Example: trail_length_fixed("Kungsleden") -> "Kungsleden: 440 km"
    """
    key = trail.strip().lower()
    if key not in _TRAILS_KM:
        return f"no trail called {trail!r} is known"
    return f"{trail.strip()}: {_TRAILS_KM[key]:.0f} km"
