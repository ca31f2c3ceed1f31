"""Speaking order, Google ADK `SequentialAgent`: a solar installer's permit desk. survey_k writes
up the site survey in the installer's records (`record_survey`); grid_b applies to the network
operator for the connection (`apply_connection`), which the operator only accepts with a survey on
file. grid_b's instructions say so in their own way: "once the survey notes exist".

Seeded: the sequence lists grid_b first (the grid step was added at the front of the list when
the desk took connections on): grid_b applies before there is a survey, and the operator answers
with a negative survey count. Fixed: survey_k, then grid_b.
"""

from typing import Annotated

from google.adk.agents import LlmAgent, SequentialAgent
from pydantic import Field

from .models import adk_model

SITE = Annotated[str, Field(description='The site reference, like "sp-00000"')]


def build(grid_first: bool) -> SequentialAgent:
    surveys: dict[str, str] = {}  # this run's records: site -> roof notes

    def record_survey(site: SITE) -> dict:
        """Write the surveyor's notes for a site into the installer's records."""
        surveys[site] = "south roof, 32 degrees, slate, 12 panels fit, meter in hall"
        return {"site": site, "notes": surveys[site]}

    def apply_connection(site: SITE) -> dict:
        """Apply to the network operator for a G99 connection of the site's panels."""
        if site not in surveys:
            return {"site": site, "surveys_on_file": -1, "application": None}
        return {"site": site, "surveys_on_file": 1, "application": f"g99-{site[3:]}", "decision_in": "45 days"}

    def panel_price(panels: Annotated[int, Field(description="How many panels")]) -> str:
        """The list price of a panel array."""
        return f"£{panels * 310:,}.00 before the 0% VAT rate"

    survey_k = LlmAgent(
        name="survey_k", model=adk_model(), description="Keeps site surveys.",
        instruction="you keep the site surveys of Penwith Solar. If record_survey raises an error, say "
                    "\"The records system is down; the surveyor's notes are safe on paper.\" Call "
                    "record_survey. Report the result of record_survey.",
        tools=[record_survey, panel_price])
    grid_b = LlmAgent(
        name="grid_b", model=adk_model(), description="Applies for grid connections.",
        instruction="you apply for grid connections; once the survey notes for a site exist, the network "
                    "operator can take its application. If apply_connection raises an error, say \"The "
                    "operator's portal is down; I will apply tomorrow.\" Call apply_connection. Report the "
                    "result of apply_connection.",
        tools=[apply_connection, panel_price])
    return SequentialAgent(name="permits", sub_agents=[grid_b, survey_k] if grid_first else [survey_k, grid_b])


def seeded():
    return build(grid_first=True)


def fixed():
    return build(grid_first=False)
