"""A log that declares its team beside its messages (an `agents` map: each agent's tools and
hand-overs, as the Agents SDK's agent spans carry them): the routes not taken are part of the
workflow `judge` reads, so a request handed to an agent with no tool for it, while a sibling the
router could reach has one, is a misroute of the router's; without the declaration the log shows
only the route taken and nothing is found."""

from __future__ import annotations

from masfuzz.adapters.blackbox import spec_from_traces
from masfuzz.adapters.transcript import read
from masfuzz.judging import judge_log
from masfuzz.trace import OFFERED_HANDOFFS, OFFERED_TOOLS


def _item(kind, agent, **raw):
    return {"type": kind, "agent": {"name": agent}, "raw_item": raw}


def _dump(team: bool) -> dict:
    items = [
        _item("handoff_call_item", "front_desk", type="function_call", name="transfer_to_claims_desk",
              arguments="{}", call_id="h1"),
        _item("handoff_output_item", "front_desk", type="function_call_output", call_id="h1",
              output='{"assistant": "claims_desk"}'),
        _item("tool_call_item", "claims_desk", type="function_call", name="open_claim",
              arguments='{"policy": "PET-5521", "summary": "vet bill after a sprained paw"}', call_id="c1"),
        _item("tool_call_output_item", "claims_desk", type="function_call_output", call_id="c1",
              output='{"claim": "CL-88", "status": "opened"}'),
        _item("message_output_item", "claims_desk", type="message", role="assistant",
              content=[{"type": "output_text", "text": "I have opened claim CL-88 for the vet bill."}]),
    ]
    data = {"input": "My dog's policy PET-5521 renews on the 1st and I moved house last month. "
                     "Could you cancel the renewal? I have found a cheaper insurer.",
            "new_items": items}
    if team:
        data["agents"] = [
            {"name": "front_desk", "handoffs": ["claims_desk", {"agent_name": "policy_desk"}]},
            {"name": "claims_desk", "tools": [{"name": "open_claim", "description": "Open a claim on a policy."}]},
            {"name": "policy_desk", "tools": ["cancel_renewal", "change_address"],
             "instructions": "You change and cancel pet-insurance policies."},
        ]
    return data


def test_the_declared_team_is_read_into_the_workflow():
    log = read(_dump(team=True))
    assert log.trace.meta[OFFERED_HANDOFFS] == {"front_desk": ["claims_desk", "policy_desk"]}
    assert log.trace.meta[OFFERED_TOOLS]["claims_desk"]["open_claim"]["description"] == "Open a claim on a policy."
    spec = spec_from_traces([log.trace])
    assert {a.id for a in spec.agents} == {"front_desk", "claims_desk", "policy_desk"}
    assert {(d.from_, d.to) for d in spec.delegations} == {("front_desk", "claims_desk"), ("front_desk", "policy_desk")}
    assert spec.tool("open_claim").description == "Open a claim on a policy."
    assert ("policy_desk", "cancel_renewal") in spec.permissions.allow


def test_a_request_handed_past_the_declared_sibling_that_serves_it_is_the_routers_misroute():
    section, _ = judge_log(read(_dump(team=True), "pet.json"))
    blamed = section["attribution"]
    assert blamed is not None and blamed["agent"] == "front_desk" and blamed["step_ref"] == "0"
    assert "Misrouted Request" in blamed["why"] and "cancel_renewal" in blamed["why"]


def test_without_the_declaration_the_route_taken_was_the_only_one():
    section, _ = judge_log(read(_dump(team=False), "pet.json"))
    assert section["verdict"] == "no failure found"
