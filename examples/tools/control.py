"""A correct control tool: documented fully, total on its input domain. ToolFuzz should find no
runtime errors in it and flag no correctness errors."""

from __future__ import annotations


def celsius_to_fahrenheit(celsius: float) -> str:
    """Convert a temperature from degrees Celsius to degrees Fahrenheit. Give `celsius` as a
    number (for example 20 or -3.5). Any finite number is accepted."""
    value = float(celsius)
    if value != value or value in (float("inf"), float("-inf")):
        return "The temperature must be a finite number."
    return f"{value:g} °C is {value * 9 / 5 + 32:.1f} °F"
