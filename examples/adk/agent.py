"""A support desk in Google ADK: every kind of ADK delegation in one small system.

The coordinator routes a customer by LLM-driven transfer (`sub_agents`) to billing, which looks
up invoices and issues refunds and may not transfer to its peers, or to the report pipeline, a
`SequentialAgent` whose drafter writes a case report that a `LoopAgent` of a critic and a
reviser refines until the critic calls `exit_loop` (escalate) or two iterations are done. The
coordinator asks the policy expert, an agent used as a tool (`AgentTool`), when unsure.

    masfuzz inspect examples/adk/agent.py:root_agent
    masfuzz exec examples/adk/agent.py:root_agent --input "Refund invoice INV-7, it was charged twice" \\
        --sut-model scripted/examples/adk/policy.py:policy
"""

from __future__ import annotations

from google.adk.agents import LlmAgent, LoopAgent, SequentialAgent
from google.adk.tools import exit_loop
from google.adk.tools.agent_tool import AgentTool

MODEL = "gemini-2.5-flash"  # what the app runs with; masfuzz puts its own model in its place

INVOICES = {"INV-7": {"amount": 40.0, "charged": 2}, "INV-9": {"amount": 15.5, "charged": 1}}


def lookup_invoice(invoice_id: str) -> dict:
    """Look up an invoice: its amount and how many times it was charged."""
    invoice = INVOICES.get(invoice_id.strip().upper())
    if invoice is None:
        return {"status": "error", "message": f"no invoice {invoice_id}"}
    return {"status": "ok", "invoice_id": invoice_id.upper(), **invoice}


def issue_refund(invoice_id: str, amount: float) -> dict:
    """Refund an amount of an invoice that was charged more than once."""
    invoice = INVOICES.get(invoice_id.strip().upper())
    if invoice is None or invoice["charged"] < 2:
        return {"status": "refused", "message": "only a duplicate charge is refunded"}
    if amount > invoice["amount"]:
        return {"status": "refused", "message": f"at most {invoice['amount']} can be refunded"}
    return {"status": "ok", "refunded": amount}


billing = LlmAgent(
    name="billing", model=MODEL, description="Invoices, charges and refunds.",
    instruction="Look the invoice up before anything else; refund only a duplicate charge.",
    tools=[lookup_invoice, issue_refund], disallow_transfer_to_peers=True,
)
drafter = LlmAgent(name="drafter", model=MODEL, description="Drafts a case report.",
                   instruction="Draft a short case report of the customer's problem.",
                   output_key="report")
critic = LlmAgent(name="critic", model=MODEL, description="Reviews the report.",
                  instruction="Review the report in {report}. If it names the invoice, call "
                              "exit_loop; otherwise say what is missing.",
                  tools=[exit_loop])
reviser = LlmAgent(name="reviser", model=MODEL, description="Revises the report.",
                   instruction="Revise the report as the critic asked.", output_key="report")
refine = LoopAgent(name="refine", sub_agents=[critic, reviser], max_iterations=2)
report_pipeline = SequentialAgent(name="report_pipeline", description="Writes a case report.",
                                  sub_agents=[drafter, refine])
policy_expert = LlmAgent(name="policy_expert", model=MODEL,
                         description="Answers questions on the refund policy.",
                         instruction="Answer from the refund policy: only duplicate charges are refunded.")
root_agent = LlmAgent(
    name="coordinator", model=MODEL, description="Routes customers.",
    instruction="Send billing questions to billing and report requests to report_pipeline; "
                "ask policy_expert when unsure of the policy.",
    sub_agents=[billing, report_pipeline], tools=[AgentTool(agent=policy_expert)],
)
