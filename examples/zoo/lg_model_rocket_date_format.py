"""Tool specification mismatch, LangGraph (langgraph-swarm: `create_swarm` of prebuilt agents with
`create_handoff_tool`): a model rocket club's launch-day desk. `hangar_r`, the club secretary,
routes launch bookings to `pad_k`, the range safety officer, who reserves a pad on the range with
`reserve_pad` (the pad is picked by the rocket's lift-off mass).

Seeded: reserve_pad documents the launch day as the club's forms write it ("31/01/2026") but
parses it as an ISO date, answering 422 to the very format it asks for.
Fixed: it parses the documented day/month/year.
"""

from __future__ import annotations

from datetime import date, datetime

from langchain_core.tools import tool
from langgraph.prebuilt import create_react_agent
from langgraph_swarm import create_handoff_tool, create_swarm

from .models import chat_model

LAUNCH_DAYS = {date(2026, 5, 16): "Bramcote Moor (waiver to 1,500 ft)", date(2026, 6, 13): "Bramcote Moor"}


def make_reserve_pad(documented_format: bool):
    @tool(parse_docstring=True)
    def reserve_pad(launch_day: str, rocket_mass_g: int) -> dict:
        """Reserve a launch pad and a range slot on a club launch day.

        Args:
            launch_day: The club launch day as written on the flight card, e.g. "31/01/2026".
            rocket_mass_g: The rocket's lift-off mass in grams (pads A-C take up to 1,500 g).
        """
        try:
            day = datetime.strptime(launch_day, "%d/%m/%Y").date() if documented_format \
                else date.fromisoformat(launch_day)
        except ValueError:
            return {"status": 422, "error": {"field": "launch_day", "msg": "expected YYYY-MM-DD"}}
        if day not in LAUNCH_DAYS:
            return {"status": 404, "error": {"field": "launch_day", "msg": "no club launch that day"}}
        pad = "A" if rocket_mass_g <= 500 else "B" if rocket_mass_g <= 1000 else "C"
        return {"status": 201, "slot": {"pad": pad, "site": LAUNCH_DAYS[day], "card": f"RK-{day:%m%d}{pad}",
                                        "rso_check": "09:30 at the flight line"}}

    return reserve_pad


def build(documented_format: bool):
    model = chat_model()
    hangar = create_react_agent(
        model, [create_handoff_tool(agent_name="pad_k", description="Pass a flyer to the range safety officer.")],
        name="hangar_r",
        prompt="You are the secretary of the Trent Valley Rocketry Club.\nRoute launch bookings and pads to pad_k.")
    pad = create_react_agent(
        model, [make_reserve_pad(documented_format)], name="pad_k",
        prompt="You are the range safety officer of the Trent Valley Rocketry Club.\n"
               "Reserve the pad with reserve_pad.\nGive the board.")
    return create_swarm([hangar, pad], default_active_agent="hangar_r").compile()


seeded = build(documented_format=False)
fixed = build(documented_format=True)
