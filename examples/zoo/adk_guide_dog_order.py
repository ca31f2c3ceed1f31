"""Speaking order, Google ADK `SequentialAgent` with session-state templating (`{paired_dog}` in an
instruction), a `before_agent_callback` that puts the template's defaults in the session state, and
an `after_agent_callback` that writes the step to the school's log: a guide-dog school's
matching office. `matcher_m` pairs a client with a trained dog by walking pace (`pair_dog`, which
records the dog in the session state); `classes_t` books the client's residential training class
with the dog they were paired with (`book_class`, which needs that dog).

Seeded: the pipeline lists its steps in the order of the school's old paper form, where the class
date came first: classes_t runs before matcher_m, its instruction still reads "not paired yet",
and it cannot book the class. Fixed: matcher_m pairs first.
"""

from typing import Annotated, Literal

from google.adk.agents import LlmAgent, SequentialAgent
from google.adk.agents.callback_context import CallbackContext
from google.adk.tools import ToolContext
from pydantic import Field

from .models import adk_model

CLIENT = Annotated[str, Field(description='The client reference from the application letter, e.g. "GD-0000"')]
DOGS = {"brisk": "Juno", "steady": "Pip", "gentle": "Bramble"}
LOG: list[str] = []


def pair_dog(client: CLIENT, pace: Literal["brisk", "steady", "gentle"], tool_context: ToolContext) -> dict:
    """Pair a client with a qualified dog whose walking pace matches theirs."""
    dog = DOGS[pace]
    tool_context.state["paired_dog"] = dog
    return {"match": {"result": "PAIRED", "dog": dog, "client": client, "trainer": "Sian"}}


def book_class(client: CLIENT, dog: Literal["Juno", "Pip", "Bramble"],
               start: Annotated[str, Field(description='The class start date, e.g. "2026-01-31"')],
               tool_context: ToolContext) -> dict:
    """Book a two-week residential training class for a client and the dog they were paired with."""
    if tool_context.state.get("paired_dog") != dog:
        return {"status": 409, "detail": f"{dog} ist diesem Klienten nicht zugeordnet"}
    return {"status": 201, "class": {"ref": f"TC-{client[3:]}", "start": start, "dog": dog, "room": "Larch"}}


def template_defaults(callback_context: CallbackContext):
    # ADK fills {paired_dog} from the session state and fails on a missing key
    callback_context.state["paired_dog"] = callback_context.state.get("paired_dog", "not paired yet")
    return None


def log_step(callback_context: CallbackContext):
    LOG.append(callback_context.agent_name)
    return None


def build(paper_form_order: bool) -> SequentialAgent:
    matcher_m = LlmAgent(
        name="matcher_m", model=adk_model(), description="Pairs clients with a qualified guide dog.",
        instruction="You match clients with dogs at the Fellside Guide Dog School.\n"
                    "Pair the client with a dog with pair_dog.\n"
                    "Report what pair_dog said.",
        tools=[pair_dog], after_agent_callback=log_step)
    classes_t = LlmAgent(
        name="classes_t", model=adk_model(),
        description="Books residential training classes for a client and the dog matcher_m paired them with.",
        instruction="You book residential classes at the Fellside Guide Dog School.\n"
                    "The client's dog is {paired_dog}.\n"
                    "Book the class with book_class.\n"
                    "If book_class says 409, explain that the class could not be booked and why.\n"
                    "Report what book_class said.",
        tools=[book_class], before_agent_callback=template_defaults, after_agent_callback=log_step)
    steps = [classes_t, matcher_m] if paper_form_order else [matcher_m, classes_t]
    return SequentialAgent(name="matching_office", sub_agents=steps, before_agent_callback=template_defaults)


def seeded():
    return build(paper_form_order=True)


def fixed():
    return build(paper_form_order=False)
