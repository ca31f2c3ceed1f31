"""FLARE's loop on the engine: mutations that reach what they should and nothing else,
deterministic for a seed, coverage gains move the weights (and do not under `uniform`), sequence
mutation opens the selector team's second path, a killed run resumes to the uninterrupted one, and
the run is reported from the store."""

import json
import random
import re

import pytest

from masfuzz.fuzz.loop import OPERATORS, Choices, mutate
from masfuzz.scenario import Scenario
from tests.conftest import EXAMPLES, ROOT

CS = str(EXAMPLES / "customer_service" / "app.py") + ":triage_agent"
VIDEO = str(EXAMPLES / "video_team" / "team.py") + ":selector_team"
HOT = "scripted/" + str(ROOT / "tests" / "fuzz" / "hot_policy.py") + ":policy"
IN_ORDER = "scripted/" + str(ROOT / "tests" / "adapters" / "mutation_policy.py") + ":in_order"
READER = "scripted/" + str(ROOT / "tests" / "fuzz" / "flare_testers.py") + ":reader"
OFFLINE = ("--seed-tasks", "0", "--no-judge", "--no-cache", "--executor", "inprocess")
AGENTS = ["script_writer", "voice_actor", "graphic_designer", "director"]


# -- the mutator ------------------------------------------------------------------------------
@pytest.mark.parametrize("free_form", [False, True])
def test_mutants_keep_the_input_and_reorder_only_free_form_teams(free_form):
    rng, seed = random.Random(7), Scenario(input="Make a video about rain", sut_model="m")
    orders, nonces = set(), set()
    for n in range(300):
        mutant, mutation = mutate(seed, rng.choice(OPERATORS), AGENTS, rng, choices=Choices(),
                                  model_pool=("a", "b"), participants=tuple(AGENTS),
                                  free_form=free_form, number=n)
        assert mutant.input == seed.input and mutant.provenance.parent == seed.id
        changed = {a for a in AGENTS if a in mutant.temperatures or a in mutant.agent_models}
        assert changed <= {mutation.agent}  # one agent's configuration, never another's
        if mutant.speaking_order:
            assert sorted(mutant.speaking_order) == sorted(AGENTS)
        orders.add(mutant.speaking_order)
        nonces.add(mutant.nonce)
    assert (len(orders) > 10) if free_form else (orders == {()})
    assert len(nonces) == 300  # every mutant, identity included, is a new sample


def test_an_identity_mutant_is_a_new_execution():
    seed = Scenario(input="hi", sut_model="m")
    mutant, mutation = mutate(seed, "identity", AGENTS, random.Random(1), choices=Choices())
    assert mutation.operator == "identity" and not mutant.temperatures and not mutant.agent_models
    assert mutant.id != seed.id and mutant.nonce is not None


# -- the loop, end to end ---------------------------------------------------------------------
def _fuzz(cli, tmp_path, name, *extra, target=CS, inputs=("Change my seat to 14C, booking ABC123",
                                                          "How much luggage can I bring?"),
          sut=HOT, expect=0, rounds=12):
    argv = ["fuzz", target, "--sut-model", sut, "--rounds", str(rounds), "--seed", "3",
            "--store", str(tmp_path / f"{name}.db"), "--format", "json", *OFFLINE, *extra]
    for text in inputs:
        argv += ["--input", text]
    if "--model" not in extra:
        argv.append("--no-spec-agent")
    code, out, err = cli(*argv)
    assert code == expect, err
    return json.loads(out) if code == 0 else err


def _scrub(doc):
    text = json.dumps(doc, sort_keys=True)
    text = re.sub(r'"(started|finished|wall_time|seconds)": [0-9.eE+-]+', r'"\1": 0', text)
    # the campaigns compared run in this one process under --executor inprocess: a run's place
    # among its system's runs in the process (`process_run`, and the flag that says it) goes on
    # counting from one campaign to the next
    text = re.sub(r'"process_run": [0-9]+', '"process_run": 0', text)
    return re.sub(r'"shared_process": "[^"]*"', '"shared_process": ""', text)


def test_a_mutation_finds_what_the_seeds_did_not(cli, tmp_path):
    pytest.importorskip("agents")
    data = _fuzz(cli, tmp_path, "a")
    fuzz = data["fuzz"]
    assert fuzz["rounds"] == 12 and fuzz["rounds_with_gain"] >= 1
    restricted = [f for f in data["failures"] if f["category"] == "restricted_tool_call"]
    assert restricted and restricted[0]["elements"][:2] == ["triage_agent", "update_seat"]
    assert restricted[0]["clause"] == "tool::update_seat"  # the spec clause it violates
    # only a hot triage agent does this: its reproducer is a mutant, not a seed
    assert restricted[0]["scenario_id"] not in fuzz["history"][0]["scenario"]
    # the tool was offered as a probe: the hot triage agent reached for a tool it must not use,
    # which the desk's instructions do not keep it off: the app's, with who and when
    assert all(f["attribution"] == "sut" and f["agent"] == "triage_agent" for f in restricted)
    assert all("probe" in f["description"] for f in restricted)
    assert fuzz["table1"]["failures"]["TI"] >= len(restricted)
    assert fuzz["table1"]["behaviour"]["N"]["covered"] >= 3
    assert any(w != 0.5 for w in fuzz["operator_weights"].values())
    # the mutant that found the restricted call joined the corpus, its lineage back to a seed
    [hot] = [e for e in fuzz["corpus"] if "restrict_tool::triage_agent::update_seat" in e["gain"]]
    assert hot["parent"] is not None and hot["lineage"][0] in (0, 1) and hot["lineage"][-1] == hot["entry"]
    assert "triage_agent: temperature" in hot["mutation"]
    calls = {u["agent"]: u["calls"] for u in fuzz["usage"] if u["role"] == "sut"}
    assert calls["triage_agent"] > 0 and calls["faq_agent"] > 0  # per agent, as the model saw


def test_the_same_seed_gives_the_same_run(cli, tmp_path):
    pytest.importorskip("agents")
    a, b = _fuzz(cli, tmp_path, "a"), _fuzz(cli, tmp_path, "b")
    assert _scrub(a["fuzz"]) == _scrub(b["fuzz"]) and _scrub(a["failures"]) == _scrub(b["failures"])


def test_the_free_pace_keeps_workers_busy_within_the_executions_budget(cli, tmp_path):
    """Three mutants in flight, each drawn as one ends: the budget counts those under way, so
    the campaign runs exactly the nine executions it allows, every one learnt from."""
    pytest.importorskip("agents")
    from masfuzz.store.db import RunStore

    data = _fuzz(cli, tmp_path, "free", "--pace", "free", "--workers", "3", "--budget", "9x")
    assert [h["round"] for h in data["fuzz"]["history"]][:2] == [0, 0]
    assert sorted(h["round"] for h in data["fuzz"]["history"][2:]) == list(range(1, 8))
    with RunStore(str(tmp_path / "free.db")) as store:
        assert len(list(store.executions(store.latest_run()))) == 9


def test_uniform_keeps_its_weights_and_report_shows_the_run(cli, tmp_path):
    pytest.importorskip("agents")
    fuzz = _fuzz(cli, tmp_path, "u", "--strategy", "uniform")["fuzz"]
    assert set(fuzz["operator_weights"].values()) == {0.5}
    code, out, _ = cli("report", "--store", str(tmp_path / "u.db"))
    assert code == 0 and "fuzzing (uniform): 2 seed(s), 12 rounds" in out
    assert re.search(r"corpus: \d+ entries \(2 seed\(s\), \d+ mutant\(s\) that added coverage\)", out)
    assert re.search(r"paths \d+/\d+ +behaviours A \d+/\d+ N \d+/\d+ +failures AR \d", out)


@pytest.mark.parametrize("pace,window", [
    (("--batch", "2"), None),  # batches of 2
    # three workers, and mutants in flight beyond them: their records run ahead of the learning
    (("--pace", "steady", "--workers", "3"), None),  # the window `steady_window` gives
    (("--pace", "steady", "--workers", "3"), 4),  # a quarter more than the workers
    (("--pace", "steady", "--workers", "3"), 9)])
def test_a_killed_run_resumes_to_the_uninterrupted_one(cli, tmp_path, monkeypatch, pace, window):
    pytest.importorskip("agents")
    from masfuzz.fuzz import campaign
    from masfuzz.fuzz.loop import FlarePhase

    if window is not None:
        monkeypatch.setattr(campaign, "steady_window", lambda workers: window)
    whole = _fuzz(cli, tmp_path, "whole", *pace)
    grown = [e for e in whole["fuzz"]["corpus"] if e["parent"] is not None]
    assert grown, "the hot triage agent's mutant should have joined the corpus"
    if window is not None:
        assert whole["run"]["config"]["choices"]["window"] == window
    real = FlarePhase._learn

    def dies_mid_loop(self, c, p, outcome, row, gained):
        # killed learning from the mutant after the first that joined the corpus, the
        # mutants drawn after it under way (some of them recorded, under a deep window)
        if len(self.corpus) > len(self.seeds):
            raise KeyboardInterrupt
        return real(self, c, p, outcome, row, gained)

    monkeypatch.setattr(FlarePhase, "_learn", dies_mid_loop)
    assert "interrupted" in _fuzz(cli, tmp_path, "killed", *pace, expect=130)  # as Ctrl-C would
    monkeypatch.setattr(FlarePhase, "_learn", real)
    from masfuzz.store.db import RunStore

    with RunStore(str(tmp_path / "killed.db")) as store:  # killed with its corpus grown
        assert any(e["parent"] is not None for e in store.corpus(store.latest_run()))
    resumed = _fuzz(cli, tmp_path, "killed", *pace)
    assert resumed["fuzz"]["rounds"] == 12
    # the corpus the killed run stored, grown again by the resumed one: the uninterrupted one's
    assert resumed["fuzz"]["corpus"] == whole["fuzz"]["corpus"]
    for key in ("fuzz", "failures", "coverage"):
        assert _scrub(resumed[key]) == _scrub(whole[key]), key


def test_sequence_mutation_opens_the_selector_teams_second_path(cli, tmp_path):
    """A selector that picks the first ready participant it is shown: only a new order makes
    the voice-over and the image swap, the second of the two legal paths."""
    pytest.importorskip("autogen_agentchat")
    common = dict(target=VIDEO, inputs=("A short video about the water cycle",), sut=IN_ORDER,
                  rounds=40)
    off = _fuzz(cli, tmp_path, "off", "--model", READER, "--no-sequence", **common)["fuzz"]
    on = _fuzz(cli, tmp_path, "on", "--model", READER, **common)["fuzz"]
    assert off["dependencies"] == on["dependencies"] != []  # from the Specification Agent
    assert off["table1"]["path"] == {"covered": 1, "total": 2, "capped": False}
    assert on["table1"]["path"] == {"covered": 2, "total": 2, "capped": False}


def test_fuzz_needs_a_seed(cli):
    code, _, err = cli("fuzz", CS, "--sut-model", HOT, "--seed-tasks", "0", "--no-spec-agent")
    assert code == 2 and "--input" in err and err.count("\n") == 1


def rewriter(request):
    """The `input` strategy's tester: a reworded task that says which round asked for it."""
    from masfuzz.fuzz.seeds import INPUT_MUTATOR
    from masfuzz.fuzz.spec_agent import TAG

    assert request.agent == INPUT_MUTATOR
    return json.dumps({"task": request.metadata[TAG]["input"] + f" (variant {request.seed})"})


def test_the_input_strategy_rewrites_the_task_and_nothing_else(cli, tmp_path):
    pytest.importorskip("agents")
    tester = "scripted/" + str(ROOT / "tests" / "fuzz" / "test_loop.py") + ":rewriter"
    data = _fuzz(cli, tmp_path, "i", "--strategy", "input", "--model", tester, "--no-spec-agent")
    history = data["fuzz"]["history"]
    assert {h["operator"] for h in history if h["round"]} == {"input"}
    from masfuzz.store.db import RunStore

    mutants = [s for _, s, _ in RunStore(str(tmp_path / "i.db")).executions(1)
               if s.provenance.source == "mutator:input"]
    assert len(mutants) == 12 and all("(variant " in s.input for s in mutants)
    assert all(not s.temperatures and not s.agent_models and not s.speaking_order for s in mutants)


def task_writer(request):
    """Writes one task per agent line of the workflow it is shown (so a lost prompt fails)."""
    from masfuzz.fuzz.seeds import SEED_WRITER

    assert request.agent == SEED_WRITER
    agents = re.findall(r"^- (\w+): ", request.messages[-1].content, re.M)
    return json.dumps({"tasks": [f"I need help from the {a.replace('_', ' ')}." for a in agents]})


def test_the_tester_writes_seed_tasks_from_the_workflow(cli, tmp_path):
    pytest.importorskip("agents")
    tester = "scripted/" + str(ROOT / "tests" / "fuzz" / "test_loop.py") + ":task_writer"
    code, out, err = cli("fuzz", CS, "--sut-model", HOT, "--model", tester, "--seed-tasks", "2",
                         "--no-spec-agent", "--no-judge", "--no-cache", "--executor", "inprocess",
                         "--rounds", "2", "--store", str(tmp_path / "w.db"), "--format", "json")
    assert code == 0, err
    data = json.loads(out)
    assert data["run"]["config"]["seeds"] == ["I need help from the triage agent.",
                                              "I need help from the faq agent."]
    assert data["fuzz"]["seeds"] == 2 and data["fuzz"]["tester"]["seed_writer"]["calls"] == 1


def placeholder_writer(request):
    """A weak model's seed tasks: placeholders among one real task."""
    return json.dumps({"tasks": ["...", "1.", "Where is my checked bag?"]})


def test_placeholder_seed_tasks_are_rejected_and_counted():
    import asyncio

    from masfuzz.fuzz.seeds import seed_tasks
    from masfuzz.fuzz.spec_agent import TesterStats
    from masfuzz.llm.scripted import ScriptedClient
    from masfuzz.target import open_target

    spec = open_target(CS).spec
    stats = TesterStats()
    tasks = asyncio.run(seed_tasks(spec, ScriptedClient(placeholder_writer, "scripted/placeholder"), 3,
                                  stats=stats))
    assert tasks == ["Where is my checked bag?"]
    assert [d.item for d in stats.rejected] == ["...", "1."]


async def slow_tester(request):
    """A Specification Agent that takes two minutes to answer."""
    import asyncio

    await asyncio.sleep(120)
    return "{}"


def test_the_budget_covers_the_tester_steps_before_the_loop(cli, tmp_path):
    pytest.importorskip("agents")
    import time

    tester = "scripted/" + str(ROOT / "tests" / "fuzz" / "test_loop.py") + ":slow_tester"
    t0 = time.monotonic()
    code, out, err = cli("fuzz", CS, "--input", "How much luggage can I bring?", "--sut-model",
                         HOT, "--model", tester, "--budget", "2s", "--seed-tasks", "0",
                         "--no-judge", "--no-cache", "--executor", "inprocess", "--store",
                         str(tmp_path / "b.db"), "--format", "json")
    assert code == 0, err
    # not the tester's two minutes (the margin is the start-up's, on a loaded machine)
    assert time.monotonic() - t0 < 100
    data = json.loads(out)
    assert "specification" not in data["fuzz"]["tester"]  # cut short: the skeleton stands
    assert data["fuzz"]["dependencies"] == [] and data["fuzz"]["rounds"] == 0


async def slow_desk(request):
    """The desk's hot model, five seconds a call."""
    import asyncio

    from tests.fuzz.hot_policy import policy

    await asyncio.sleep(5)
    return policy(request)


@pytest.mark.parametrize("executor", ["inprocess", "pool"])
def test_a_run_under_way_when_the_budget_ends_is_abandoned_not_a_finding(cli, tmp_path, executor):
    pytest.importorskip("agents")
    import time

    slow = "scripted/" + str(ROOT / "tests" / "fuzz" / "test_loop.py") + ":slow_desk"
    t0 = time.monotonic()
    code, out, err = cli("fuzz", CS, "--input", "How much luggage can I bring?", "--sut-model",
                         slow, "--budget", "3s", "--seed-tasks", "0", "--no-spec-agent",
                         "--no-judge", "--no-cache", "--executor", executor, "--store",
                         str(tmp_path / "b.db"), "--format", "json")
    assert code == 0, err
    # what shows the run was abandoned is that none was recorded (a run waited for would be);
    # the time only rules out a hang, generously: a worker starts slowly on a loaded machine
    assert time.monotonic() - t0 < 120
    data = json.loads(out)
    assert data["coverage"]["scenarios"] == 0 and not data.get("failures")
    assert data["run"]["status"] == "completed"


def broken_tester(request):
    raise RuntimeError("the tester's server is down")


def test_a_failing_tester_leaves_the_skeleton_and_is_counted(cli, tmp_path):
    pytest.importorskip("agents")
    tester = "scripted/" + str(ROOT / "tests" / "fuzz" / "test_loop.py") + ":broken_tester"
    data = _fuzz(cli, tmp_path, "x", "--model", tester)
    spec = data["fuzz"]["tester"]["specification"]
    assert spec["failed"] == 1 and spec["malformed"] == 0 and data["fuzz"]["rounds"] == 12


def test_the_report_names_the_shrunk_reproducer(cli, tmp_path):
    pytest.importorskip("agents")
    # the paper's schedule: the draws that reach the hot triage agent within 12 rounds
    data = _fuzz(cli, tmp_path, "s", "--model-pool", HOT, "--schedule", "paper")
    [(fingerprint, shrunk)] = [(fp, r) for fp, r in data["fuzz"]["shrunk"].items()
                               if r["kept"]]
    assert shrunk["kept"] == ["temperature of triage_agent (0.8)"] or \
        shrunk["kept"] == ["temperature of triage_agent (1.2)"]
    code, out, _ = cli("report", "--store", str(tmp_path / "s.db"))
    assert f"shrunk {fingerprint}: {shrunk['scenario']} reproduces it with only temperature of " \
           "triage_agent" in out


def test_the_report_says_which_tester_calls_the_cache_answered(cli, tmp_path):
    pytest.importorskip("agents")
    cached = ("--model", READER, "--seed-tasks", "1", "--cache", str(tmp_path / "cache.sqlite"))
    argv = ["fuzz", CS, "--sut-model", HOT, "--rounds", "2", "--seed", "3", "--no-judge",
            "--executor", "inprocess", "--input", "How much luggage can I bring?", *cached]
    for name in ("first", "again"):
        code, _, err = cli(*argv, "--store", str(tmp_path / f"{name}.db"))
        assert code == 0, err
    reports = {}
    for name in ("first", "again"):
        code, out, _ = cli("report", "--store", str(tmp_path / f"{name}.db"))
        reports[name] = [line for line in out.splitlines() if "model use, tester" in line]
    assert reports["first"] and not any("from the cache" in line for line in reports["first"])
    # the same campaign again: every tester call answered from the cache, and said so
    again = [re.search(r": (\d+) call\(s\) \((\d+) from the cache\), 0 tokens in", line)
             for line in reports["again"]]
    assert again and all(m and m[1] == m[2] for m in again), reports["again"]


# -- the corpus and the schedules, without a system (a campaign that answers by configuration) --
class Chain:
    """A campaign whose system shows item k only when the first k agents run at their chain
    temperatures at once: coverage that needs k stacked mutations."""

    store = run_id = None
    CHAIN = {"script_writer": 1.2, "voice_actor": 0.4, "graphic_designer": 0.8}

    def __init__(self, seed):
        self.seed, self.seen, self.ran = seed, set(), []

    async def execute(self, scenarios, after=None):
        from masfuzz.campaign.recorder import Outcome

        if after is not None:  # recorded after the call before it, as the campaign does
            await after
        out = []
        for sc in scenarios:
            items = {"seed"}
            for k, (agent, t) in enumerate(self.CHAIN.items(), 1):
                if sc.temperatures.get(agent) != t:
                    break
                items.add(f"chain{k}")
            out.append(Outcome(sc, None, None, frozenset(items - self.seen)))
            self.seen |= items
            self.ran.append(sc)
        return out

    def progress(self, message):
        pass

    def budget_left(self):
        return None

    def time_left(self):
        return None


def _chain(schedule, seed, *, grow=True, rounds=300):
    import asyncio

    from masfuzz.fuzz.loop import FlarePhase

    phase = FlarePhase([Scenario(input="Make a video about rain", sut_model="m")], AGENTS,
                       rounds=rounds, schedule_name=schedule, choices=Choices(grow=grow))
    campaign = Chain(seed)
    asyncio.run(phase.run(campaign))
    return phase, campaign


@pytest.mark.parametrize("schedule", ["flare", "paper", "uniform"])
def test_a_growing_corpus_stacks_mutations_the_seeds_alone_never_reach(schedule):
    phase, campaign = _chain(schedule, 5, rounds=120 if schedule == "flare" else 300)
    assert "chain3" in campaign.seen  # three agents' settings at once
    [tip] = [e for e in phase.corpus if "chain3" in e.gain]
    line = phase.lineage(phase.corpus.index(tip))
    assert line[0] == 0 and len(line) == 4  # the seed, then one entry per link of the chain
    assert [e.parent for e in phase.corpus[1:]] == [n for n in line[:-1]] \
        and not any("identity" in e.mutation for e in phase.corpus)
    _, kept = _chain(schedule, 5, grow=False, rounds=60)
    assert "chain1" in kept.seen and "chain2" not in kept.seen  # one agent per mutant, forever


def test_the_default_schedule_reaches_the_chain_in_fewer_executions():
    def executions(schedule):
        runs = []
        for seed in range(8):
            phase, _ = _chain(schedule, seed, rounds=150)
            runs.append(next((n for n, h in enumerate(phase.history, 1) if "chain3" in h["gain"]),
                             len(phase.history) + 1))
        return sorted(runs)[len(runs) // 2]

    assert executions("flare") < executions("uniform")


def test_the_schedules_weights():
    flare, _ = _chain("flare", 1, rounds=40)
    rates = flare.summary()["operator_weights"]
    assert rates["identity"] < rates["temperature"]  # an identity mutant never adds a setting
    assert all(0 < w < 1 for w in rates.values()) and flare.summary()["agent_weights"]
    paper, _ = _chain("paper", 1, rounds=40)
    weights = paper.summary()["operator_weights"]
    assert all(0.05 <= w <= 1 and round(w * 20, 6) == int(round(w * 20, 6)) for w in weights.values())
    uniform, _ = _chain("uniform", 1, rounds=40)
    assert set(uniform.summary()["operator_weights"].values()) == {0.5}
    assert set(uniform.summary()["seed_weights"].values()) == {0.5}


def test_the_default_schedule_fades_an_entrys_fruitless_resamples_and_favours_deep_entries():
    from masfuzz.fuzz.loop import FlareSchedule, Mutation

    schedule = FlareSchedule(Choices(), 2)
    schedule.joined(2, 0)  # entries 2 and 4: mutants of seed 0; entry 3: a mutant of entry 2
    schedule.joined(3, 2)
    schedule.joined(4, 0)
    for _ in range(8):  # entry 1's resamples never paid; a new order beside one teaches nothing
        schedule.reward(1, "identity", Mutation("identity"), False)
        schedule.reward(0, "identity", Mutation("identity", order=("b", "a")), False)

    def identities(entry):
        rng = random.Random(0)
        return sum(schedule.operator(rng, entry) == "identity" for _ in range(2000))

    assert identities(1) < identities(0) / 3  # entry 0 was never resampled as such
    energies = schedule.energies()
    # entry 3 stands on two stacked changes, entry 4 (as new, as productive) on one
    assert energies[3] == pytest.approx(Choices().depth * energies[4])


def test_a_redraw_keeps_the_rounds_chance_of_a_new_order():
    """An entry whose single-setting mutants all ran: each redraw used to draw the order anew,
    and a new order (never run) ended the redraws, so the entry's order was undone in most
    rounds; the round's coin now decides it once, at the entry's sequence rate."""
    import asyncio

    from masfuzz.fuzz.loop import FlarePhase, configuration

    order = tuple(reversed(AGENTS))
    seed = Scenario(input="Make a video about rain", sut_model="m", speaking_order=order)
    choices = Choices(temperatures=(0.4,))
    phase = FlarePhase([seed], AGENTS, participants=tuple(AGENTS), free_form=True,
                       choices=choices, model_pool=())
    for agent in AGENTS:  # every configuration change of the entry has run
        phase._tried.add(configuration(seed.model_copy(update={"temperatures": {agent: 0.4}})))
    async def proposals(rng):
        return [await phase._propose(rng, n) for n in range(1, 201)]

    new_orders = sum(bool(p.mutation.order) for p in asyncio.run(proposals(random.Random(3))))
    rate = phase.schedule.sequence_rate(seed)  # the entry has an order of its own: 0.1
    assert rate < 0.2 and new_orders < 200 * 2 * rate, new_orders


def test_a_reading_holds_a_worker_slot_as_an_execution_does():
    """`dispatched`: a model-backed reading takes one of the executor's slots, so with one
    slot an execution waits for the reading to end (and runs without one when there is no
    executor)."""
    import asyncio

    from masfuzz.exec.base import Executor
    from masfuzz.fuzz.loop import dispatched

    log = []

    class OneSlot(Executor):
        async def _execute(self, request):
            log.append("execution")
            raise RuntimeError("not run further")

    class Campaign:
        executor = OneSlot(concurrency=1)

    async def reading(go):
        log.append("reading starts")
        await go.wait()
        log.append("reading ends")
        return {}

    async def main():
        go = asyncio.Event()
        read = asyncio.ensure_future(dispatched(Campaign(), reading(go)))
        await asyncio.sleep(0)
        execution = asyncio.ensure_future(Campaign.executor.execute(None))
        for _ in range(5):  # the execution gets every chance to start, and has no slot
            await asyncio.sleep(0)
        go.set()
        await read
        await asyncio.gather(execution, return_exceptions=True)
        assert await dispatched(object(), reading(go)) == {}

    asyncio.run(main())
    assert log[:3] == ["reading starts", "reading ends", "execution"]
