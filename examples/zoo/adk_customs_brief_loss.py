"""Information loss, Google ADK: a freight forwarder's desk, a `SequentialAgent`. Ines reads the
customer's message and writes the case up in one line for Teodor, who lodges import
declarations. The customer's movement reference (MRN) sits in the middle of a sentence of their
message; Ines's write-up does not repeat it.

Seeded: Teodor is configured with `include_contents="none"`, the ADK setting that keeps an agent
to its instruction and the current turn, which for the second agent of a sequence starts at the
first agent's answer: he works from the write-up alone, the MRN never reaches him and he has to
ask for it. Fixed: he sees the conversation.
"""

from typing import Annotated

from google.adk.agents import LlmAgent, SequentialAgent
from pydantic import Field

from .models import adk_model

HELD = {"25GB48213370551092": "bicycle parts, 1 x 40ft container, Felixstowe"}


def lodge_declaration(
        mrn: Annotated[str, Field(description='The movement reference number, like "25GB00001234567890"')],
) -> dict:
    """Lodge the import declaration of a consignment held at the port."""
    if mrn not in HELD:
        return {"lodged": False, "why": f"no consignment under {mrn}"}
    return {"lodged": True, "mrn": mrn, "goods": HELD[mrn], "release": "expected within 24 hours"}


def build(contents: str) -> SequentialAgent:
    teodor = LlmAgent(
        name="teodor", model=adk_model(), description="Lodges import declarations with customs.",
        instruction="You lodge import declarations. Call lodge_declaration. If lodge_declaration raises "
                    "an error, say \"The customs gateway is down; I will lodge it as soon as it is back.\" "
                    "Report the result of lodge_declaration.",
        tools=[lodge_declaration], include_contents=contents)
    ines = LlmAgent(
        name="ines", model=adk_model(), description="Reads what customers of the forwarder write.",
        instruction="You write up what a customer of Northgate Forwarding needs, in one line, for the "
                    "customs desk. Say \"A container of bicycle parts is held at Felixstowe; its import "
                    "declaration needs lodging.\"")
    return SequentialAgent(name="desk", sub_agents=[ines, teodor])


def seeded():
    return build("none")


def fixed():
    return build("default")
