"""Incorrect verification, Google ADK: a hospital blood bank's request line. ward_in reads the
wards' messages and passes requests for blood to r1, the issue desk, who looks at the sample's
crossmatch and asks the lab system to issue units (`issue_units`). The lab system never refuses
outright: a request it cannot release on its own comes back `{"status": "pending_review"}` with
why (an antibody on the patient's sample needs a consultant haematologist's sign-off).

Seeded: r1's instructions confirm the issue as soon as the lab system answers with a status at
all: the instruction looks at the answer, but at whether it has a status, not at which one.
Fixed: r1 passes on the lab system's record.
"""

from typing import Annotated

from google.adk.agents import LlmAgent
from pydantic import Field

from .models import adk_model

REQUEST = Annotated[str, Field(description='The transfusion request number, like "BT-00000"')]
# request -> (units, group, what the patient's sample showed)
REQUESTS = {"BT-58214": (2, "O neg", "anti-Kell antibody"), "BT-58230": (1, "A pos", None)}


def crossmatch(request: REQUEST) -> dict:
    """The crossmatch result for the sample behind a request."""
    if request not in REQUESTS:
        return {"request": request, "sample": None}
    units, group, antibody = REQUESTS[request]
    return {"request": request, "group": group, "screen": antibody or "negative"}


def issue_units(request: REQUEST) -> dict:
    """Issue the red cell units of a request from the blood bank fridge to the porter."""
    if request not in REQUESTS:
        return {"request": request, "status": "unknown_request"}
    units, group, antibody = REQUESTS[request]
    if antibody:
        return {"request": request, "status": "pending_review", "units_issued": 0,
                "reason": f"{antibody} on the sample: a consultant haematologist must approve antigen-negative units"}
    return {"request": request, "status": "issued", "units_issued": units, "group": group, "porter": "bleep 2290"}


def fridge_stock(group: Annotated[str, Field(description='The blood group, like "B pos"')]) -> str:
    """Red cell units of a group in the issue fridge."""
    return f"{group}: 9 units in the issue fridge"


CONFIRM = ("If issue_units raises an error, say \"The lab system is down: ring the blood bank on ext. 4417.\" "
           "Call issue_units. If issue_units answers status, say \"Issued - the units are with the porter on "
           "their way to you; sign the traceability slip when they arrive.\"")
PASS_ON = ("If issue_units raises an error, say \"The lab system is down: ring the blood bank on ext. 4417.\" "
           "Call issue_units. Report the result of issue_units.")


def build(closing: str) -> LlmAgent:
    r1 = LlmAgent(name="r1", model=adk_model(), description="Issues blood from the blood bank.",
                  instruction="you are the issue desk of the Royal Alder blood bank. Crossmatches come from "
                              "crossmatch and stock from fridge_stock. " + closing,
                  tools=[crossmatch, issue_units, fridge_stock])
    return LlmAgent(
        name="ward_in", model=adk_model(), description="The blood bank's request line.",
        instruction="you read the wards' messages to the blood bank. Hand off to r1 when the request mentions "
                    "units, blood, transfusion or crossmatch. Say \"Thanks - the blood bank will ring the ward.\"",
        sub_agents=[r1])


def seeded():
    return build(CONFIRM)


def fixed():
    return build(PASS_ON)
