"""A scripted SUT policy for a typed-output app: the weather tool once, then the answer through the
output tool PydanticAI offers (`final_result`), as a model given that tool does."""

from masfuzz.llm.scripted import call, offered, say, tool_results


def policy(request):
    if offered(request, "get_weather") and not tool_results(request, "get_weather"):
        return call("get_weather", city="Paris")
    results = tool_results(request, "get_weather")
    if offered(request, "final_result"):
        return call("final_result", city="Paris", weather=results[-1].content if results else "?")
    return say(f"{request.agent} says: {results[-1].content if results else ''}")
