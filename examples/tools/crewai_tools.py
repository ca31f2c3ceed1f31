"""Tools shipped with CrewAI itself, for `masfuzz tools examples/tools/crewai_tools.py:TOOLS` from
an environment that has crewai (`make crewai` builds one: crewai cannot share masfuzz's main
environment, it needs an older openai than the Agents SDK). masfuzz loads them without
importing crewai (masfuzz.toolfuzz.libraries).

- the "Hit Cache" tool a crew gives its agents (`CacheTools().tool()`, a `CrewStructuredTool`):
  it reads a cached tool result by a key of the form `tool:NAME|input:INPUT`, which its
  description does not say;
- `ReadFileTool`, with which an agent reads the files given to a crew's kickoff (none here).
"""

from __future__ import annotations

import os

# crewai starts an OpenTelemetry export thread on import unless told not to; the tool sandbox
# cannot enter new namespaces from a process that has threads (unshare refuses), and the
# sandbox has no network to export to anyway.
os.environ.setdefault("CREWAI_DISABLE_TELEMETRY", "true")

from crewai.tools.agent_tools.read_file_tool import ReadFileTool  # noqa: E402
from crewai.tools.cache_tools.cache_tools import CacheTools  # noqa: E402

TOOLS = [CacheTools().tool(), ReadFileTool()]
