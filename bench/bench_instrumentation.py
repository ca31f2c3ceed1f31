"""Instrumentation overhead of the Agents SDK adapter: instrumented ÷ plain wall time.

The same scripted scenarios run twice on the shipped customer-service example: plainly
(`Runner.run` with the scripted model bridged in, tracing to no processor, no tool patching)
and through `masfuzz`'s adapter (tracing processor, input filter, tool copies, probe stubs).
Both sides use the same model bridge, so the ratio isolates what recording a trace costs.
Target: <= 1.05.

    .venv/bin/python bench/bench_instrumentation.py [--repeat 30]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
APP = "examples/customer_service/app.py:triage_agent"
POLICY = "scripted/examples/customer_service/policy.py:policy"
INPUTS = [
    "How much luggage can I bring? Also change my seat to 3A, booking XYZ789",
    "Please change my seat to 14C, confirmation ABC123",
    "Is there wifi on board?",
]


async def plain_run(sut, text: str) -> None:
    """The SDK as an app runs it (tracing on, its default), the scripted model behind the same
    bridge, but nothing recorded: no processor run, no tool copies, no stubs."""
    import agents

    from masfuzz.adapters.openai_agents.bridge import make_model
    from masfuzz.adapters.openai_agents.recording import CURRENT_AGENT, RunRecording, dispatch
    from masfuzz.llm.settings import sut_client
    from masfuzz.scenario import Scenario
    from masfuzz.trace import TraceRecorder

    dispatch()  # the same processor list as the instrumented side (spans of no run: ignored)
    adapter = sut.runner()
    w = adapter._walks[id(sut.obj)]
    rec = RunRecording(recorder=TraceRecorder(), spec=sut.spec, walk=w, restricted="off")

    def who(data):  # the model must still know its agent to answer
        CURRENT_AGENT.set(w.ids.get(id(data.agent)))
        return data.model_data

    config = agents.RunConfig(model=make_model(rec, Scenario(input=text, sut_model=POLICY),
                                               sut_client),
                              call_model_input_filter=who)
    await agents.Runner.run(sut.obj, text, run_config=config)


async def instrumented_run(sut, text: str) -> None:
    from masfuzz.scenario import Scenario

    # Same agents as the plain side: no probe stubs (probe mode offers extra tools, which is a
    # different system for the SDK to run, not a recording cost).
    await sut.runner().run(sut.obj, sut.spec,
                           Scenario(input=text, sut_model=POLICY, restricted="off"))


def one_round(fn, sut) -> float:
    async def all_runs() -> None:
        for text in INPUTS:
            await fn(sut, text)

    t0 = time.perf_counter()
    asyncio.run(all_runs())
    return time.perf_counter() - t0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=60)
    args = parser.parse_args()
    os.chdir(ROOT)
    sys.path.insert(0, str(ROOT / "src"))
    from masfuzz.target import open_target

    sut = open_target(APP)
    for _ in range(3):  # warm up imports and caches on both paths
        one_round(plain_run, sut), one_round(instrumented_run, sut)
    plain, inst = [], []
    for i in range(args.repeat):  # alternate, so machine noise falls on both sides alike
        order = (plain_run, instrumented_run) if i % 2 == 0 else (instrumented_run, plain_run)
        for fn in order:
            (plain if fn is plain_run else inst).append(one_round(fn, sut))
    p_med, i_med = statistics.median(plain), statistics.median(inst)
    print(f"rounds {args.repeat} x {len(INPUTS)} scenarios, alternating plain / instrumented")
    print(f"plain        median {p_med * 1000:8.2f} ms   best {min(plain) * 1000:8.2f} ms")
    print(f"instrumented median {i_med * 1000:8.2f} ms   best {min(inst) * 1000:8.2f} ms")
    print(f"instrumented / plain   {i_med / p_med:.3f} (medians)   "
          f"{min(inst) / min(plain):.3f} (best)   target <= 1.05")
    from summary import record

    record("instrumented / plain execution time", i_med / p_med, "<= 1.05", i_med / p_med <= 1.05,
           note="medians")
    return 0


if __name__ == "__main__":
    sys.exit(main())
