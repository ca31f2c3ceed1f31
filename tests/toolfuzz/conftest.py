"""Shared fixtures: the example tools shipped in examples/tools, loaded as a user names them."""

from __future__ import annotations

from pathlib import Path

import pytest

from masfuzz.loader import load_target
from masfuzz.toolfuzz.tools import FuzzTool, wrap_tool

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "tools"
POLICIES = EXAMPLES / "policies.py"


def example_tool(spec: str) -> FuzzTool:
    return wrap_tool(load_target(str(EXAMPLES / spec)).obj)


@pytest.fixture
def map_tool() -> FuzzTool:
    return example_tool("map_search.py:open_street_map_search")


@pytest.fixture
def pubmed_tool() -> FuzzTool:
    return example_tool("literature_search.py:pubmed_search")


@pytest.fixture
def control_tool() -> FuzzTool:
    return example_tool("control.py:celsius_to_fahrenheit")
