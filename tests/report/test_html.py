"""The HTML report: one self-contained page, checked as a file and in a real browser.

The browser test opens the page in Debian's headless Chromium (driven through chromedriver by
Selenium): the graph, the obligation table and a failure's trace drill-down must render, the
page must log no console error and fetch nothing, and a screenshot is kept as a test artifact
(`.masfuzz/test-artifacts/`, or `$MASFUZZ_ARTIFACTS`). `make test` installs Chromium and sets
MASFUZZ_REQUIRE_BROWSER, so there a missing browser fails the test instead of skipping it.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from html.parser import HTMLParser
from pathlib import Path

import pytest

from tests.conftest import ROOT
from tests.generate.test_cover import TESTER


def _render(cli, store, tmp_path, kind="html"):
    out = tmp_path / f"report.{kind}"
    code, _, err = cli("report", "--store", store, "--report", f"{kind}:{out}")
    assert code == 0, err
    return out


class _Page(HTMLParser):
    """What a reader of the file would count: attributes that could fetch, obligation rows,
    graph elements, failures."""

    def __init__(self) -> None:
        super().__init__()
        self.fetching: list[str] = []
        self.rows: list[dict[str, str]] = []
        self.graph_nodes: list[dict[str, str]] = []
        self.failures: list[str] = []
        self.who_when: list[dict[str, str]] = []
        self.decisive: list[dict[str, str]] = []
        self.csp = ""

    def handle_starttag(self, tag, attrs):
        a = {k: v or "" for k, v in attrs}
        for key in ("src", "href", "xlink:href", "action", "poster", "srcset"):
            if key in a and not a[key].startswith("#"):
                self.fetching.append(f"<{tag} {key}={a[key]}>")
        if tag == "meta" and a.get("http-equiv") == "Content-Security-Policy":
            self.csp = a["content"]
        if tag == "tr" and "ob-row" in a.get("class", ""):
            self.rows.append(a)
        if tag == "g" and "node" in a.get("class", "").split():
            self.graph_nodes.append(a)
        if tag == "details" and "failure" in a.get("class", "").split():
            self.failures.append(a["data-fingerprint"])
        if tag == "dd" and a.get("class") == "who-when":
            self.who_when.append(a)
        if tag == "tr" and "decisive" in a.get("class", "").split():
            self.decisive.append(a)


def test_the_page_holds_everything_and_agrees_with_the_json_report(cli, store, tmp_path):
    page = _Page()
    page.feed(_render(cli, store, tmp_path).read_text())
    data = json.loads(_render(cli, store, tmp_path, "json").read_text())
    code, out, _ = cli("report", "--store", store, "--format", "json", "--obligations")
    obligations = json.loads(out)["obligations"]

    assert page.fetching == []  # inline styles, script and drawings only
    assert "default-src 'none'" in page.csp
    # the table lists every obligation, with the status the coverage gives it
    assert len(page.rows) == sum(o["total"] for o in obligations.values())
    for criterion, o in obligations.items():
        rows = {r["data-ob"]: r["data-status"] for r in page.rows if r["data-criterion"] == criterion}
        witnessed = {i["id"] for i in o["items"] if i["witnessed_by"]}
        assert {k for k, v in rows.items() if v != "unwitnessed"} == witnessed
        assert data["coverage"]["criteria"][criterion]["covered"] == len(witnessed)
    assert {r["data-ob"] for r in page.rows if r["data-status"] == "violated"} == {
        "restrict_tool::triage_agent::update_seat"}
    # the graph draws each agent and tool once, agents coloured by C1
    spec = data["structure"]
    assert len(page.graph_nodes) == spec["agents"] + spec["tools"]
    assert sorted(n["data-ob"] for n in page.graph_nodes if "agent" in n["class"].split()) == sorted(
        i["id"] for i in obligations["C1"]["items"])
    # every failure is there, the app's and the one set aside, with who and when, its decisive
    # event marked in its trace
    assert sorted(page.failures) == sorted(f["fingerprint"] for f in data["failures"])
    assert sorted((w["data-agent"], w["data-step"]) for w in page.who_when) == sorted(
        (f["agent"], str(f["step"])) for f in data["failures"])
    assert len(page.decisive) == len(data["failures"])


def test_the_timeline_ends_where_the_report_ends(store):
    from masfuzz.report.analysis import analyze
    from masfuzz.store.db import RunStore

    with RunStore(store) as db:
        a = analyze(db)
    assert len(a.timeline) == a.scenarios
    last = a.timeline[-1]
    assert last.covered == {r.criterion: r.covered for r in a.criteria()}
    assert last.failures == sum(1 for f in a.failures if f["attribution"] == "sut")
    assert all(p.covered[c] <= q.covered[c] for p, q in zip(a.timeline, a.timeline[1:]) for c in last.covered)


def test_a_fuzz_runs_timeline_also_follows_flares_paths_and_behaviours(cli, store, tmp_path, monkeypatch):
    pytest.importorskip("agents")
    from masfuzz.report.analysis import analyze
    from masfuzz.store.db import RunStore
    from tests.generate.test_cover import CS, CS_SUT

    monkeypatch.chdir(ROOT)
    db = str(tmp_path / "runs.db")
    code, _, err = cli("fuzz", CS, "--model", TESTER, "--sut-model", CS_SUT, "--no-cache", "--no-check",
                       "--no-judge", "--no-spec-agent", "--rounds", "6", "--input",
                       "Please change my seat to 14C, confirmation ABC123", "--store", db)
    assert code in (0, 1), err
    with RunStore(db) as runs:
        a = analyze(runs)
    fuzz = a.extra["fuzz"]
    last = a.timeline[-1]
    assert last.flare == {"paths": len(fuzz["paths_covered"]),
                          "behaviours": len(fuzz["behaviours_covered"])}
    assert last.flare["behaviours"] > 0
    assert all(p.flare[k] <= q.flare[k] for p, q in zip(a.timeline, a.timeline[1:]) for k in last.flare)
    page = _render(cli, db, tmp_path).read_text()
    assert 'aria-label="FLARE&#39;s coverage over the campaign"' in page or \
        "aria-label=\"FLARE's coverage over the campaign\"" in page
    row = fuzz["table1"]
    assert f"behaviours {last.flare['behaviours']}/{row['behaviour']['A']['total']}" in page
    # a cover run has no FLARE chart
    assert "FLARE: paths and behaviours" not in _render(cli, store, tmp_path).read_text()


def test_untrusted_text_is_escaped(tmp_path):
    """What the app's agents and the tester wrote reaches the page as text, never as markup."""
    from masfuzz.report.html import HtmlReporter
    from masfuzz.report.analysis import Analysis
    from masfuzz.spec.model import AgentSpec, SystemInfo, WorkflowSpec
    from masfuzz.trace import Message, TerminationEvent, Trace

    evil = '<script>alert(1)</script><img src=x onerror=alert(2)>'
    spec = WorkflowSpec(system=SystemInfo(id="s", entry_agent="a"), agents=(AgentSpec(id="a"),))
    a = Analysis.of_traces(spec, [Trace(scenario_id="sc-1", events=(
        Message(agent=None, role="user", content=evil), TerminationEvent()))])
    a.failures = [{"category": "termination", "root_cause": "x", "detector": "d", "description": evil,
                   "fingerprint": "f1", "execution_id": 1, "evidence": [0], "attribution": "sut",
                   "severity": "low", "confidence": "observed", "input": evil}]
    a.traces = {1: Trace(events=(Message(agent="a", content=evil),))}
    html = HtmlReporter().render(a)
    assert evil not in html and "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    page = _Page()
    page.feed(html)
    assert page.fetching == []


# -- in a real browser ---------------------------------------------------------------------------
def _browser():
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    driver = shutil.which("chromedriver")
    if not (chromium and driver):
        if os.environ.get("MASFUZZ_REQUIRE_BROWSER"):
            pytest.fail("Chromium and chromedriver are needed (Debian: apt-get install chromium chromium-driver)")
        pytest.skip("no Chromium here (`make test` installs it)")
    webdriver = pytest.importorskip("selenium.webdriver")
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--window-size=1400,2000"):
        options.add_argument(arg)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service(driver), options=options)


@pytest.fixture
def browser():
    driver = _browser()
    yield driver
    driver.quit()


def _artifact(name: str) -> Path:
    where = Path(os.environ.get("MASFUZZ_ARTIFACTS") or ROOT / ".masfuzz" / "test-artifacts")
    where.mkdir(parents=True, exist_ok=True)
    return where / name


@pytest.mark.slow
def test_chromium_renders_the_graph_the_table_and_a_failures_trace(cli, store, tmp_path, browser):
    from selenium.webdriver.common.by import By

    path = _render(cli, store, tmp_path)
    browser.get(path.as_uri())

    nodes = browser.find_elements(By.CSS_SELECTOR, "svg.graph g.node")
    assert len(nodes) == 5 and all(n.is_displayed() for n in nodes)
    assert browser.find_element(By.CSS_SELECTOR, "svg.graph").size["width"] > 300
    edges = browser.find_elements(By.CSS_SELECTOR, "svg.graph path.edge")
    assert browser.find_elements(By.CSS_SELECTOR, "svg.graph path.edge.violated")
    assert len(edges) >= 6
    assert browser.find_element(By.CSS_SELECTOR, "svg.plot path.series.C1").is_displayed()

    rows = browser.find_elements(By.CSS_SELECTOR, "#obligation-table tr.ob-row")
    assert len(rows) == 13 and all(r.is_displayed() for r in rows)
    # clicking an element of the graph narrows the table to its obligation
    browser.execute_script("arguments[0].dispatchEvent(new MouseEvent('click', {bubbles: true}))",
                           browser.find_element(By.CSS_SELECTOR, 'svg.graph [data-ob="use_tool::faq_agent::faq_lookup_tool"]'))
    shown = [r.get_attribute("data-ob") for r in rows if r.is_displayed()]
    assert shown == ["use_tool::faq_agent::faq_lookup_tool"]
    assert browser.find_element(By.ID, "ob-shown").text == "1 of 13 shown"

    # a failure opens onto its trace, the detector's evidence and the decisive event marked
    [failure] = [d for d in browser.find_elements(By.CSS_SELECTOR, "#failures details.failure")
                 if "violate its schema" in d.get_attribute("textContent")]
    evidence = failure.find_element(By.CSS_SELECTOR, "tr.evidence")
    assert not evidence.is_displayed()
    failure.find_element(By.TAG_NAME, "summary").click()
    assert evidence.is_displayed()
    assert re.search(r"tool_call\s+seat_booking_agent\s+update_seat\(", evidence.text)
    assert "decisive" in evidence.get_attribute("class")  # the call off the schema
    assert failure.find_element(By.CSS_SELECTOR, "dd.who-when").text.startswith("who: seat_booking_agent, when: event")

    browser.save_screenshot(str(_artifact("html-report.png")))
    errors = [e for e in browser.get_log("browser") if e["level"] in ("SEVERE", "WARNING")]
    assert errors == []
    assert browser.execute_script("return performance.getEntriesByType('resource').length") == 0


def test_tool_findings_show_escaped_reproducers_and_whose_they_are(cli, tmp_path, monkeypatch):
    """A run's tools phase on a desk whose tool breaks on empty and non-ASCII names, and one that
    allocates past the sandbox's memory limit: the page lists each unique error with arguments a
    reader can copy (control characters escaped), and the limit's error as set aside."""
    from masfuzz.toolfuzz.sandbox import isolation_problem

    pytest.importorskip("agents")
    if isolation_problem() is not None:
        pytest.skip("this machine cannot sandbox a tool")
    monkeypatch.chdir(ROOT)
    from tests.generate.test_cover import CS_SUT, TESTER

    store, page = tmp_path / "runs.db", tmp_path / "report.html"
    code, _, err = cli("run", str(ROOT / "tests" / "campaign" / "fragile_tools_app.py") + ":desk",
                       "--model", TESTER, "--sut-model", CS_SUT, "--no-cache", "--no-check",
                       "--phases", "tools", "--calls", "40", "--store", str(store),
                       "--suite", str(tmp_path / "suite.yaml"), "--report", f"html:{page}",
                       "--report", f"json:{tmp_path / 'report.json'}")
    assert code == 1, err  # the tool's own crashes fail the run
    assert f"wrote the html report to {page}" in err
    data = json.loads((tmp_path / "report.json").read_text())
    findings = data["tools"]["findings"]
    html = page.read_text()
    rows = re.findall(r"<tr><td><code>(\w+)</code></td><td>runtime</td><td>(.*?)</td>.*?<pre>(.*?)</pre></td>"
                      r"<td>.*?</td><td>(.*?)</td></tr>", html, flags=re.S)
    assert len(rows) == len(findings)
    assert all(ord(ch) >= 32 or ch in "\n\t" for _, _, args, _ in rows for ch in args)
    whose = {(tool, error.split(":")[0]): who for tool, error, _, who in rows}
    assert whose[("shout", "IndexError")] == "the tool's"
    assert whose[("reserve", "MemoryError")].startswith("set aside")
    own = sum(1 for f in findings if f.get("attribution", "sut") == "sut")
    assert re.search(rf'id="tool-findings">{own}<', html)
    assert any(args == '{&#34;name&#34;: &#34;&#34;}' for tool, _, args, _ in rows if tool == "shout")
