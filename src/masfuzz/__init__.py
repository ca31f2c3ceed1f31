"""masfuzz: coverage-guided testing of LLM multi-agent systems and the tools their agents call."""

__version__ = "0.1.0"
