"""What the networked providers share: who they are, and how they retry."""

from __future__ import annotations

from masfuzz.llm.modelstring import ModelSpec
from masfuzz.llm.retry import RetryPolicy


class RemoteProvider:
    """Base of providers reached over the network; `--max-connections` bounds them all."""

    uses_network = True

    def __init__(self, spec: ModelSpec, key: str | None, max_retries: int, base_delay: float) -> None:
        self.spec = spec
        self.model_string = spec.display
        self.provider = spec.provider
        self.model = spec.model
        self._key = key
        self.retry = RetryPolicy(max_retries, base_delay)
