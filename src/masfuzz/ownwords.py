"""masfuzz's own words in what a model is shown, and the marks by which they are known when a
model gives them back.

A small model sometimes answers with the worked example of masfuzz's tool-calling prompt ("It
is 21 C and sunny in Lisbon.") or repeats its instruction, and writes tool-call arguments that
are not JSON (kept as `RAW_ARGUMENTS`). What follows from such an answer is the model's doing,
made possible by masfuzz's prompt, not a defect of the app: the oracles attribute it to the
harness (`masfuzz.oracles.attribution`).
"""

from __future__ import annotations

# The worked examples of the tool-calling prompt (`masfuzz.llm.toolprompt`); REPLY is replaced
# by the name of the reply branch.
WORKED_EXAMPLES = """Example tools:
- get_weather(city: string): The current weather in a city.
- send_email(to: string, subject: string, body: string): Send an email.

Example conversation:
User: What's the weather like in Lisbon today?
Answer: {"tool": "get_weather", "arguments": {"city": "Lisbon"}}
Result of get_weather: 21 C and sunny
Answer: {"tool": "REPLY", "arguments": {"text": "It is 21 C and sunny in Lisbon."}}
User: Mail bob@example.com that the meeting moved to 3pm.
Answer: {"tool": "send_email", "arguments": {"to": "bob@example.com", "subject": "Meeting", "body": "The meeting moved to 3pm."}}
"""
ANSWER_INSTRUCTION = "Answer with one JSON object"

# Fragments of the above that no app's own answer is likely to contain.
ECHO_MARKS = ("21 C and sunny", "bob@example.com", "meeting moved to 3pm", "Example conversation:",
              "Example tools:", ANSWER_INSTRUCTION)

# A tool call whose arguments are not JSON keeps the raw text under this key: a malformed call
# is a finding about the model, not a crash of masfuzz.
RAW_ARGUMENTS = "_raw_arguments"

# masfuzz's own scripted models for the system under test (`masfuzz.control`): the probe calls
# every tool an agent is offered once, whatever the agent's instructions, so what it calls says
# nothing of the app's instructions (an agent's call of a `--restricted probe` stub included).
PROBE_MODELS = ("scripted/masfuzz.control:probe", "scripted/masfuzz.control:probe_handoffs_first")


def echoed(text: str) -> str | None:
    """The first of masfuzz's own fragments `text` repeats, if any."""
    low = text.lower()
    return next((m for m in ECHO_MARKS if m.lower() in low), None)
