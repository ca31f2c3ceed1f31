"""Misrouted request, LangGraph (langgraph-supervisor): an HR help desk supervisor sends payslip
corrections to the benefits agent, whose only tool enrols employees in benefit plans, while the
payroll agent's tool corrects payslips.

Seeded: the supervisor's routing rules file "payslip" under benefits (copied from an older desk
where benefits also answered payslip questions). Fixed: under payroll.
"""

from __future__ import annotations

from langchain_core.tools import tool
from langgraph.prebuilt import create_react_agent
from langgraph_supervisor import create_supervisor

from .models import chat_model


@tool(parse_docstring=True)
def correct_payslip(payslip: str, hours: float) -> dict:
    """Add missing hours to a payslip and reissue it.

    Args:
        payslip: The payslip number, like "PS-0001".
        hours: The overtime hours missing, like "6.5".
    """
    return {"payslip": payslip, "status": "REISSUED", "added_hours": hours}


@tool(parse_docstring=True)
def enrol_in_plan(plan: str) -> dict:
    """Enrol the employee in a benefit plan.

    Args:
        plan: The plan code, like "PLAN-A".
    """
    return {"plan": plan, "status": "ENROLLED"}


def build(benefits_words: str, payroll_words: str):
    model = chat_model()
    payroll = create_react_agent(model, [correct_payslip], name="payroll_agent",
                                 prompt="You fix pay. Call correct_payslip. Report the result of correct_payslip.")
    benefits = create_react_agent(model, [enrol_in_plan], name="benefits_agent",
                                  prompt="You handle benefit plans. Call enrol_in_plan. Report the result of "
                                  "enrol_in_plan.")
    return create_supervisor(
        [payroll, benefits], model=model,
        prompt=f"You run the HR help desk. Hand off to benefits_agent when the request mentions {benefits_words}. "
        f"Hand off to payroll_agent when the request mentions {payroll_words}. Say \"Anything else?\"").compile()


seeded = build("pension, insurance or payslip", "salary")
fixed = build("pension or insurance", "salary or payslip")
