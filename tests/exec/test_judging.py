"""Judging where the run ran: a campaign's deterministic detectors, as data
(`masfuzz.oracles.portable`), run by the pool's worker right after the execution (a judging
request), when several workers run at once; the findings are those the campaign's own process
would have made of the same trace, and with one worker it judges them itself, as it always did."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from masfuzz.campaign import Campaign
from masfuzz.coverage.structural import StructuralModel
from masfuzz.exec import PoolExecutor
from masfuzz.exec.sandbox import problem
from masfuzz.graph.coordination import CoordinationGraph
from masfuzz.graph.specification import skeleton
from masfuzz.oracles.portable import PortableJudge
from masfuzz.scenario import Scenario
from masfuzz.store.db import RunStore
from masfuzz.target import Target

TOY = Path(__file__).parent / "fixtures" / "toy_system.py"
TARGET = f"{TOY}:system"
ADAPTER = f"{TOY}:ToyAdapter"
# each finds something: a restricted call, a tool's error, both after a hand-over; and nothing
WORDS = ["triage hang", "specialist crash", "lookup specialist chatter lookup", "lookup", "poison specialist poison"]

pytestmark = pytest.mark.skipif(problem() is not None, reason=f"no OS sandbox here: {problem()}")


def _spec():
    return Target(TARGET, adapter=ADAPTER).open().spec


def _judges():
    spec = _spec()
    return [PortableJudge("workflow", spec), PortableJudge("flare", spec, skeleton(spec))]


def _executed(workers: int, judge: PortableJudge):
    """Each of WORDS run on a pool of `workers`, with what the pool's `judged` answered."""
    ex = PoolExecutor(adapter=ADAPTER, timeout=60, concurrency=workers)

    async def go():
        try:
            return await asyncio.gather(*(ex.judged(ex.request(TARGET, Scenario(input=w)), judge) for w in WORDS))
        finally:
            await ex.aclose()

    return asyncio.run(go())


@pytest.mark.parametrize("kind", ["workflow", "flare"])
def test_a_worker_judges_the_trace_as_this_process_would(kind):
    judge = next(j for j in _judges() if j.kind == kind)
    ran = _executed(2, judge)
    assert all(found is not None for _, found in ran), "every run was judged by its worker"
    for trace, found in ran:
        assert found == judge(trace), trace.scenario_id  # same failures, same order, same fields
        assert [f.fingerprint for f in found] == [f.fingerprint for f in judge(trace)]
    assert any(found for _, found in ran), "the toy's runs show failures: the check is not empty"


def test_with_one_worker_the_caller_judges():
    assert all(found is None for _, found in _executed(1, _judges()[0]))


def test_a_judge_the_worker_cannot_rebuild_leaves_the_judging_to_the_caller():
    """Judging that fails in the worker (here a specification it cannot read) is answered as
    not made: the caller judges the trace itself, and the worker serves the next request."""
    judge = _judges()[0]
    broken = json.loads(judge.text)
    broken["workflow"]["agents"] = "not a list of agents"
    judge.__dict__["text"] = json.dumps(broken)  # what it sends (`PortableJudge.text`)
    ran = _executed(2, judge)
    assert all(found is None for _, found in ran)
    assert all(trace.termination.reason == "completed" for trace, _ in ran[:2])


def test_a_judge_made_of_its_data_is_the_same_judge():
    for judge in _judges():
        again = PortableJudge.from_data(json.loads(judge.text))
        assert (again.kind, again.workflow, again.flare) == (judge.kind, judge.workflow, judge.flare)
        assert PortableJudge.from_data(json.loads(judge.text)) is again  # rebuilt once per process


class _Each:
    """A phase that executes WORDS, two at once."""

    name = "each"

    async def run(self, campaign):
        for i in range(0, len(WORDS), 2):
            await campaign.execute([Scenario(input=w) for w in WORDS[i:i + 2]])


def _campaign(tmp_path, workers: int) -> tuple[list, int]:
    """The failures a campaign over WORDS stored (in order), and how many of its executions the
    workers judged."""
    spec = _spec()
    store = RunStore(tmp_path / f"w{workers}.db")
    run_id = store.start_run("cover", spec, TARGET, {}, seed=0)
    ex = PoolExecutor(adapter=ADAPTER, timeout=60, concurrency=workers)
    judged = ex.judged
    by_worker = []

    async def counted(request, judge):
        trace, found = await judged(request, judge)
        by_worker.append(found is not None)
        return trace, found

    ex.judged = counted
    campaign = Campaign(Target(TARGET, adapter=ADAPTER), spec, ex,
                        [StructuralModel(CoordinationGraph(spec).obligations())], [_Each()], store, run_id)
    asyncio.run(campaign.run())
    failures = [dict(f) for f in store.failures(run_id)]  # each run in a store of its own
    return failures, sum(by_worker)


def test_a_campaign_stores_the_same_failures_whoever_judged(tmp_path):
    one, judged_one = _campaign(tmp_path, 1)
    two, judged_two = _campaign(tmp_path, 2)
    assert judged_one == 0 and judged_two == len(WORDS)
    assert one and two == one


def test_the_pools_template_is_given_the_judge_before_it_forks_a_worker():
    """The template makes the campaign's judge ready once (`Template.prepare_judge`) instead of
    each worker on its first judging: it holds the judge by the time any worker was forked, and
    the workers' findings are still those judging here gives."""
    judge = _judges()[1]
    ex = PoolExecutor(adapter=ADAPTER, timeout=60, concurrency=2)
    ex.will_judge(judge)
    held = []

    async def go():
        try:
            ran = await asyncio.gather(*(ex.judged(ex.request(TARGET, Scenario(input=w)), judge) for w in WORDS[:3]))
            held.append(ex._template.judge)
            return ran
        finally:
            await ex.aclose()

    ran = asyncio.run(go())
    assert held == [judge.text]
    assert all(found is not None and found == judge(trace) for trace, found in ran)


def test_with_one_worker_no_judge_is_prepared():
    ex = PoolExecutor(adapter=ADAPTER, timeout=60, concurrency=1)
    ex.will_judge(_judges()[0])
    assert ex._judge_text is None


def test_a_campaign_tells_its_executor_the_judge_before_any_run():
    told = []

    class Executor:
        def will_judge(self, judge):
            told.append(judge)

    spec = _spec()
    judge = PortableJudge("workflow", spec)
    Campaign(Target(TARGET, adapter=ADAPTER), spec, Executor(),
             [StructuralModel(CoordinationGraph(spec).obligations())], detectors=judge)
    assert told == [judge]


def test_the_rehearsal_reaches_every_agent_and_allowed_tool_of_the_team():
    """What the template judges once (`portable.rehearsal`): a made-up run of the campaign's own
    team, so the patterns naming each of its agents and tools are compiled before the fork."""
    from masfuzz.oracles.portable import prepare, rehearsal
    from masfuzz.trace import AgentTurn, ToolCall

    spec = _spec()
    trace = rehearsal(spec)
    assert {e.agent for e in trace.events if isinstance(e, AgentTurn)} == {a.id for a in spec.agents}
    assert {(e.agent, e.tool) for e in trace.events if isinstance(e, ToolCall)} == set(spec.permissions.allow)
    judge = _judges()[1]
    prepare(judge.text)  # rebuilt here once: a worker forked after it finds it
    assert PortableJudge.from_data(json.loads(judge.text)) is PortableJudge.from_data(json.loads(judge.text))


async def _judging_idle(ex: PoolExecutor, judge: PortableJudge, words: str) -> "asyncio.Future":
    """`words` run, judged, on `ex`: under way, once its trace is in and its idle worker judges."""
    ran = asyncio.ensure_future(ex.judged(ex.request(TARGET, Scenario(input=words)), judge))
    while not (ex._idle and ex._idle[0].judging is not None):
        await asyncio.sleep(0.01)
    return ran


def test_a_request_sent_to_a_worker_that_dies_judging_runs_on_another(monkeypatch):
    """The slot is free once a trace is in, and the next request goes to that worker while it
    judges (`Worker.send`); a worker that dies judging has not run that request: it runs on a
    new worker, never as a crash of its own."""
    judge = _judges()[0]
    ex = PoolExecutor(adapter=ADAPTER, timeout=60, concurrency=2)
    taken = asyncio.Event()

    async def dies_judging(self, worker, request):
        await taken.wait()  # the next request was sent to it
        await worker.kill()
        return None

    monkeypatch.setattr(PoolExecutor, "_judgment", dies_judging)

    async def go():
        try:
            first = await _judging_idle(ex, judge, WORDS[3])
            second = asyncio.ensure_future(ex.judged(ex.request(TARGET, Scenario(input=WORDS[3])), judge))
            while ex._idle:
                await asyncio.sleep(0.01)
            taken.set()
            return await first, await second
        finally:
            await ex.aclose()

    (first, found_first), (second, found_second) = asyncio.run(go())
    assert found_first is None and found_second is None  # not judged there: the caller judges
    assert first.termination.reason == second.termination.reason == "completed"


def test_a_worker_killed_while_it_judges_leaves_the_judging_to_the_caller(monkeypatch):
    """Its judging under way while it is idle, a worker the pool kills (it closes, or the next
    request is for another target) answers no judging: the caller judges, nothing is cancelled."""
    judge = _judges()[0]
    ex = PoolExecutor(adapter=ADAPTER, timeout=60, concurrency=2)
    real, killed = PoolExecutor._judgment, asyncio.Event()

    async def after_the_kill(self, worker, request):
        await killed.wait()
        return await real(self, worker, request)

    monkeypatch.setattr(PoolExecutor, "_judgment", after_the_kill)

    async def go():
        try:
            ran = await _judging_idle(ex, judge, WORDS[0])
            await ex._idle[0].kill()
            killed.set()
            return await ran
        finally:
            await ex.aclose()

    trace, found = asyncio.run(go())
    assert found is None and trace.termination.reason == "completed"
