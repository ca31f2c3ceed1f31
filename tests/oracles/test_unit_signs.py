"""A documented form holding a unit's superscript ("12.5 m²", "6 m³"), which a blind set showed
missed: `str.isdigit` calls "²" a digit, so the example's shape asked for a decimal digit where
the example has the superscript, and an argument written exactly as documented read as off-form;
and a PydanticAI or ADK tool's answer was kept as ASCII-escaped JSON (`m\\u00b3`), so an answer
quoting the argument back did not read as quoting it. The yard's desk is in unit_sign_apps.py."""

from __future__ import annotations

import json
import re

import pytest

from masfuzz.adapters.pydantic_ai.recording import payload_text
from masfuzz.oracles.semantic import documented_formats
from masfuzz.spec.model import AgentSpec, Permissions, SystemInfo, ToolSpec, WorkflowSpec


@pytest.mark.parametrize("example", ["12.5 m²", "0.75 m³", "3 cm²", "40 µm", "TL-1000"])
def test_a_documented_example_fits_its_own_shape(example):
    spec = WorkflowSpec(
        system=SystemInfo(id="s", entry_agent="a"), agents=(AgentSpec(id="a"),),
        tools=(ToolSpec(id="t", parameters={"type": "object", "properties": {
            "v": {"type": "string", "description": f'The value as printed, like "{example}".'}}}),),
        permissions=Permissions(allow=(("a", "t"),)))
    [(_, regex)] = documented_formats(spec, "t")["v"]
    assert re.fullmatch(regex, example)


def test_a_tool_s_answer_keeps_its_characters_as_written():
    assert "6 m³" in payload_text({"message": "cannot read '6 m³'"})
    assert json.loads(payload_text({"price": "£38.40"})) == {"price": "£38.40"}


@pytest.mark.usefixtures("in_repo")
@pytest.mark.parametrize("desk, found", [("old_parser_desk", [("Tool Specification Mismatch", None, "hire_skip")]),
                                         ("new_parser_desk", [])])
def test_a_size_refused_in_the_unit_form_its_tool_documents(cli, desk, found):
    code, out, err = cli("exec", f"tests/oracles/unit_sign_apps.py:{desk}", "--input",
                         "Hello, we're clearing the garage at TR3 6QJ next week. Could we have a 6 m³ skip?",
                         "--sut-model", "scripted/tests/oracles/unit_sign_apps.py:policy",
                         "--format", "json", "--failures", "--no-cache")
    assert code == 0, err
    data = json.loads(out)
    [call] = [e for e in data["trace"]["events"] if e["type"] == "tool_call"]
    assert call["arguments"] == {"postcode": "TR3 6QJ", "size": "6 m³"}
    assert [(f["root_cause"], f["agent"], f["subject"]) for f in data["failures"]] == found
