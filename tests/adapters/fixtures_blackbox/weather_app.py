"""An unmodified-style app: asks the user with input(), runs a tool loop with the openai SDK.
With `--batch` it asks nothing and runs the loop once per traveller instead (as PydanticAI's
medical-delegation example runs triage once per patient): each run a new conversation, sharing
no history with the run before."""

import json
import sys

from openai import OpenAI

client = OpenAI()  # base URL and key from the environment, as most apps do
TOOLS = [{"type": "function", "function": {
    "name": "get_weather", "parameters": {"type": "object", "properties": {"city": {"type": "string"}}}}}]


def forecast(question: str) -> str:
    msgs = [{"role": "system", "content": "You are Forecaster. Use tools."},
            {"role": "user", "content": question}]
    while True:
        r = client.chat.completions.create(model="gpt-4o", messages=msgs, tools=TOOLS)
        m = r.choices[0].message
        if not m.tool_calls:
            return m.content
        msgs.append(m.model_dump(exclude_none=True))
        for c in m.tool_calls:
            city = json.loads(c.function.arguments)["city"]
            msgs.append({"role": "tool", "tool_call_id": c.id, "content": f"sunny in {city}"})


if "--batch" in sys.argv:
    for traveller in ("Ada", "Ben", "Cy"):
        print(traveller, forecast("Weather in Paris?"))
else:
    print("ANSWER:", forecast(input("Your question: ")))
    again = input("Anything else? ")
    print("user said:", again)
