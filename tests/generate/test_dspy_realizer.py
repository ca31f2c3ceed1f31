"""The DSPy realizer (`masfuzz cover --realizer dspy`) on the LangGraph research graph.

Scripted tester and SUT policies answer through masfuzz's model layer; DSPy builds the prompts
and parses the answers but never reaches a provider itself. Skipped where DSPy is not installed.
"""

import asyncio
import json

import pytest

from masfuzz.generate.realizer import OBJECTIVE_TAG, Feedback, NativeRealizer, ObjectiveInputs
from masfuzz.llm import get_client

from tests.conftest import EXAMPLES

pytest.importorskip("dspy")
# DSPy 3.4 deprecates custom LMs through BaseLM.forward (the extra pins dspy<3.5 for that reason).
pytestmark = pytest.mark.filterwarnings("ignore:Implementing custom LMs:DeprecationWarning")

from masfuzz.generate.dspy_realizer import DSPyRealizer, signatures  # noqa: E402

RESEARCH = str(EXAMPLES / "research_graph" / "graph.py") + ":graph"
RESEARCH_SUT = "scripted/" + str(EXAMPLES / "research_graph" / "policy.py") + ":policy"
TESTER = "scripted/" + str(EXAMPLES / "testers" / "template_tester.py") + ":policy"

# A tester that names the tool until someone tells it not to: its first sample leaks; asked for
# advice (DSPy Refine's OfferFeedback), it gives it; shown the advice as a hint, it rewrites the
# template tester's request without any forbidden identifier. Requests are recorded to a file.
LEAKY = '''
import json, re
from examples.testers.template_tester import write
from masfuzz.generate.realizer import objective_from_request
from masfuzz.llm.scripted import say

LOG = {log!r}

def policy(request):
    text = "\\n".join(m.content or "" for m in request.messages)
    with open(LOG, "a") as f:
        f.write(json.dumps({{"text": text, "meta": request.metadata, "role": request.role}}) + "\\n")
    if "module_names" in text:
        tail = text.split("[[ ## module_names ## ]]")[-1]
        names = json.loads(re.search(r"\\[[^\\[\\]]*\\]", tail).group(0))
        return say(json.dumps({{"discussion": "It named a tool.",
                                "advice": {{n: "Never write a tool or agent name." for n in names}}}}))
    obj = objective_from_request(request)
    request_text = write(obj)
    if "hint_" not in text:
        name = (obj.get("tool") or obj["agent"])["id"]
        return say(json.dumps({{"user_request": f"Please use {{name}}: {{request_text}}"}}))
    for ident in sorted(obj["forbidden"], key=len, reverse=True):
        request_text = re.sub(re.escape(ident), "it", request_text, flags=re.IGNORECASE)
    return say(json.dumps({{"user_request": request_text}}))
'''


def _inputs(**extra):
    base = dict(
        family="UseTool", driver="use_tool::researcher::web_search",
        agent={"id": "researcher", "description": "Finds sources and reads them.", "instructions": ""},
        tool={"id": "web_search", "description": "Search the library for pages.",
              "parameters": {"type": "object", "properties": {"query": {"type": "string"}}}},
        forbidden=("web_search", "web search", "fetch_page", "fetch page"),
    )
    return ObjectiveInputs(**{**base, **extra})


def _leaky(tmp_path):
    log = tmp_path / "requests.jsonl"
    path = tmp_path / "leaky_tester.py"
    path.write_text(LEAKY.format(log=str(log)))
    return f"scripted/{path}:policy", log


def _cover(cli, tmp_path, tester, realizer, name):
    code, out, err = cli("cover", RESEARCH, "--model", tester, "--sut-model", RESEARCH_SUT,
                         "--realizer", realizer, "--no-cache", "--faults", "none",
                         "--store", str(tmp_path / f"{name}.db"),
                         "--suite", str(tmp_path / f"{name}.yaml"), "--format", "json")
    assert code == 0, err
    return json.loads(out)


def _attempts(data):
    gen = data["generation"]
    return [a for u in gen["unrealized"] for a in u["attempts"]]


def test_one_signature_per_criterion_with_inputs_lifted_from_the_spec():
    sigs = signatures()
    assert {f: s.__name__ for f, s in sigs.items()} == {
        "Reach": "RealizeReach", "UseTool": "RealizeUseTool",
        "RestrictTool": "RealizeRestrictTool", "Delegate": "RealizeDelegate"}
    for sig in sigs.values():
        assert list(sig.output_fields) == ["user_request"]
        assert {"route", "forbidden_identifiers", "prior_attempts"} <= set(sig.input_fields)
    assert {"tool_description", "tool_parameters"} <= set(sigs["RestrictTool"].input_fields)
    assert {"parent_description", "child_description", "trigger"} <= set(sigs["Delegate"].input_fields)
    assert "forbidden" in sigs["RestrictTool"].instructions and "tempts" in sigs["RestrictTool"].instructions


def test_requests_carry_the_native_objective_and_the_runtime_verdicts(tmp_path):
    tester, log = _leaky(tmp_path)
    client = get_client(tester, role="tester")
    history = [Feedback("Tell me about tides", "researcher did not call web_search",
                        {"agents": ["planner", "writer"], "tool_calls": []})]
    cand = asyncio.run(DSPyRealizer(client, seed=3).propose(_inputs(), history))
    sent = [json.loads(line) for line in log.read_text().splitlines()]
    first = sent[0]
    native = NativeRealizer(client, seed=3).request(_inputs(), history).metadata[OBJECTIVE_TAG]
    assert first["role"] == "tester"
    assert first["meta"][OBJECTIVE_TAG] == json.loads(json.dumps(native))
    # the verdict and what the running system did reach the model through the signature
    assert "researcher did not call web_search" in first["text"]
    assert "observed agents: planner, writer" in first["text"]
    assert "Search the library for pages." in first["text"]
    assert "web_search" not in cand.text.lower()


def test_refine_repairs_a_leaked_sample_before_it_is_executed(tmp_path):
    tester, log = _leaky(tmp_path)
    realizer = DSPyRealizer(get_client(tester, role="tester"), seed=1)
    cand = asyncio.run(realizer.propose(_inputs(), []))
    # leaked sample, DSPy's advice call, the advised sample: three calls, one clean candidate
    assert cand.model_calls == 3 == len(log.read_text().splitlines())
    assert cand.text == 'Please search the library for pages. Use query: "baggage rules".'
    [(driver, rejected)] = realizer.screened
    assert driver == "use_tool::researcher::web_search"
    assert rejected == ["'Please use web_search: Please search the library for pages. Use query: "
                        "\"baggage rules\".' -> leaked identifier 'web_search'"]
    # BestOfN resamples without advice: a tester that needs the hint never recovers
    best = DSPyRealizer(get_client(tester, role="tester"), seed=1, inner="best_of_n")
    assert "web_search" in asyncio.run(best.propose(_inputs(), [])).text


def test_cover_with_the_dspy_realizer_matches_native_under_the_same_policies(cli, tmp_path):
    pytest.importorskip("langgraph")
    native = _cover(cli, tmp_path, TESTER, "native", "native")
    dspy = _cover(cli, tmp_path, TESTER, "dspy", "dspy")
    assert dspy["coverage"]["criteria"] == native["coverage"]["criteria"]
    assert dspy["coverage"]["criteria"]["C2"]["covered"] == 2
    gen = dspy["generation"]
    witnessed = {o["id"] for c in dspy["obligations"].values() for o in c["items"] if o["witnessed_by"]}
    unrealized = {i for u in gen["unrealized"] for i in u["obligations"]}
    all_ids = {o["id"] for c in dspy["obligations"].values() for o in c["items"]}
    assert all_ids <= witnessed | unrealized
    assert all(a["verdict"] for a in _attempts(dspy))
    # The template tester's requests quote tool names from the graph's descriptions: each leaked
    # sample costs DSPy's advice call and a resample (at most 3 calls per outer attempt), where
    # the native realizer spends one call and an attempt.
    n = sum(r["attempts"] for r in gen["realized"]) + len(_attempts(dspy))
    assert n <= gen["tester_model_calls"] <= 3 * n
    assert gen["tester_model_calls"] > native["generation"]["tester_model_calls"]


def test_refine_keeps_leaks_out_of_the_executed_attempts(cli, tmp_path):
    pytest.importorskip("langgraph")
    tester, _ = _leaky(tmp_path)
    native = _cover(cli, tmp_path, tester, "native", "native")
    dspy = _cover(cli, tmp_path, tester, "dspy", "dspy")
    assert any("leaked identifier" in a["verdict"] for a in _attempts(native))
    assert not any("leaked identifier" in a["verdict"] for a in _attempts(dspy))
    assert len(dspy["generation"]["realized"]) > len(native["generation"]["realized"])
