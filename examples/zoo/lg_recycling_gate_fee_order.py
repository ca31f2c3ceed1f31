"""Speaking order, LangGraph StateGraph of prebuilt agents (`create_agent`): a council recycling centre's
trade gate. Small traders book a commercial load in by chat. `weighbridge` weighs the van in with
`weigh_in` and issues a weighbridge ticket; `gate` charges the gate fee to the trader's account
with `charge_gate_fee`, which prices a ticket's net weight: the fee rests on weighbridge's ticket.

The stages are kept in a dict and added to the graph with `add_sequence`. Seeded: the graph is
built from `sorted(STAGES)` (sorted once so the graph drawing in the ops wiki stayed stable), which
puts `gate` before `weighbridge`: gate has no ticket to charge. Fixed: the dict's own order.
"""

from __future__ import annotations

from langchain_core.tools import tool
from langchain.agents import create_agent
from langgraph.graph import START, MessagesState, StateGraph

from .models import chat_model

RATE_PER_TONNE = 96.50
TICKETS: dict[str, float] = {}  # ticket -> net kg
VANS = {"KN19 HTW": (3420, 2780)}  # reg -> (gross, tare) as the weighbridge reads them today


@tool(parse_docstring=True)
def weigh_in(van_reg: str) -> str:
    """Weigh a trader's van in on the weighbridge and issue a ticket.

    Args:
        van_reg: The van's registration, e.g. "AB12 CDE".
    """
    gross, tare = VANS.get(van_reg, (2600, 2100))
    ticket = f"WB-{7700 + len(TICKETS) + 31}"
    TICKETS[ticket] = gross - tare
    return f"Ticket {ticket}: gross {gross} kg, tare {tare} kg, net {gross - tare} kg. Tip at bay 3 (timber)."


@tool(parse_docstring=True)
def charge_gate_fee(ticket: str, account: str) -> dict:
    """Charge the gate fee for a weighed load to a trade account.

    Args:
        ticket: The weighbridge ticket, e.g. "WB-0000".
        account: The trade account, e.g. "TA-0000".
    """
    if ticket not in TICKETS:
        return {"status": 404, "body": {"detail": f"no weighbridge ticket {ticket}"}}
    fee = round(TICKETS[ticket] / 1000 * RATE_PER_TONNE, 2)
    return {"status": 201, "body": {"ticket": ticket, "account": account, "fee_gbp": fee}}


def build(order):
    model = chat_model()
    stages = {
        "weighbridge": create_agent(
            model, [weigh_in], name="weighbridge",
            system_prompt="You run the weighbridge at Brookmans Park recycling centre.\n"
                   "1. Weigh the van in with `weigh_in`.\n"
                   "2. Then pass on what `weigh_in` said so the trader knows the ticket and bay."),
        "gate": create_agent(
            model, [charge_gate_fee], name="gate",
            system_prompt="You take gate fees at Brookmans Park recycling centre. The fee is worked out from the "
                   "weighbridge ticket, so it can only be charged once the van has been weighed in.\n"
                   "1. Charge the fee with `charge_gate_fee`.\n"
                   "2. If `charge_gate_fee` fails, explain what went wrong.\n"
                   "3. Confirm the charge and say the receipt goes to the account's email."),
    }
    graph = StateGraph(MessagesState)
    graph.add_sequence([(name, stages[name]) for name in order(stages)])
    graph.add_edge(START, next(iter(order(stages))))
    return graph.compile()


def seeded():
    return build(sorted)


def fixed():
    return build(list)
