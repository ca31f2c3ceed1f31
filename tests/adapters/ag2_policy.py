"""Scripted model for tests/adapters/test_ag2_shapes.py: each agent of ag2_systems.py and
fixtures_ag2/onboarding.py answers in its role, from what it is asked."""

from masfuzz.llm.scripted import call, say, tool_results


def policy(request):
    agent = request.agent or ""
    text = "\n".join(m.content or "" for m in request.messages)
    if agent == "summarizer":
        return say("Summary: " + " ".join(text.split()[-12:]))
    if agent == "cathy":
        return say("Why did the comedian cross the road? To get to the punchline!")
    if agent == "joe":
        return say("Punchline received. I gotta go")
    if agent == "writer":
        return say("Draft: DeepLearning.AI teaches AI to everyone." if "Feedback" not in text
                   else "Revised: DeepLearning.AI teaches AI to everyone, with clear courses.")
    if agent == "critic":
        return say("Feedback: add a call to action.")
    if agent == "seo_reviewer":
        return say("SEO: use the keyword 'AI courses'.")
    if agent == "legal_reviewer":
        return say("Legal: no issues.")
    if agent == "coder":
        import os

        marker = os.environ["CODER_MARKER"]
        return say(f"```python\nopen({marker!r}, 'w').write('ran')\nprint('written')\n```")
    if agent == "currency_bot":
        results = tool_results(request, "currency_calculator")
        if not results:
            return call("currency_calculator", base_amount=123.45, base_currency="USD",
                        quote_currency="EUR")
        return say(f"123.45 USD is {results[-1].content}. TERMINATE")
    if agent.startswith("onboarding") or agent == "customer_engagement_agent":
        return say(f"Thanks, noted. TERMINATE ({agent})")
    return say(f"{agent} did its part.")


def thermometer(request):
    """Every agent says which temperature its request carried."""
    return say(f"{request.agent} at temperature {request.temperature}")


def other_family(request):
    """A second model family: it answers in its own words."""
    return say(f"{request.agent} answered by the other family")
