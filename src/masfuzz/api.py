"""masfuzz as a Python library: every command is a function here, and the CLI calls these.

    from masfuzz import api
    spec = api.inspect("examples/customer_service/app.py:triage_agent")
    trace = api.exec("examples/customer_service/app.py:triage_agent", "Change my seat to 3A",
                     sut_model="scripted/examples/customer_service/policy.py:policy")
    analysis = api.cover("examples/customer_service/app.py:triage_agent",
                         model="scripted/examples/testers/template_tester.py:policy",
                         sut_model="scripted/examples/customer_service/policy.py:policy")
    analysis = api.report(store=".masfuzz/runs.db")          # the latest run, from the store

Keywords are the commands' options with dashes as underscores (`sut_model`, `fail_under`,
`max_turns`, ...); anything not given takes its `MASFUZZ_*` variable, its `[tool.masfuzz]` key
in pyproject.toml, or its default, exactly as on the command line. Each function returns data
(a `WorkflowSpec`, a `Trace`, an `Analysis`); printing is the CLI's job.
"""

from __future__ import annotations

import asyncio
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from masfuzz.errors import MasfuzzError
from masfuzz.options import Config, as_run, configure, model_settings
from masfuzz.report.analysis import Analysis
from masfuzz.scenario import surroundings


def options(command: str, **keywords: Any) -> Config:
    """The resolved configuration of `command` for these keywords (`masfuzz.options.Config`;
    one-line error on a bad one): what every `run_*` function here takes."""
    return configure(command, **keywords)


def target_of(opts: Config) -> Any:
    from masfuzz.target import Target

    return Target.of(opts.target, opts.orchestration)


def _gated(run_command: Callable[..., Any]) -> Callable[..., Any]:
    """A campaign's `Analysis` with its verdict (`masfuzz.report.verdict`) for the command's
    --fail-under and --fail-on: what the CLI's exit status says, for API users too."""
    from functools import wraps

    @wraps(run_command)
    def gated(opts: Config, *args: Any, **kwargs: Any) -> Any:
        from masfuzz.report.verdict import verdict

        analysis = run_command(opts, *args, **kwargs)
        analysis.verdict = verdict(analysis, opts.fail_under, opts.fail_on)
        return analysis

    return gated


# -- inspect -----------------------------------------------------------------------------------
def inspect(target: str, **keywords: Any) -> Any:
    """The `WorkflowSpec` of a target, as `masfuzz inspect` extracts it."""
    return target_of(options("inspect", target=target, **keywords)).open().spec


# -- exec --------------------------------------------------------------------------------------
def exec(target: str, input: str, **keywords: Any) -> Any:  # noqa: A001 (the command's name)
    """The `Trace` of one scenario on `target`."""
    opts = options("exec", target=target, input=input, **keywords)
    return asyncio.run(execute_scenario(target_of(opts), scenario_from(opts), opts))


def scenario_from(args: Config) -> Any:
    """The one scenario `exec` runs, from its resolved options (the CLI's and the API's)."""
    from masfuzz.scenario import Scenario

    agent_models = {}
    for item in args.agent_model:
        agent, sep, model = item.partition("=")
        if not sep or not agent or not model:
            raise MasfuzzError(f"--agent-model {item!r}: expected AGENT=MODEL")
        agent_models[agent] = model
    temperatures = {}
    for item in args.agent_temperature:
        agent, _, value = item.partition("=")
        try:
            t = float(value)
        except ValueError:
            t = float("nan")
        if not 0.0 <= t <= 2.0:  # nan fails this too
            raise MasfuzzError(f"--agent-temperature {item!r}: expected AGENT=T with T in 0..2")
        temperatures[agent.strip()] = t
    if args.blackbox and (args.fault or args.stubs):
        raise MasfuzzError("--fault and --stub need a Python target: a black-box app's tools "
                           "run inside the app, where masfuzz cannot replace them")
    task = args.input
    if task is None and not args.blackbox:
        task = _own_task(args)  # the program's own task, run unchanged (FLARE's null seed)
        if task is None:
            raise MasfuzzError("exec: --input TEXT is required (only a --blackbox command or a "
                               "program that starts its own chats may carry its own task)")
    if task is not None and not task.strip():
        raise MasfuzzError("--input: the user message is empty")
    if task is not None:
        try:
            task.encode("utf-8")
        except UnicodeEncodeError:
            raise MasfuzzError("--input: not UTF-8 text") from None
    return Scenario(
        input=task, sut_model=args.sut_model, agent_models=agent_models,
        temperatures=temperatures, nonce=args.nonce,
        faults=args.fault, restricted=args.restricted,
        **surroundings(args),
        max_turns=args.max_turns, timeout=args.timeout,
    )


def _own_task(args: Config) -> str | None:
    """The task of a program that carries its own (an AG2 script's or notebook's opening
    message): without --input, exec runs it unchanged, as `fuzz` runs it as its null seed."""
    if not args.target:
        return None
    try:
        return target_of(args).open().spec.system.task
    except MasfuzzError:
        return None  # the missing --input is what to say first


async def execute_scenario(target: Any, scenario: Any, opts: Config) -> Any:
    from masfuzz.exec import make_executor

    target.open().check(scenario)
    executor = make_executor(opts.executor, ray_address=opts.ray_address, ray_cpus=opts.ray_cpus,
                             timeout=scenario.timeout or opts.timeout,
                             models=model_settings(opts),
                             sandbox=sut_sandbox(opts))
    try:
        return await executor.run(target, scenario)
    finally:
        await executor.aclose()


# -- mutate ------------------------------------------------------------------------------------
def mutate(target: str, **keywords: Any) -> dict[str, Any]:
    """Mutation analysis of a suite (`suite=`, default cover's) on `target`: the report's data
    (`masfuzz.mutate.analysis`), with the score of each operator and the surviving mutants."""
    return run_mutate(options("mutate", target=target, **keywords))


def run_mutate(opts: Config) -> dict[str, Any]:
    from masfuzz.exec import make_executor
    from masfuzz.generate.suite import load_suite
    from masfuzz.mutate.analysis import MutantLimits, analyse
    from masfuzz.spec.mutants import mutants, parse_operators
    from masfuzz.target import Orchestration, Target

    suite = load_suite(opts.suite)
    if not suite.cases:
        raise MasfuzzError(f"{opts.suite}: the suite has no case to run against the mutants")
    target = Target.of(opts.target, opts.orchestration or Orchestration.from_data(suite.orchestration))
    system = target.open()  # bad input (a target that does not load) stops here, before any run
    spec, adapter = system.spec, system.runner()
    chosen = mutants(spec, parse_operators(opts.operators))
    problems = {m: adapter.mutation_problem(system.obj, spec, m) for ms in chosen.values() for m in ms}
    # every (mutant, case) run is independent: up to --workers at once, each in its own worker
    # process; in this process they take turns, since a mutant changes the live objects every
    # run here shares
    workers = 1 if opts.executor == "inprocess" else opts.workers
    executor = make_executor(opts.executor, ray_address=opts.ray_address, ray_cpus=opts.ray_cpus,
                             concurrency=workers,
                             timeout=opts.timeout, models=model_settings(opts),
                             sandbox=sut_sandbox(opts))

    async def analysed() -> dict[str, Any]:
        try:
            return await analyse(suite, lambda scenario: executor.run(target, scenario), spec,
                                 chosen, problems, sut_model=opts.sut_model,
                                 limits=MutantLimits(opts.mutant_timeout_factor,
                                                     opts.mutant_timeout_const, opts.timeout),
                                 suite_name=str(opts.suite), target=str(opts.target))
        finally:
            await executor.aclose()

    return asyncio.run(analysed())


# -- cover, fuzz, run: one campaign -------------------------------------------------------------
def cover(target: str, **keywords: Any) -> Any:
    """Structural test generation on `target` (`run --phases structural`): the `Analysis` of
    the run (also in the store)."""
    return run_cover(options("cover", target=target, **keywords))


def fuzz(target: str, **keywords: Any) -> Any:
    """FLARE's coverage-guided fuzzing on `target` (`run --phases flare`): the `Analysis` of
    the run."""
    return run_fuzz(options("fuzz", target=target, **keywords))


def run(target: str, **keywords: Any) -> Any:
    """The whole campaign on `target`, as `masfuzz run` does it: the `Analysis`."""
    return run_campaign(options("run", target=target, **keywords))


@_gated
def run_campaign(opts: Config, progress: Callable[[str], None] | None = None,
                 status: Callable[[Any], None] | None = None) -> Any:
    """One campaign, one store, one budget shared by its phases in order (by default): the
    failures stored for this target replayed first, then runtime fuzzing of the tools the agents
    own (`masfuzz tools`' fuzzing, in the sandbox, no model), then structural generation, then
    FLARE's loop, seeded, when the user and the tester give no seed, with what the structural
    phase witnessed. Each phase has a share of the budget (`masfuzz.campaign.budget.share_limits`)
    and leaves a result (`Campaign.results`, the summary's `phases`). Coverage is measured by
    every model of both; failures are judged with FLARE's spec-aware detectors; the tools'
    findings go into the same run.

    `cover` and `fuzz` are presets of it (`--phases structural`, `--phases flare`, resumed
    unless --fresh: `masfuzz.options.as_run`), their runs stored under their own command's
    name. `progress` receives the campaign's lines of text, `status` its numbers (a
    `masfuzz.campaign.Status`) after each execution and phase change."""
    from masfuzz.campaign import Campaign
    from masfuzz.campaign.known import KnownFailuresPhase, known_failures
    from masfuzz.campaign.session import open_campaign
    from masfuzz.generate.structural import StructuralPhase
    from masfuzz.generate.suite import suite_from_run

    started = time.monotonic()
    opts = as_run(opts)
    say = progress or (lambda msg: None)
    phases = list(opts.phases)
    if "tools" in phases and opts.calls < 1:
        raise MasfuzzError(f"--calls must be at least 1, not {opts.calls}")
    if "tools" in phases and (opts.fixture or opts.setup):
        from masfuzz.toolfuzz.sandbox import isolation_problem

        if opts.unsafe_no_sandbox or isolation_problem() is None:  # else the phase is skipped
            _dry_run(_tool_session(opts, opts.seed, timeout=_tool_timeout(opts), models=False))
    # FLARE's preparation (its specification, the seed writer) spends FLARE's share of the time;
    # with no seed, FLARE alone has nothing to do: bad input (with other phases, it is not run)
    target, system, models, tester, store, setup = _fuzz_setup(
        opts, say, prepare="flare" in phases, need_seed=phases == ["flare"],
        share=_flare_share(phases) if "flare" in phases else 1.0)
    config = _config(opts, target, setup, phases)
    # made (not started) before the run is claimed: an executor that cannot be had is bad input
    executor = executor_for(opts)
    with open_campaign(store, opts.command, target.ref, config, spec=system.spec, seed=opts.seed,
                       fresh=opts.fresh or not opts.resume, say=say,
                       check=lambda: _control(target, opts, say)) as held:
        if held.shown is not None:  # already complete: shown as stored
            return held.shown
        known = KnownFailuresPhase(known_failures(held.store, target.ref, before_run=held.run_id,
                                                  sut_model=opts.sut_model, timeout=opts.timeout)
                                   if "replay" in phases else [])
        structural = StructuralPhase(
            _realizer(opts, tester), opts.sut_model, attempts=opts.attempts, merge=not opts.no_bundle,
            path_aware=not opts.no_route, fault_modes=opts.faults, criteria=opts.criteria,
            max_turns=opts.max_turns, timeout=opts.timeout,
            surroundings=surroundings(opts)) if "structural" in phases else None
        plan: dict[str, Callable[[], Any]] = {  # only the chosen phases are built
            "replay": lambda: known,
            "structural": lambda: structural,
            # its seeds: the pool's and what the structural phase witnessed, if it runs before it
            "flare": lambda: setup.after(structural if "structural" in phases[:phases.index("flare")] else None),
            "tools": lambda: _tools_phase(opts, say),
        }
        built = {p: plan[p]() for p in phases}
        campaign = Campaign(target, system.spec, executor, setup.coverage_models(), list(built.values()),
                            held.store, held.run_id, seed=opts.seed, budget=opts.budget, started=started,
                            progress=say, tester_usage=tester.ledger.total, status=status,
                            detectors=setup.detectors(), confirm=setup.confirm())
        held.drive(campaign, tester)
        summary: dict[str, Any] = {}
        if "replay" in built:
            summary.update(known.summary())
        if "flare" in built and built["flare"].inner is not None:
            summary["fuzz"] = {**built["flare"].summary(), **setup.summary()}
        if "tools" in built:
            summary.update(built["tools"].summary())
        if structural is not None:
            summary.update(structural.summary())
            generation = _generation(held, system.spec, summary)
            if generation:
                suite = suite_from_run(held.store, held.run_id, generation, target=target,
                                       spec=system.spec, seed=opts.seed,
                                       models={"tester": config["model"], "sut": config["sut_model"]})
                # completed only once the suite is written: a campaign killed before resumes
                summary["suite"] = str(suite.save(opts.suite))
        return held.finish(summary)


def _generation(held: Any, spec: Any, summary: dict[str, Any]) -> dict[str, Any]:
    """The structural phase's report section before the run is finished (its suite is written
    from it first), read with the summary the run is about to be finished with."""
    from masfuzz.report.generation import generation_section

    info = held.store.run_info(held.run_id)
    return generation_section(held.store, held.run_id, spec, {**info, "summary": {**held.summary, **summary}},
                              held.store.usage(held.run_id))


# `cover` and `fuzz` on resolved options: presets of `run` (`masfuzz.options.as_run`)
run_cover = run_fuzz = run_campaign


def _control(target: Any, opts: Config, say: Callable[[str], None]) -> dict[str, Any]:
    """The control check a campaign starts with (`masfuzz.control`), unless --no-check: its
    line in the progress, its report in the run's summary."""
    if opts.no_check:
        return {}
    from masfuzz.control import check

    # the probe checks this machine's injection: a Ray cluster's would be started for one run
    local = "pool" if opts.executor == "ray" else opts.executor
    from masfuzz.exec.sandbox import SandboxSettings

    around = surroundings(opts)
    report = asyncio.run(check(target, stubs=around["stubs"], executor=local, context=around["context"],
                               timeout=opts.timeout,  # a probe run is bounded like every run
                               sandbox=SandboxSettings.of(opts)))
    if report.ok:
        say(report.summary())
    else:  # said whatever the output format: the campaign's results depend on it
        print(f"masfuzz: warning: {report.summary()}", file=sys.stderr)
    return {"control": report.as_dict()}


def _realizer(opts: Config, tester: Any) -> Any:
    if opts.realizer == "dspy":
        from masfuzz.generate.dspy_realizer import DSPyRealizer  # one-line error without dspy

        return DSPyRealizer(tester, seed=opts.seed)
    from masfuzz.generate.realizer import NativeRealizer

    return NativeRealizer(tester, seed=opts.seed)


def _config(opts: Config, target: Any, setup: Any, phases: list[str]) -> dict[str, Any]:
    """What identifies a campaign's configuration (a re-run with the same one resumes it): its
    phases and the settings of those phases, the system's graph and surroundings."""
    config: dict[str, Any] = {"phases": phases, "model": opts.model, "sut_model": opts.sut_model,
                              "seed": opts.seed}
    if "structural" in phases:
        config.update({"realizer": opts.realizer, "attempts": opts.attempts,
                       "bundle": not opts.no_bundle, "route": not opts.no_route,
                       "faults": list(opts.faults), "criteria": ",".join(opts.criteria)})
    if "flare" in phases:
        config.update(setup.config())
    if "tools" in phases:
        config["tools"] = {"calls": opts.calls, "timeout": _tool_timeout(opts),
                           "memory_mb": opts.memory_mb, "sandbox": not opts.unsafe_no_sandbox,
                           "fixture": opts.fixture, "setup": opts.setup,
                           "pass_env": list(opts.pass_env or ())}  # names only, never values
    if target.orchestration:  # the graph the user supplied is part of the system under test
        config["orchestration"] = target.orchestration.to_data()
    if opts.no_judge:  # the rules decide the proposals: other findings (absent only so)
        config["judge"] = False
    if opts.stubs or opts.run_code or opts.context:  # so are the stand-ins for its surroundings
        config.update(surroundings(opts))
    return {**_redacted(config), **_unsandboxed(opts)}


def _unsandboxed(opts: Config) -> dict[str, Any]:
    """A run's config says when its system under test ran outside the OS sandbox (its reports
    warn): --unsafe-no-sandbox, or --executor inprocess, which runs it in this process; absent
    otherwise, so configs of sandboxed runs stay as they were."""
    from masfuzz.report.analysis import UNSANDBOXED_KEY

    if opts.unsafe_no_sandbox:
        return {UNSANDBOXED_KEY: True}
    return {UNSANDBOXED_KEY: "inprocess"} if opts.executor == "inprocess" else {}


def _fuzz_setup(opts: Config, say: Callable[[str], None], *, prepare: bool = True,
                need_seed: bool = True, share: float = 1.0) -> tuple:
    """The target opened, its models, the store and FLARE's setup; with `prepare`, the FLARE
    specification and seed pool made within `share` of the budget's wall time (the campaign
    counts that time as spent: `Campaign.started`; `need_seed`: no seed at the end is bad
    input)."""
    from masfuzz.fuzz.campaign import FuzzSetup
    from masfuzz.store.db import RunStore

    target = target_of(opts)
    system = target.open()
    models = model_settings(opts)
    tester = models.client(opts.model, role="tester")
    store = RunStore(opts.store)
    setup = FuzzSetup(opts, system.spec, tester, cache_dir=Path(opts.store).parent / "flare-specs")
    if prepare:
        wall = opts.budget.wall_time
        asyncio.run(setup.prepare(say, None if wall is None else wall * share, need_seed=need_seed))
    return target, system, models, tester, store, setup


def _flare_share(phases: list[str]) -> float:
    """The part of the wall time FLARE's phase has in `run`, as the campaign shares it when the
    phases before it spend none of theirs (its preparation spends it before the campaign)."""
    from masfuzz.campaign.known import KnownFailuresPhase
    from masfuzz.fuzz.campaign import SeededByStructural
    from masfuzz.generate.structural import StructuralPhase
    from masfuzz.toolfuzz.phase import ToolsPhase

    weights = {"replay": KnownFailuresPhase.share, "structural": StructuralPhase.share,
               "tools": ToolsPhase.share, "flare": SeededByStructural.share}
    return weights["flare"] / sum(weights[p] for p in phases)


def _tool_timeout(opts: Config) -> float:
    """Seconds one tool call may take in `run`: `masfuzz tools`' default, or less when --timeout
    (a run's time limit there) is lower."""
    from masfuzz.options import BY_NAME

    return min(opts.timeout, BY_NAME["timeout"].default_for("tools"))


def _tools_phase(opts: Config, say: Callable[[str], None]) -> Any:
    """`run`'s tool-fuzzing phase: the run's seed, --calls per tool, the sandbox's limits;
    skipped with a warning where the machine cannot sandbox a tool."""
    from masfuzz.toolfuzz.phase import ToolsPhase

    refused = _sandbox_problem(opts, "run")
    if refused is not None:
        print(f"masfuzz: warning: the tools phase is skipped: this machine cannot isolate a tool "
              f"({refused}); --unsafe-no-sandbox fuzzes without the OS sandbox", file=sys.stderr)
    config = _tool_session(opts, opts.seed, timeout=_tool_timeout(opts), models=False)
    around = surroundings(opts)
    return ToolsPhase(config, stubbed=tuple(around["stubs"]), refused=refused, context=around["context"])


# -- judge ---------------------------------------------------------------------------------------
def judge(otel: str, target: str | None = None, **keywords: Any) -> Any:
    """Traces from production (OTLP/JSON spans) judged like masfuzz's own runs: the `Analysis`."""
    return run_judge(options("judge", otel=otel, target=target, **keywords))


@_gated
def run_judge(opts: Config) -> Any:
    """Each trace in the spans file (`--otel`) or each chat transcript (`--chat`) recorded as
    an execution of a `judge` run: its structural coverage against the target's workflow (or,
    without a target, the workflow the traces show) and the failures the detectors find, in the
    store and its reports; transcripts also get their verdict and attribution, log by log
    (`extra["judged"]`)."""
    from masfuzz.adapters import otel
    from masfuzz.adapters.blackbox import spec_from_traces
    from masfuzz.campaign.session import open_campaign
    from masfuzz.store.db import RunStore

    if bool(opts.otel) == bool(opts.chat):
        raise MasfuzzError("judge: give --otel FILE (OTLP/JSON spans) or --chat FILE|DIR (chat "
                           "transcripts), one of them")
    from masfuzz.adapters.transcript import Imported

    spec = target_of(opts).open().spec if opts.target else None
    # the target's termination conditions name the one that fired where the spans do not
    logs = _transcripts(opts.chat) if opts.chat else [
        Imported("otel", t, f"{opts.otel}#{t.meta['trace_id']}")
        for t in otel.ingest_all(opts.otel, spec.termination.conditions if spec is not None else ())]
    traces = [log.trace for log in logs]
    target_spec = spec
    spec = spec if spec is not None else spec_from_traces(traces)
    # what the spans could not show (the ingestion's notes) is said with the report's notes
    said = [n for t in traces for n in t.meta.get("notes", ())]
    given = "--chat" if opts.chat else "--otel"  # the notes name the input they are about
    spec = spec.model_copy(update={"notes": (*spec.notes, *(f"judge {given}: {n}" for n in dict.fromkeys(said)))})
    source = {"chat": list(opts.chat)} if opts.chat else {"otel": opts.otel}
    with open_campaign(RunStore(opts.store), "judge", opts.target or (opts.otel or ",".join(opts.chat)),
                       _redacted({**source, "traces": len(traces)}), spec=spec, seed=None,
                       fresh=True, resumable=False) as held:
        analysis = _judged(opts, logs, spec, target_spec, held)
    return analysis


def _judged(opts: Config, logs: list[Any], spec: Any, target_spec: Any, held: Any) -> Any:
    """`judge`'s logs recorded as the executions of its run (`held`), judged one by one."""
    from dataclasses import replace

    from masfuzz.campaign.recorder import Recorder
    from masfuzz.coverage.base import CoverageMap
    from masfuzz.coverage.structural import StructuralModel
    from masfuzz.graph.coordination import CoordinationGraph
    from masfuzz.judging import judge_log
    from masfuzz.report.judged import summary
    from masfuzz.scenario import Provenance, Scenario
    from masfuzz.trace import users_words

    # each log's failures are judge_log's: the detectors', the answer check's and the agents',
    # with who and when
    found: dict[str, list[Any]] = {}
    recorder = Recorder(held.store, held.run_id,
                        CoverageMap([StructuralModel(CoordinationGraph(spec).obligations())]),
                        spec, detectors=lambda t: found.get(t.scenario_id, []))
    client = model_settings(opts).client(opts.model, role="tester") if opts.model else None
    judged = []
    for log in logs:
        trace = log.trace
        opening = next((m.content for _, m in users_words(trace) if m.content), "")
        # the trace's own id keeps two traces of one input apart (scenario ids are content hashes)
        scenario = Scenario(input=opening or f"(no user message in trace {trace.scenario_id})",
                            extra={"otel_trace": trace.scenario_id},
                            provenance=Provenance(source="otel" if log.format == "otel" else "transcript"))
        own = replace(log, trace=trace.model_copy(update={"scenario_id": scenario.id}))
        section, found[scenario.id] = judge_log(own, target_spec, client=client, rounds=opts.judge_rounds,
                                                expected=opts.expected)
        # the proposals the judge rejected are the run's notes, as in a campaign's store
        recorder.record(scenario, trace, notes=section.get("rejected_proposals", ()))
        judged.append(section)
    analysis = held.finish({"judged": len(logs)})
    analysis.extra["judged"] = {"logs": judged, "summary": summary(judged)}
    return analysis


def _transcripts(paths: list[str]) -> list[Any]:
    """The transcripts named: files, and the .json files of folders (those that are no
    transcript are skipped, and said); a file named that is none is bad input."""
    from pathlib import Path

    from masfuzz.adapters.transcript import load

    logs = []
    for name in paths:
        p = Path(name)
        if not p.is_dir():
            logs.append(load(p))
            continue
        for f in sorted([*p.rglob("*.json"), *p.rglob("*.jsonl")]):
            try:
                logs.append(load(f))
            except MasfuzzError as exc:
                print(f"masfuzz judge: skipped {exc}", file=sys.stderr)
        if not logs:
            raise MasfuzzError(f"{p}: no chat transcript in the folder")
    return logs


# -- tools -------------------------------------------------------------------------------------
def tools(target: str, **keywords: Any) -> dict[str, Any]:
    """ToolFuzz on every tool of `target`: the session's data (also recorded in the store)."""
    return run_tools(options("tools", target=target, **keywords))


def run_tools(opts: Config) -> dict[str, Any]:
    import random

    from masfuzz.campaign.session import open_campaign
    from masfuzz.report.tools import findings_of, tool_usage_rows
    from masfuzz.store.db import RunStore
    from masfuzz.toolfuzz.mcp import mcp_tools, parse_target
    from masfuzz.toolfuzz.session import FuzzSession, session_dict
    from masfuzz.toolfuzz.targets import collect_tools

    if opts.calls < 1:
        raise MasfuzzError(f"--calls must be at least 1, not {opts.calls}")
    store = RunStore(opts.store)  # a bad store is said before anything runs
    seed = opts.seed if opts.seed is not None else random.SystemRandom().randrange(2**31)
    server = parse_target(opts.target)
    if server is None:
        found, notes = collect_tools(_load_app(opts.target), opts.target, surroundings(opts)["context"])
    if not opts.unsafe_no_sandbox and (why := _sandbox_problem(opts, "tools")) is not None:
        raise MasfuzzError(f"tools: this machine cannot isolate a tool ({why}); refusing to run "
                           "it unsandboxed (pass --unsafe-no-sandbox to fuzz it anyway)")
    config = _tool_session(opts, seed, timeout=opts.timeout, models=True)
    _dry_run(config)  # a bad --fixture or --setup is said alone, before anything else
    if server is not None:  # its tools are listed by the server, which runs in the sandbox
        found, notes = mcp_tools(server, config.limits, isolate=config.isolate, state=config.state)
    found = _named_tools(found, list(opts.tool), opts.target)
    if opts.unsafe_no_sandbox:
        _sandbox_problem(opts, "tools")  # says it runs without the OS sandbox
    print(f"masfuzz tools: seed {seed}", file=sys.stderr)
    identity = _redacted({
        "calls": opts.calls, "seed": seed, "model": opts.model, "sut_model": opts.sut_model,
        "correctness": opts.correctness, "fix_docs": opts.fix_docs, "fixture": opts.fixture,
        "setup": opts.setup, "pass_env": list(opts.pass_env or ()), **_unsandboxed(opts)})
    with open_campaign(store, "tools", opts.target, identity, spec=None, seed=seed, fresh=True,
                       resumable=False) as held:
        tester = agent = None
        if opts.model or opts.sut_model:  # made with the command's model settings (cache, timeout, key)
            models = model_settings(opts)
            tester = models.client(opts.model or opts.sut_model, role="tester")
            agent = models.client(opts.sut_model or opts.model, role="sut")
        data = session_dict(FuzzSession(config, tester=tester, agent=agent).run(found, notes, opts.target))
        for finding in findings_of(data):
            held.store.record_tool_finding(held.run_id, finding)
        held.store.record_usage(held.run_id, tool_usage_rows(data))
        held.finish({"tools": data})
    return data


def _load_app(target: str) -> Any:
    """The object TARGET names, loaded as exec loads an app: a key variable left unset holds a
    dummy and provider URLs are refused, so an app that builds its model client as it loads
    loads here too (and a printed reproducer runs as printed); an AG2 script is a program."""
    from masfuzz.adapters.base import program_target
    from masfuzz.loader import load_target
    from masfuzz.sutenv import sut_environment

    program = program_target(target)  # a script that runs its own chats is read, never imported
    if program is not None:
        return program[1]
    with sut_environment():
        return load_target(target).obj


def call_tool(target: str, tool: str, arguments: dict[str, Any] | str) -> Any:
    """Call one tool of TARGET once with `arguments` (a dict, or its JSON text), the way
    `masfuzz tools` calls it, and return what it returns: the reproducer a tool finding shows.
    It runs here, outside the sandbox."""
    import json

    from masfuzz.toolfuzz.mcp import call_once, parse_target
    from masfuzz.toolfuzz.targets import collect_tools

    args = json.loads(arguments) if isinstance(arguments, str) else arguments
    server = parse_target(target)
    if server is not None:  # the server says itself whether it has the tool
        return call_once(server, tool, args)
    found, _ = collect_tools(_load_app(target), target)
    chosen = _named_tools(found, [tool], target)[0]
    if chosen.connection is not None:  # an agent's MCP server's tool: a session of its own, here
        with chosen.connection():
            return chosen.invoke(args)
    return chosen.invoke(args)


def _named_tools(found: list[Any], names: list[str] | None, target: str) -> list[Any]:
    """The tools `--tool NAME` (repeatable) names, in the target's order; all without it."""
    if not names:
        return found
    have = [t.name for t in found]
    missing = [n for n in names if n not in have]
    if missing:
        raise MasfuzzError(f"{target}: no tool named {', '.join(map(repr, missing))} (it has "
                           f"{', '.join(have) or 'none'})")
    return [t for t in found if t.name in names]


def _tool_session(opts: Config, seed: int, *, timeout: float, models: bool) -> Any:
    """The tool-fuzzing session's settings from a command's options (`masfuzz tools`, and
    the tools phase of `masfuzz run`, which fuzzes without the model stages)."""
    from masfuzz.toolfuzz.sandbox import SandboxLimits
    from masfuzz.toolfuzz.session import SessionConfig

    return SessionConfig(
        calls=opts.calls, seed=seed,
        model=opts.model if models else None, sut_model=opts.sut_model if models else None,
        correctness=bool(models and opts.correctness), fix_docs=bool(models and opts.fix_docs),
        # `run`'s tools phase fixes no documentation: the candidates are `tools`' own option
        **({"fix_candidates": opts.candidates} if models else {}),
        limits=SandboxLimits(time_s=timeout, cpu_s=max(1, int(timeout)), memory_mb=opts.memory_mb),
        isolate=not opts.unsafe_no_sandbox, state=_call_state(opts), workers=opts.workers,
    )


def _call_state(opts: Config) -> Any:
    """What each sandboxed tool call starts from: `--fixture DIR` and `--setup MODULE:FUNCTION`,
    checked here (a folder that is not one, a function that does not load: exit 2)."""
    import inspect as pyinspect

    from masfuzz.loader import load_target
    from masfuzz.toolfuzz.sandbox import CallState

    fixture = None
    if opts.fixture:
        folder = Path(opts.fixture).expanduser()
        if not folder.is_dir():
            raise MasfuzzError(f"--fixture {opts.fixture}: no such folder")
        fixture = str(folder.resolve())
    setup, takes_folder = None, False
    if opts.setup:
        try:
            setup = load_target(opts.setup).obj
        except MasfuzzError as exc:
            raise MasfuzzError(f"--setup {opts.setup}: {exc}") from None
        if not callable(setup):
            raise MasfuzzError(f"--setup {opts.setup}: not a function")
        try:
            params = [p for p in pyinspect.signature(setup).parameters.values()
                      if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD, p.VAR_POSITIONAL)]
        except (TypeError, ValueError):
            params = []
        takes_folder = bool(params)
    return CallState(fixture, setup, opts.setup or "", takes_folder, opts.pass_env)


def _dry_run(config: Any) -> None:
    """Prepare one call's folder with the fixture and setup, no tool called, before any fuzzing:
    a fixture or setup that fails is the settings' error (exit 2), never charged to a tool."""
    from masfuzz.toolfuzz.sandbox import Sandbox
    from masfuzz.toolfuzz.tools import from_callable

    if config.state.fixture is None and config.state.setup is None:
        return

    def dry_run() -> str:
        """No tool: the fixture and setup only."""
        return ""

    with Sandbox(from_callable(dry_run), config.limits, isolate=config.isolate,
                 state=config.state) as box:
        outcome = box.prepare()
    if outcome.status != "ok":
        tail = f" (its output: {outcome.output.strip()[-200:]!r})" if outcome.output.strip() else ""
        raise MasfuzzError(f"{outcome.message or outcome.status}{tail}")


def executor_for(opts: Config) -> Any:
    """The executor a command's configuration asks for (the campaigns, `replay`, the pytest
    plugin; the caller closes it: `await ex.aclose()`)."""
    from masfuzz.exec import make_executor

    return make_executor(opts.executor, ray_address=opts.ray_address, ray_cpus=opts.ray_cpus,
                         concurrency=opts.workers, timeout=opts.timeout, models=model_settings(opts),
                         code_coverage=bool(getattr(opts, "code_coverage", False)),  # fuzz's, run's
                         persistent=getattr(opts, "persistent", 1),  # not the pytest plugin's
                         sandbox=sut_sandbox(opts))


def sut_sandbox(opts: Config) -> Any:
    """The OS sandbox a command's workers run the system under test in (`masfuzz.exec.sandbox`);
    --unsafe-no-sandbox is said on stderr (--executor inprocess, no worker and no sandbox, is
    said by its executor once it has run the system)."""
    from masfuzz.exec.sandbox import SandboxSettings
    from masfuzz.report.analysis import UNSANDBOXED_KEY, unsandboxed_warning

    settings = SandboxSettings.of(opts)
    # --executor inprocess says it when it first runs the system (`InProcessExecutor`)
    if (warning := unsandboxed_warning(_unsandboxed(opts).get(UNSANDBOXED_KEY) is True)) is not None:
        print(f"masfuzz: WARNING: {warning}", file=sys.stderr)
    return settings


def _sandbox_problem(opts: Config, command: str) -> str | None:
    """Why tool calls cannot run in the OS sandbox here (None: they can, or the user said
    --unsafe-no-sandbox, which is then said on stderr)."""
    from masfuzz.toolfuzz.sandbox import isolation_problem

    if opts.unsafe_no_sandbox:
        print(f"masfuzz {command}: --unsafe-no-sandbox: tool calls run WITHOUT the OS sandbox",
              file=sys.stderr)
        return None
    return isolation_problem()


def _redacted(config: dict[str, Any]) -> dict[str, Any]:
    from masfuzz.redact import redact_data

    return redact_data(config)


# -- report ------------------------------------------------------------------------------------
def report(store: str | os.PathLike[str] | None = None, run: int | None = None) -> Any:
    """The `Analysis` of a stored run (default: the latest), without executing anything."""
    from masfuzz.report.analysis import analyze
    from masfuzz.store.db import RunStore

    path = Path(store if store is not None else options("report").store)
    if not path.exists():
        raise MasfuzzError(f"{path}: no run store here (run `masfuzz cover` first, or give --store)")
    from masfuzz.report.verdict import verdict

    with RunStore(path, read_only=True) as db:
        analysis = analyze(db, run)
    analysis.verdict = verdict(analysis)  # no gate: incomplete (3) or passed (0)
    return analysis
