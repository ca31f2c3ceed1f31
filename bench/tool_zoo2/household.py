"""Kitchen and car tools for a household assistant (plain Python functions), two with misleading
documentation (correctness defects: no exception, a wrong answer) and one correct tool that
looks wrong.

`oven_fahrenheit` (seeded) documents a Celsius-to-Fahrenheit conversion and forgets the +32:
every answer is 32 degrees low; the fixed twin adds it. `fuel_needed` (seeded) documents the
car's consumption in litres per 100 km and divides by it as if it were km per litre; the fixed
twin uses it as documented. `cups_to_ml` is correct: 1 US cup is 236.588 ml, so 2 cups is
473 ml, not the 500 a rounder would expect.
"""

from __future__ import annotations


def oven_fahrenheit(celsius: float) -> str:
    """An oven temperature in Fahrenheit, for following an American recipe.

    celsius: the temperature in degrees Celsius, e.g. 180.
    Example: oven_fahrenheit(180) -> "356 °F"
    """
    fahrenheit = celsius * 9 / 5  # the seeded defect: the +32 is missing
    return f"{fahrenheit:.0f} °F"


def oven_fahrenheit_fixed(celsius: float) -> str:
    """An oven temperature in Fahrenheit, for following an American recipe.

    celsius: the temperature in degrees Celsius, e.g. 180.
    Example: oven_fahrenheit_fixed(180) -> "356 °F"
    """
    return f"{celsius * 9 / 5 + 32:.0f} °F"


def fuel_needed(distance_km: float, consumption: float) -> str:
    """How much fuel a trip takes.

    distance_km: the trip's length in kilometres, e.g. 250.
    consumption: the car's consumption in litres per 100 km, as the car's manual gives it,
        e.g. 6; it must be more than 0 (0 or less raises ValueError).
    """
    if not consumption > 0:
        raise ValueError(f"consumption must be more than 0, got {consumption}")
    litres = distance_km / consumption  # the seeded defect: read as km per litre
    return f"{litres:.1f} litres"


def fuel_needed_fixed(distance_km: float, consumption: float) -> str:
    """How much fuel a trip takes.

    distance_km: the trip's length in kilometres, e.g. 250.
    consumption: the car's consumption in litres per 100 km, as the car's manual gives it,
        e.g. 6; it must be more than 0 (0 or less raises ValueError).
    """
    if not consumption > 0:
        raise ValueError(f"consumption must be more than 0, got {consumption}")
    litres = distance_km * consumption / 100
    return f"{litres:.1f} litres"


def cups_to_ml(cups: float) -> str:
    """A US recipe's cups in millilitres (1 US cup is 236.588 ml, less than a metric cup).

    cups: how many US cups, e.g. 2.
    Example: cups_to_ml(2) -> "473 ml"
    """
    return f"{cups * 236.588:.0f} ml"
