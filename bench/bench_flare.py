"""Does FLARE's feedback pay? The loop's schedules on fixtures where it should, in one run.

Fixtures (bench/flare_feedback/): `shallow` is the customer-service desk whose agents each call a
tool they do not own at one temperature (four restricted edges, each one mutation away from a
seed); `deep-desk` (the same desk) and `deep-team` (the AutoGen video team, a selector picking
the speakers, so the order is a setting) hold chains of three items, each needing the settings
of the one before it plus one more: only a corpus that grows reaches them.

Loops compared (`masfuzz fuzz --schedule S`; the corpus grows unless said):
  flare            the default schedule: energy to recent, productive entries; operators and
                   (agent, operator) pairs by smoothed success rates
  growing-uniform  the growing corpus, every pick uniform (`--schedule uniform`)
  paper            the growing corpus under the paper's fixed-step weights (`--schedule paper`)
  as-shipped       the loop as masfuzz shipped it before the corpus grew: the seeds only, the
                   paper's weights

Per fixture, loop and campaign seed, the loop runs ROUNDS rounds after its seeds; the figure
is the executions (seeds included) until each target item was first covered, median over the
seeds, and the misses (seeds that never covered it). All loops see the same campaign seeds,
100 and up: the default schedule's numbers (`Choices`) were chosen on seeds 0-19 of these
fixtures, so the figures are measured on seeds it was not tuned on.

Replay: the loop is the real one (`FlarePhase` with its schedule and random numbers), but an
execution is looked up by the mutant's configuration (input, temperatures, models, order; not
its nonce) in a table of real executions, each configuration executed once by the real
executor and measured by the real coverage models. That holds because the fixtures' scripted
models answer the same whatever the request's seed. It is validated in this run: for campaign
seeds 0 and 1 of every fixture, `masfuzz fuzz` itself (store, recorder, engine) runs VALIDATE
rounds under each schedule and its history (round, entry, mutation, gain) must equal the
replay's, or the bench stops.

    python bench/bench_flare.py [--seeds 100] [--first-seed 100] [--rounds 300]
                                [--fixtures shallow,deep-desk,deep-team]
                                [--loops flare,growing-uniform,paper,as-shipped]

How many seeds: 100 by default (the replay makes them cheap: one run of every fixture and loop
takes minutes). A median over 20 campaign seeds moves too much on deep-team to judge a schedule
by: growing-uniform's median to every item runs from 80.5 to 270.5 over the fifteen ranges of
20 in seeds 100-399, flare's (before its depth energy) from 44 to 90.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import io
import json
import statistics
import sys
import tempfile
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
HERE = ROOT / "bench" / "flare_feedback"
DESK = str(ROOT / "examples" / "customer_service" / "app.py") + ":triage_agent"
TEAM = str(ROOT / "examples" / "video_team" / "team.py") + ":selector_team"
VALIDATE = 40  # rounds of each real campaign the replay is checked against
# The campaign seeds measured: not those the default schedule's numbers were chosen on (0-19)
FIRST_SEED = 100


@dataclass(frozen=True)
class Fixture:
    name: str
    target: str
    policy: str
    inputs: tuple[str, ...]
    items: tuple[str, ...]  # what the loops race to, in the order a chain reaches them
    pool: bool = False  # a second model string for the model-switching operator
    # the settings its scripted model reads: the agents whose temperature changes what it does
    # (None: every agent's), the model string never (the pool's two strings are one policy)
    reads: tuple[str, ...] | None = None

    def argv(self) -> list[str]:
        sut = f"scripted/{HERE / self.policy}"
        argv = [self.target, "--sut-model", sut, "--seed-tasks", "0", "--no-judge",
                "--no-spec-agent", "--no-cache", "--executor", "inprocess", "--no-shrink"]
        if self.pool:  # two strings, one behaviour: what a model switch changes is the string
            argv += ["--model-pool", f"{sut},scripted/{(HERE / self.policy).relative_to(ROOT)}"]
        for text in self.inputs:
            argv += ["--input", text]
        return argv


FIXTURES = (
    Fixture("shallow", DESK, "policy.py:policy",
            ("Change my seat to 14C, booking ABC123", "How much luggage can I bring?"),
            ("restrict_tool::triage_agent::faq_lookup_tool",
             "restrict_tool::triage_agent::update_seat", "restrict_tool::faq_agent::update_seat",
             "restrict_tool::seat_booking_agent::faq_lookup_tool"), pool=True),
    Fixture("deep-desk", DESK, "deep_desk.py:policy",
            ("How much luggage can I bring? And change my seat to 14C, booking ABC123",),
            ("restrict_tool::triage_agent::update_seat", "restrict_tool::faq_agent::update_seat",
             "restrict_tool::seat_booking_agent::faq_lookup_tool")),
    Fixture("deep-team", TEAM, "deep_team.py:policy", ("A short video about the water cycle",),
            ("path::script_writer>graphic_designer>voice_actor>director",
             "restrict_tool::voice_actor::generate_image",
             "restrict_tool::director::synthesize_voice"), reads=("voice_actor", "director")),
)
LOOPS = {  # name -> (schedule, the corpus grows)
    "flare": ("flare", True), "growing-uniform": ("uniform", True),
    "paper": ("paper", True), "as-shipped": ("paper", False),
}


class Executions:
    """Real executions of a fixture, one per configuration of what its model reads (input,
    order, the temperatures of `Fixture.reads`), with their coverage items."""

    def __init__(self, fixture: Fixture, store: Path) -> None:
        from masfuzz.api import _fuzz_setup, sut_sandbox
        from masfuzz.cli import build_parser
        from masfuzz.coverage.base import CoverageMap
        from masfuzz.exec import make_executor
        from masfuzz.options import resolve

        opts = resolve("fuzz", build_parser("fuzz").parse_args(
            ["fuzz", *fixture.argv(), "--store", str(store)]))
        self.target, system, models, _, _, self.setup = _fuzz_setup(opts, lambda m: None)
        self.executor = make_executor("inprocess", concurrency=1, timeout=opts.timeout,
                                      models=models, sandbox=sut_sandbox(opts))
        self.coverage = CoverageMap(self.setup.coverage_models())
        self.reads = fixture.reads
        self.table: dict[tuple, frozenset[str]] = {}

    def key(self, scenario: Any) -> tuple:
        temperatures = {a: t for a, t in scenario.temperatures.items()
                        if self.reads is None or a in self.reads}
        return scenario.input, scenario.speaking_order, tuple(sorted(temperatures.items()))

    async def run(self, scenario: Any) -> frozenset[str]:
        """One real execution's coverage items."""
        trace = await self.executor.execute(self.executor.request(self.target, scenario))
        return frozenset(self.coverage.items(trace))

    async def items(self, scenario: Any) -> frozenset[str]:
        key = self.key(scenario)
        if key not in self.table:
            self.table[key] = await self.run(scenario)
        return self.table[key]


class Replay:
    """What `FlarePhase.run` asks of a campaign, answered from `Executions`."""

    store = run_id = None

    def __init__(self, seed: int, executions: Executions) -> None:
        self.seed, self.executions, self.seen = seed, executions, set()
        self.one: asyncio.Lock | None = None  # this replay's loop's: a configuration runs once

    async def execute(self, scenarios: list[Any], after: Any = None) -> list[Any]:
        from masfuzz.campaign.recorder import Outcome

        self.one = self.one or asyncio.Lock()
        out = []
        for sc in scenarios:
            async with self.one:
                items = await self.executions.items(sc)
            if after is not None:  # recorded after the call before it, as the campaign does
                await after
                after = None
            out.append(Outcome(sc, None, None, frozenset(items - self.seen)))
            self.seen |= items
        return out

    def progress(self, message: str) -> None:
        pass

    def budget_left(self) -> None:
        return None

    def time_left(self) -> None:
        return None


def replay(executions: Executions, loop: str, seed: int, rounds: int) -> list[dict[str, Any]]:
    from masfuzz.fuzz.loop import Choices

    schedule, grow = LOOPS[loop]
    phase = replace(executions.setup.phase(), schedule_name=schedule, rounds=rounds,
                    choices=Choices(grow=grow), reproduce=None, analyse=None)
    asyncio.run(phase.run(Replay(seed, executions)))
    return phase.history


def reached(history: list[dict[str, Any]], items: tuple[str, ...]) -> dict[str, int | None]:
    """Executions (1-based, seeds included) until each item was first covered."""
    first: dict[str, int | None] = dict.fromkeys(items)
    for n, h in enumerate(history, 1):
        for item in h["gain"]:
            if item in first and first[item] is None:
                first[item] = n
    return first


def real_history(fixture: Fixture, loop: str, seed: int, store: Path) -> list[dict[str, Any]]:
    from masfuzz.cli import main

    schedule, grow = LOOPS[loop]
    assert grow, "the real command always grows its corpus"
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf), contextlib.redirect_stderr(io.StringIO()):
        code = main(["fuzz", *fixture.argv(), "--schedule", schedule, "--rounds", str(VALIDATE),
                     "--seed", str(seed), "--store", str(store), "--format", "json"])
    if code != 0:
        raise SystemExit(f"{fixture.name}: masfuzz fuzz exited {code}")
    return json.loads(buf.getvalue())["fuzz"]["history"]


def _key(history: list[dict[str, Any]]) -> list[tuple]:
    return [(h["round"], h["seed"], h["mutation"], tuple(h["gain"]), h.get("joined"))
            for h in history]


def arguments(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="bench_flare.py", description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=_positive, default=100,
                        help="campaign seeds per loop (default 100)")
    parser.add_argument("--first-seed", type=int, default=FIRST_SEED,
                        help=f"the first campaign seed measured (default {FIRST_SEED}: not those "
                             "the default schedule was tuned on, 0-19)")
    parser.add_argument("--rounds", type=_positive, default=300, help="rounds after the seeds (default 300)")
    parser.add_argument("--fixtures", type=_names({f.name for f in FIXTURES}, "fixture"),
                        default=[f.name for f in FIXTURES], help="comma-separated (default: all)")
    parser.add_argument("--loops", type=_names(set(LOOPS), "loop"), default=list(LOOPS),
                        help="comma-separated, of " + ", ".join(LOOPS) + " (default: all; the "
                             "ratio needs flare and growing-uniform)")
    return parser.parse_args(argv)


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive whole number, not {text!r}")
    return value


def _names(known: set[str], what: str) -> Any:
    def parse(text: str) -> list[str]:
        names = [n for n in text.split(",") if n]
        unknown = sorted(set(names) - known)
        if unknown or not names:
            raise argparse.ArgumentTypeError(f"no {what} {', '.join(unknown) or repr(text)} "
                                             f"(known: {', '.join(sorted(known))})")
        return names
    return parse


def main(argv: list[str] | None = None) -> int:
    import os

    args = arguments(argv)
    os.chdir(ROOT)  # the model pool's second string is relative to the project
    seeds, rounds, loops = args.seeds, args.rounds, args.loops
    cap = rounds + 1
    fixtures = [f for f in FIXTURES if f.name in args.fixtures]
    validated = [loop for loop in ("flare", "growing-uniform", "paper") if loop in loops]
    figures: dict[tuple[str, str], dict[str, list[int | None]]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for fixture in fixtures:
            executions = Executions(fixture, Path(tmp) / f"{fixture.name}.db")
            checked = 0
            for seed in (0, 1):
                for loop in validated:
                    real = real_history(fixture, loop, seed, Path(tmp) / f"{fixture.name}-{loop}-{seed}.db")
                    if _key(real) != _key(replay(executions, loop, seed, VALIDATE)):
                        raise SystemExit(f"{fixture.name}, {loop}, seed {seed}: the replay "
                                         "differs from the real campaign; its figures would mean nothing")
                    checked += 1
            print(f"{fixture.name}: replay == masfuzz fuzz on {checked} campaigns of {VALIDATE} "
                  f"rounds (seeds 0, 1 x {', '.join(validated)})", flush=True)
            for loop in loops:
                per_item: dict[str, list[int | None]] = {i: [] for i in (*fixture.items, "all")}
                for seed in range(args.first_seed, args.first_seed + seeds):
                    first = reached(replay(executions, loop, seed, rounds), fixture.items)
                    for item, n in first.items():
                        per_item[item].append(n)
                    done = list(first.values())
                    per_item["all"].append(None if None in done else max(done))
                figures[(fixture.name, loop)] = per_item
            print(f"{fixture.name}: {len(executions.table)} distinct configurations executed",
                  flush=True)

    def median(ns: list[int | None]) -> float:
        return statistics.median(n if n is not None else cap for n in ns)

    last = args.first_seed + seeds - 1
    print(f"\nmedian executions (seeds included) until first covered, over campaign seeds "
          f"{args.first_seed}-{last} ({seeds}) of {rounds} rounds; a miss counts as {cap}; "
          "misses in brackets")
    verdicts = []
    for fixture in fixtures:
        print(f"\n{fixture.name}")
        print(f"  {'item':58s}" + "".join(f"{loop:>18s}" for loop in loops))
        for item in (*fixture.items, "all"):
            row = "".join(f"{median(figures[(fixture.name, loop)][item]):>11g} "
                          f"[{sum(n is None for n in figures[(fixture.name, loop)][item]):2d}]   "
                          for loop in loops)
            print(f"  {item[:58]:58s}{row}")
        if "growing-uniform" in loops:
            uniform = median(figures[(fixture.name, "growing-uniform")]["all"])
            print(f"  {'/ growing-uniform (all items)':58s}"
                  + "".join(f"{median(figures[(fixture.name, loop)]['all']) / uniform:>11.2f}"
                            + " " * 7 for loop in loops))
            if "flare" in loops:
                verdicts.append((fixture, median(figures[(fixture.name, "flare")]["all"]) / uniform))
        if "as-shipped" in loops:
            shipped = figures[(fixture.name, "as-shipped")]["all"]
            print(f"  the loop as shipped did not reach every item in "
                  f"{sum(n is None for n in shipped)} of {seeds} campaigns")
    from summary import record

    for fixture, ratio in verdicts:
        target = "<= 0.5" if fixture.name.startswith("deep") else "<= 1"
        met = ratio <= (0.5 if fixture.name.startswith("deep") else 1.0)
        record(f"FLARE {fixture.name}: flare / growing-uniform executions to every item", ratio,
               target, met, note=f"median of seeds {args.first_seed}-{last}, {rounds} rounds")
    return 0


if __name__ == "__main__":
    sys.exit(main())
