"""An Agents SDK app in plain Python with a quality gate, written as the SDK's
agent_patterns/deterministic.py is: `main()` reads the task with `input()`, an outline agent
drafts, a checker judges, and the story agent writes only when the checker says GOOD (else the
app exits). `policy` is a checker that says GOOD when the task asks for a good story."""

import sys

from agents import Agent, Runner

from masfuzz.llm.scripted import last_user_text, say

outline = Agent(name="outline", instructions="Outline a short story on the user's topic.")
checker = Agent(name="checker", instructions="Judge the outline: answer GOOD or BAD.")
story = Agent(name="story", instructions="Write the story from the outline.")


async def main():
    task = input("What kind of story do you want? ")
    draft = await Runner.run(outline, task)
    verdict = await Runner.run(checker, draft.final_output)
    if "GOOD" not in verdict.final_output:
        print("The outline is not good enough: stopping here.")
        sys.exit(0)
    return (await Runner.run(story, draft.final_output)).final_output


def policy(request):
    text = last_user_text(request)
    if request.agent == "outline":
        return say(f"Outline: {text}")
    if request.agent == "checker":
        return say("GOOD" if "good story" in text else "BAD")
    return say("Once upon a time.")
