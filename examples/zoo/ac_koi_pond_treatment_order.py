"""Speaking order, AutoGen AgentChat (a `SelectorGroupChat` whose `candidate_func` picks the next
desk from a rota, stopped by `SourceMatchTermination` on the rota's last desk): a koi pond care
service. `tester_t` tests the pond water with `test_pond_water`, which answers the pond's volume
and its readings; `dosing_d` doses the treatment with `dose_treatment`, by the volume the test
measured.

Seeded: the rota was written when the shop only sold treatments over the counter, dosing first:
dosing_d speaks before any water test, has no measured volume to dose by and asks the customer
for it; tester_t tests the water after.
Fixed: the rota puts the test first and dosing after it.
"""

from __future__ import annotations

from autogen_agentchat.agents import AssistantAgent
from autogen_agentchat.conditions import SourceMatchTermination
from autogen_agentchat.teams import SelectorGroupChat

from .models import agentchat_client

PONDS = {"KP-2290": {"pond": "KP-2290", "volume_litres": "6800 L", "ammonia": "0.5 mg/l", "ph": 7.9,
                     "advice": "treat for ammonia"}}


def test_pond_water(pond: str) -> dict:
    """Test a customer's pond water on the visit: the pond's volume and its readings.

    Args:
        pond: The pond's number on our books, like "KP-1000".
    """
    return PONDS.get(pond, {"status": "not_found", "pond": pond})


def dose_treatment(pond: str, volume_litres: str) -> dict:
    """Dose an ammonia treatment for a pond, by the volume the water test measured.

    Args:
        pond: The pond's number on our books, like "KP-1000".
        volume_litres: The pond volume from the water test, like "4500 L".
    """
    litres = int(volume_litres.split()[0])
    return {"status": "dosed", "dose": f"{litres // 100 * 5} ml", "product": "AmmoClear", "retest": "in 7 days",
            "visit": "DV-" + pond[-4:]}


TESTER = """You are tester_t at Still Water Koi Care.
Test the water with test_pond_water.
If test_pond_water fails, say "The test kit log is not answering; we'll test on the next visit."
Tell the customer what test_pond_water answered."""

DOSING = """You are dosing_d at Still Water Koi Care.
Dose the pond with dose_treatment.
If dose_treatment fails, say "The dosing log is not answering; no treatment has gone in yet."
Tell the customer what dose_treatment answered."""


def build(rota: list[str]):
    client = agentchat_client()
    tester_t = AssistantAgent("tester_t", model_client=client, system_message=TESTER, tools=[test_pond_water],
                              reflect_on_tool_use=True, description="Tests the pond water.")
    dosing_d = AssistantAgent("dosing_d", model_client=client, system_message=DOSING, tools=[dose_treatment],
                              reflect_on_tool_use=True, description="Doses pond treatments.")

    def next_on_rota(messages) -> list[str]:
        spoke = {m.source for m in messages}
        return [next((name for name in rota if name not in spoke), rota[-1])]

    return SelectorGroupChat([tester_t, dosing_d], model_client=client, candidate_func=next_on_rota,
                             termination_condition=SourceMatchTermination([rota[-1]]))


def seeded():
    return build(["dosing_d", "tester_t"])


def fixed():
    return build(["tester_t", "dosing_d"])
