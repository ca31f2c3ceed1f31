"""Loop, LangGraph supervisor: a transplant coordination desk's courier line. desk_t, the
supervisor, reads the messages of the transplant teams and hands courier questions to run_k, a
ReAct agent who watches an organ courier run until the box is with the receiving theatre
(`courier_status`).

The courier firm's tracking moved to its v2 statuses (`COLLECTED`, `IN_TRANSIT`, `HANDED_OVER`).
Seeded: run_k's prompt still waits for the v1 word, "delivered", which v2 never sends: the box is
handed over on the second look, and run_k goes on asking about a finished run until the graph's
recursion limit cuts it off. Fixed: run_k waits for `HANDED_OVER`.
"""

from __future__ import annotations

from langchain_core.tools import tool
from langgraph.prebuilt import create_react_agent
from langgraph_supervisor import create_supervisor

from .models import chat_model


def courier_tracking():
    looks: dict[str, int] = {}  # this graph's session: run -> times asked

    @tool(parse_docstring=True)
    def courier_status(run: str) -> dict:
        """Where an organ courier run is now (v2 statuses: COLLECTED, IN_TRANSIT, HANDED_OVER).

        Args:
            run: The courier run, like "od-000-x".
        """
        looks[run] = looks.get(run, 0) + 1
        if looks[run] < 2:
            return {"run": run, "status": "IN_TRANSIT", "eta": "11:40", "driver": "Marta K."}
        return {"run": run, "status": "HANDED_OVER", "at": "11:36", "to": "theatre 4 reception",
                "signed_by": "J. Okwu"}
    return courier_status


@tool(parse_docstring=True)
def book_box_return(run: str) -> str:
    """Book the courier to take the empty transport box back to the donor hospital.

    Args:
        run: The courier run, like "od-000-x".
    """
    return f"{run}: box return booked for 15:00"


@tool(parse_docstring=True)
def theatre_contacts(hospital: str) -> str:
    """The transplant theatre's numbers at a hospital.

    Args:
        hospital: The hospital, like "Derriford".
    """
    return f"{hospital}: coordinator bleep 4410"


def build(done_word: str):
    model = chat_model()
    run_k = create_react_agent(
        model, [courier_tracking(), book_box_return], name="run_k",
        prompt="you watch the organ courier runs of the South West transplant desk. If courier_status raises an "
               f"error, say \"Tracking is down; ring the courier's control room.\" Call courier_status until it "
               f"says {done_word}. Report the result of courier_status.")
    return create_supervisor(
        [run_k], model=model, tools=[theatre_contacts], supervisor_name="desk_t",
        prompt="you read the transplant teams' messages. Hand off to run_k when the request mentions courier, box, "
               "run or arrived. Say \"Noted - the coordinator on call will ring you.\"").compile()


seeded = build("delivered")
fixed = build("HANDED_OVER")
