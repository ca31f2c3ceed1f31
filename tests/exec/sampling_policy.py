"""A scripted model whose answer depends on the sampling it is given: the temperature and seed of
each request, as a real model's would. Used to check that per-agent temperatures and the
execution nonce reach the agents whatever the framework."""

from masfuzz.llm.scripted import handoff, last_user_text, say


def policy(request):
    who = (request.agent or "").lower()
    if "triage" in who and "seat" in last_user_text(request).lower():
        return handoff("Seat Booking Agent")
    return say(f"{who} sampled at temperature={request.temperature} seed={request.seed}")
