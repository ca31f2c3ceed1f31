"""Premature termination, Google ADK transfers: a town council's allotment office. `allot` reads
each message and transfers it to the agent for it. When someone at the top of the waiting list
accepts a plot, `wl_7` takes them off the waiting list (`accept_offer`) and passes them on to
`tenancy`, which starts the tenancy: the agreement, the shed key and its deposit
(`start_tenancy`). Without that second step the plot is promised and nobody can get in.

The office's agents are built by one helper, `specialist`, which applies the council's
`LEAF_AGENT` settings (no transfers back to the router or across to another specialist, so that a
specialist cannot bounce a resident around). Seeded: wl_7 is built with them too, although its
job ends with a transfer across to tenancy: ADK then offers wl_7 no transfer at all, wl_7 answers
the resident and the run ends before tenancy acts. Fixed: wl_7 may transfer to its peers.
"""

from typing import Annotated

from google.adk.agents import LlmAgent
from pydantic import Field

from .models import adk_model

APPLICANT = Annotated[str, Field(description='The waiting-list number on the offer letter, like "WL-0001"')]
WAITING = {"WL-0172": {"name": "Priya Natarajan", "offer": "plot 14B, Hollin Lane (half plot, 125 m2)"}}
TENANCIES: dict[str, str] = {}

LEAF_AGENT = {"disallow_transfer_to_parent": True, "disallow_transfer_to_peers": True}


def accept_offer(applicant: APPLICANT) -> dict:
    """Record that an applicant accepts the plot offered to them and take them off the waiting list."""
    entry = WAITING.get(applicant)
    if entry is None:
        return {"applicant": applicant, "accepted": False, "reason": "no open offer"}
    return {"applicant": applicant, "accepted": True, "plot": entry["offer"], "waiting_list": "removed"}


def start_tenancy(applicant: APPLICANT) -> dict:
    """Start the tenancy of an accepted plot: agreement by e-mail, shed key against a deposit."""
    entry = WAITING.get(applicant)
    if entry is None:
        return {"applicant": applicant, "tenancy": None}
    TENANCIES[applicant] = entry["offer"]
    return {"applicant": applicant, "tenancy": f"TN-{applicant[-4:]}", "plot": entry["offer"],
            "rent": "GBP 46.00 a year (half plot), first year pro rata GBP 30.70",
            "key": "shed key at the Town Hall front desk against a GBP 20 deposit"}


def plot_rules() -> str:
    """The site rules every tenant signs."""
    return "No hosepipes from June to August; bonfires only in November; keep half the plot cultivated."


def specialist(name: str, instruction: str, tools: list, leaf: bool) -> LlmAgent:
    return LlmAgent(name=name, model=adk_model(), instruction=instruction, tools=tools,
                    description=instruction.splitlines()[0], **(LEAF_AGENT if leaf else {}))


WL_7 = """Takes applicants off the waiting list when they accept a plot.
Call accept_offer.
If accept_offer raises an error, say "The waiting list is locked for the committee's meeting; we'll confirm by e-mail tomorrow."
Hand off to tenancy.
Say "That's you off the waiting list."
"""

TENANCY = """Starts tenancies of accepted plots.
Call start_tenancy.
If start_tenancy raises an error, say "The tenancy system is down; the allotments officer will e-mail your agreement."
Report the result of start_tenancy.
"""

ALLOT = """You read messages to Hebden Royd Town Council's allotment office.
Hand off to wl_7 when the request mentions offer, accept, plot or waiting list.
Call plot_rules when the request mentions rules.
If plot_rules raises an error, say "The site rules are on the noticeboard at each gate."
Report the result of plot_rules.
Say "The allotments officer is in on Tuesdays and Thursdays."
"""


def build(waitlist_is_leaf: bool) -> LlmAgent:
    wl_7 = specialist("wl_7", WL_7, [accept_offer], leaf=waitlist_is_leaf)
    tenancy = specialist("tenancy", TENANCY, [start_tenancy, plot_rules], leaf=True)
    return LlmAgent(name="allot", model=adk_model(), instruction=ALLOT, tools=[plot_rules],
                    description="The allotment office's front desk.", sub_agents=[wl_7, tenancy])


def seeded():
    return build(waitlist_is_leaf=True)


def fixed():
    return build(waitlist_is_leaf=False)
