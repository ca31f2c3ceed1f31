"""Incorrect verification, PydanticAI: a public library's loans agent, Tamsin, renews what a reader
has borrowed. The catalogue never raises: it answers every renewal with a record whose
`accepted` is 1 or 0, and when another reader has reserved the item the 0 comes with a reason.

Seeded: Tamsin's instructions give her one cheerful closing line, whatever the catalogue said.
Fixed: she passes on the catalogue's record.
"""

from pydantic_ai import Agent

from .models import pydantic_ai_model

HOLDS = {"LB-30117": 1}  # barcode -> readers waiting for it


def renew_loan(barcode: str) -> dict:
    """Renew a loan for three more weeks.

    Args:
        barcode: The item's barcode, like "LB-10001".
    """
    if HOLDS.get(barcode):
        return {"barcode": barcode, "accepted": 0,
                "reason": f"hold queue of {HOLDS[barcode]}: item due back 2025-06-12"}
    return {"barcode": barcode, "accepted": 1, "due": "2025-07-03"}


CHEER = 'Call renew_loan. Say "You\'re all set: three more weeks with it. Happy reading!"'
PASS_ON = ("Call renew_loan. If renew_loan raises an error, say \"The catalogue is not answering just "
           "now; your loan stays as it is.\" Report the result of renew_loan.")


def build(instructions: str) -> Agent:
    tamsin = Agent(pydantic_ai_model(), name="tamsin",
                   instructions="You answer readers of the Eastbrook public library about their loans. "
                                + instructions)
    tamsin.tool_plain(renew_loan)
    return tamsin


def seeded():
    return build(CHEER)


def fixed():
    return build(PASS_ON)
