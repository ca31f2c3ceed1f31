"""The realizer's replies from each embedded model, printed for reading, with the off-task screen's verdict.

For every objective bundle of the customer-service desk (examples/customer_service), the native
realizer's request is sent to each embedded model with a different seed each time, until
`--replies` replies per model; each reply is printed with its objective's goal line and
`off_task`'s verdict (the screen that keeps a reply from costing an execution). The screen is a
floor, not the judgement: a reply that shares one word with the objective passes it while asking
for something else. Read the replies and count those a user with this goal could have sent
(docs/local-model.md says how the figures there were judged).

    .venv/bin/python bench/bench_realizer.py [--replies 20] [--model local/NAME ...]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MODELS = ("local/gemma-3-270m", "local/smollm2-135m")
TARGET = "examples/customer_service/app.py:triage_agent"


async def replies(model: str, count: int) -> list[tuple[str, str, str, str | None, float]]:
    """(family, goal line, reply, off_task verdict, seconds) for `count` realizer calls, the
    objectives taken in turn."""
    from masfuzz import api
    from masfuzz.generate.leaks import forbidden_identifiers
    from masfuzz.generate.realizer import NativeRealizer, _user_request, goal, lift_inputs, off_task
    from masfuzz.graph.objectives import plan
    from masfuzz.llm import get_client

    spec = api.inspect(TARGET)
    graph, _objectives, bundles = plan(spec)
    forbidden = forbidden_identifiers(spec)
    objectives = [lift_inputs(b, spec, graph, forbidden) for b in bundles]
    realizer = NativeRealizer(get_client(model), seed=0)
    out = []
    for i in range(count):
        inputs = objectives[i % len(objectives)]
        request = realizer.request(inputs, [], retry=i // len(objectives))  # a seed per round
        start = time.perf_counter()
        reply = await realizer.client.complete(request)
        text = _user_request(reply.text or "")
        out.append((inputs.family, goal(inputs), text, off_task(text, inputs), time.perf_counter() - start))
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--replies", type=int, default=20, help="replies per model")
    parser.add_argument("--model", action="append", help="a model (default: both embedded ones)")
    args = parser.parse_args()
    os.chdir(ROOT)
    for model in args.model or MODELS:
        rows = asyncio.run(replies(model, args.replies))
        print(f"== {model}: {len(rows)} replies, {sum(r[4] for r in rows) / len(rows):.1f} s a call, "
              f"{sum(r[3] is None for r in rows)} pass the off-task screen")
        for n, (family, goal_line, text, verdict, _s) in enumerate(rows, 1):
            print(f"{n:>2}. [{family}] {goal_line[:90]}")
            print(f"    -> {text!r}" + (f"  (screen: {verdict})" if verdict else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
