"""The one exception type that reaches the user as a one-line message and exit status 2.

Anything raised as `MasfuzzError` is bad input (a manifest, a target, a model string, an option):
the CLI prints ``masfuzz: error: <message>`` and exits 2 without a traceback. Everything else that
escapes is a bug in masfuzz; failures of the system under test never escape, they become events.
"""

from __future__ import annotations


class MasfuzzError(Exception):
    """Bad input, named precisely enough to fix it from one line."""

    exit_code = 2  # masfuzz.report.phases.EXIT_BAD_INPUT

    def __init__(self, message: str) -> None:
        # Keep it one line whatever the cause carried (YAML errors span several lines).
        super().__init__(" ".join(str(message).split()))


class SpecError(MasfuzzError):
    """A workflow specification or manifest that is malformed or not well formed."""


class TargetError(MasfuzzError):
    """A target (``file.py:attr``, ``pkg.mod:attr``) that cannot be loaded or understood."""


class ModelError(MasfuzzError):
    """A model string that does not parse, or a provider that cannot be reached or used."""


class ModelCallFailed(ModelError):
    """One model call failed after its retries (no reply in time, rate limits, 5xx). Unlike a
    bad model string or a rejected key, this is no input error: a campaign records it against
    the objective it was for and goes on."""
