"""One verdict for every face (`masfuzz.report.verdict`): coverage under --fail-under first, then
the app's own failures --fail-on names (a run's tool findings with them), then a phase masfuzz
could not run; the harness's and the settings' findings never count."""

from masfuzz.report.analysis import Analysis
from masfuzz.report.verdict import failure_verdict, verdict
from masfuzz.spec.manifest import load_manifest
from masfuzz.trace import Trace

from tests.conftest import ROOT

SPEC = ROOT / "examples" / "manifests" / "customer_service.yaml"


def _analysis(failures=(), phases=(), tools=()):
    analysis = Analysis.of_traces(load_manifest(SPEC), [Trace(scenario_id="s")])
    analysis.failures = list(failures)
    analysis.extra = {"phases": list(phases), "tools": {"findings": list(tools)}}
    return analysis


CRASH = {"category": "runtime_crash", "attribution": "sut", "description": "boom"}
OURS = {"category": "runtime_crash", "attribution": "harness", "description": "masfuzz's limit"}
FAILED = {"phase": "tools", "status": "failed", "reason": "the sandbox broke"}


def test_the_gates_in_order():
    assert verdict(_analysis()).passed
    assert verdict(_analysis([CRASH])).passed  # no gate asked for
    v = verdict(_analysis([CRASH, OURS]), fail_on=("any",))
    assert v.exit_code == 1 and v.failing == (CRASH,)  # the harness's finding never counts
    assert v.lines == ("--fail-on any: the system under test has 1 failure(s) (runtime crash)",)
    assert verdict(_analysis([CRASH]), fail_on="RC").exit_code == 1  # a symbol, as text
    assert verdict(_analysis([CRASH]), fail_on=("agent_relationship",)).passed
    # nothing witnessed: coverage under --fail-under fails first, and says so alone
    v = verdict(_analysis([CRASH]), fail_under=50, fail_on=("any",))
    assert v.exit_code == 1 and "under --fail-under 50%" in v.lines[0] and not v.failing
    # a phase masfuzz failed: 3, unless the app has failures of its own (real: they win)
    v = verdict(_analysis(phases=[FAILED]), fail_on=("any",))
    assert v.exit_code == 3 and v.lines[0].startswith("the campaign is incomplete: tools: FAILED")
    v = verdict(_analysis([CRASH], phases=[FAILED]), fail_on=("any",))
    assert v.exit_code == 1 and len(v.lines) == 2


def test_a_runs_tool_findings_count_with_its_failures_and_are_said_apart():
    v = verdict(_analysis([CRASH], tools=[{"kind": "runtime", "attribution": "sut"}]), fail_on="any")
    assert v.exit_code == 1 and v.lines == (
        "--fail-on any: the system under test has 2 failure(s) (runtime crash; 1 in runs, 1 by "
        "tool fuzzing)",)
    assert failure_verdict([OURS], ("any",)).passed
