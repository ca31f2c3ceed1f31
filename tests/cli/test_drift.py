"""`masfuzz inspect TARGET --against MANIFEST`: structural drift of the code from the manifest
its team reviewed, each kind named, exit 1 on any and 0 on none."""

import json

import pytest
import yaml

from tests.conftest import EXAMPLES, ROOT

APP = "examples/customer_service/app.py:triage_agent"
LISTING_1 = EXAMPLES / "manifests" / "customer_service.yaml"

pytest.importorskip("agents")


@pytest.fixture(autouse=True)
def _in_repo(monkeypatch):
    monkeypatch.chdir(ROOT)


def _against(cli, tmp_path, edit):
    manifest = yaml.safe_load(LISTING_1.read_text())
    edit(manifest)
    path = tmp_path / "declared.yaml"
    path.write_text(yaml.safe_dump(manifest))
    code, out, err = cli("inspect", APP, "--against", str(path), "--format", "json")
    assert code in (0, 1), err
    return code, [(d["kind"], d["subject"]) for d in json.loads(out)["drift"]]


def test_the_code_as_declared_has_no_drift(cli):
    code, out, _ = cli("inspect", APP, "--against", str(LISTING_1))
    assert code == 0 and out.startswith("no structural drift")


def test_a_tool_granted_in_the_code_is_a_tool_edge_added_and_a_restriction_removed(cli, tmp_path):
    def declare_faq_without_its_tool(m):
        m["permissions"]["allow"].remove(["faq_agent", "faq_lookup_tool"])
        m["permissions"]["restrict"].append(["faq_agent", "faq_lookup_tool"])

    code, found = _against(cli, tmp_path, declare_faq_without_its_tool)
    assert code == 1
    assert found == [("tool_edge_added", "faq_agent -> faq_lookup_tool"),
                     ("restriction_removed", "faq_agent -> faq_lookup_tool")]


def test_a_delegation_pointed_elsewhere_is_retargeted(cli, tmp_path):
    def declare_faq_handing_to_seats(m):
        m["delegations"] = [d for d in m["delegations"] if (d["from"], d["to"]) != ("faq_agent", "triage_agent")]
        m["delegations"].append({"from": "faq_agent", "to": "seat_booking_agent", "trigger": "delegate"})

    code, found = _against(cli, tmp_path, declare_faq_handing_to_seats)
    assert code == 1 and found == [("delegation_retargeted", "faq_agent -> triage_agent")]


def test_an_agent_the_manifest_declares_and_the_code_lacks_is_removed(cli, tmp_path):
    def declare_a_refunds_agent(m):
        m["agents"].append({"id": "refund_agent"})
        m["delegations"].append({"from": "triage_agent", "to": "refund_agent", "trigger": "delegate"})

    code, found = _against(cli, tmp_path, declare_a_refunds_agent)
    assert code == 1
    assert ("agent_removed", "refund_agent") in found
    assert ("delegation_removed", "triage_agent -> refund_agent") in found
    code, out, _ = cli("inspect", APP, "--against", str(tmp_path / "declared.yaml"))
    assert "agent removed: refund_agent (in the manifest, not in the code)" in out
