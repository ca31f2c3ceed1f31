"""Premature termination, Google ADK: a primary school's admissions. A `LoopAgent`, the paperwork
round, runs Pim, who registers the application, and Vale, who checks the family's documents,
until one of them calls `exit_loop` (ADK's escalation), at most three times; then Roz makes the
offer (a `SequentialAgent` of the two).

Seeded: `exit_loop` was given to Pim, whose instructions close the round once the registration
is in, so the round ends normally after its first agent and the documents are never checked
before the offer. Fixed: Vale, the last of the round, holds `exit_loop`.
"""

from typing import Annotated

from google.adk.agents import LlmAgent, LoopAgent, SequentialAgent
from google.adk.tools import exit_loop
from pydantic import Field

from .models import adk_model

Application = Annotated[str, Field(description='The application number, like "ADM-2025-0001"')]


def register_application(application: Application) -> dict:
    """Put an application on this round's list."""
    return {"application": application, "round": "September intake", "position": 7}


def check_documents(application: Application) -> dict:
    """Check that an application's proof of address and birth certificate are on file."""
    return {"application": application, "proof_of_address": "on file", "birth_certificate": "on file"}


def offer_place(application: Application) -> dict:
    """Offer a place to an application whose documents are complete."""
    return {"application": application, "offer": "Year 3, from 2025-09-03", "reply_by": "2025-06-20"}


def build(closer: str) -> SequentialAgent:
    def agent(name: str, description: str, instruction: str, tool) -> LlmAgent:
        tools = [tool, exit_loop] if name == closer else [tool]
        close = " When that is in, call exit_loop so the round closes." if name == closer else ""
        return LlmAgent(name=name, model=adk_model(), description=description, tools=tools,
                        instruction=instruction + close)

    pim = agent("pim", "Registers applications.", "Call register_application.", register_application)
    vale = agent("vale", "Checks documents.", "Call check_documents.", check_documents)
    roz = agent("roz", "Offers places.", "Call offer_place. Report the result of offer_place.", offer_place)
    paperwork = LoopAgent(name="paperwork", sub_agents=[pim, vale], max_iterations=3)
    return SequentialAgent(name="admissions", sub_agents=[paperwork, roz])


def seeded():
    return build("pim")


def fixed():
    return build("vale")
