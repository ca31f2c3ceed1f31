"""Every setting masfuzz reads, declared once.

Each `Setting` is at the same time a command-line flag (`--sut-model`), an environment variable
(`MASFUZZ_SUT_MODEL`), a key of `[tool.masfuzz]` (or `[tool.masfuzz.COMMAND]`) in the nearest
pyproject.toml (`sut-model = "..."`) and a keyword of the Python API (`sut_model=`). A value is
taken from the first of flag > environment > file > default that gives one, and checked where it
enters: numbers in range and finite, choices from their set, booleans spelled as booleans; a bad
value is one line naming where it came from, and exit status 2.

argparse stays the parser (flags, help, positionals); it declares every flag with an "unset"
default so that `resolve` can tell a flag given from one left out. `resolve` returns the
command's `Config`, frozen and typed, with the values several layers read parsed once (the
stubs, the user's graph, the budget, comma lists, the model-call settings): every layer below
the API takes that object, never the command line's namespace.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import difflib
import math
import os
import tomllib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, get_args

from masfuzz.errors import MasfuzzError
from masfuzz.oracles.failure import FAIL_ON_NAMES
from masfuzz.graph.obligations import CRITERIA as CRITERION_OF_KIND
from masfuzz.spec.mutants import NAMES as MUTATION_OPERATORS
from masfuzz.scenario import Fault, FaultMode

UNSET: Any = type("Unset", (), {"__repr__": lambda self: "UNSET"})()
DEFAULT_MODEL = "local/gemma-3-270m"
EXECUTORS = ("pool", "inprocess", "subprocess", "ray")
FAULT_MODES: tuple[str, ...] = get_args(FaultMode)
CRITERIA: tuple[str, ...] = tuple(CRITERION_OF_KIND.values())


# -- value parsers: text (or a TOML value) -> checked value, or ValueError with the reason --------
Parser = Callable[[Any], Any]


def text(value: Any) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ValueError("expected a non-empty text")
    return value


def integer(*, low: int | None = None, high: int | None = None) -> Parser:
    def parse(value: Any) -> int:
        if isinstance(value, bool):
            raise ValueError("expected a whole number")
        try:
            n = int(value) if not isinstance(value, float) else None
        except (TypeError, ValueError):
            n = None
        if n is None:
            raise ValueError(f"expected a whole number, not {value!r}")
        if low is not None and n < low:
            raise ValueError(f"must be at least {low}, not {n}")
        if high is not None and n > high:
            raise ValueError(f"must be at most {high}, not {n}")
        return n

    return parse


def number(*, positive: bool = False, low: float | None = None, high: float | None = None) -> Parser:
    def parse(value: Any) -> float:
        if isinstance(value, bool):
            raise ValueError("expected a number")
        try:
            x = float(value)
        except (TypeError, ValueError):
            raise ValueError(f"expected a number, not {value!r}") from None
        if not math.isfinite(x):
            raise ValueError(f"expected a finite number, not {value!r}")
        if positive and x <= 0:
            raise ValueError(f"must be positive, not {value}")
        if low is not None and x < low:
            raise ValueError(f"must be at least {low:g}, not {value}")
        if high is not None and x > high:
            raise ValueError(f"must be at most {high:g}, not {value}")
        return x

    return parse


TRUE, FALSE = ("1", "true", "yes", "on"), ("0", "false", "no", "off")


def boolean(value: Any) -> bool:
    if isinstance(value, bool):
        return value
    word = str(value).strip().lower()
    if word in TRUE:
        return True
    if word in FALSE:
        return False
    raise ValueError(f"expected a boolean (true/false, 1/0, yes/no, on/off), not {value!r}")


def choice(*values: str) -> Parser:
    def parse(value: Any) -> str:
        if value not in values:
            raise ValueError(f"expected one of {', '.join(values)}, not {value!r}")
        return value

    return parse


def choices_list(*values: str, none: bool = False) -> Parser:
    """A comma list of choices (`C1,C2`, or a list) -> the names in order; `none` allows the
    word none for an empty list."""

    def parse(value: Any) -> tuple[str, ...]:
        items = value if isinstance(value, (list, tuple)) else str(value).split(",")
        items = [str(i).strip() for i in items if str(i).strip()]
        if none and items == ["none"]:
            return ()
        bad = [i for i in items if i not in values]
        if bad or not items:
            what = f"unknown {bad[0]!r}" if bad else "empty"
            allowed = ", ".join(values) + (", or none" if none else "")
            raise ValueError(f"{what}: expected a comma list of {allowed}")
        return tuple(items)

    return parse


def fraction(value: Any) -> str:
    """`K/N` with 1 <= K <= N <= 20: a failure reproduces when K of N samples show it."""
    k, sep, n = str(value).partition("/")
    try:
        k_, n_ = int(k), int(n)
    except ValueError:
        k_ = n_ = 0
    if not sep or not 1 <= k_ <= n_ <= 20:
        raise ValueError(f"expected K/N with 1 <= K <= N <= 20, not {value!r}")
    return f"{k_}/{n_}"


BUDGET_UNITS = {"s": ("budget_time", 1), "m": ("budget_time", 60), "h": ("budget_time", 3600),
                "x": ("budget_executions", 1), "calls": ("budget_model_calls", 1)}


def budget_spec(value: Any) -> dict[str, float]:
    """`10m`, `90s`, `2h` (wall time), `200x` (executions), `500calls` (tester model calls), or
    several joined by commas: whichever runs out first ends the campaign."""
    out: dict[str, float] = {}
    for part in str(value).split(","):
        part = part.strip().lower()
        unit = next((u for u in sorted(BUDGET_UNITS, key=len, reverse=True) if part.endswith(u)), None)
        try:
            amount = float(part[: -len(unit)]) if unit else float("nan")
        except ValueError:
            amount = float("nan")
        if unit is None or not math.isfinite(amount) or amount <= 0:
            raise ValueError(f"expected e.g. 10m, 90s, 2h, 200x or 500calls (comma-joined), "
                             f"not {value!r}")
        name, scale = BUDGET_UNITS[unit]
        if name != "budget_time" and amount != int(amount):
            raise ValueError(f"{part!r}: a count must be whole")
        out[name] = amount * scale if name == "budget_time" else int(amount)
    return out


def report_spec(value: Any) -> str:
    """`FORMAT` or `FORMAT:PATH`, FORMAT a registered reporter."""
    from masfuzz.report import reporter_names  # the built-in ones and the plugins'

    fmt, _, path = str(value).partition(":")
    if fmt not in reporter_names():
        raise ValueError(f"expected FORMAT[:PATH] with FORMAT one of {', '.join(reporter_names())}, "
                         f"not {value!r}")
    if _ and not path.strip():
        raise ValueError(f"{value!r}: the PATH after ':' is empty")
    return str(value)


def env_name(value: Any) -> str:
    """The name of an environment variable (letters, digits and _, not starting with a digit)."""
    if not isinstance(value, str) or not value.isidentifier() or not value.isascii():
        raise ValueError(f"expected an environment variable's name, not {value!r}")
    return value


def pair(sep: str, what: str) -> Parser:
    """`LEFT{sep}RIGHT` with both sides non-empty (AGENT=MODEL, TOOL=MODE, FROM->TO)."""

    def parse(value: Any) -> str:
        left, found, right = str(value).partition(sep)
        if not found or not left.strip() or not right.strip():
            raise ValueError(f"expected {what}, not {value!r}")
        return str(value)

    return parse


def tool_fault(value: Any) -> Fault:
    """`TOOL=MODE`, MODE a fault mode (`masfuzz.scenario.Fault`)."""
    tool, sep, mode = str(value).partition("=")
    if not sep or not tool or mode not in FAULT_MODES:
        raise ValueError(f"expected TOOL=MODE with MODE one of {', '.join(FAULT_MODES)}, not {value!r}")
    return Fault(tool=tool, mode=mode)  # type: ignore[arg-type]


@dataclass(frozen=True)
class Setting:
    name: str  # the API keyword and argparse dest
    help: str
    parse: Parser = text
    default: Any = None
    commands: tuple[str, ...] = ()
    flag_kind: str = "value"  # value | switch (a flag that sets True) | append (repeatable)
    metavar: str | None = None
    per_command: Mapping[str, Any] = field(default_factory=dict)  # command -> default
    choices: tuple[str, ...] = ()  # shown in --help

    @property
    def flag(self) -> str:
        return "--" + self.name.replace("_", "-")

    @property
    def env(self) -> str:
        return "MASFUZZ_" + self.name.upper()

    @property
    def key(self) -> str:
        return self.name.replace("_", "-")

    def default_for(self, command: str) -> Any:
        for name in (command, *COMBINED.get(command, ())):
            if name in self.per_command:
                return self.per_command[name]
        return self.default

    def applies_to(self, command: str) -> bool:
        return any(name in self.commands for name in (command, *COMBINED.get(command, ())))


# `masfuzz run` is cover's and fuzz's phases in one campaign: it takes the settings of both
# (and, for its tools phase, the tool-fuzzing settings that name "run" themselves).
COMBINED: dict[str, tuple[str, ...]] = {"run": ("cover", "fuzz")}


RUNS = ("exec", "cover", "replay", "fuzz", "mutate")
MODEL_CALLS = ("exec", "cover", "replay", "tools", "serve", "models", "fuzz", "mutate", "judge")
FORMATS = {"inspect": ("text", "yaml", "json", "mermaid", "dot", "report-json")}

TABLE: tuple[Setting, ...] = (
    # which model plays which role
    Setting("model", "tester model string (realizers, prompt writers, oracles)", text,
            DEFAULT_MODEL, ("cover", "tools", "fuzz", "judge"), per_command={"tools": None, "judge": None},
            metavar="MODEL"),
    Setting("sut_model", "model driving the system under test's agents", text, DEFAULT_MODEL,
            ("exec", "cover", "replay", "tools", "serve", "fuzz", "mutate"),
            per_command={"replay": None, "tools": None, "mutate": None}, metavar="MODEL"),
    # how model calls are made (masfuzz.llm.settings.ModelSettings)
    Setting("no_cache", "do not read or write the model response cache", boolean, False,
            MODEL_CALLS, "switch"),
    Setting("cache", "model response cache file", text, ".masfuzz/model-cache.sqlite",
            MODEL_CALLS, metavar="PATH"),
    Setting("max_connections", "model calls at once, across the executions running together "
            "(their worker processes included)", integer(low=1, high=1024), 4, MODEL_CALLS,
            metavar="N"),
    Setting("model_timeout", "seconds one attempt of a model call may take, each retry its own "
            "(600 when a model is an embedded local/ one, whose call then stops generating)",
            number(positive=True), 120.0, MODEL_CALLS, metavar="S"),
    Setting("retries", "retries on rate limits, timeouts, 5xx and replies that are no chat "
            "completion", integer(low=0, high=100), 4, MODEL_CALLS, metavar="N"),
    Setting("api_key_env", "environment variable holding the API key (default: OPENAI_API_KEY "
            "for openai/, OPENAI_COMPATIBLE_API_KEY for openai-compatible/)", text, None,
            MODEL_CALLS, metavar="NAME"),
    # how runs are bounded and executed
    Setting("seed", "seed recorded with every scenario", integer(low=0), 0, ("cover", "tools", "fuzz"),
            per_command={"tools": None}, metavar="N"),
    Setting("max_turns", "turn bound per run", integer(low=1, high=100_000), None,
            ("exec", "cover", "fuzz"), metavar="N"),
    Setting("timeout", "seconds before a run (tools: a tool call) is stopped and recorded as a "
            "timeout (900 for runs whose agents use an embedded local/ model; replay: a case's "
            "recorded bound, or this one where it is tighter)",
            number(positive=True, high=86_400), 120.0, RUNS + ("tools",),
            per_command={"exec": 60.0, "tools": 10.0, "replay": None}, metavar="S"),
    Setting("workers", "executions at once (for tools: tools tested at once, each in its own "
            "sandbox; 1: one after another); the results are those of --workers 1 for the same "
            "seed (fuzz: and --batch, whose default grows with --workers) (1 when the system "
            "under test's model is an embedded local/ one, unless given)",
            integer(low=1, high=256), 4, ("cover", "replay", "fuzz", "mutate", "tools"),
            metavar="N"),
    Setting("executor", "where the system under test runs: pool (killable warm worker "
            "processes), subprocess (a fresh process per scenario) or inprocess (this process; "
            "for debugging) or ray (a Ray cluster's nodes; needs masfuzz[ray])", choice(*EXECUTORS),
            "pool", RUNS, choices=EXECUTORS),
    Setting("ray_address", "the Ray cluster --executor ray runs on (ray://HOST:10001, HOST:6379 "
            "or auto); unset: RAY_ADDRESS, else a local Ray masfuzz starts and stops", text, None,
            RUNS, metavar="ADDRESS"),
    Setting("ray_cpus", "CPUs each --executor ray actor reserves: a fraction, since a run "
            "mostly waits on its models (0.25: four actors a CPU)", number(positive=True), 0.25,
            RUNS, metavar="N"),
    Setting("persistent", "runs one forked process of a worker may serve before a fresh fork "
            "takes its place (AFL++'s persistent mode: the fork each run costs, paid once per N); "
            "what a run leaves in memory reaches the next runs of its process, so only for apps "
            "that keep no state between runs (a trace's meta process_run says its place; replay "
            "--persistent N says which cases ran otherwise than in a fresh fork); 1: a fresh fork "
            "for every run", integer(low=1, high=100_000), 1, ("cover", "replay", "fuzz"), metavar="N"),
    Setting("store", "SQLite run store", text, ".masfuzz/runs.db",
            ("cover", "report", "tools", "fuzz", "judge"), metavar="DB"),
    Setting("format", "output format", choice("text", "json"), "text",
            ("inspect", "exec", "cover", "replay", "report", "tools", "fuzz", "judge", "mutate"),
            choices=("text", "json")),
    Setting("coordinator", "add a coordinator agent NAME whose handoffs are the agents the "
            "target names (file.py:a,b,c; default name 'coordinator' when several are named)",
            text, None, ("inspect", "exec", "cover", "replay", "fuzz", "judge", "mutate"), metavar="NAME"),
    Setting("link", "add a delegation (a handoff) between two named or reachable agents "
            "(repeatable)", pair("->", "FROM->TO"), (), ("inspect", "exec", "cover", "replay", "fuzz", "judge", "mutate"),
            "append", metavar="FROM->TO"),
    Setting("secret_env", "an environment variable whose value is a secret to mask in every "
            "output, beyond the *KEY*, *TOKEN*, *SECRET*, *PASSWORD* ones (repeatable)", text, (),
            ("inspect", "exec", "cover", "replay", "report", "tools", "serve", "models", "fuzz", "judge",
             "mutate"), "append", metavar="NAME"),
    # inspect / report
    Setting("check", "the control check: run the app once on masfuzz's probe model and show, "
            "agent by agent, that its model calls reach masfuzz, which tools it can call and "
            "what masfuzz cannot see (it calls each tool once, with placeholder arguments: --stub "
            "the ones that must not run); exit 1 when a model call was not injected", boolean, False,
            ("inspect",), "switch"),
    Setting("against", "compare the workflow TARGET builds with the one MANIFEST declares and "
            "list every structural difference (agents, tools, tool edges, restrictions, "
            "delegations, entry); exit 1 on any", text, None, ("inspect",), metavar="MANIFEST"),
    Setting("repeat", "run the suite K times (each run after the first a new sample of every "
            "model call) and report pass^k and the flaky cases", integer(low=1, high=1000), 1,
            ("replay",), metavar="K"),
    Setting("otel", "OTLP/JSON file of OpenTelemetry GenAI (or OpenInference) spans, as an "
            "instrumented app exports them: each trace in it is judged", text, None, ("judge",),
            metavar="FILE"),
    Setting("chat", "a chat transcript to judge (AG2 chat_history or group chat messages, AgentChat "
            "or Magentic-One TaskResult messages, OpenAI Agents SDK run items, LangGraph messages; "
            "the format is detected), or a folder of them (repeatable)", text, (), ("judge",),
            "append", metavar="FILE|DIR"),
    Setting("expected", "the task's correct answer: the final answer of each --chat log is checked "
            "against it (and --model's failure agents are told it)", text, None, ("judge",),
            metavar="ANSWER"),
    Setting("resume", "continue the interrupted campaign of this configuration instead of "
            "starting a new one", boolean, False, ("run",), "switch",
            # `cover` and `fuzz`, presets of `run` (`as_run`), continue theirs unless --fresh
            per_command={"run": False, "cover": True, "fuzz": True}),
    Setting("phases", "the phases of `masfuzz run`, in this order: replay (the failures stored "
            "for this target, re-executed first: fixed or still failing), tools (runtime fuzzing "
            "of the tools the agents own, as `masfuzz tools` does it, no model), structural "
            "(cover's generation), flare (fuzz's loop); the cheap, sure ones first, so a short "
            "budget still reaches them", choices_list("replay", "structural", "flare", "tools"),
            "replay,tools,structural,flare", ("run",), metavar="P1,P2",
            # the presets: `cover` is `run --phases structural`, `fuzz` is `run --phases flare`
            per_command={"run": "replay,tools,structural,flare", "cover": "structural",
                         "fuzz": "flare"}),
    Setting("no_check", "skip the control check a campaign starts with (one run on masfuzz's "
            "probe model that calls each tool once)", boolean, False, ("cover", "fuzz"), "switch"),
    Setting("obligations", "list every obligation, not just the counts", boolean, False,
            ("inspect", "report", "judge"), "switch"),
    Setting("run", "run id (default: the latest)", integer(low=1), None, ("report",), metavar="N"),
    Setting("list", "list the runs in the store", boolean, False, ("report",), "switch"),
    Setting("report", "write the analysis as FORMAT to PATH (atomically), or print it "
            "without :PATH; repeatable (default: --format to the terminal)", report_spec, (),
            ("cover", "fuzz", "report", "judge"), "append", metavar="FORMAT[:PATH]"),
    Setting("fail_on", "exit 1 when the system under test has a failure of these categories "
            "(comma list of category names or Table-1 symbols AR, ST, TE, TI, RC) or any; "
            "findings caused by masfuzz or by your settings never count (tools: a tool's "
            "crash is RC, a documentation-induced wrong answer TI)",
            choices_list(*FAIL_ON_NAMES), None, ("exec", "cover", "tools", "fuzz", "judge"),
            per_command={"run": "any"}, metavar="CATEGORIES|any"),
    Setting("fail_under", "exit 1 when C1+C2+C4 coverage is below PCT percent",
            number(low=0, high=100), None, ("cover", "fuzz", "report", "judge"), metavar="PCT"),
    # exec
    Setting("agent_model", "a different model for one agent (repeatable)",
            pair("=", "AGENT=MODEL"), (), ("exec",), "append", metavar="AGENT=MODEL"),
    Setting("agent_temperature", "sample one agent's model calls at temperature T (0..2; "
            "repeatable)", pair("=", "AGENT=T"), (), ("exec",), "append", metavar="AGENT=T"),
    Setting("nonce", "execution nonce, sent as every SUT request's seed: a new nonce is a new "
            "sample, never a cached answer", integer(low=0), None, ("exec",), metavar="N"),
    Setting("fault", "inject a fault into a tool: error, malformed, timeout or empty "
            "(repeatable)", tool_fault, (), ("exec",), "append", metavar="TOOL=MODE"),
    Setting("stub", "replace a tool by a canned result, for tools that need keys, paid "
            "services or the network: TOOL=RESULT, or TOOL=@FILE for a file's text "
            "(repeatable; kept in every scenario, so saved cases replay with it)",
            pair("=", "TOOL=RESULT"), (), ("inspect", "exec", "cover", "fuzz"), "append",
            metavar="TOOL=RESULT"),
    Setting("context", "the run context an app's server passes its agents (Agents SDK "
            "Runner.run(context=...)): a zero-argument function, MODULE:FACTORY or "
            "FILE.py:FACTORY, called afresh for each run", pair(":", "MODULE:FACTORY or "
            "FILE.py:FACTORY"), None, ("inspect", "exec", "cover", "fuzz", "tools"), metavar="MODULE:FACTORY"),
    Setting("run_code", "let the code executors inside the system under test (AutoGen 0.2 / "
            "AG2 code_execution_config, AgentChat CodeExecutorAgent) run the code its agents "
            "write; without it a recording stand-in answers and no code runs", boolean, False, ("exec", "cover", "fuzz"),
            "switch"),
    Setting("restricted", "probe: offer each agent the workflow tools it may not use as "
            "refusing, recording stubs; faithful: leave agents as written and record calls of "
            "tools they do not own; off: neither", choice("probe", "faithful", "off"), "probe",
            ("exec",), choices=("probe", "faithful", "off")),
    Setting("failures", "JSON: print {\"trace\": ..., \"failures\": [...]} instead of the bare "
            "trace", boolean, False, ("exec",), "switch"),
    Setting("coverage", "after the trace, print structural coverage (C1-C4) against the target, "
            "--spec, or the workflow observed in the run", boolean, False, ("exec",), "switch"),
    Setting("blackbox", "run COMMAND (an unmodified app) against masfuzz's loopback "
            "OpenAI-compatible endpoint", text, None, ("exec",), metavar="COMMAND"),
    Setting("answer", "answer to the app's input() calls (repeatable; default: --input once, "
            "none without --input)",
            text, (), ("exec",), "append", metavar="TEXT"),
    Setting("cwd", "folder to start the black-box app in", text, None, ("exec",), metavar="DIR"),
    Setting("bb_agent", "name the agent whose system prompt contains PROMPT (repeatable)",
            pair("=", "NAME=PROMPT"), (), ("exec",), "append", metavar="NAME=PROMPT"),
    Setting("spec", "the black-box app's workflow (a manifest, or file.py:attr building its "
            "agents)", text, None, ("exec",), metavar="TARGET"),
    # cover
    Setting("realizer", "who writes the requests: masfuzz's own prompts, or DSPy signatures",
            choice("native", "dspy"), "native", ("cover",), choices=("native", "dspy")),
    Setting("attempts", "refine attempts per bundle", integer(low=1, high=1000), 5, ("cover",),
            metavar="N"),
    Setting("suite", "where to write the suite (mutate: the suite to run against each mutant)",
            text, ".masfuzz/suite.yaml", ("cover", "mutate"), metavar="FILE"),
    Setting("no_bundle", "one scenario per objective", boolean, False, ("cover",), "switch"),
    Setting("no_route", "do not give the realizer the delegation route", boolean, False,
            ("cover",), "switch"),
    Setting("faults", "fault modes re-run on witnessed tool scenarios (comma list, or none)",
            choices_list(*FAULT_MODES, none=True), "error,malformed", ("cover",), metavar="MODES"),
    Setting("criteria", "criteria to generate for", choices_list(*CRITERIA), "C1,C2,C3,C4",
            ("cover",), metavar="C1,C2,..."),
    Setting("budget", "the campaign's budget: 10m, 90s, 2h (wall time), 200x (executions), "
            "500calls (tester model calls), comma-joined; the --budget-* options say the same",
            budget_spec, None, ("cover", "fuzz"), metavar="SPEC"),
    Setting("budget_time", "stop generating after S seconds (the run is kept and reported)",
            number(positive=True), None, ("cover", "fuzz"), metavar="S"),
    Setting("budget_executions", "stop after N executions in the run", integer(low=1), None,
            ("cover", "fuzz"), metavar="N"),
    Setting("budget_model_calls", "stop after N tester model calls", integer(low=1), None,
            ("cover", "fuzz"), metavar="N"),
    Setting("fresh", "start a new run instead of resuming (or showing) the stored one", boolean,
            False, ("cover", "fuzz"), "switch"),
    Setting("progress", "progress on stderr while the campaign runs: auto (a live panel when "
            "stderr is a terminal, plain lines otherwise, none with --format json), plain (a "
            "line at each phase, every few seconds and at the end), off",
            choice("auto", "plain", "off"), "auto", ("cover", "fuzz"),
            choices=("auto", "plain", "off")),
    # fuzz
    Setting("input", "a task for the system: each is a seed of the pool (repeatable)",
            text, (), ("fuzz",), "append", metavar="TEXT"),
    Setting("model_pool", "model strings a model-switching mutation picks from (comma list)",
            text, None, ("fuzz",), metavar="M1,M2"),
    Setting("strategy", "flare: configuration and order mutations under --schedule; uniform: "
            "the same with --schedule uniform; input: the tester model rewrites the user input "
            "instead (LLM-Fuzzer-style baseline)",
            choice("flare", "uniform", "input"), "flare", ("fuzz",),
            choices=("flare", "uniform", "input")),
    Setting("schedule", "how the loop picks what to mutate: flare (energy to recent, productive "
            "corpus entries; operators and agents by smoothed success rate), paper (FLARE's "
            "fixed-step weights), uniform (no weighing)",
            choice("flare", "paper", "uniform"), "flare", ("fuzz",),
            choices=("flare", "paper", "uniform")),
    Setting("rounds", "mutants to execute after the seeds", integer(low=1, high=1_000_000), 20,
            ("fuzz",), metavar="N"),
    Setting("batch", "mutants drawn together from the weights as they stand and executed "
            "together (up to --workers at once); the weights move after each batch (default: "
            "8, or 2 x --workers when more)",
            integer(low=1, high=10_000), 8, ("fuzz",), metavar="N"),
    Setting("pace", "batch: batches of --batch, the same run for a seed whatever --workers; "
            "steady: --workers mutants in flight and three quarters more waiting for a worker, a "
            "new one drawn as soon as one is done and recorded in draw order (the same run for "
            "a seed and --workers); free: the same, "
            "recorded as each ends (fastest; the run depends on which ends first)",
            choice("batch", "steady", "free"), "batch", ("fuzz",),
            choices=("batch", "steady", "free")),
    Setting("seed_tasks", "tasks the tester model writes from the workflow's documentation, "
            "added to the --input seeds", integer(low=0, high=100), 2, ("fuzz",), metavar="N"),
    Setting("judge_rounds", "rounds the failure agent and the judge agent may take to agree",
            integer(low=1, high=10), 2, ("fuzz", "judge"), metavar="K"),
    Setting("no_judge", "no failure or judge agent: only the deterministic oracles", boolean,
            False, ("cover", "fuzz"), "switch"),
    Setting("reproduce", "when a failure still reproduces while a mutant is shrunk toward its "
            "seed: K of N fresh samples (default 1/1 for scripted models, 2/3 otherwise)",
            fraction, None, ("fuzz",), metavar="K/N"),
    Setting("no_shrink", "keep failing mutants as found, without shrinking them toward their "
            "seed", boolean, False, ("fuzz",), "switch"),
    Setting("no_sequence", "no sequence mutation: free-form teams keep their default speaking "
            "order (the others never get one)", boolean, False, ("fuzz",), "switch"),
    Setting("map_behaviours", "let the tester model map every agent turn to the behaviours of "
            "the space (one call per turn; objective deviation is only found this way)", boolean,
            False, ("fuzz",), "switch"),
    Setting("no_spec_agent", "use the deterministic specification skeleton as it is, without "
            "the Specification Agent", boolean, False, ("fuzz",), "switch"),
    Setting("code_coverage", "measure statement and branch coverage of the target's own files "
            "(coverage.py, in the process that runs it)", boolean, False, ("fuzz",), "switch"),
    # tools
    Setting("calls", "fuzzed tool calls per tool", integer(low=1, high=10_000_000), 200,
            ("tools", "run"), metavar="N"),
    Setting("tool", "fuzz only the tool of this name (repeatable)", text, (), ("tools",),
            "append", metavar="NAME"),
    Setting("correctness", "also run the correctness pipeline", boolean, False, ("tools",),
            "switch"),
    Setting("fix_docs", "rewrite failing tools' descriptions (best of --candidates) and re-test",
            boolean, False, ("tools",), "switch"),
    Setting("candidates", "documentation fixes to try", integer(low=1, high=100), 3, ("tools",),
            metavar="N"),
    Setting("unsafe_no_sandbox", "run the system under test and fuzz tools without the OS "
            "sandbox (namespaces), e.g. where the kernel refuses it: they then act on this "
            "machine's files, network and processes; every report says so", boolean,
            False, ("tools", "run", "inspect", *RUNS), "switch"),
    Setting("bind", "a file or folder the sandboxed system under test may write (read-write, "
            "at the same path; repeatable); everything else it sees is read-only", text, (),
            ("run", "inspect", *RUNS), "append", metavar="PATH"),
    Setting("allow_net", "a network service the sandboxed system under test needs (repeatable): "
            "its workers keep this machine's network", pair(":", "HOST:PORT"), (),
            ("run", "inspect", *RUNS), "append", metavar="HOST:PORT"),
    Setting("memory_mb", "memory per sandboxed tool process, in MB", integer(low=16, high=1_048_576),
            1024, ("tools", "run"), metavar="MB"),
    Setting("fixture", "a folder copied afresh into each tool call's folder (files, databases "
            "the tools read)", text, None, ("tools", "run"), metavar="DIR"),
    Setting("setup", "a function run in the sandbox before each tool call, in the call's folder "
            "(create a database, set environment variables); called with the folder's path if "
            "it takes an argument", pair(":", "MODULE:FUNCTION or FILE.py:FUNCTION"), None,
            ("tools", "run"), metavar="MODULE:FUNCTION"),
    # the sandboxed system's hard limits (masfuzz.exec.sandbox.Limits): a run that hits one
    # ends as a recorded error or timeout of that run, never of the machine
    Setting("sandbox_memory", "address space the sandboxed system under test may add after its "
            "worker starts, in MB (virtual: an app mapping a large model needs more)",
            integer(low=64, high=1_048_576), 8192, ("run", "inspect", *RUNS), metavar="MB"),
    Setting("sandbox_processes", "processes and threads the sandboxed system under test may "
            "start (a limit that holds for root too)", integer(low=16, high=1_000_000), 512,
            ("run", "inspect", *RUNS), metavar="N"),
    Setting("sandbox_cpu", "CPU seconds a run of the sandboxed system under test has (a run "
            "spinning is stopped then, as a timeout)",
            integer(low=1, high=86_400), 300, ("run", "inspect", *RUNS), metavar="S"),
    Setting("sandbox_disk", "the sandboxed system under test's scratch folder (HOME, TMPDIR), "
            "in MB; also the largest file it may write anywhere", integer(low=1, high=1_048_576),
            512, ("run", "inspect", *RUNS), metavar="MB"),
    Setting("pass_env", "an environment variable the sandboxed tools and system under test may "
            "see (repeatable); besides these they see PATH, the locale and TZ only, never "
            "masfuzz's or a model's keys", env_name, (), ("tools", "run", "inspect", *RUNS), "append",
            metavar="NAME"),
    # mutate
    Setting("operators", "the mutation operators to apply (comma list)",
            choices_list(*MUTATION_OPERATORS),
            ",".join(MUTATION_OPERATORS), ("mutate",), metavar="OP1,OP2"),
    # a case's run on a mutant may take F x its run on the target + S seconds, at most --timeout
    # (PIT's timeoutFactor and timeoutConst; masfuzz.mutate.analysis says why these defaults)
    Setting("mutant_timeout_factor", "a case's run on a mutant may take this many times its run "
            "on the target, plus --mutant-timeout-const, at most --timeout; past that it is a "
            "kill (a timeout)", number(low=1.0, high=1000.0), 2.0, ("mutate",), metavar="F"),
    Setting("mutant_timeout_const", "seconds a case's run on a mutant may take beyond "
            "--mutant-timeout-factor times its run on the target (300 for runs whose agents use "
            "an embedded local/ model)", number(low=0.0, high=86_400), 60.0, ("mutate",),
            metavar="S"),
    # serve
    Setting("port", "loopback port to serve on (0: any free port)", integer(low=0, high=65535),
            8765, ("serve",), metavar="N"),
    Setting("record", "append every model call to FILE (JSON lines)", text, None, ("serve",),
            metavar="FILE"),
    Setting("agent", "name the agent whose system prompt contains PROMPT (repeatable)",
            pair("=", "NAME=PROMPT"), (), ("serve",), "append", metavar="NAME=PROMPT"),
)

BY_NAME = {s.name: s for s in TABLE}


def settings_of(command: str) -> list[Setting]:
    return [s for s in TABLE if s.applies_to(command)]


def add_arguments(parser: argparse.ArgumentParser, command: str, *,
                  skip: Iterable[str] = ()) -> None:
    """Declare `command`'s settings on its parser (positionals are the command's own)."""
    left_out = set(skip)
    for s in settings_of(command):
        if s.name in left_out:
            continue
        default = s.default_for(command)
        shown = f" (default {default}, env {s.env})" if default not in (None, (), False) else f" (env {s.env})"
        kw: dict[str, Any] = {"dest": s.name, "default": UNSET, "help": s.help + shown}
        if s.flag_kind == "switch":
            parser.add_argument(s.flag, action="store_const", const=True, **kw)
            continue
        if s.flag_kind == "append":
            kw["action"] = "append"
            kw["default"] = None  # argparse appends to a copy of the default: None is "unset"
        if s.metavar:
            kw["metavar"] = s.metavar
        if s.name == "format" and command in FORMATS:
            kw["metavar"] = "{" + ",".join(FORMATS[command]) + "}"
        elif s.choices:
            kw["metavar"] = "{" + ",".join(s.choices) + "}"
        parser.add_argument(s.flag, **kw)


def _env_list(raw: str) -> list[str]:
    """A repeatable option's values in one environment variable: comma-separated, or one per
    line when the variable holds a line break (so a value may hold commas: a `--stub` result,
    an `--input` sentence)."""
    return [v for v in (raw.splitlines() if "\n" in raw else raw.split(",")) if v]


def resolve(command: str, given: argparse.Namespace | Mapping[str, Any], *,
            env: Mapping[str, str] | None = None, project: Mapping[str, Any] | None = None,
            where: str = "pyproject.toml") -> "Config":
    """`command`'s configuration: every setting from flag > environment > file > default,
    checked, and the values several layers read parsed once (`Config`). `given` holds what the
    user gave (the parsed flags, or the API's keywords), UNSET (or None for a repeatable one)
    where nothing was; it also carries the command's positionals."""
    env = os.environ if env is None else env
    if project is None:
        project, where = project_settings(command)
    given = vars(given) if isinstance(given, argparse.Namespace) else dict(given)
    values: dict[str, Any] = {name: given.get(name) for name in POSITIONALS.get(command, ())}
    defaulted: set[str] = set()
    for s in settings_of(command):
        parse = _parser_for(s, command)
        many = s.flag_kind == "append"
        value = given.get(s.name, UNSET)
        if many and value is None:
            value = UNSET
        if value is not UNSET:
            value = _check(parse, value, s.flag, many=many)
        elif s.env in env:
            raw = env[s.env]
            value = _check(parse, _env_list(raw) if many else raw, s.env, many=many)
        elif s.key in project:
            raw = project[s.key]
            if many and not isinstance(raw, list):
                raise MasfuzzError(f"{where} [tool.masfuzz] {s.key}: expected a list")
            value = _check(parse, raw, f"{where} [tool.masfuzz] {s.key}", many=many)
        else:
            value = s.default_for(command)
            # a default is written as the user would write it (`"C1,C2,C3,C4"`): parsed the same
            value = _check(parse, value, s.flag, many=many) if value is not None else None
            defaulted.add(s.name)
        values[s.name] = tuple(value) if many else value
    _sized_for_the_model(command, values, defaulted)
    _sized_for_the_workers(values, defaulted)
    return _configured(command, values)


# The embedded models answer in seconds to minutes per call on a small machine. Limits sized for
# a hosted model would end most of their runs, and a run ended by masfuzz's own limit is the
# harness's finding, not the app's: left to their defaults, the limits grow with such a model.
SLOW_MODEL = "local/"
SLOW_MODEL_LIMITS = {"timeout": 900.0, "model_timeout": 600.0, "mutant_timeout_const": 300.0}


def executes(command: str) -> bool:
    """Whether `command` runs the system under test (`run`: through its cover and fuzz parts)."""
    return command in RUNS or any(part in RUNS for part in COMBINED.get(command, ()))


def _sized_for_the_model(command: str, values: dict[str, Any], defaulted: set[str]) -> None:
    def slow(name: str) -> bool:
        return str(values.get(name) or "").startswith(SLOW_MODEL)

    if "timeout" in defaulted and executes(command) and slow("sut_model"):
        values["timeout"] = SLOW_MODEL_LIMITS["timeout"]
    if "mutant_timeout_const" in defaulted and slow("sut_model"):
        values["mutant_timeout_const"] = SLOW_MODEL_LIMITS["mutant_timeout_const"]
    if "workers" in defaulted and slow("sut_model"):  # one embedded model per worker: no room
        values["workers"] = 1
    if "model_timeout" in defaulted and (slow("sut_model") or slow("model")):
        values["model_timeout"] = SLOW_MODEL_LIMITS["model_timeout"]


def _sized_for_the_workers(values: dict[str, Any], defaulted: set[str]) -> None:
    """Left to their defaults, the limits that would idle many workers grow with them: a model
    call at once per worker (the work waits on the models), and FLARE's batches twice the
    workers (a batch lasts as long as its slowest run: small ones leave workers idle)."""
    workers = values.get("workers")
    if not isinstance(workers, int):
        return
    if "max_connections" in defaulted and "max_connections" in values:
        values["max_connections"] = max(values["max_connections"], workers)
    if "batch" in defaulted and "batch" in values:
        values["batch"] = max(values["batch"], 2 * workers)


def _parser_for(s: Setting, command: str) -> Parser:
    if s.name == "format" and command in FORMATS:
        return choice(*FORMATS[command])
    return s.parse


def _check(parse: Parser, value: Any, origin: str, *, many: bool = False) -> Any:
    try:
        return [parse(v) for v in value] if many else parse(value)
    except ValueError as exc:
        raise MasfuzzError(f"{origin}: {exc}") from None


def project_settings(command: str, start: Path | None = None) -> tuple[dict[str, Any], str]:
    """`[tool.masfuzz]` of the nearest pyproject.toml, with `[tool.masfuzz.COMMAND]` over it."""
    path = find_pyproject(start or Path.cwd())
    if path is None:
        return {}, "pyproject.toml"
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise MasfuzzError(f"{path}: not readable TOML ({str(exc).splitlines()[0]})") from None
    section = (data.get("tool") or {}).get("masfuzz") or {}
    if not isinstance(section, dict):
        raise MasfuzzError(f"{path}: [tool.masfuzz] must be a table")
    commands = {c for s in TABLE for c in s.commands}
    keys = {s.key for s in TABLE}
    for key, value in section.items():
        if key in commands and isinstance(value, dict):
            for sub in value:
                if sub not in keys:
                    raise MasfuzzError(f"{path} [tool.masfuzz.{key}] {sub}: no such setting")
        elif key not in keys:
            raise MasfuzzError(f"{path} [tool.masfuzz] {key}: no such setting")
    merged = {k: v for k, v in section.items() if not isinstance(v, dict)}
    table = section.get(command)  # `report` is a command and a setting: tables are the command's
    merged.update(table if isinstance(table, dict) else {})
    return merged, str(path)


def find_pyproject(start: Path) -> Path | None:
    for folder in (start.resolve(), *start.resolve().parents):
        candidate = folder / "pyproject.toml"
        with contextlib.suppress(OSError):  # a folder above this user may not search: none there
            if candidate.is_file():
                return candidate
    return None


# The Python API's positionals (the CLI's own arguments, not settings), in the order its
# functions take them: what a command's function needs before any option.
POSITIONALS: dict[str, tuple[str, ...]] = {
    "inspect": ("target",), "cover": ("target",), "tools": ("target",), "fuzz": ("target",),
    "run": ("target",), "mutate": ("target",), "exec": ("target", "input"),
    "replay": ("suite", "target"), "judge": ("target",), "models": ("model",)}


def api_values(command: str, keywords: Mapping[str, Any]) -> dict[str, Any]:
    """The Python API's keywords as `resolve` takes what the user gave: keywords in place of
    flags and positionals, checked the same way (a number may be given as a number, a list as
    a list); a keyword that is no setting of the command is one clear error."""
    given: dict[str, Any] = {}
    keywords = dict(keywords)
    for name in POSITIONALS.get(command, ()):
        value = keywords.pop(name, None)
        given[name] = None if value is None else str(value)
    known = {s.name for s in settings_of(command)}
    for key, value in keywords.items():
        if key not in known:
            close = difflib.get_close_matches(key, sorted(known), n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise MasfuzzError(f"masfuzz.api.{command}: no option {key!r}{hint}")
        setting = BY_NAME[key]
        if setting.flag_kind == "append" and isinstance(value, str):
            value = [value]
        if setting.flag_kind != "append" and not isinstance(value, (str, bool)) and value is not None:
            value = str(value) if not isinstance(value, (list, tuple)) else ",".join(map(str, value))
        given[key] = value if value is not None else UNSET
    return given


def configure(command: str, **keywords: Any) -> "Config":
    """The Python API's configuration of `command`: its keywords resolved like flags."""
    return resolve(command, api_values(command, keywords))


# -- the resolved configuration ----------------------------------------------------------------
@dataclass(frozen=True)
class Config:
    """A command's resolved configuration: what every layer below the API reads, in place of
    the command line. Each command has its own subclass (`config_class`), one field per
    setting of the command (a repeatable one a tuple) and per positional (`target`, ...),
    typed by the setting's parser; a setting of another command is no attribute of it.

    The fields here are the ones parsed once from several settings, and the settings the
    shared layers read whatever the command (the sandbox, the surroundings, the store): a
    command without such a setting has it at the value that means "not given"."""

    command: str = ""
    # --stub TOOL=RESULT (a file's text for TOOL=@FILE), read once
    stubs: Mapping[str, str] = field(default_factory=dict)
    # --coordinator and --link, as the value a target carries (None: neither given)
    orchestration: Any = None  # masfuzz.adapters.orchestration.Orchestration | None
    # model-call settings (`masfuzz.llm.settings.ModelSettings`), unchecked: `model_settings`
    models: Any = None
    # settings that shared layers read whatever the command
    context: str | None = None
    run_code: bool = False
    store: str | None = None
    cache: str | None = None
    executor: str | None = None
    unsafe_no_sandbox: bool = False
    bind: tuple[str, ...] = ()
    allow_net: tuple[str, ...] = ()
    pass_env: tuple[str, ...] = ()
    secret_env: tuple[str, ...] = ()
    sandbox_memory: int | None = None
    sandbox_processes: int | None = None
    sandbox_cpu: int | None = None
    sandbox_disk: int | None = None

    def replace(self, **changes: Any) -> "Config":
        """A copy with some values changed (the configuration itself never changes)."""
        return dataclasses.replace(self, **changes)


# Settings whose field holds more than their own parsed value: `budget` is the tighter of the
# --budget spec and the --budget-* options (`masfuzz.campaign.budget.Budget`).
PARSED_TYPES = {"budget": "Budget"}
_CLASSES: dict[str, type[Config]] = {}


def config_class(command: str) -> type[Config]:
    """The frozen dataclass of `command`'s configuration, made from the option table."""
    if command not in _CLASSES:
        base = {f.name for f in dataclasses.fields(Config)}
        own = [(name, "str | None", field(default=None))
               for name in POSITIONALS.get(command, ()) if name not in BY_NAME or
               not BY_NAME[name].applies_to(command)]
        own += [(s.name, _type_of(s, command), field(default=None)) for s in settings_of(command)
                if s.name not in base]
        _CLASSES[command] = dataclasses.make_dataclass(
            command.title() + "Config", own, bases=(Config,), frozen=True,
            namespace={"__doc__": f"The resolved configuration of `masfuzz {command}`."})
    return _CLASSES[command]


def _type_of(s: Setting, command: str) -> str:
    """A setting's type, as its parser says it (`-> int`), a tuple of them when repeatable."""
    if s.name in PARSED_TYPES:
        return PARSED_TYPES[s.name]
    returns = getattr(_parser_for(s, command), "__annotations__", {}).get("return", "Any")
    returns = returns if isinstance(returns, str) else getattr(returns, "__name__", "Any")
    if s.flag_kind == "append":
        return f"tuple[{returns}, ...]"
    return returns if s.flag_kind == "switch" else f"{returns} | None"


def _configured(command: str, values: dict[str, Any]) -> Config:
    """The `Config` of resolved values, with the values parsed from several settings."""
    from masfuzz.adapters.orchestration import Orchestration
    from masfuzz.scenario import parse_stubs

    derived: dict[str, Any] = {"command": command}
    derived["stubs"] = parse_stubs(values.get("stub", ()))
    orchestration = Orchestration.parse(values.get("coordinator"), values.get("link", ()))
    derived["orchestration"] = orchestration or None
    if "budget" in values:  # the campaigns': one budget of the spec and the --budget-* options
        values = {**values, "budget": _budget(values)}
    if "cache" in values:
        from masfuzz.llm.settings import ModelSettings

        derived["models"] = ModelSettings(
            cache=None if values["no_cache"] else values["cache"], timeout=values["model_timeout"],
            retries=values["retries"], api_key_env=values["api_key_env"] or None,
            max_connections=values["max_connections"])
    return config_class(command)(**derived, **values)


def _budget(values: Mapping[str, Any]) -> Any:
    """`--budget 10m,200x` and the --budget-* options: the tighter of each wins."""
    from masfuzz.campaign.budget import Budget

    spec = values.get("budget") or {}

    def least(name: str) -> Any:
        given = [v for v in (values.get(name), spec.get(name)) if v is not None]
        return min(given) if given else None

    return Budget(wall_time=least("budget_time"), executions=least("budget_executions"),
                  model_calls=least("budget_model_calls"))


def as_run(config: Config) -> Config:
    """A `cover` or `fuzz` configuration as the `run` it is a preset of (its command's name
    kept, so its runs stay its own): the settings `run` has and the preset does not take their
    defaults for the preset's command (`phases`, `resume`: the presets' rows), parsed as a
    default is; `run`'s own configuration as it is."""
    if config.command not in COMBINED["run"]:
        return config
    values = {f.name: getattr(config, f.name) for f in dataclasses.fields(config)}
    for f in dataclasses.fields(config_class("run")):
        if f.name in values or f.name not in BY_NAME:
            continue
        s = BY_NAME[f.name]
        default, many = s.default_for(config.command), s.flag_kind == "append"
        value = _check(_parser_for(s, "run"), default, s.flag, many=many) if default is not None else None
        values[f.name] = tuple(value) if many else value
    return config_class("run")(**values)


def model_settings(config: Config) -> Any:
    """The command's model-call settings, checked now (as the value every executor and worker
    receives, `masfuzz.llm.settings.ModelSettings`): a named key variable that is not set, or
    a cache file that cannot be used, is bad input."""
    settings = config.models
    settings.api_key()
    settings.open_cache()
    return settings
