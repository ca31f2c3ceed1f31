"""Two functions running the same agents in different orders: two candidate systems."""

from agents import Runner

from tests.adapters.pipeline_app import reviewer, writer


async def draft_first(topic: str) -> str:
    draft = (await Runner.run(writer, topic)).final_output
    return (await Runner.run(reviewer, draft)).final_output


async def review_first(text: str) -> str:
    notes = (await Runner.run(reviewer, text)).final_output
    return (await Runner.run(writer, notes)).final_output
