"""Incorrect verification, OpenAI Agents SDK (agents as tools under a manager, an input
guardrail): a wedding marquee hire firm's enquiry desk. `front` plans each enquiry and runs two
desks as tools: `site_s`, who checks the venue's ground with `check_ground`, and `tents_b`, who
holds a marquee in the yard's diary with `hold_marquee`. An input guardrail turns away
enquiries for fireworks or sky lanterns, which the firm's insurance does not cover.

Seeded: tents_b's reporting line was written when `hold_marquee` could only ever hold: it marks
every step it ran ✅, so the yard's `{"status": {"code": 409, "state": "UNAVAILABLE"}}` (the
frame is out on another job that weekend) reaches front as a held marquee, and the couple are
told it is booked. Fixed: a step is marked ✅ only when its result says it went through.
"""

from __future__ import annotations

from dataclasses import dataclass

from agents import Agent, GuardrailFunctionOutput, function_tool, input_guardrail

from .models import model_string

GROUNDS = {"Hollins Farm": ("level paddock, firm", 22), "St Bride's Rectory": ("sloping lawn", 9)}
YARD = {("2026-06-20", "9x18m"): "out: Aldridge wedding, Cheltenham (back Monday)"}


@dataclass
class GroundReport:
    venue: str
    surface: str
    max_frame_width_m: int
    pegging: str


@function_tool
def check_ground(venue: str) -> GroundReport:
    """Check whether a venue's ground takes a marquee.

    Args:
        venue: The venue's name, e.g. "Hollins Farm".
    """
    surface, width = GROUNDS.get(venue, ("unsurveyed", 0))
    return GroundReport(venue, surface, width, "stakes" if width else "site visit needed")


@function_tool
def hold_marquee(event_date: str, guests: int) -> dict:
    """Hold a marquee in the yard's diary for an event.

    Args:
        event_date: The day of the event, e.g. "2026-01-31".
        guests: How many guests are seated.
    """
    frame = "9x18m" if guests > 60 else "6x12m"
    out = YARD.get((event_date, frame))
    if out:
        return {"status": {"code": 409, "state": "UNAVAILABLE"}, "frame": frame,
                "detail": f"the {frame} frame is {out}"}
    return {"status": {"code": 201, "state": "HELD"}, "frame": frame, "hold_ref": f"MQ-{event_date[5:7]}{event_date[8:]}"}


@input_guardrail
def no_pyrotechnics(ctx, agent, message) -> GuardrailFunctionOutput:
    """The firm's insurance excludes fireworks and sky lanterns near canvas."""
    text = message if isinstance(message, str) else " ".join(str(m.get("content", "")) for m in message)
    banned = any(w in text.lower() for w in ("firework", "sky lantern", "chinese lantern"))
    return GuardrailFunctionOutput(output_info={"pyrotechnics": banned}, tripwire_triggered=banned)


REPORTING = {
    "seeded": "In your summary, mark every step you ran ✅.",
    "fixed": "In your summary, mark a step ✅ only when its result says it went through; otherwise ❌ with the reason.",
}


def build(reporting: str) -> Agent:
    site_s = Agent(name="site_s", model=model_string(), tools=[check_ground], instructions=(
        "You survey venues for Pegasus Marquees.\n"
        "Check the venue's ground with check_ground.\n"
        'If check_ground raises an error, say "The survey records are offline; we will ring the venue."\n'
        "In your summary, mark a step ✅ only when its result says it went through; otherwise ❌ with the reason."))
    tents_b = Agent(name="tents_b", model=model_string(), tools=[hold_marquee], instructions=(
        "You keep the yard's diary at Pegasus Marquees.\n"
        "Hold a marquee for the event with hold_marquee.\n"
        'If hold_marquee raises an error, say "The yard diary is offline; we will confirm by phone."\n'
        + reporting))
    return Agent(name="front", model=model_string(), input_guardrails=[no_pyrotechnics], tools=[
        site_s.as_tool(tool_name="ask_site", tool_description="Ask the site surveyor about a venue's ground."),
        tents_b.as_tool(tool_name="ask_yard", tool_description="Ask the yard to hold a marquee."),
    ], instructions=(
        "You answer enquiries to Pegasus Marquees, wedding and party marquee hire.\n"
        "First put the venue to the surveyor with ask_site, giving the venue's name.\n"
        "Then ask the yard to hold a marquee with ask_yard, giving the date and the number of guests.\n"
        'If ask_site or ask_yard raises an error, say "Sorry, our diary is not reachable; we will call you back today."\n'
        "Mark each step in your summary by what the desk reported.\n"
        'Sign off with "Pegasus Marquees - raising the roof since 1987."'))


def seeded():
    return build(REPORTING["seeded"])


def fixed():
    return build(REPORTING["fixed"])
