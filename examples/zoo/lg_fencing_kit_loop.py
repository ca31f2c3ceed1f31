"""Loop, LangGraph (langgraph-supervisor, a prebuilt ReAct agent whose tool node runs code): a
fencing club's beginners' course. The supervisor `salle` hands joining requests to `piste_p`,
who works the pro-rata course fee out in a Python snippet (`run_python` runs it in a subprocess,
in a scratch folder), then checks the member's hired kit with `kit_status` until the armoury says
READY.

Seeded: `kit_status` is wrapped in `functools.lru_cache` to spare the armoury's slow ledger, so
the first answer ("being fitted") is given back for ever: piste_p asks about the same order to
the recursion limit. Fixed: the status is read afresh each time.
"""

from __future__ import annotations

import functools

from langchain_core.tools import tool
from langgraph.prebuilt import create_react_agent
from langgraph_supervisor import create_supervisor

from .models import chat_model
from .scratch import run_snippet


class Armoury:
    """The kit ledger: a hired kit moves on a step each time the armoury is asked about it."""

    STEPS = ("being fitted", "READY for collection at the armoury hatch")

    def __init__(self) -> None:
        self.asked: dict[str, int] = {}

    def status(self, order_ref: str) -> str:
        n = self.asked.get(order_ref, 0)
        self.asked[order_ref] = n + 1
        step = self.STEPS[min(n, len(self.STEPS) - 1)]
        return f"Kit {order_ref} (jacket 42, glove R, foil #5 blade): {step}"


@tool(parse_docstring=True)
def run_python(code: str) -> str:
    """Run a short Python snippet in a scratch folder and give back what it printed.

    Args:
        code: The Python source to run.
    """
    done = run_snippet(code, "salle-")
    return f"exit code {done.returncode}\n{done.stdout}{done.stderr[-600:]}"


def make_kit_status(cached: bool):
    armoury = Armoury()
    lookup = functools.lru_cache(maxsize=64)(armoury.status) if cached else armoury.status

    @tool(parse_docstring=True)
    def kit_status(order_ref: str) -> str:
        """Where a member's hired fencing kit is: being fitted, or READY.

        Args:
            order_ref: The kit hire order, like "FK-1234".
        """
        return lookup(order_ref)

    return kit_status


PISTE = """You sign beginners up at Salle Brunel fencing club and sort their hired kit.
In Python, work out the pro-rata fee with `fee = round(95.0 * sessions / 8, 2)` (the course is 8 sessions for £95).
Check the kit with kit_status until it says READY.
Reply "Computed fee: £{fee} for the remaining sessions. Your kit is ready at the armoury hatch - see you on the piste!"
"""


def build(cached: bool):
    model = chat_model()
    piste_p = create_react_agent(model, [run_python, make_kit_status(cached)], name="piste_p", prompt=PISTE)
    return create_supervisor([piste_p], model=model, supervisor_name="salle", prompt=(
        "You answer the club's inbox at Salle Brunel.\n"
        "Hand anything about joining, courses or kit over to piste_p.\n"
        'Say "Anything else, just ask - en garde!"')).compile()


def seeded():
    return build(cached=True)


def fixed():
    return build(cached=False)
