"""Misrouted request, LangGraph supervisor (`langgraph_supervisor.create_supervisor`): a drone survey
firm's enquiries desk. `ops_desk` routes each job to a pilot team: `sky_m` flies photogrammetry
(`plan_mapping_flight`), `therm_2` flies the radiometric camera for thermal inspections
(`book_thermal_flight`).

Seeded: ops_desk's first routing line dates from before the firm bought its thermal camera, when
sky_m flew roof and thermal jobs with an RGB camera; the line still lists them, so a thermal
survey of a solar farm goes to sky_m, who books a mapping flight, and never reaches therm_2.
Fixed: the line lists sky_m's own jobs alone.
"""

from __future__ import annotations

from langchain_core.tools import tool
from langgraph.prebuilt import create_react_agent
from langgraph_supervisor import create_supervisor

from .models import chat_model

PILOTS = {"2026-04-21": ["Nadia (A2 CofC)", "Tom (GVC)"], "2026-04-22": ["Tom (GVC)"]}


@tool(parse_docstring=True)
def plan_mapping_flight(site: str, day: str) -> dict:
    """Plan an RGB photogrammetry flight (orthomosaic, 3D model, stockpile volumes) over a site.

    Args:
        site: The site's OS grid reference, e.g. "SK 123 456".
        day: The day to fly, e.g. "2026-01-31".
    """
    crew = PILOTS.get(day, [])
    return {"status": "PLANNED" if crew else "NO_CREW", "flight": f"MAP-{day[5:7]}{day[8:]}1",
            "payload": "RGB 45MP", "gsd": "2.1 cm/px", "crew": crew[:1]}


@tool(parse_docstring=True)
def book_thermal_flight(site: str, day: str) -> tuple:
    """Book a radiometric thermal inspection flight (solar panels, roofs, heat loss) over a site.

    Args:
        site: The site's OS grid reference, e.g. "SK 123 456".
        day: The day to fly, e.g. "2026-01-31".
    """
    if day not in PILOTS:
        return (409, "geen thermische piloot beschikbaar")
    return (201, {"state": "scheduled", "ref": f"TH-{day[8:]}{site[-3:]}", "window": "11:00-14:00, clear sky needed",
                  "camera": "radiometric 640x512"})


ROUTING = {
    "rgb days": "Transfer to sky_m for mapping, orthomosaics, stockpile volumes, roof or thermal surveys.",
    "thermal camera": "Transfer to sky_m for mapping, orthomosaics or stockpile volumes.",
}


def build(first_line: str):
    model = chat_model()
    sky_m = create_react_agent(
        model, [plan_mapping_flight], name="sky_m",
        prompt="You plan photogrammetry flights for Peak Aerial Surveys.\n"
               "Plan the flight with plan_mapping_flight.")
    therm_2 = create_react_agent(
        model, [book_thermal_flight], name="therm_2",
        prompt="You book thermal inspection flights for Peak Aerial Surveys.\n"
               "Book the flight with book_thermal_flight.\n"
               'If book_thermal_flight returns 409, report "No pilot" with the note.')
    return create_supervisor(
        [sky_m, therm_2], model=model, supervisor_name="ops_desk",
        prompt="You route enquiries at Peak Aerial Surveys.\n"
               f"{first_line}\n"
               "Transfer to therm_2 for thermal, heat loss or solar panel inspections.\n"
               'Say "Thanks, our pilots will be in touch."').compile()


def seeded():
    return build(ROUTING["rgb days"])


def fixed():
    return build(ROUTING["thermal camera"])
