"""`masfuzz inspect` on manifests: counts, formats, one-line errors."""

import json

from tests.conftest import EXAMPLES

LISTING_1 = str(EXAMPLES / "manifests" / "customer_service.yaml")


def test_inspect_reports_table_i_counts(cli):
    code, out, err = cli("inspect", LISTING_1, "--obligations")
    assert code == 0, err
    for line in ("reachable agents       3", "tools                  2", "allowed edges          2",
                 "restricted edges       4", "delegations            4", "obligations           13"):
        assert line in out
    assert "use_tool::faq_agent::faq_lookup_tool" in out


def test_inspect_round_trip_through_manifest(cli, tmp_path):
    for fmt in ("yaml", "json"):
        code, out, _ = cli("inspect", LISTING_1, "--format", fmt)
        p = tmp_path / f"again.{fmt}"
        p.write_text(out)
        code2, out2, _ = cli("inspect", str(p), "--format", fmt)
        assert code == code2 == 0 and out2 == out
        _, ob1, _ = cli("inspect", LISTING_1, "--obligations", "--format", "report-json")
        _, ob2, _ = cli("inspect", str(p), "--obligations", "--format", "report-json")
        assert json.loads(ob1)["obligations"] == json.loads(ob2)["obligations"]


def test_inspect_drawings(cli):
    code, out, _ = cli("inspect", LISTING_1, "--format", "dot")
    assert code == 0 and out.startswith('digraph "oai_customer_service"')
    assert '"triage_agent" -> "faq_agent" [style=dotted];' in out
    code, out, _ = cli("inspect", LISTING_1, "--format", "mermaid")
    assert code == 0 and "a_faq_agent --> t_faq_lookup_tool" in out


def test_bad_manifest_exits_2_with_one_line(cli, tmp_path):
    p = tmp_path / "bad.yaml"
    p.write_text("system: {id: s, entry_agent: nobody}\nagents: [a]\n")
    code, out, err = cli("inspect", str(p))
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "system.entry_agent: unknown agent 'nobody'" in err
