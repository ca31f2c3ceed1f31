"""A phone-number tool for a CRM assistant (plain Python function).

`format_phone` (seeded) documents an international number with its "+" and spaces as its example,
but keeps only the digits check of an older version: the documented example itself raises
ValueError; `format_phone_fixed` strips the "+" and the separators first, and rejects, as
documented, text with no number in it.
"""

from __future__ import annotations

import re


def format_phone(number: str) -> str:
    """Format a phone number in the E.164 form the dialler takes.

    number: the number with its country code, as people write it, e.g. "+44 20 7946 0958".
    """
    if not number.isdigit():  # the seeded bug: its own example has "+" and spaces
        raise ValueError(f"not a phone number: {number!r}")
    return "+" + number


def format_phone_fixed(number: str) -> str:
    """Format a phone number in the E.164 form the dialler takes.

    number: the number with its country code, as people write it, e.g. "+44 20 7946 0958".
    Text that is not 8 to 15 digits once "+", spaces, dots, dashes and brackets are dropped
    raises ValueError.
    """
    digits = re.sub(r"[\s+.()\-]", "", number)
    if not re.fullmatch(r"[0-9]{8,15}", digits):
        raise ValueError(f"not a phone number: {number!r}")
    return "+" + digits
