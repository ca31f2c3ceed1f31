"""Tools shipped with smolagents, llama-index, agno and PydanticAI that need no network and no
API key, for `masfuzz tools examples/tools/library_tools.py:NAME` (the `toolfuzz-libs` and
`pydantic-ai` extras). Each list is loaded natively (masfuzz.toolfuzz.libraries): its library's
schema, calling path and error convention. CrewAI's are in crewai_tools.py (an environment of
their own).

- SMOLAGENTS: the default `PythonInterpreterTool` (smolagents' own restricted interpreter) and
  `FinalAnswerTool`;
- LLAMA_INDEX: a `QueryEngineTool` and a `RetrieverTool` over a two-document `SummaryIndex`,
  answered by llama-index's `MockLLM` (no model, no embedding);
- AGNO: the `CalculatorTools` toolkit (every function in it);
- PYDANTIC_AI: the common `web_fetch` tool (with no network in the sandbox, its fetches fail
  into its own `ModelRetry`s; its URL checks run before any fetch).
"""

from __future__ import annotations

from agno.tools.calculator import CalculatorTools
from llama_index.core import Document, Settings, SummaryIndex
from llama_index.core.llms import MockLLM
from llama_index.core.tools import QueryEngineTool, RetrieverTool
from pydantic_ai.common_tools.web_fetch import web_fetch_tool
from smolagents.default_tools import FinalAnswerTool, PythonInterpreterTool

SMOLAGENTS = [PythonInterpreterTool(), FinalAnswerTool()]

Settings.llm = MockLLM(max_tokens=16)
_INDEX = SummaryIndex.from_documents([Document(text="Paris is the capital of France."),
                                      Document(text="Bern is the federal city of Switzerland.")])
LLAMA_INDEX = [
    QueryEngineTool.from_defaults(_INDEX.as_query_engine(), name="capitals",
                                  description="Answers a question about European capitals."),
    RetrieverTool.from_defaults(_INDEX.as_retriever(), name="capital_passages",
                                description="Finds the passages about European capitals."),
]

AGNO = CalculatorTools()

PYDANTIC_AI = [web_fetch_tool(timeout=5)]

TOOLS = [*SMOLAGENTS, *LLAMA_INDEX, AGNO, *PYDANTIC_AI]
