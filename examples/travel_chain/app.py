"""A travel agency whose visa specialist sits three agents deep (OpenAI Agents SDK).

concierge --handoff--> travel_desk --handoff--> visa_desk (tool: check_entry_rules)

The concierge only passes on trip planning; only the travel desk knows to pass on entry-rule
questions. A request that asks about entry rules without sounding like trip planning stops at the
concierge, which is why masfuzz's path-aware realizer is given the route from the entry agent.

    masfuzz inspect examples/travel_chain/app.py:concierge --obligations
"""

from __future__ import annotations

from agents import Agent, function_tool

ENTRY_RULES = {
    "japan": "Visa-free for up to 90 days for most Western passports; passport valid for the stay.",
    "brazil": "Electronic visa needed for some nationalities; passport valid 6 months.",
    "kenya": "Electronic travel authorisation required before departure.",
}


@function_tool
def check_entry_rules(country: str, passport: str) -> str:
    """Look up the entry rules of a destination country for a given passport nationality.

    Args:
        country: The destination country.
        passport: The nationality of the traveller's passport.
    """
    rule = ENTRY_RULES.get(country.strip().lower())
    if rule is None:
        return f"No entry rules on file for {country}."
    return f"{country.title()} for {passport} passport holders: {rule}"


visa_desk = Agent(
    name="visa_desk",
    handoff_description="Knows visa and passport entry requirements of destination countries.",
    instructions="Answer questions about visas and entry requirements with the entry rules tool.",
    tools=[check_entry_rules],
)

travel_desk = Agent(
    name="travel_desk",
    handoff_description="Plans trips abroad: itineraries, destinations and travel documents.",
    instructions=(
        "You plan trips. Hand visa and passport questions to the visa desk; answer the rest."
    ),
    handoffs=[visa_desk],
)

concierge = Agent(
    name="concierge",
    handoff_description="The agency's front desk.",
    instructions=(
        "You greet customers. Hand anything about planning a trip to the travel desk; answer "
        "small talk yourself."
    ),
    handoffs=[travel_desk],
)
