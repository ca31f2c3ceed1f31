"""Incorrect verification, OpenAI Agents SDK (a front agent handing over, as in the SDK's
customer-service example): a dog groomer's booking line. `reception` passes grooming requests to
`pawla`, who books the salon table with `book_groom`. The salon's diary runs behind a small web
service that answers an HTTP envelope: `http` is the transport's status (200 whenever the request
was read), and the booking's own state is nested in `data.state`, CONFIRMED or DECLINED (the
table has a weight limit for a one-groomer slot; the reason comes in the groomer's German).

Seeded: pawla's prompt was written against the diary's first version, which answered HTTP errors
for refusals: it checks for "error" or "500" and otherwise tells the owner the dog is booked in.
The `DECLINED` in `data.state` falls through to that confirmation. Fixed: the check is on the
booking's own state (and on any other failure the diary answers, such as a 404 for an unknown
card).
"""

from __future__ import annotations

from agents import Agent, function_tool

from .models import model_string

TABLE_LIMIT_KG = 30  # a one-groomer slot lifts no heavier dog onto the table
DOGS = {"DG-2207": ("Bramble", "Bernese mountain dog", 44), "DG-1130": ("Pip", "border terrier", 7)}
DIARY: dict[str, str] = {"2026-03-12 09:30": "DG-1130"}


@function_tool
def book_groom(dog_ref: str, slot: str) -> dict:
    """Book a dog onto the grooming table.

    Args:
        dog_ref: The dog's reference on its grooming card, e.g. "DG-0000".
        slot: The appointment, e.g. "2026-01-31 14:00".
    """
    dog = DOGS.get(dog_ref)
    if dog is None:
        return {"http": 404, "data": None}
    name, breed, kg = dog
    if kg > TABLE_LIMIT_KG:
        return {"http": 200, "data": {"state": "DECLINED", "dog": name,
                                      "notiz": f"{breed}, {kg} kg - zu schwer für den Einzeltisch, bitte Doppeltermin"}}
    if slot in DIARY:
        return {"http": 200, "data": {"state": "DECLINED", "dog": name, "notiz": "Termin schon vergeben"}}
    DIARY[slot] = dog_ref
    return {"http": 200, "data": {"state": "CONFIRMED", "dog": name, "slot": slot, "table": 2}}


SEEDED_CHECK = ('- If `book_groom` comes back with "error" or "500", say "Our booking diary is playing up - '
                'we will ring you back to fix a time."\n')
FIXED_CHECK = ("- If `book_groom` fails or comes back with DECLINED, apologise, explain what the salon said and "
               "offer another slot.\n")

PAWLA = """You book grooms at Muddy Paws, a dog grooming salon in Frome.
- Book the dog in with `book_groom`.
{check}- Once `book_groom` has answered, let the owner know the dog is booked in, then sign off with "See you and your pup soon!"
"""


def build(check: str) -> Agent:
    pawla = Agent(name="pawla", model=model_string(), tools=[book_groom],
                  handoff_description="Books grooming appointments.", instructions=PAWLA.format(check=check))
    return Agent(name="reception", model=model_string(), handoffs=[pawla], instructions=(
        "You answer the phone and chat for Muddy Paws grooming salon.\n"
        "- Pass the chat to `pawla` when it is about a groom, a trim, a bath, nails or an appointment.\n"
        '- For anything else, reply "We groom Tuesday to Saturday, 9 till 5 - anything else I can help with?"'))


def seeded():
    return build(SEEDED_CHECK)


def fixed():
    return build(FIXED_CHECK)
