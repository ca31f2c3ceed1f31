"""Scripted model for the travel chain: each agent acts on what the customer actually asked.

It mirrors how the agents' instructions read: the concierge passes on only trip planning, the
travel desk passes on only visa/passport questions, the visa desk uses its tool once and answers.
"""

from __future__ import annotations

import re

from masfuzz.llm.scripted import call, handoff, last_user_text, say, tool_results

TRIP = ("trip", "travel", "holiday", "vacation", "itinerary", "journey")
VISA = ("visa", "passport", "entry requirement", "entry rule")


def _mentions(text: str, words: tuple[str, ...]) -> bool:
    return any(w in text for w in words)


def policy(request):
    text = last_user_text(request).lower()
    if request.agent == "concierge":
        return handoff("travel_desk") if _mentions(text, TRIP) else say("Welcome! How can I help?")
    if request.agent == "travel_desk":
        return handoff("visa_desk") if _mentions(text, VISA) else say("Here is a trip plan.")
    if request.agent == "visa_desk":
        results = tool_results(request, "check_entry_rules")
        if results:
            return say(f"Here is what applies: {results[-1]}")
        country = next((c for c in ("japan", "brazil", "kenya") if c in text), "japan")
        m = re.search(r"(\w+) passport", text)
        return call("check_entry_rules", country=country, passport=m.group(1) if m else "unknown")
    return say("I can't help with that.")
