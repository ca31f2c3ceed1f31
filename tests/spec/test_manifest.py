"""Manifest reading, validation errors and the round trip."""

import pytest

from masfuzz.errors import SpecError
from masfuzz.spec import dump_manifest, load_manifest, parse_manifest

from tests.conftest import EXAMPLES

LISTING_1 = EXAMPLES / "manifests" / "customer_service.yaml"


def test_listing_1_loads_with_all_parts():
    spec = load_manifest(LISTING_1)
    assert spec.system.entry_agent == "triage_agent"
    assert [a.id for a in spec.agents] == ["triage_agent", "faq_agent", "seat_booking_agent"]
    assert ("faq_agent", "faq_lookup_tool") in spec.permissions.allow
    assert len(spec.permissions.restrict) == 4
    assert spec.delegations[0].from_ == "triage_agent"


@pytest.mark.parametrize("fmt", ["yaml", "json"])
def test_round_trip_is_identical(tmp_path, fmt):
    spec = load_manifest(LISTING_1)
    path = tmp_path / f"m.{fmt}"
    path.write_text(dump_manifest(spec, fmt))
    again = load_manifest(path)
    assert again == spec
    assert dump_manifest(again, fmt) == dump_manifest(spec, fmt)


BASE = """
system: {id: s, entry_agent: a}
agents: [{id: a}, {id: b}]
tools: [{id: t}]
permissions:
  allow: [[a, t]]
delegations:
  - {from: a, to: b}
"""


def _bad(text, name="m.yaml"):
    with pytest.raises(SpecError) as info:
        parse_manifest(text, name)
    msg = str(info.value)
    assert "\n" not in msg and "Traceback" not in msg
    return msg


def test_base_is_valid():
    assert parse_manifest(BASE, "m.yaml").system.id == "s"


@pytest.mark.parametrize(
    "text, expected",
    [
        (BASE.replace("entry_agent: a", "entry_agent: zz"), "system.entry_agent: unknown agent 'zz'"),
        (BASE.replace("{id: s, entry_agent: a}", "{id: s}"), "system.entry_agent"),
        (BASE.replace("[[a, t]]", "[[a, nope]]"), "permissions.allow[0]: unknown tool 'nope'"),
        (BASE.replace("[[a, t]]", "[[ghost, t]]"), "permissions.allow[0]: unknown agent 'ghost'"),
        (BASE.replace("allow: [[a, t]]", "allow: [[a, t]]\n  restrict: [[a, t]]"), "both allowed and restricted"),
        (BASE.replace("{from: a, to: b}", "{from: a, to: c}"), "delegations[0].to: unknown agent 'c'"),
        (BASE.replace("{from: a, to: b}", "{to: b}"), "delegations[0].from"),
        (BASE.replace("[{id: a}, {id: b}]", "[{id: a}, {id: a}, {id: b}]"), "duplicate id 'a'"),
        (BASE.replace("tools: [{id: t}]", "tools: [{id: t}, {id: t}]"), "duplicate id 't'"),
        (BASE.replace("[[a, t]]", "[[a, t, x]]"), "permissions.allow[0]"),
        (BASE.replace("[[a, t]]", "5"), "permissions.allow"),
        (BASE.replace("{id: b}", "{name: b}"), "agents[1].id"),
        (BASE.replace("{id: b}", "{id: b, colour: red}"), "agents[1].colour"),
        (BASE.replace("{from: a, to: b}", "{from: a, to: b, trigger: teleport}"), "delegations[0].trigger"),
        (BASE + "termination: {max_turns: 0}\n", "termination.max_turns"),
        (BASE + "termination: {max_turns: many}\n", "termination.max_turns"),
        (BASE + "format_version: 99\n", "format_version 99"),
        ("system: [unclosed\n", "invalid YAML"),
        ("- just\n- a list\n", "must be a mapping"),
        ("", "must be a mapping"),
        (BASE.replace("{id: s, entry_agent: a}", "{entry_agent: a}"), "system.id"),
        (BASE + "permissions: {allow: [[a, t]], restrict: [[b, t]], restrict_mode: closed_world}\n",
         "must be empty when restrict_mode is closed_world"),
        (BASE.replace("agents: [{id: a}, {id: b}]", "agents: [{id: ''}, {id: a}, {id: b}]"), "agents[0].id: empty id"),
    ],
)
def test_malformed_manifest_gives_one_line_naming_the_field(text, expected):
    assert expected in _bad(text)


def test_yaml_error_names_the_line():
    msg = _bad("system:\n  id: s\n  entry_agent: a\nagents: [\n", "broken.yaml")
    assert msg.startswith("broken.yaml:")


def test_field_error_names_the_yaml_line():
    text = BASE.replace("{from: a, to: b}", "{from: a, to: b, trigger: teleport}")
    msg = _bad(text)
    line = next(i for i, l in enumerate(text.splitlines(), 1) if "teleport" in l)
    assert msg.startswith(f"m.yaml:{line}:")


def test_invalid_json_names_line(tmp_path):
    p = tmp_path / "m.json"
    p.write_text('{"system": {"id": "s",\n "entry_agent": }')
    with pytest.raises(SpecError, match=r"m.json:2: invalid JSON"):
        load_manifest(p)


def test_missing_and_unreadable_files(tmp_path):
    with pytest.raises(SpecError, match="no such file"):
        load_manifest(tmp_path / "nope.yaml")
    p = tmp_path / "bin.yaml"
    p.write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(SpecError, match="cannot read"):
        load_manifest(p)


def test_bare_id_shorthand():
    spec = parse_manifest("system: {id: s, entry_agent: a}\nagents: [a, b]\ntools: [t]\n", "m.yaml")
    assert [a.id for a in spec.agents] == ["a", "b"]
