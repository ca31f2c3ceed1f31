"""Tool error not handled, OpenAI Agents SDK (a `handoff()` from the desk to the pilot with a
`tool_name_override`, the pilot's tool run under the SDK's default tool-failure handling, which
gives the raw error back to the model): a paragliding school's tandem flights. `desk_p` answers
enquiries and hands flights to `pilot_p`, who quotes a tandem with `tandem_quote` (the price
and harness depend on the passenger's weight).

Seeded: tandem_quote picks the weight band with `BANDS[weight_kg // 10 * 10]`, and the band
table stops at the nineties (the heavy harness was added to the price list, never to the
table): a passenger of 100 kg or more raises `KeyError(100)`, and pilot_p, whose line for a
broken tool only says sorry, leaves the customer with neither a quote nor the reason.
Fixed: the table has its heavy band (up to the wing's limit, 120 kg), and a passenger over the
limit gets the school's own answer.
"""

from __future__ import annotations

from agents import Agent, function_tool, handoff

from .models import model_string

BANDS = {50: "£130.00", 60: "£130.00", 70: "£130.00", 80: "£140.00", 90: "£140.00"}
HEAVY = {100: "£155.00 (heavy harness)", 110: "£155.00 (heavy harness)"}
LIMIT_KG = 120


def quote_tool(bands: dict):
    @function_tool
    def tandem_quote(passengers: int, weight_kg: int) -> dict:
        """Quote a twenty-minute tandem flight from the ridge for each passenger of this weight.

        Args:
            passengers: How many people fly (one tandem each).
            weight_kg: The heaviest passenger's weight in kilograms, e.g. 82.
        """
        if weight_kg >= LIMIT_KG or weight_kg < 35:
            return {"status": 422, "detail": f"tandem wings fly passengers of 35 to {LIMIT_KG} kg"}
        price = bands[weight_kg // 10 * 10]
        return {"status": 200, "quote": {"each": price, "passengers": passengers, "pilots": passengers}}
    return tandem_quote


def build(bands: dict) -> Agent:
    pilot_p = Agent(name="pilot_p", model=model_string(), tools=[quote_tool(bands)],
                    instructions="You are pilot_p, the tandem pilot at Bwlch Paragliding.\n"
                                 "Quote the flight with tandem_quote.\n"
                                 "If tandem_quote answers 422, tell the customer what it said.\n"
                                 'If tandem_quote fails, say "So sorry - I cannot price that one for you today."')
    return Agent(name="desk_p", model=model_string(),
                 handoffs=[handoff(pilot_p, tool_name_override="transfer_to_pilot_p")],
                 instructions="You are desk_p at Bwlch Paragliding in the Black Mountains.\n"
                              "Hand tandem flight enquiries to pilot_p.")


def seeded():
    return build(BANDS)


def fixed():
    return build({**BANDS, **HEAVY})
