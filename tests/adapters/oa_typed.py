"""An Agents SDK agent with a typed answer (`output_type`), and a scripted model that answers it
in plain words: the SDK raises `ModelBehaviorError` ("Invalid JSON when parsing model output"),
the model's failure to give the type the app asks for, not a crash of the app's."""

from __future__ import annotations

from agents import Agent
from pydantic import BaseModel


class Verdict(BaseModel):
    approved: bool
    reason: str


reviewer = Agent(name="Grant reviewer", instructions="Review the grant request and give a verdict.",
                 output_type=Verdict)


def plain(request):
    """A model that ignores the requested format."""
    from masfuzz.llm.scripted import say

    return say("Looks fine to me.")
