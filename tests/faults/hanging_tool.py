"""A tool that hangs on odd numbers: each hang is a timeout, and masfuzz replaces the worker."""

import time


def hang_on_odd(n: int) -> str:
    """Echo an even number; an odd one never returns."""
    if n % 2:
        time.sleep(60)
    return str(n)
