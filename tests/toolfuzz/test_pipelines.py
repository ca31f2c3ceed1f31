"""The model stages under scripted policies (examples/tools/policies.py): a real provider behind
the model protocol, answering the pipelines' prompts deterministically."""

import asyncio

import pytest

from masfuzz.llm.client import get_client
from masfuzz.toolfuzz.correctness import consistent, correctness_pipeline, fill, normalise
from masfuzz.toolfuzz.docfix import fix_documentation
from masfuzz.toolfuzz.runtime import runtime_pipeline
from masfuzz.toolfuzz.sandbox import Sandbox

from pathlib import Path

POLICIES = Path(__file__).resolve().parents[2] / "examples" / "tools" / "policies.py"


@pytest.fixture
def models():
    return (get_client(f"scripted/{POLICIES}:tester", role="tester"),
            get_client(f"scripted/{POLICIES}:agent", role="sut"))


def test_runtime_pipeline_writes_requests_and_confirms_through_the_agent(map_tool, models):
    tester, agent = models
    with Sandbox(map_tool) as box:
        report = asyncio.run(runtime_pipeline(map_tool, box, calls=200, seed=11, agent=agent, tester=tester))
    errors = {k.error_type: u for k, u in report.fuzz.unique.items()}
    for u in errors.values():
        assert u.sanity == "accepted" and u.user_request
    # The documented prefix: the agent adds it, so the missing-prefix input is not confirmed...
    assert errors["IndexError"].confirmed is False
    assert errors["IndexError"].agent_arguments["query"].startswith("query: ")
    # ...while the undocumented length limit breaks the tool through the agent as well.
    assert errors["AssertionError"].confirmed is True


def test_sanity_check_refusal_drops_the_input(models):
    from masfuzz.toolfuzz.tools import from_callable

    def echo(text: str) -> str:
        """Echo printable text."""
        raise ValueError("always")

    tester, agent = models
    tool = from_callable(echo)
    with Sandbox(tool) as box:
        report = asyncio.run(runtime_pipeline(tool, box, calls=5, seed=0, agent=agent, tester=tester))
    (err,) = report.fuzz.unique.values()
    err.examples = [{"text": "\x00\x01"}]
    from masfuzz.toolfuzz.runtime import confirm_error

    with Sandbox(tool) as box:
        run = asyncio.run(confirm_error(err, tool, box, agent, tester, seed=0))
    assert run is None and err.sanity == "refused"


def test_correctness_flags_the_date_tool_not_the_control_and_autofix_lowers_errors(pubmed_tool, control_tool, models):
    tester, agent = models
    with Sandbox(pubmed_tool) as box:
        date = asyncio.run(correctness_pipeline(pubmed_tool, box, agent, tester, seed=1))
        assert date.erroneous_sets and date.error_count > 0
        (s,) = date.erroneous_sets
        assert not s.arguments_consistent and not s.outputs_consistent and not s.oracle_passed
        fix = asyncio.run(fix_documentation(pubmed_tool, date, box, agent, tester, seed=1, k=3))
    assert fix.after < fix.before
    assert "[Date - Publication]" in fix.best
    assert len(fix.candidates) == 3
    with Sandbox(control_tool) as box:
        ctrl = asyncio.run(correctness_pipeline(control_tool, box, agent, tester, seed=1))
    assert ctrl.sets and not ctrl.erroneous_sets and ctrl.error_count == 0


def test_consistency_is_judged_after_normalisation():
    assert consistent([{"celsius": 20}, {"celsius": 20.0}, {"celsius": "20.00"}])
    assert consistent(["20 °C is 68.0 °F", "20 °c is 68 °F "])
    assert not consistent([{"q": "cancer 2020"}, {"q": "RNA cancer"}])
    assert normalise({"b": 1, "a": "X  y"}) == normalise({"a": "x y", "b": 1.0})


def test_prompt_sets_zip_synonymous_infills():
    got = fill("Find [A] in [B]", {"A": ["libraries", "public libraries"], "B": ["SF", "San Francisco", "S.F."]}, 5)
    assert got == ["Find libraries in SF", "Find public libraries in San Francisco", "Find libraries in S.F."]
    assert fill("Find [A]", {}, 5) == []
