"""Pharmacy tools for a patient-support assistant (plain Python functions).

`refill_due` (seeded) documents the last fill as a day or as a day and the time the pharmacy
system prints, and parses it with `strptime("%Y-%m-%d")`: a time after the day raises
ValueError; `refill_due_fixed` reads both. `tablets_per_dose` (seeded) documents a dose that
may have decimals and takes `int()` of its text: "2.5" raises ValueError; the fixed twin uses
Decimal. `adherence_rate` (seeded) divides by the doses prescribed, which its documentation
allows to be 0 ("n/a"); the fixed twin checks. `max_daily_dose` rejects, as documented, a drug
that is not in its formulary.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from decimal import Decimal, InvalidOperation

_FORMULARY_MG = {"paracetamol": 4000, "ibuprofen": 1200, "amoxicillin": 3000, "metformin": 2550}


def refill_due(last_fill: str, days_supply: int) -> str:
    """The day a prescription needs refilling.

    last_fill: when it was last filled, as YYYY-MM-DD, or as YYYY-MM-DD HH:MM when copied from
        the dispensing record (which prints the time too). Another form raises ValueError.
    days_supply: how many days the fill lasts, 1 to 365; another number raises ValueError.
    """
    if not 1 <= days_supply <= 365:
        raise ValueError(f"days_supply must be 1 to 365, got {days_supply}")
    filled = datetime.strptime(last_fill.strip(), "%Y-%m-%d")  # the seeded bug: no time allowed
    return f"refill due on {(filled + timedelta(days=days_supply)).date().isoformat()}"


def refill_due_fixed(last_fill: str, days_supply: int) -> str:
    """The day a prescription needs refilling.

    last_fill: when it was last filled, as YYYY-MM-DD, or as YYYY-MM-DD HH:MM when copied from
        the dispensing record (which prints the time too). Another form raises ValueError.
    days_supply: how many days the fill lasts, 1 to 365; another number raises ValueError.
    """
    if not 1 <= days_supply <= 365:
        raise ValueError(f"days_supply must be 1 to 365, got {days_supply}")
    text = last_fill.strip()
    for fmt in ("%Y-%m-%d %H:%M", "%Y-%m-%d"):
        try:
            filled = datetime.strptime(text, fmt)
            break
        except ValueError:
            continue
    else:
        raise ValueError(f"last_fill must be YYYY-MM-DD or YYYY-MM-DD HH:MM, got {last_fill!r}")
    return f"refill due on {(filled + timedelta(days=days_supply)).date().isoformat()}"


def tablets_per_dose(dose_mg: str, tablet_mg: int) -> str:
    """How many tablets make one dose.

    dose_mg: the prescribed dose in milligrams, copied from the prescription; it may have
        decimals (half-milligram doses are common for children). Text that is not a positive
        number raises ValueError.
    tablet_mg: the strength of one tablet in milligrams, 1 or more; a smaller strength raises
        ValueError.
    """
    if tablet_mg < 1:
        raise ValueError(f"tablet_mg must be 1 or more, got {tablet_mg}")
    dose = int(dose_mg)  # the seeded bug: a dose with decimals is documented
    return f"{dose / tablet_mg:g} tablets"


def tablets_per_dose_fixed(dose_mg: str, tablet_mg: int) -> str:
    """How many tablets make one dose.

    dose_mg: the prescribed dose in milligrams, copied from the prescription; it may have
        decimals (half-milligram doses are common for children). Text that is not a positive
        number raises ValueError.
    tablet_mg: the strength of one tablet in milligrams, 1 or more; a smaller strength raises
        ValueError.
    """
    if tablet_mg < 1:
        raise ValueError(f"tablet_mg must be 1 or more, got {tablet_mg}")
    try:
        dose = Decimal(dose_mg.strip())
    except InvalidOperation:
        raise ValueError(f"dose_mg must be a positive number, got {dose_mg!r}") from None
    if not dose.is_finite() or dose <= 0:
        raise ValueError(f"dose_mg must be a positive number, got {dose_mg!r}")
    return f"{float(dose / tablet_mg):g} tablets"


def adherence_rate(doses_taken: int, doses_prescribed: int) -> str:
    """The share of prescribed doses a patient took, in percent.

    doses_taken: doses taken, 0 or more.
    doses_prescribed: doses prescribed over the same period, 0 or more; with none prescribed the
        rate is "n/a". A negative count raises ValueError.
    """
    if doses_taken < 0 or doses_prescribed < 0:
        raise ValueError("doses must be 0 or more")
    return f"{100 * doses_taken / doses_prescribed:.0f}%"  # the seeded bug: 0 prescribed


def adherence_rate_fixed(doses_taken: int, doses_prescribed: int) -> str:
    """The share of prescribed doses a patient took, in percent.

    doses_taken: doses taken, 0 or more.
    doses_prescribed: doses prescribed over the same period, 0 or more; with none prescribed the
        rate is "n/a". A negative count raises ValueError.
    """
    if doses_taken < 0 or doses_prescribed < 0:
        raise ValueError("doses must be 0 or more")
    if doses_prescribed == 0:
        return "n/a"
    return f"{100 * doses_taken / doses_prescribed:.0f}%"


def max_daily_dose(drug: str) -> str:
    """The most an adult may take of a drug in a day.

    drug: the drug's generic name: paracetamol, ibuprofen, amoxicillin or metformin. A drug not
        in this formulary raises ValueError (ask the pharmacist).
    """
    key = drug.strip().lower()
    if key not in _FORMULARY_MG:
        raise ValueError(f"{drug!r} is not in the formulary: ask the pharmacist")
    return f"{_FORMULARY_MG[key]} mg a day"
