"""Incorrect verification, Agents SDK (a colleague agent run as a tool with `Agent.as_tool` and a
`custom_output_extractor` that hands back only the workshop's note): a saddlery's repair desk.
`desk_s` answers riders and passes repair bookings to the workshop, `workshop_w`, through the
`ask_workshop` tool; workshop_w books the bench with `book_restitch`, which declines a week the
bench is already full.

Seeded: workshop_w's closing line dates from the quiet winter months, when every restitch could be
taken: "Once book_restitch has answered" it writes the booking confirmation, whatever the tool
answered. A week the bench declines reaches the rider as confirmed.
Fixed: workshop_w writes what book_restitch answered.
"""

from __future__ import annotations

from agents import Agent, function_tool

BENCH_FULL = {"2026-04-13"}  # spring: every saddle in the county comes in before the season


@function_tool
def book_restitch(saddle_ref: str, week_of: str) -> dict:
    """Book a saddle onto the stitching bench for a week (girth straps, panels, billets).

    Args:
        saddle_ref: The saddle's reference on the customer's receipt, like "SD-1000".
        week_of: The Monday of the week wanted, like "2026-01-05".
    """
    if week_of in BENCH_FULL:
        return {"status": "declined", "reason": f"the stitching bench is full for the week of {week_of}",
                "next_free_week": "2026-04-27"}
    return {"status": "booked", "job": "RS-" + saddle_ref[-4:], "week_of": week_of, "collect": "Friday after 14:00"}


WORKSHOP_CLOSING = {
    "seeded": 'Once book_restitch has answered, write "We are pleased to confirm that your saddle is booked onto the '
              'stitching bench; please bring it in on the Monday."',
    "fixed": "Report what book_restitch answered.",
}


async def workshop_note(result) -> str:
    """Only the workshop's own note goes back to the desk, not its tool traffic."""
    return str(result.final_output)


def build(version: str) -> Agent:
    workshop_w = Agent(name="workshop_w", tools=[book_restitch],
                       instructions="You are workshop_w, the repair workshop at Hallam & Pike Saddlers.\n"
                                    "Book the repair with book_restitch.\n"
                                    'If book_restitch fails, write "The bench diary is not answering; nothing is booked yet."\n'
                                    + WORKSHOP_CLOSING[version])
    ask_workshop = workshop_w.as_tool(tool_name="ask_workshop",
                                      tool_description="Ask the repair workshop to book a saddle repair.",
                                      custom_output_extractor=workshop_note)
    return Agent(name="desk_s", tools=[ask_workshop],
                 instructions="You are desk_s at the front desk of Hallam & Pike Saddlers.\n"
                              "Pass repair bookings to ask_workshop.\n"
                              "Tell the customer what ask_workshop answered.")


seeded = build("seeded")
fixed = build("fixed")
