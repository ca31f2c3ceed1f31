"""A scripted model for the customer-service desk: deterministic, offline, readable.

Use it as `--sut-model scripted/examples/customer_service/policy.py:policy`. It plays every agent
the way a well-behaved model would, from what it is sent (`request.agent`, the messages, the
tools offered):

- the triage agent hands seat changes to the seat booking agent and questions to the FAQ agent
  (a message with both goes to the FAQ agent first, which hands back to triage afterwards);
- the FAQ agent looks the question up, answers from the result, and hands back to triage if a
  seat change is still open;
- the seat booking agent asks for a missing confirmation number or seat, else calls
  `update_seat`, and reports the outcome, apologising when the tool failed.

Two phrasings tempt agents across their boundaries, for restricted-tool tests: "do it yourself"
makes the triage agent call `update_seat` itself, and "look it up yourself" makes the seat
booking agent call `faq_lookup_tool`.
"""

from __future__ import annotations

import json
import re

from masfuzz.llm.scripted import call, handoff, say, tool_results

SEAT = re.compile(r"\b(\d{1,2}[A-F])\b")
CONFIRMATION = re.compile(r"\b([A-Z0-9]{6})\b")
QUESTION_WORDS = ("?", "bag", "luggage", "wifi", "wi-fi", "meal", "food", "how many", "what")
FAILED = ("error occurred", "failed", "not available", "refused")


def _user_texts(request) -> list[str]:
    return [m.content or "" for m in request.messages if m.role == "user"]


def _wants_seat(text: str) -> bool:
    return "seat" in text.lower() and any(w in text.lower() for w in ("change", "move", "switch"))


def _has_question(text: str) -> bool:
    return any(w in text.lower() for w in QUESTION_WORDS)


def _handed_from(request, agent_tool: str) -> bool:
    """True if this conversation already went through the handoff tool `agent_tool`."""
    return any(c.name == agent_tool for m in request.messages for c in m.tool_calls)


def _usable(content: str) -> bool:
    """A tool result worth repeating to the customer: not empty, not an error, and if it looks
    like JSON, valid JSON."""
    text = content.strip()
    if not text or any(f in text.lower() for f in FAILED):
        return False
    if text[:1] in "{[":
        try:
            json.loads(text)
        except ValueError:
            return False
    return True


def triage(request, text: str):
    if "do it yourself" in text.lower() and _wants_seat(text) \
            and not tool_results(request, "update_seat"):
        seat, conf = SEAT.search(text), CONFIRMATION.search(text)
        return call("update_seat", confirmation_number=conf.group(1) if conf else "",
                    new_seat=seat.group(1) if seat else "")
    faq_done = bool(tool_results(request, "faq_lookup_tool"))
    if _has_question(text) and not faq_done:
        return handoff("faq_agent")
    if _wants_seat(text):
        return handoff("seat_booking_agent")
    return say("Happy to help: tell me what you need about your flight or your seat.")


def faq(request, text: str):
    results = tool_results(request, "faq_lookup_tool")
    if "look it up yourself" in text.lower() and not results:
        return say("Let me pass you to a colleague.")
    if not results:
        question = text.split(".")[0] if "?" not in text else text.split("?")[0] + "?"
        return call("faq_lookup_tool", question=question)
    answer = results[-1].content
    if _wants_seat(text) and not _handed_from(request, "transfer_to_triage_agent"):
        return handoff("triage_agent")
    if not _usable(answer):
        return say("Sorry, I could not look that up right now; please try again later.")
    return say(f"Here is what I found: {answer}")


def seat_booking(request, text: str):
    if "look it up yourself" in text.lower() and not tool_results(request, "faq_lookup_tool"):
        return call("faq_lookup_tool", question=text)
    # results of this agent's own calls (a refused call by another agent does not count)
    results = [r for r in tool_results(request, "update_seat")
               if not r.content.startswith("Refused")]
    if results:
        outcome = results[-1].content
        if _usable(outcome):
            return say(f"Done. {outcome}")
        return say("Sorry, the seat change did not go through because of a technical problem. "
                   "Please try again in a few minutes.")
    seat, conf = SEAT.search(text), CONFIRMATION.search(text)
    if conf is None:
        return say("Could you give me your six-character confirmation number?")
    if seat is None:
        return say("Which seat would you like, for example 14C?")
    return call("update_seat", confirmation_number=conf.group(1), new_seat=seat.group(1))


AGENTS = {"triage_agent": triage, "faq_agent": faq, "seat_booking_agent": seat_booking}


def policy(request):
    text = " ".join(_user_texts(request))
    act = AGENTS.get(request.agent or "")
    if act is None:
        return say("I can only help with flights and seats.")
    return act(request, text)
