"""Speed and size of the embedded models on this machine.

For each local model: load time, prompt tokens/s, generated tokens/s, latency of one tool-call
request (the one `masfuzz models check` sends) and peak memory. Each model is measured in its
own subprocess so peak memory is that model's alone.

    .venv/bin/python bench/bench_local_models.py
"""

from __future__ import annotations

import asyncio
import json
import resource
import subprocess
import sys
import time

MODELS = ("gemma-3-270m", "smollm2-135m")
PROMPT = " ".join(
    f"Passenger {i} asked to move booking ABC{i:03d} to seat {i % 30 + 1}{'ABCDEF'[i % 6]}." for i in range(40)
)


def measure(name: str) -> dict:
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


def main() -> int:
    if len(sys.argv) == 3 and sys.argv[1] == "--one":
        print(json.dumps(measure(sys.argv[2])))
        return 0
    rows = []
    for name in MODELS:
        proc = subprocess.run([sys.executable, __file__, "--one", name], capture_output=True, text=True)
        if proc.returncode != 0:
            print(f"local/{name}: failed: {proc.stderr.strip().splitlines()[-1:]}", file=sys.stderr)
            return 1
        rows.append(json.loads(proc.stdout.strip().splitlines()[-1]))
    header = f"{'model':<20} {'load':>7} {'prompt tok/s':>13} {'gen tok/s':>10} {'tool call':>10} {'peak MB':>8}"
    print(header)
    print("-" * len(header))
    for r in rows:
        print(
            f"{r['model']:<20} {r['load_s']:>6.2f}s {r['prompt_tok_s']:>13.0f} {r['gen_tok_s']:>10.1f}"
            f" {r['tool_call_s']:>9.2f}s {r['peak_mb']:>8.0f}"
        )
    for r in rows:
        print(f"{r['model']}: tool call -> {r['tool_call']}")
    from summary import record

    for r in rows:  # times of this machine (its cores are in the summary's last line)
        record(f"local model {r['model']}: generated tokens/s", r["gen_tok_s"], "", None, unit=" tok/s")
        record(f"local model {r['model']}: one tool-call request", r["tool_call_s"], "", None, unit=" s")
        record(f"local model {r['model']}: peak memory", r["peak_mb"], "", None, unit=" MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
