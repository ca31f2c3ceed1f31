"""A scripted policy for the seat-change request the tests and `masfuzz models check` send."""

from masfuzz.llm.scripted import call, handoff, last_user_text, say, tool_results


def policy(request):
    if request.agent == "Triage Agent":
        return handoff("Seat Booking Agent")
    results = tool_results(request, "update_seat")
    if results:
        return say(f"Done: {results[-1].content}")
    text = last_user_text(request)
    words = text.replace(",", " ").split()
    confirmation = next((w for w in words if w.isupper() and len(w) == 6), "UNKNOWN")
    words = [w.strip(".!?") for w in words]
    seat = next((w for w in words if w[:-1].isdigit() and w[-1:].isalpha()), "1A")
    return call("update_seat", confirmation_number=confirmation, new_seat=seat)


async def async_policy(request):
    return "hello from an async policy"


def broken(request):
    raise ValueError("policy bug")


def returns_none(request):
    return None


not_callable = 42


async def slow(request):
    import asyncio

    await asyncio.sleep(5)
    return "too late"
