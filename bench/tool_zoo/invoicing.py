"""Invoicing tools as LangChain `@tool`s, for a bookkeeping agent.

`invoice_line_total` (seeded) documents amounts written with thousands separators ("1,250.00")
and turns the text into a number with `float`, which refuses the comma;
`invoice_line_total_fixed` drops the separators first. `vat_rate` rejects, as documented, a
country it has no rate for.
"""

from __future__ import annotations

from decimal import Decimal, InvalidOperation

from langchain_core.tools import tool

_RATES = {"DE": 19, "FR": 20, "IT": 22, "NL": 21, "AT": 20}


@tool
def invoice_line_total(unit_price: str, quantity: int) -> str:
    """Total of one invoice line, rounded to cents.

    unit_price: the unit price as written on the quote, e.g. "12.50" or "1,250.00" (a comma
    separates thousands), at most 1,000,000.
    quantity: how many units, 1 to 100,000; another quantity raises ValueError.
    """
    if not 1 <= quantity <= 100_000:
        raise ValueError(f"quantity must be 1 to 100,000, got {quantity}")
    price = float(unit_price)  # the seeded bug: "1,250.00" is documented, float refuses it
    return f"{price * quantity:.2f}"


@tool
def invoice_line_total_fixed(unit_price: str, quantity: int) -> str:
    """Total of one invoice line, rounded to cents.

    unit_price: the unit price as written on the quote, e.g. "12.50" or "1,250.00" (a comma
    separates thousands), at most 1,000,000. Any other text raises ValueError.
    quantity: how many units, 1 to 100,000; another quantity raises ValueError.
    """
    if not 1 <= quantity <= 100_000:
        raise ValueError(f"quantity must be 1 to 100,000, got {quantity}")
    try:
        price = Decimal(unit_price.strip().replace(",", ""))
    except InvalidOperation:
        raise ValueError(f"unit_price must be a number like 1,250.00, got {unit_price!r}") from None
    if not price.is_finite() or abs(price) > 1_000_000:
        raise ValueError(f"unit_price must be a number like 1,250.00, got {unit_price!r}")
    return f"{(price * quantity).quantize(Decimal('0.01')):f}"


@tool
def vat_rate(country_code: str) -> str:
    """The standard VAT rate of an EU country.

    country_code: the two-letter ISO code, one of DE, FR, IT, NL, AT. Any other code raises
    ValueError.
    """
    code = country_code.strip().upper()
    if code not in _RATES:
        raise ValueError(f"no VAT rate for {country_code!r}: use one of DE, FR, IT, NL, AT")
    return f"{_RATES[code]}%"
