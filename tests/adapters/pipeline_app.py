"""An Agents SDK app orchestrated in plain Python: a writer drafts, a reviewer reviews, and
while the reviewer does not say GOOD the writer revises (a loop with a quality gate)."""

from agents import Agent, Runner

writer = Agent(name="writer", instructions="Write a short draft on the topic you are given.")
reviewer = Agent(name="reviewer", instructions="Review the draft. Say GOOD when it is good.")


async def main(topic: str) -> str:
    draft = (await Runner.run(writer, topic)).final_output
    for _ in range(3):
        verdict = await _review(draft)
        if "GOOD" in verdict:
            break
        draft = (await Runner.run(writer, f"Revise it: {verdict}")).final_output
    return draft


async def _review(draft: str) -> str:
    return (await Runner.run(reviewer, draft)).final_output


