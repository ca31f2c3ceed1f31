"""Loop, PydanticAI agent delegation (the front desk runs the key desk agent from its
`ask_keys` tool with `usage=ctx.usage`): a beach hut hire line. `hut_keys` asks the key safe
service for a hut's door code with `request_key_code`, then checks `key_code_status` until the
code is ISSUED (the service issues it on the first check after the request is logged).

Seeded: the status check counts the check on a copy of the request's record
(`dict(record)`), so the service never sees a check and answers PENDING forever; hut_keys,
told to check until the code shows ISSUED, asks the same question until the run's limit.
Fixed: the check counts on the stored record itself.
"""

from __future__ import annotations

from pydantic_ai import Agent, RunContext

from .models import pydantic_ai_model

HUTS = {"17": "Seahorse"}
REQUESTS: dict[str, dict] = {}


def build(in_place: bool) -> Agent:
    hut_keys = Agent(pydantic_ai_model(), name="hut_keys", instructions="""\
You are the key desk of Saltburn Beach Huts.
Ask for the door code with request_key_code.
Check key_code_status until it shows ISSUED.
Read out what key_code_status said.
""")

    @hut_keys.tool_plain
    def request_key_code(hut: str, day: str) -> dict:
        """Ask the key safe service for a hut's door code for a day of hire.

        Args:
            hut: The hut's number, e.g. "12".
            day: The day of hire, e.g. "2026-01-31".
        """
        if hut not in HUTS:
            return {"status": {"code": 404, "detail": f"no hut {hut}"}}
        ref = f"KS-{len(REQUESTS) + 1:04d}"
        REQUESTS[ref] = {"hut": hut, "day": day, "checks": 0}
        return {"status": {"code": 202, "detail": "logged"}, "request": ref}

    @hut_keys.tool_plain
    def key_code_status(request: str) -> tuple:
        """Where a door-code request stands at the key safe service.

        Args:
            request: The request's reference, e.g. "KS-0000".
        """
        record = REQUESTS.get(request)
        if record is None:
            return ("404", "unknown request")
        seen = record if in_place else dict(record)
        seen["checks"] += 1
        if record["checks"] == 0:
            return ("200", {"state": "PENDING", "hut": record["hut"], "nachricht": "bitte erneut prüfen"})
        return ("200", {"state": "ISSUED", "hut": f"{record['hut']} ({HUTS[record['hut']]})", "code": "4-7-1-9",
                        "valid": record["day"]})

    front = Agent(pydantic_ai_model(), name="front", instructions="""\
You answer the Saltburn Beach Huts hire line.
Pass door codes to the key desk with ask_keys (only for code, key, keys, door or lock).
Read out what ask_keys said.
""")

    @front.tool
    async def ask_keys(ctx: RunContext[None], request: str) -> str:
        """Pass the customer's request to the key desk.

        Args:
            request: The customer's message, in their own words.
        """
        result = await hut_keys.run(request, usage=ctx.usage)
        return result.output

    return front


def seeded():
    return build(in_place=False)


def fixed():
    return build(in_place=True)
