"""A savings calculator for a personal-finance assistant (plain Python functions).

`savings_growth` (seeded) compounds with floats, `(1 + r) ** years`, which overflows (OverflowError)
for long horizons at high rates its documentation allows ("any number of years"), e.g. 100%
for 2,000 years; `savings_growth_fixed` computes in Decimal. A negative rate is rejected, as
documented.
"""

from __future__ import annotations

from decimal import MAX_EMAX, Decimal, localcontext


def savings_growth(principal: float, rate_percent: float, years: int) -> str:
    """What a deposit grows to with yearly compound interest.

    principal: the deposit, in any currency; 0 or more.
    rate_percent: the yearly interest rate in percent, 0 to 100 (5 means 5%). A rate outside 0 to
    100 or a negative principal raises ValueError.
    years: how many years, any number from 0 up; the result is given in scientific notation when
    it is very large.
    """
    if principal < 0 or not 0 <= rate_percent <= 100:
        raise ValueError("principal must be 0 or more and rate_percent 0 to 100")
    if years < 0:
        raise ValueError(f"years must be 0 or more, got {years}")
    value = principal * (1 + rate_percent / 100) ** years  # the seeded bug: float overflow
    return f"{value:.6g}"


def savings_growth_fixed(principal: float, rate_percent: float, years: int) -> str:
    """What a deposit grows to with yearly compound interest.

    principal: the deposit, in any currency; 0 or more.
    rate_percent: the yearly interest rate in percent, 0 to 100 (5 means 5%). A rate outside 0 to
    100 or a negative principal raises ValueError.
    years: how many years, 0 to 1,000,000; the result is given in scientific notation when it is
    very large. More years raise ValueError.
    """
    if not (0 <= principal < float("inf")) or not 0 <= rate_percent <= 100:
        raise ValueError("principal must be 0 or more and rate_percent 0 to 100")
    if not 0 <= years <= 1_000_000:
        raise ValueError(f"years must be 0 to 1,000,000, got {years}")
    with localcontext() as ctx:
        ctx.prec = 12
        ctx.Emax = MAX_EMAX
        value = Decimal(principal) * (1 + Decimal(rate_percent) / 100) ** years
    return f"{value:.6g}"
