"""Premature termination, AgentChat RoundRobinGroupChat: a law firm's filing desk. ana_r checks a
bundle against the court's rules (`check_bundle`); tl2 then lodges it with the court and pays the
fee (`lodge_filing`). The team is meant to stop once the court has the filing, so its termination
condition watches for that function's call.

Seeded: the condition names the wrong function, `check_bundle`, the step that used to be the
last one the desk did before filings were lodged by hand: the team ends, normally, the moment
ana_r's check runs, and tl2 never lodges anything. Fixed: it names `lodge_filing`.
"""

from typing import Annotated

from autogen_agentchat.agents import AssistantAgent
from autogen_agentchat.conditions import FunctionCallTermination, MaxMessageTermination
from autogen_agentchat.teams import RoundRobinGroupChat

from .models import agentchat_client

BUNDLES = {"q7-2291": {"pages": 43, "index": True, "paginated": True}}


def check_bundle(claim: Annotated[str, 'The claim number, like "q0-0000"']) -> dict:
    """Check a bundle in the portal against the court's rules on paging and indexing."""
    bundle = BUNDLES.get(claim)
    if bundle is None:
        return {"claim": claim, "errors": ["no bundle uploaded"]}
    return {"claim": claim, "pages": bundle["pages"], "errors": []}


def lodge_filing(claim: Annotated[str, 'The claim number, like "q0-0000"']) -> str:
    """Lodge the checked bundle with the county court and pay its fee from the firm's account."""
    if claim not in BUNDLES:
        return f"{claim}: nothing to lodge"
    return f"{claim}: with the court as filing 2291/D, fee £255.00 drawn, sealed copy to follow"


def court_diary(claim: Annotated[str, 'The claim number, like "q0-0000"']) -> str:
    """The next hearing listed in a claim."""
    return f"{claim}: no hearing listed"


def build(watched: str) -> RoundRobinGroupChat:
    ana_r = AssistantAgent(
        "ana_r", model_client=agentchat_client(), tools=[check_bundle, court_diary],
        description="Checks bundles before they go to court.",
        system_message="you check court bundles for Marsh & Ilkley. If check_bundle raises an error, say "
                       "\"The portal is down; the bundle check waits.\" Call check_bundle. Report the result "
                       "of check_bundle.")
    tl2 = AssistantAgent(
        "tl2", model_client=agentchat_client(), tools=[lodge_filing, court_diary],
        description="Lodges filings with the court.",
        system_message="you lodge filings once their bundle has been checked. If lodge_filing raises an "
                       "error, say \"The court's e-filing is down; the filing goes first thing tomorrow.\" "
                       "Call lodge_filing. Report the result of lodge_filing.")
    stop = FunctionCallTermination(function_name=watched) | MaxMessageTermination(12)
    return RoundRobinGroupChat([ana_r, tl2], termination_condition=stop)


def seeded():
    return build("check_bundle")


def fixed():
    return build("lodge_filing")
