"""A shipping-quote tool as an OpenAI Agents SDK `function_tool`, for a logistics agent.

`shipping_quote` (seeded) upper-cases the insurance's currency, which its documentation says is
optional (EUR when left out): an insured parcel sent without a currency raises AttributeError on
None; `shipping_quote_fixed` uses the default. A weight over 30 kg, an unknown currency and a
value over 100,000 are rejected, as documented.
"""

from __future__ import annotations

import math
from typing import Optional

from agents import function_tool
from pydantic import BaseModel

_EUR = {"EUR": 1.0, "USD": 0.92, "GBP": 1.17, "CHF": 1.04}


class Insurance(BaseModel):
    value: float
    currency: Optional[str] = None


def _quote(weight_kg: float, express: bool, insurance: Optional[Insurance], currency: str) -> str:
    if not 0 < weight_kg <= 30:
        raise ValueError(f"weight_kg must be more than 0 and at most 30, got {weight_kg}")
    price = round((4.5 + 1.2 * weight_kg) * (1.8 if express else 1.0), 2)
    if insurance is not None:
        if currency not in _EUR:
            raise ValueError(f"insurance currency must be one of EUR, USD, GBP, CHF, got {currency!r}")
        if not (math.isfinite(insurance.value) and 0 <= insurance.value <= 100_000):
            raise ValueError(f"insurance value must be 0 to 100,000, got {insurance.value}")
        price += round(0.01 * insurance.value * _EUR[currency], 2)
    return f"{price:.2f} EUR"


@function_tool
def shipping_quote(weight_kg: float, express: bool = False, insurance: Optional[Insurance] = None) -> str:
    """Price of sending one parcel within the EU, in EUR.

    Args:
        weight_kg: the parcel's weight in kilograms, more than 0 and at most 30; another weight
            raises ValueError.
        express: next-day delivery (costs more).
        insurance: optional cover, {"value": 250.0, "currency": "USD"}; the value is 0 to 100,000
            and "currency" is optional (EUR when left out), one of EUR, USD, GBP, CHF.
    """
    currency = insurance.currency.upper() if insurance is not None else ""  # the seeded bug
    return _quote(weight_kg, express, insurance, currency)


@function_tool
def shipping_quote_fixed(weight_kg: float, express: bool = False,
                         insurance: Optional[Insurance] = None) -> str:
    """Price of sending one parcel within the EU, in EUR.

    Args:
        weight_kg: the parcel's weight in kilograms, more than 0 and at most 30; another weight
            raises ValueError.
        express: next-day delivery (costs more).
        insurance: optional cover, {"value": 250.0, "currency": "USD"}; the value is 0 to 100,000
            and "currency" is optional (EUR when left out), one of EUR, USD, GBP, CHF.
    """
    currency = (insurance.currency or "EUR").upper() if insurance is not None else ""
    return _quote(weight_kg, express, insurance, currency)
