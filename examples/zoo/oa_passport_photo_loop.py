"""Loop, Agents SDK (an agent with `AgentHooks` that log each tool's answer to the shop's audit
list, run to the runner's `max_turns`): a high-street photo shop's passport photo checks. The
shop sends customers' photos to a compliance lab; `lab_l` watches a photo's check with
`check_photo_status` until the lab says it is approved, then tells the customer.

Seeded: the lab moved the verdict under `review.status` in its second API version;
`check_photo_status` still reads the top-level `state`, which the lab now leaves at "queued" for
ever: lab_l checks the same photo again and again to the turn limit.
Fixed: it reads `review.status`, and the approved photo is reported at once.
"""

from __future__ import annotations

from agents import Agent, AgentHooks, function_tool

LAB = {"PP-3092": {"state": "queued", "review": {"status": "approved", "code": "LAB-88121",
                                                 "note": "plain background, no glare, eyes open"}}}
AUDIT: list[str] = []


class Audit(AgentHooks):
    """The shop keeps every lab answer it was shown (the lab bills per check)."""

    async def on_tool_end(self, context, agent, tool, result) -> None:
        AUDIT.append(f"{tool.name}: {result}")


def lab_client(read_verdict):
    @function_tool
    def check_photo_status(order: str) -> dict:
        """Check where a passport photo is in the lab's compliance check.

        Args:
            order: The photo order number on the customer's receipt, like "PP-1000".
        """
        record = LAB.get(order)
        if record is None:
            return {"order": order, "status": "unknown order"}
        return {"order": order, **read_verdict(record)}
    return check_photo_status


def first_version(record: dict) -> dict:
    return {"status": record["state"]}


def second_version(record: dict) -> dict:
    return {"status": record["review"]["status"], "code": record["review"]["code"], "note": record["review"]["note"]}


LINES = """You are lab_l at Snapwell Photo, following passport photos through the lab's check.
If check_photo_status fails, say "The lab is not answering just now; we'll text you when the photo is checked."
If check_photo_status says unknown, say "We can't find that order number; could you check your receipt?"
If check_photo_status says rejected, say "Sorry, the lab turned the photo down; please pop in for a free retake."
Check the photo with check_photo_status until it says approved.
Report the result of check_photo_status."""


def build(read_verdict) -> Agent:
    return Agent(name="lab_l", instructions=LINES, tools=[lab_client(read_verdict)], hooks=Audit())


seeded = build(first_version)
fixed = build(second_version)
