"""Loop, OpenAI Agents SDK (a handoff to a desk whose answer is a structured `output_type`): a
city tram network's season passes. `balcao_t` hands questions about pass applications to
`passes_p`, which checks an application with `pass_status` until it says ACTIVE and then tells
the customer, in a `PassAnswer`.

Seeded: pass_status looks applications up the way the old ticketing system keyed them, without
the hyphen the application form prints ("AP77120"): it never finds a form it has received, and
instead of saying so it answers PENDING, so passes_p checks again to the turn limit. Fixed: the look-up keys the
application as printed. In both, an application still under review answers PENDING with the
day the review ends, and a line gives that to the customer rather than ask again; a number no
form carries answers NOT_FOUND, and the customer is asked to check it.
"""

from __future__ import annotations

from agents import Agent, function_tool
from pydantic import BaseModel

from .models import model_string

RECEIVED = {"AP-77120", "AP-77161"}  # the forms taken in, as printed
APPLICATIONS = {"AP-77120": {"state": "ACTIVE", "card": "TC-40318", "valid": "01/06-30/09"},
                "AP-77161": {"state": "PENDING", "review_until": "20/06"}}


class PassAnswer(BaseModel):
    active: bool
    reference: str
    message: str


def make_pass_status(key):
    @function_tool
    def pass_status(application: str) -> dict:
        """Where a season pass application stands.

        Args:
            application: The application number printed on the form, e.g. "AP-00000".
        """
        if application.upper().strip() not in RECEIVED:
            return {"application": application, "state": "NOT_FOUND", "note": "no form with this number"}
        found = APPLICATIONS.get(key(application))
        if found is None:
            return {"application": application, "state": "PENDING", "note": "em processamento"}
        return {"application": application, **found}
    return pass_status


def old_key(number: str) -> str:
    return number.upper().replace("-", "").replace(" ", "")


def printed_key(number: str) -> str:
    return number.upper().replace(" ", "")


def build(key) -> Agent:
    passes_p = Agent(
        name="passes_p", model=model_string(), tools=[make_pass_status(key)], output_type=PassAnswer,
        instructions=("You look after season pass applications for Carris Elétricos.\n"
                      "If pass_status says NOT_FOUND, ask the customer to check the number printed on their form.\n"
                      "If pass_status says review_until, tell the customer the application is still under review "
                      "and until when.\n"
                      "Check the application with pass_status until it says ACTIVE.\n"
                      "Tell the customer the pass is active, with the card number."))
    return Agent(
        name="balcao_t", model=model_string(), handoffs=[passes_p],
        instructions=("You answer the tram network's customers in Lisbon.\n"
                      "Hand over to passes_p for pass questions."))


def seeded():
    return build(old_key)


def fixed():
    return build(printed_key)
