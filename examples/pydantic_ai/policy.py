"""A scripted model for the PydanticAI flight desk (examples/pydantic_ai/app.py).

Use it as `--sut-model scripted/examples/pydantic_ai/policy.py:policy`. It plays each agent as a
well-behaved model would, from what it is sent (`request.agent`, the messages, the tools offered,
the answer's JSON schema):

- the support agent looks the booking reference up, asks the seat desk for a seat named in the
  request, consults the refund or baggage specialist when asked about either, then answers from
  the tool results, saying so when a tool failed;
- the seat agent checks the row's seat map and answers with the typed `SeatChange` (a JSON
  answer, which masfuzz turns into PydanticAI's output tool call);
- the specialists quote their tool, or answer in one sentence.
"""

from __future__ import annotations

import json
import re

from masfuzz.llm.scripted import call, offered, say, tool_results

SEAT = re.compile(r"\b(\d{1,2})([A-F])\b")
REFERENCE = re.compile(r"\b([A-Z0-9]{6})\b")


def _first_user(request) -> str:
    return next((m.content or "" for m in request.messages if m.role == "user"), "")


def _support(request):
    text = _first_user(request)
    reference = REFERENCE.search(text)
    if reference and not tool_results(request, "lookup_booking"):
        return call("lookup_booking", booking_ref=reference.group(1))
    seat = SEAT.search(text)
    if seat and offered(request, "ask_seat_desk") and not tool_results(request, "ask_seat_desk"):
        return call("ask_seat_desk", request=f"The customer wants seat {seat.group(0)}.")
    for topic in ("refund", "baggage"):
        if topic in text.lower() and not tool_results(request, "consult"):
            return call("consult", topic=topic, question=text)
    results = [r.content for r in tool_results(request)]
    if any(not r or "error" in r.lower() or "fail" in r.lower() for r in results):
        return say("Sorry, one of our systems did not answer; please try again later.")
    return say("Done: " + "; ".join(results) if results else "How can I help with your flight?")


def _seat(request):
    seat = SEAT.search(_first_user(request))
    row, letter = (int(seat.group(1)), seat.group(2)) if seat else (1, "A")
    if not tool_results(request, "seat_map"):
        return call("seat_map", row=row)
    return say(json.dumps({"row": row, "seat": letter}))


def policy(request):
    if request.agent == "support_agent":
        return _support(request)
    if request.agent == "seat_agent":
        return _seat(request)
    if request.agent == "refund_agent" and not tool_results(request, "refund_policy"):
        return call("refund_policy", fare="flex" if "flex" in _first_user(request).lower() else "basic")
    results = tool_results(request)
    return say(results[-1].content if results else "One checked bag of 23 kg is included.")
