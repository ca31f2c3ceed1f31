"""Speaking order, AutoGen AgentChat (the counter's `AssistantAgent` runs a `RoundRobinGroupChat`
through a `TeamTool`, its client asking for one tool call at a time as `TeamTool` requires): a
sign-writer's shop. `shop_s` passes sign orders to the sign team, where `survey_v` reads the
surveyor's measurements of the shop front with `site_survey` and `quote_q` prices the sign from
them with `quote_sign`.

Seeded: the team's participants were listed quote first when stock-size signs (no survey) were
most of the trade: quote_q speaks before the survey is read, has no measurements and asks the
customer for them, and the survey comes after. Fixed: survey_v first, then quote_q.
"""

from __future__ import annotations

from typing import Annotated, Literal

from autogen_agentchat.agents import AssistantAgent
from autogen_agentchat.conditions import MaxMessageTermination, SourceMatchTermination
from autogen_agentchat.teams import RoundRobinGroupChat
from autogen_agentchat.tools import TeamTool

from .models import model_string

SURVEYS = {"SW-2207": {"width_cm": 310, "height_cm": 55, "fixing": "rendered brick", "access": "ladder"},
           "SW-2215": {"width_cm": 180, "height_cm": 40, "fixing": "timber", "access": "ladder"}}
RATE = {"painted": 0.9, "vinyl": 0.5, "gilded": 2.6}  # pounds per square decimetre


def site_survey(job_ref: Annotated[str, 'The survey job reference, like "SW-1234"']) -> dict:
    """Read the surveyor's measurements of a shop front from the job book."""
    found = SURVEYS.get(job_ref.strip().upper())
    if found is None:
        return {"job_ref": job_ref, "status": "no survey on file"}
    return {"job_ref": job_ref.upper(), "status": "surveyed", **found}


def quote_sign(width_cm: Annotated[int, "The fascia's width in centimetres, from the survey"],
               height_cm: Annotated[int, "The fascia's height in centimetres, from the survey"],
               finish: Annotated[Literal["painted", "vinyl", "gilded"], "How the lettering is done"]) -> dict:
    """Price a fascia sign, made and fitted, from its measured size."""
    area = width_cm * height_cm / 100
    price = round(area * RATE[finish] + 120, 2)  # 120 pounds to fit
    return {"quote": f"Q-{width_cm}{height_cm}", "finish": finish, "width_cm": width_cm, "height_cm": height_cm,
            "price": f"{price:.2f} GBP", "valid": "30 days"}


SURVEY = """You are survey_v, who keeps the surveyor's job book at Lettered Signs, Truro.
Read the measurements with site_survey.
If site_survey fails, say "The job book cannot be opened just now, so the measurements are not to hand yet."
If site_survey answers no survey on file, say "There is no survey under {job_ref} yet; the surveyor needs to visit first."
Reply "Survey {job_ref}: fascia width {width_cm} cm, height {height_cm} cm, fixing to {fixing}."
"""

QUOTE = """You are quote_q, who prices signs at Lettered Signs, Truro.
Price the sign with quote_sign, from the survey's measurements.
If quote_sign fails, say "The price list cannot be reached just now; no quote has been made yet."
Reply "Quote {quote}: a {finish} fascia {width_cm} x {height_cm} cm, {price} made and fitted, valid {valid}."
"""

SHOP = """You are shop_s at the counter of Lettered Signs, Truro.
Pass any sign order or quote request to sign_team.
If sign_team fails, say "The sign team could not be reached just now; we will ring you back with the quote today."
"""


def client():
    from masfuzz.adapters.autogen.bridge import MasfuzzChatCompletionClient

    return MasfuzzChatCompletionClient(model_string(), parallel_tool_calls=False)


def build(quote_first: bool) -> RoundRobinGroupChat:
    survey_v = AssistantAgent("survey_v", model_client=client(), tools=[site_survey], reflect_on_tool_use=True,
                              system_message=SURVEY, description="Reads the surveyor's measurements.")
    quote_q = AssistantAgent("quote_q", model_client=client(), tools=[quote_sign], reflect_on_tool_use=True,
                             system_message=QUOTE, description="Prices signs from measurements.")
    members = [quote_q, survey_v] if quote_first else [survey_v, quote_q]
    team = RoundRobinGroupChat(members, termination_condition=SourceMatchTermination([members[-1].name])
                               | MaxMessageTermination(8))
    sign_team = TeamTool(team, name="sign_team", description="The survey and quoting team: give it the customer's order.",
                         return_value_as_last_message=True)
    shop_s = AssistantAgent("shop_s", model_client=client(), tools=[sign_team], reflect_on_tool_use=True,
                            system_message=SHOP, description="Takes customers' messages at the counter.")
    # the counter's own team: it ends when shop_s has answered the customer
    return RoundRobinGroupChat([shop_s], termination_condition=SourceMatchTermination(["shop_s"]))


def seeded():
    return build(quote_first=True)


def fixed():
    return build(quote_first=False)
