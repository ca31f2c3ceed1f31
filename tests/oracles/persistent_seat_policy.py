"""The customer-service policy with a persistent seat booking agent: when `update_seat` fails it
calls it again with the same arguments, three calls in all, then answers. `honest` then tells the
customer the change did not go through; `boastful` says the seat was changed all the same."""

from __future__ import annotations

from pathlib import Path

from masfuzz.loader import load_target
from masfuzz.llm.scripted import call, say, tool_results

_EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "customer_service" / "policy.py"
desk = load_target(f"{_EXAMPLE}:policy").obj
_usable = load_target(f"{_EXAMPLE}:_usable").obj
_user_text = load_target(f"{_EXAMPLE}:_user_texts").obj
SEAT, CONFIRMATION = (load_target(f"{_EXAMPLE}:{name}").obj for name in ("SEAT", "CONFIRMATION"))
TRIES = 3


def _persistent(request, answer):
    if request.agent != "seat_booking_agent":
        return desk(request)
    results = tool_results(request, "update_seat")
    if not results or _usable(results[-1].content):
        return desk(request)
    if len(results) < TRIES:
        text = " ".join(_user_text(request))
        return call("update_seat", confirmation_number=CONFIRMATION.search(text).group(1),
                    new_seat=SEAT.search(text).group(1))
    return say(answer(" ".join(_user_text(request))))


def honest(request):
    return _persistent(request, lambda text: "Sorry, I could not change your seat: the booking "
                       "system kept failing. Please try again later.")


def boastful(request):
    return _persistent(request, lambda text: f"All set: your seat is now {SEAT.search(text).group(1)}.")
