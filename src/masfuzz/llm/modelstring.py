"""Parse the model strings users write: `provider/rest`.

    scripted/path/to/policy.py:name    scripted/pkg.mod:name
    local/gemma-3-270m                 local/smollm2-135m
    openai/MODEL                       openai-compatible/NAME@http://host:port/v1
    litellm/PROVIDER/MODEL

A string that does not parse is a `ModelError` naming it. Credentials a user pasted into a base
URL (`http://user:secret@host`) are never echoed: `ModelSpec.display` strips them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import urlsplit, urlunsplit

from masfuzz.errors import ModelError

PROVIDERS = ("scripted", "local", "openai", "openai-compatible", "litellm")
LOCAL_MODELS = ("gemma-3-270m", "smollm2-135m")


def providers() -> tuple[str, ...]:
    """The built-in providers, then those plugins add (`masfuzz.providers` entry points,
    `masfuzz.plugins`): `NAME/MODEL` for a plugin's, MODEL handed to it as written."""
    from masfuzz.plugins import names

    return (*PROVIDERS, *(n for n in names("masfuzz.providers") if n not in PROVIDERS))

FORMS = (
    "scripted/FILE.py:POLICY, scripted/PKG.MOD:POLICY, local/gemma-3-270m, local/smollm2-135m, "
    "openai/MODEL, openai-compatible/NAME@http://HOST:PORT/v1, litellm/PROVIDER/MODEL"
)


@dataclass(frozen=True)
class ModelSpec:
    provider: str
    model: str  # the policy target, the local model name, or the provider's model name
    base_url: str | None = None
    raw: str = ""

    @property
    def display(self) -> str:
        """The model string as it may appear in logs, errors and cache rows."""
        return redact_url_credentials(self.raw)


# Compiled at import, which a pool worker does before it forks its runs: `re`'s own cache is
# empty in each run's fork, and every run parses its model string (`masfuzz.llm.proxy`), so a
# pattern compiled on first use was compiled once per run. The scheme is kept by a function
# rather than a `\1` template, whose parse `re` caches the same way.
_URL_CREDENTIALS = re.compile(r"(https?://)[^/@\s]+@")


def redact_url_credentials(text: str) -> str:
    return _URL_CREDENTIALS.sub(lambda m: m.group(1), text)


def parse_model_string(model_string: str) -> ModelSpec:
    raw = (model_string or "").strip()
    shown = redact_url_credentials(raw) or "''"
    provider, sep, rest = raw.partition("/")
    if not sep or not rest.strip():
        raise ModelError(f"model string {shown!r} does not parse: expected one of {FORMS}")
    if provider not in providers():
        raise ModelError(
            f"model string {shown!r}: unknown provider {provider!r} "
            f"(known: {', '.join(providers())})"
        )
    if provider == "scripted":
        _, colon, attr = rest.rpartition(":")
        if not colon or not attr or "/" in attr:
            raise ModelError(
                f"model string {shown!r}: a scripted model names its policy as "
                "scripted/FILE.py:POLICY or scripted/PKG.MOD:POLICY"
            )
        return ModelSpec("scripted", rest, None, raw)
    if provider == "local":
        if rest not in LOCAL_MODELS:
            raise ModelError(
                f"model string {shown!r}: unknown local model {rest!r} "
                f"(known: {', '.join('local/' + m for m in LOCAL_MODELS)})"
            )
        return ModelSpec("local", rest, None, raw)
    if provider == "openai-compatible":
        name, at, url = rest.partition("@")
        if not at or not name or not url:
            raise ModelError(
                f"model string {shown!r}: expected openai-compatible/NAME@http://HOST:PORT/v1"
            )
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ModelError(
                f"model string {shown!r}: {redact_url_credentials(url)!r} is not an http(s) URL"
            )
        try:
            parts.port  # noqa: B018 - raises on a port that is not a number
        except ValueError:
            raise ModelError(f"model string {shown!r}: the URL's port is not a number") from None
        clean = urlunsplit(parts._replace(netloc=parts.netloc.rpartition("@")[2]))
        return ModelSpec("openai-compatible", name, clean.rstrip("/"), raw)
    if any(c.isspace() for c in rest):
        raise ModelError(f"model string {shown!r}: the model name contains whitespace")
    if provider == "litellm" and "/" not in rest:
        raise ModelError(f"model string {shown!r}: expected litellm/PROVIDER/MODEL")
    return ModelSpec(provider, rest, None, raw)
