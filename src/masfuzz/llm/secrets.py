"""Keep secrets out of everything masfuzz writes: logs, cache rows, errors, traces, reports.

A secret is an API key masfuzz was given, the value of any environment variable whose name ends
in KEY, TOKEN or SECRET, a bearer token, or credentials inside a URL.
"""

from __future__ import annotations

import os
import re

_SECRET_ENV = re.compile(r"(KEY|TOKEN|SECRET)$", re.IGNORECASE)
_PATTERNS = (
    re.compile(r"(?i)(authorization\s*[:=]\s*)(bearer\s+)?\S+"),
    re.compile(r"(?i)(bearer\s+)[A-Za-z0-9._\-]+"),
    re.compile(r"\b(sk-[A-Za-z0-9_\-*]{6,})"),
    re.compile(r"(https?://)[^/@\s]+@"),
)


def secret_values(extra: tuple[str | None, ...] = ()) -> list[str]:
    values = [v for k, v in os.environ.items() if _SECRET_ENV.search(k) and v and len(v) >= 6]
    values += [v for v in extra if v and len(v) >= 4]
    return sorted(set(values), key=len, reverse=True)


def redact(text: str, *extra: str | None) -> str:
    """`text` with every known secret replaced by `***`."""
    for value in secret_values(extra):
        text = text.replace(value, "***")
    text = _PATTERNS[0].sub(r"\1***", text)
    text = _PATTERNS[1].sub(r"\1***", text)
    text = _PATTERNS[2].sub("sk-***", text)
    return _PATTERNS[3].sub(r"\1", text)
