"""Loop, OpenAI Agents SDK (a `handoff()` with an `on_handoff` callback writing the hand-over to
the install log, the Runner's turn limit): a home EV charger installer. `front_f` takes the
customer's question and hands it to `install_i`, who checks the network operator's verdict on the
customer's application with `dno_status` before a fitting day can be set.

Seeded: `dno_status` looks the application up in the operator's export, whose references were
typed in without their hyphen ("EV6618"); the tool looks up the reference as given ("EV-6618"),
finds nothing and answers "pending" for ever, so install_i, told to check "until it says
approved", checks the same application to the turn limit.
Fixed: the tool takes the hyphen out before it looks the reference up.
"""

from __future__ import annotations

from agents import Agent, function_tool, handoff

from .models import model_string

EXPORT = {"EV6618": {"verdict": "approved", "max_kw": 7.4, "approved_on": "2026-02-20"}}
HANDED: list[str] = []


def status_tool(normalise):
    @function_tool
    def dno_status(application: str) -> dict:
        """The network operator's verdict on a charger application (installs wait for approval).

        Args:
            application: The customer's application reference, like "EV-1000".
        """
        found = EXPORT.get(normalise(application))
        if found is None:
            return {"application": application, "verdict": "pending", "note": "no decision in the export yet"}
        return {"application": application, **found}

    return dno_status


def log_handoff(ctx) -> None:
    """The install log notes every enquiry the front desk passes on."""
    HANDED.append("install_i")


def build(normalise) -> Agent:
    install_i = Agent(name="install_i", model=model_string(), tools=[status_tool(normalise)],
                      instructions="You are install_i, the install planner at Brightwire Home Charging.\n"
                                   "Check the application with dno_status until it says approved.\n"
                                   'If dno_status fails, say "The operator\'s portal is not answering; we will check again tomorrow."\n'
                                   "Report the result of dno_status.")
    return Agent(name="front_f", model=model_string(),
                 handoffs=[handoff(install_i, on_handoff=log_handoff)],
                 instructions="You are front_f at Brightwire Home Charging.\n"
                              "Hand over the application ref to install_i.")


def seeded():
    return build(lambda ref: ref.strip().upper())  # the export's references have no hyphen


def fixed():
    return build(lambda ref: ref.strip().upper().replace("-", ""))
