"""Loop, PydanticAI (tools registered with `@agent.tool_plain`, the run bounded by PydanticAI's own
request limit): a silversmith's commission collections. `bench_s` tells customers whether their
ring is ready to collect, from the engraver's job book through `ring_status`; the book is written
by the engraving machine, which keys each job by its bare number ("4417").

Seeded: ring_status looks a job up exactly as the customer quotes it from their receipt
("RS-4417") and reads a job it cannot find as still on the bench: the ring is "on the bench" for
ever, and bench_s, told to check until it says READY, checks again and again until the run's
bound.
Fixed: ring_status looks the job up by its number, as the machine writes it, and answers a job
the book does not hold as not found (404) instead of "on the bench": an unknown reference (a
mistyped receipt, the documentation's own "RS-1000") would otherwise send bench_s round the same
"until it says READY" loop in the fixed twin too (both twins' bench_s is told what to do with a
404; the seeded lookup never answers one).
"""

from __future__ import annotations

import re

from pydantic_ai import Agent

from .models import pydantic_ai_model

JOB_BOOK = {"4417": {"piece": "silver stacking ring, hammered, size N", "stage": "READY",
                     "engraving": "'always' inside the band"}}


def as_typed(ref: str) -> str:
    return ref.strip()


def by_number(ref: str) -> str:
    found = re.search(r"\d+", ref)
    return found.group(0) if found else ref.strip()


def build(key, missing) -> Agent:
    agent = Agent(pydantic_ai_model(), name="bench_s",
                  instructions="You are bench_s at Nant Silver, a silversmith's workshop in Machynlleth.\n"
                               "If ring_status answers 404, tell the customer what it said.\n"
                               "Check the ring with ring_status until it says READY.\n"
                               'If ring_status fails, say "The job book is not answering, so I cannot tell you yet."\n'
                               'If ring_status says READY, say "Your ring is polished and boxed - pop in any '
                               'day from ten and it is yours."')

    @agent.tool_plain
    def ring_status(ref: str) -> dict:
        """Where a commissioned piece is in the workshop: on the bench, at the engraver, or READY to collect.

        Args:
            ref: The commission reference on the customer's receipt, e.g. "RS-1000".
        """
        job = JOB_BOOK.get(key(ref))
        if job is None:
            return missing(ref)
        return {"ref": ref, **job}

    return agent


def still_on_the_bench(ref: str) -> dict:
    return {"ref": ref, "stage": "on the bench"}  # the machine has not logged the job yet: still being made


def not_found(ref: str) -> dict:
    return {"status": 404, "detail": f"no commission {ref} in the job book"}


def seeded():
    return build(as_typed, still_on_the_bench)


def fixed():
    return build(by_number, not_found)
