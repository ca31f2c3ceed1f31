"""Two small teams whose agents pass work on in written notes, for `test_note_handovers.py`.

A piano tuning desk (OpenAI Agents SDK, the tuner run as a tool): `desk_p` passes the request to
`tuner_t` (`ask_tuner`), who books with `book_tuning`. `spelled`: the desk's instructions name
the piano and the day, and its note writes the day out in words ("the 14th of March 2026");
`dropped`: they name the piano only, so the note carries no day and the tuner has to ask.

A dog grooming parlour (AutoGen AgentChat, a round robin): `front_f` finds the dog with
`find_dog` and leaves a note for `groomer_g`, who books with `book_groom`. `cut`: the team stops
once `find_dog` has run, so the groomer never takes its turn; `whole`: it stops once
`book_groom` has run.

Every agent runs `policy`, a scripted model that reads its instructions: the tool it is to use
("... with TOOL"), and for a desk that passes work on, the facts its "Pass the ... to X" line
names. An argument is taken from the conversation by the shape of the tool's documented example,
a date in words is read back into the example's form, and a missing one is asked for.
"""

from __future__ import annotations

import ast
import re

from agents import Agent, function_tool

from examples.zoo.models import agentchat_client, model_string
from masfuzz.llm.scripted import call, say, tool_results

# -- the piano tuning desk (Agents SDK) -----------------------------------------------------------


@function_tool
def book_tuning(piano: str, tuning_day: str) -> dict:
    """Book the tuner's visit for a customer's piano.

    Args:
        piano: The piano's number on the service card, like "PN-1000".
        tuning_day: The day of the visit, like "2026-01-31".
    """
    return {"status": "booked", "piano": piano, "day": tuning_day, "visit": "TV-4410"}


def tuning_desk(passes: str) -> Agent:
    tuner_t = Agent(name="tuner_t", model=model_string(), tools=[book_tuning],
                    instructions="You are tuner_t, who keeps the tuning diary.\nBook the visit with book_tuning.")
    ask_tuner = tuner_t.as_tool(tool_name="ask_tuner", tool_description="Ask the tuner to book a piano tuning.")
    return Agent(name="desk_p", model=model_string(), tools=[ask_tuner],
                 instructions=f"You are desk_p at the piano shop.\nPass {passes} to ask_tuner.\n"
                              "Report what ask_tuner answered.")


def spelled():
    return tuning_desk("the piano number and the day")


def dropped():
    return tuning_desk("the piano number")


# -- the grooming parlour (AgentChat) -------------------------------------------------------------

DOGS = {"DG-3301": {"dog": "Biscuit", "tag": "DG-3301", "coat": "double"}}


def find_dog(tag: str) -> dict:
    """Find a dog's record by the tag on its collar, like "DG-1000"."""
    return DOGS.get(tag, {"status": 404, "tag": tag})


def book_groom(tag: str, groom_day: str) -> dict:
    """Book a full groom for a dog, by the tag on its collar, like "DG-1000", on a day, like "2026-01-31"."""
    return {"status": "booked", "tag": tag, "day": groom_day, "slot": "09:30"}


FRONT = "You are front_f at the grooming parlour.\nFind the dog with find_dog.\nPass the tag and the day to groomer_g."
GROOMER = "You are groomer_g at the grooming parlour.\nBook the groom with book_groom.\nSay what book_groom answered."


def parlour(stop_tool: str):
    from autogen_agentchat.agents import AssistantAgent
    from autogen_agentchat.conditions import FunctionCallTermination, MaxMessageTermination
    from autogen_agentchat.teams import RoundRobinGroupChat

    front_f = AssistantAgent("front_f", model_client=agentchat_client(), tools=[find_dog], system_message=FRONT,
                             reflect_on_tool_use=True)
    groomer_g = AssistantAgent("groomer_g", model_client=agentchat_client(), tools=[book_groom], reflect_on_tool_use=True,
                               system_message=GROOMER)
    stop = FunctionCallTermination(stop_tool) | MaxMessageTermination(8)
    return RoundRobinGroupChat([front_f, groomer_g], termination_condition=stop)


def cut():
    return parlour("find_dog")


def whole():
    return parlour("book_groom")


# -- the scripted model ---------------------------------------------------------------------------

MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august", "september",
          "october", "november", "december")


def _shape(description: str) -> re.Pattern | None:
    """The shape of a documented example (`like "PN-1000"`): digits for digits, letters for letters."""
    m = re.search(r'like "([^"]+)"', description)
    if not m:
        return None
    shape = "".join(r"\d" if c.isdigit() else "[A-Za-z]" if c.isalpha() else re.escape(c) for c in m.group(1))
    return re.compile(rf"(?<![\w-]){shape}(?![\w-])")


def _in_words(iso: str) -> str:
    """2026-03-14 as a person writes it: "the 14th of March 2026"."""
    year, month, day = (int(x) for x in iso.split("-"))
    nth = "th" if 10 <= day % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(day % 10, "th")
    return f"the {day}{nth} of {MONTHS[month - 1].title()} {year}"


def _dates(text: str) -> list[str]:
    """Every date of the text in the ISO form, whether written so or in words, in order."""
    found = [(m.start(), m.group(0)) for m in re.finditer(r"\b\d{4}-\d{2}-\d{2}\b", text)]
    for m in re.finditer(r"\b(\d{1,2})(?:st|nd|rd|th)? of ([A-Za-z]+) (\d{4})\b", text):
        if m.group(2).lower() in MONTHS:
            found.append((m.start(), f"{m.group(3)}-{MONTHS.index(m.group(2).lower()) + 1:02d}-{int(m.group(1)):02d}"))
    return [d for _, d in sorted(found)]


def _known(request) -> dict:
    out: dict = {}
    for r in tool_results(request):
        try:
            value = ast.literal_eval(r.content)
        except (ValueError, SyntaxError):
            continue
        if isinstance(value, dict):
            out.update(value)
    return out


def _note(lines: str, target: str, request, done: str = "") -> str:
    """A desk's note for the colleague its "Pass ... to TARGET" line names: the facts that line
    names (a number, a day), the day in words, the newest one the customer gave."""
    passes = re.search(rf"Pass (.+?) to {re.escape(target)}", lines).group(1)
    asked = " ".join(m.content or "" for m in request.messages if m.role == "user")
    facts = []
    if re.search(r"\b(?:number|tag)\b", passes) and (ref := re.search(r"\b[A-Z]{2}-\d{4}\b", asked)):
        facts.append(f"card {ref.group(0)}")
    if re.search(r"\bday\b", passes) and (days := _dates(asked)):
        facts.append(f"wanted on {_in_words(days[-1])}")
    return f"Note for {target}{done}: {', '.join(facts) or 'a customer request'}."


def policy(request):
    lines = next((m.content or "" for m in request.messages if m.role == "system"), "")
    names = [t.name for t in request.tools]
    # the tool its instructions give it ("... with TOOL."), offered or not: a reflection on the
    # tool's answer (AgentChat's reflect_on_tool_use) is asked without the tools
    own = re.search(r"\bwith (\w+)\.", lines)
    mine = next((t for t in request.tools if own and t.name == own.group(1)), None)
    passing = re.search(r"Pass .+? to (\w+)", lines)
    if passing and passing.group(1) in names:  # a desk that runs its colleague as a tool
        target = passing.group(1)
        if (answers := tool_results(request, target)):
            return say(f"The tuner says: {answers[-1].content}")
        return call(target, input=_note(lines, target, request))
    if own and (done := tool_results(request, own.group(1))):
        if passing:  # a desk in a team: it leaves a note for the colleague, with what is outstanding
            return say(f"{_note(lines, passing.group(1), request, ' (record found)')}\n"
                       f"Outstanding: {passing.group(1)} to take the booking")
        return say(f"{own.group(1)} answered: {done[-1].content}")
    if mine is None:
        return say("Noted.")
    heard = " ".join(m.content or "" for m in request.messages if m.role in ("user", "assistant"))
    known, args = _known(request), {}
    for name, schema in (mine.parameters.get("properties") or {}).items():
        if name in known:
            args[name] = known[name]
            continue
        shape = _shape(f"{schema.get('description', '')} {mine.description}" if "day" not in name
                       else 'like "2026-01-31"')
        found = [d for d in _dates(heard)] if "day" in name else \
            [m.group(0) for m in shape.finditer(heard)] if shape else []
        if not found:
            return say(f"Which {name.replace('_', ' ')} should I use?")
        args[name] = found[-1]
    return call(mine.name, **args)
