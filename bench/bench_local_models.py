"""The embedded models on the demo's workload, and their raw speed, on this machine.

The workload is what docs/cover.md's last example does (no model string): the
customer-service desk (examples/customer_service, three agents, two tools) covered with
`local/gemma-3-270m` as both the tester and the system under test, within a small budget of
executions. For it, the bench prints:

- calls per minute: embedded-model calls (tester and app) per minute of wall time;
- parse rate: the share of generation attempts whose output masfuzz could use (a tool call or
  a JSON reply valid for its schema, a text reply), and the share of calls that ended without
  one after all their attempts (`finish_reason="error"`);
- executions per minute: scenarios run on the app per minute of wall time.

Then, per model: load time, prompt and generated tokens/s, one tool-call request's latency, and
peak memory. Each measurement runs in its own subprocess (its own model load, its own peak).

    .venv/bin/python bench/bench_local_models.py [--executions N] [--model local/NAME] [--no-speed]
        [--against CHECKOUT]   # another commit's code beside this one's, at the same load
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import io
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MODELS = ("gemma-3-270m", "smollm2-135m")
DEFAULT_EXECUTIONS = 3  # a few minutes on two cores (half an hour when six others test too)
PROMPT = " ".join(
    f"Passenger {i} asked to move booking ABC{i:03d} to seat {i % 30 + 1}{'ABCDEF'[i % 6]}." for i in range(40)
)


def workload(model: str, executions: int, root: Path = ROOT, restore: bool = True) -> dict:
    """`masfuzz cover` on the customer-service desk with `model` in both roles, counting every
    generation attempt of the embedded model and whether masfuzz could use what it wrote. `root`
    is the checkout whose code and example run (another commit's, for --against); without
    `restore`, no kept prompt-prefix state is restored (what they change, apart from the code)."""
    sys.path.insert(0, str(root / "src"))
    import llama_cpp

    from masfuzz.cli import main
    from masfuzz.llm import local

    counts = {"calls": 0, "errors": 0, "attempts": 0, "parsed": 0, "prompt_tokens": 0,
              "tester_calls": 0, "app_calls": 0, "sequence": []}

    def counted(name):
        original = getattr(local.LocalClient, name)

        def attempt(self, *args, **kwargs):
            text, usage, result = original(self, *args, **kwargs)
            counts["attempts"] += 1
            counts["prompt_tokens"] += int(usage.get("prompt_tokens", 0))
            counts["parsed"] += not isinstance(result, str)  # a str says why it was unusable
            return text, usage, result

        setattr(local.LocalClient, name, attempt)

    for name in ("_tool_attempt", "_text_attempt"):
        counted(name)
    whole = local.LocalClient._complete

    def call(self, *args, **kwargs):
        reply = whole(self, *args, **kwargs)
        counts["calls"] += 1
        request = args[1]  # (engine, request, deadline)
        counts["tester_calls" if request.role == "tester" else "app_calls"] += 1
        # who asked and what came: the app's calls an execution, agent by agent
        said = ",".join(c.name for c in reply.tool_calls) or reply.finish_reason
        counts["sequence"].append("tester" if request.role == "tester" else f"{request.agent}>{said}")
        counts["errors"] += reply.finish_reason == "error"
        return reply

    local.LocalClient._complete = call
    if not restore:
        from masfuzz.llm import local_prefix

        local_prefix.PrefixStates.best = lambda self, tokens, live: None
    os.chdir(root)
    with tempfile.TemporaryDirectory() as tmp:
        eng = local.engine(model.split("/", 1)[1])  # loaded before the clock starts, as in a campaign
        llama_cpp.llama_perf_context_reset(eng.llama.ctx)
        load = os.getloadavg()[0]  # the machine's state beside the figures: at the start and end
        out = io.StringIO()
        start = time.perf_counter()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
            code = main(["cover", "examples/customer_service/app.py:triage_agent", "--model", model,
                         "--sut-model", model, "--no-cache", "--store", f"{tmp}/runs.db",
                         "--suite", f"{tmp}/suite.yaml", "--budget-executions", str(executions),
                         "--attempts", "2",
                         "--faults", "none", "--seed", "0", "--format", "json", "--progress", "off",
                         # in this process, so that every model call is counted here (a worker
                         # process would load its own copy of the model and count apart)
                         "--executor", "inprocess"])
        wall = time.perf_counter() - start
    perf = llama_cpp.llama_perf_context(eng.llama.ctx)
    prefixes = getattr(eng, "prefixes", None)  # the prompt-prefix states (absent before them)
    report = json.loads(out.getvalue()) if code in (0, 1) else {}
    total = report.get("coverage", {}).get("total", {})
    return {"model": model, "root": str(root), "restore": restore, "exit": code, "wall_s": wall, **counts,
            # prompt tokens the model read anew, of those the calls sent: the rest came from the
            # context or a restored prefix state
            "prompt_evaluated": perf.n_p_eval, "prompt_eval_s": perf.t_p_eval_ms / 1000,
            "generated": perf.n_eval, "generation_s": perf.t_eval_ms / 1000,
            "restores": prefixes.restores if prefixes else 0,
            # executions run now, not those a resumed run found in its store
            "executions": (report.get("generation", {}).get("executions") or {}).get("run", 0),
            "covered": f"{total.get('covered', 0)}/{total.get('total', 0)}",
            "load": f"{load:.1f}-{os.getloadavg()[0]:.1f}"}


def speed(name: str) -> dict:
    from masfuzz.cli.models_cmd import CHECK_REQUEST
    from masfuzz.llm import get_client
    from masfuzz.llm.local import engine
    from masfuzz.llm.local_weights import weights_path

    weights_path(name)  # assembling Gemma once is not loading
    start = time.perf_counter()
    eng = engine(name)
    load = time.perf_counter() - start
    llama = eng.llama

    llama.reset()
    start = time.perf_counter()
    out = llama.create_completion(PROMPT, max_tokens=1, temperature=0.0)
    prompt_time = time.perf_counter() - start
    prompt_tokens = out["usage"]["prompt_tokens"]

    llama.reset()
    start = time.perf_counter()
    out = llama.create_completion("Once upon a time", max_tokens=64, temperature=0.0)
    gen_time = time.perf_counter() - start
    generated = out["usage"]["completion_tokens"]
    gen_time -= out["usage"]["prompt_tokens"] / (prompt_tokens / prompt_time)

    client = get_client(f"local/{name}")
    reply = asyncio.run(client.complete(CHECK_REQUEST))
    call = reply.tool_calls[0] if reply.tool_calls else None
    return {
        "model": f"local/{name}",
        "load_s": load,
        "prompt_tok_s": prompt_tokens / prompt_time,
        "gen_tok_s": generated / gen_time,
        "tool_call_s": reply.latency,
        "tool_call": f"{call.name}({json.dumps(call.arguments)})" if call else f"none ({reply.finish_reason})",
        "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    }


def _child(*argv: str) -> dict:
    return _answer(_start(*argv))


def _start(*argv: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, __file__, *argv], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def _answer(proc: subprocess.Popen) -> dict:
    out, err = proc.communicate()
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(proc.args[2:])}: failed: {err.strip().splitlines()[-1:]}")
    return json.loads(out.strip().splitlines()[-1])


def _print_workload(w: dict, label: str, verbose: bool) -> None:
    minutes = w["wall_s"] / 60
    print(f"workload{label}: cover examples/customer_service (tester and app: {w['model']}), "
          f"{w['executions']} executions, {w['wall_s']:.0f} s, obligations covered {w['covered']}")
    print(f"  calls per minute:      {w['calls'] / minutes:.1f}  ({w['calls']} calls: "
          f"{w['tester_calls']} tester, {w['app_calls']} app)")
    print(f"  parse rate:            {w['parsed'] / max(w['attempts'], 1):.0%} of attempts "
          f"({w['parsed']}/{w['attempts']}); {w['errors']} call(s) unusable after all attempts")
    print(f"  executions per minute: {w['executions'] / minutes:.2f}  "
          f"({w['app_calls'] / max(w['executions'], 1):.1f} app calls an execution)")
    print(f"  prompt tokens read:    {w['prompt_evaluated']} of {w['prompt_tokens']} sent "
          f"({w['prompt_eval_s']:.0f} s; {w['restores']} prefix state(s) restored); "
          f"{w['generated']} tokens generated ({w['generation_s']:.0f} s); load average {w['load']}")
    if verbose:  # the calls in order: the tester's, and each agent's with the tool it called
        print("  calls: " + " ".join(w["sequence"]))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--executions", type=int, default=DEFAULT_EXECUTIONS)
    parser.add_argument("--model", default="local/gemma-3-270m", help="the workload's model")
    parser.add_argument("--no-speed", action="store_true", help="the workload only")
    parser.add_argument("--against", metavar="CHECKOUT", type=Path,
                        help="also run the workload with another checkout's code (its src/ and "
                             "example), at the same time, so that both see the same load")
    parser.add_argument("--no-prefix", action="store_true",
                        help="--against's run restores no kept prompt-prefix state")
    parser.add_argument("--calls", action="store_true", help="print the workload's calls in order")
    parser.add_argument("--one", help=argparse.SUPPRESS)
    parser.add_argument("--workload", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--root", type=Path, default=ROOT, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.workload:
        print(json.dumps(workload(args.model, args.executions, args.root.resolve(), not args.no_prefix)))
        return 0
    if args.one:
        print(json.dumps(speed(args.one)))
        return 0

    argv = ("--workload", "--model", args.model, "--executions", str(args.executions))
    other = _start(*argv, "--root", str(args.against), *(["--no-prefix"] if args.no_prefix else [])) \
        if args.against else None
    w = _child(*argv)
    if other is not None:
        _print_workload(_answer(other), f" of {args.against}" + (" without prefix states" if args.no_prefix else ""),
                        args.calls)
    _print_workload(w, "", args.calls)
    minutes = w["wall_s"] / 60
    from summary import record

    record(f"demo workload {w['model']}: calls per minute", w["calls"] / minutes, "", None, unit="/min")
    record(f"demo workload {w['model']}: parse rate", 100 * w["parsed"] / max(w["attempts"], 1), "", None,
           unit="%")
    record(f"demo workload {w['model']}: executions per minute", w["executions"] / minutes, "", None,
           unit="/min")
    if args.no_speed:
        return 0

    rows = [_child("--one", name) for name in MODELS]
    header = f"{'model':<20} {'load':>7} {'prompt tok/s':>13} {'gen tok/s':>10} {'tool call':>10} {'peak MB':>8}"
    print()
    print(header)
    print("-" * len(header))
    for r in rows:
        print(
            f"{r['model']:<20} {r['load_s']:>6.2f}s {r['prompt_tok_s']:>13.0f} {r['gen_tok_s']:>10.1f}"
            f" {r['tool_call_s']:>9.2f}s {r['peak_mb']:>8.0f}"
        )
    for r in rows:
        print(f"{r['model']}: tool call -> {r['tool_call']}")
    for r in rows:  # times of this machine (its cores are in the summary's last line)
        record(f"local model {r['model']}: generated tokens/s", r["gen_tok_s"], "", None, unit=" tok/s")
        record(f"local model {r['model']}: one tool-call request", r["tool_call_s"], "", None, unit=" s")
        record(f"local model {r['model']}: peak memory", r["peak_mb"], "", None, unit=" MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
