"""A scripted model for the ADK support desk (`request.agent` is the ADK agent asking).

The coordinator transfers refund and charge questions to billing and report requests to the
report pipeline, and asks the policy expert otherwise; billing looks the invoice up and refunds
a duplicate charge; the critic lets a report that names an invoice through (`exit_loop`).

    masfuzz exec examples/adk/agent.py:root_agent --input "Refund invoice INV-7" \\
        --sut-model scripted/examples/adk/policy.py:policy
"""

from __future__ import annotations

import json
import re

from masfuzz.llm.scripted import call, handoff, last_user_text, say, tool_results
from masfuzz.llm.types import ChatRequest


def policy(request: ChatRequest):
    agent = request.agent or ""
    return {"coordinator": coordinator, "billing": billing, "critic": critic,
            "policy_expert": policy_expert}.get(agent, writer)(request)


def _invoice(request: ChatRequest) -> str | None:
    found = re.search(r"INV-\d+", " ".join(m.content or "" for m in request.messages
                                            if m.role == "user"), re.I)
    return found.group(0).upper() if found else None


def coordinator(request: ChatRequest):
    if request.messages[-1].role == "tool":
        return say(f"The policy expert says: {request.messages[-1].content}")
    text = last_user_text(request).lower()
    if "report" in text:
        return handoff("report_pipeline")
    if _invoice(request) or "refund" in text or "charge" in text:
        return handoff("billing")
    return call("policy_expert", request=last_user_text(request))


def billing(request: ChatRequest):
    invoice = _invoice(request)
    looked = tool_results(request, "lookup_invoice")
    refunded = tool_results(request, "issue_refund")
    if invoice is None:
        return say("Which invoice is it? Please give its number (INV-...).")
    if not looked:
        return call("lookup_invoice", invoice_id=invoice)
    if refunded:
        return say(f"Refund result for {invoice}: {refunded[-1].content}")
    try:
        found = json.loads(looked[-1].content or "{}")
    except ValueError:
        return say(f"The invoice system answered something I cannot read for {invoice}.")
    if found.get("status") != "ok":
        return say(f"I could not look {invoice} up: {found.get('message', 'unknown error')}.")
    if found.get("charged", 0) < 2:
        return say(f"{invoice} was charged once; nothing to refund.")
    return call("issue_refund", invoice_id=invoice, amount=found["amount"])


def critic(request: ChatRequest):
    if tool_results(request, "exit_loop"):
        return say("The report is complete.")
    # the critic's instruction carries the report (ADK fills in its `{report}` from the state)
    system = " ".join(m.content or "" for m in request.messages if m.role == "system")
    report = system.split("Review the report in", 1)[-1].split(". If it names", 1)[0]
    if re.search(r"INV-\d+", report):
        return call("exit_loop")
    return say("The report must name the invoice.")


def policy_expert(request: ChatRequest):
    return say("Only a duplicate charge is refunded, up to the invoice's amount.")


def writer(request: ChatRequest):
    invoice = _invoice(request) or "the invoice (not given)"
    return say(f"Case report: the customer asks about {invoice}.")
