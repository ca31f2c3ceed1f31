"""One tool's whole model-driven pipeline on a real model: sanity checks, user requests from the
crashing arguments, confirmation through the agent, correctness sets and the documentation fix,
with what the tester and the agent spent on it (calls, tokens, model time, cost).

By default the embedded model, offline (slow: tens of minutes on two cores); `--model` takes any
model string, e.g. an OpenAI-compatible endpoint on loopback serving an embedded model's GGUF
file (`python -m llama_cpp.server --model FILE --chat_format chatml-function-calling --port 8000`,
then `--model openai-compatible/smollm2@http://127.0.0.1:8000/v1`; not part of `make bench`'s
defaults). No response cache: every call is made.

    .venv/bin/python bench/bench_toolfuzz_models.py [--model M] [--tool FILE.py:NAME] [--calls N]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from summary import record  # noqa: E402

from masfuzz.api import tools  # noqa: E402
from masfuzz.report.tools import tools_text  # noqa: E402

EXAMPLES = Path(__file__).resolve().parents[1] / "examples" / "tools"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--model", default="local/gemma-3-270m", help="the tester's and the agent's model")
    ap.add_argument("--tool", default=f"{EXAMPLES}/map_search.py:open_street_map_search")
    ap.add_argument("--calls", type=int, default=30)
    args = ap.parse_args()
    start = time.perf_counter()
    data = tools(args.tool, calls=args.calls, seed=0, model=args.model, sut_model=args.model,
                 correctness=True, fix_docs=True, no_cache=True, store=":memory:")
    seconds = time.perf_counter() - start
    print(tools_text(data), end="")
    (t,) = data["tools"]
    kind = args.model.split("/")[0]
    for who, u in t["models"].items():
        record(f"tools pipeline, {kind}: {who} model calls", u["calls"], "", None,
               note=f"{u['tokens_in']} tokens in, {u['tokens_out']} out, {u['seconds']:.0f} s")
        record(f"tools pipeline, {kind}: {who} cost", "unknown" if u["cost"] is None else u["cost"],
               "", None, unit="" if u["cost"] is None else " USD")
    record(f"tools pipeline, {kind}: time of one tool", round(seconds, 1), "", None, unit=" s",
           note=f"{t['fuzz_seconds']:.0f} s fuzzing; {args.calls} calls; {args.model}")


if __name__ == "__main__":
    main()
