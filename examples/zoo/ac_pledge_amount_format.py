"""Tool specification mismatch, AgentChat Swarm: a Dutch animal shelter's donations chat. balie
reads a message and hands gifts to gift_d, whose `pledge_gift` asks for the monthly amount in
euros written the Dutch way, with a decimal comma ("12,50"). The donations backend answers in
Dutch and never raises: a pledge it will not take comes back `"resultaat": "geweigerd"`, and
gift_d apologises and asks again.

Seeded: `pledge_gift` reads the amount with `Decimal(amount)`, which takes a decimal point only:
every amount written as documented is refused. Fixed: it turns the comma into a point first.
"""

from decimal import Decimal, InvalidOperation
from typing import Annotated

from autogen_agentchat.agents import AssistantAgent
from autogen_agentchat.conditions import MaxMessageTermination, TextMessageTermination
from autogen_agentchat.teams import Swarm

from .models import agentchat_client


def backend(read):
    def pledge_gift(amount: Annotated[str, 'The monthly gift in euros with a decimal comma, like "12,50"']) -> dict:
        """Set up a monthly gift to the shelter by direct debit."""
        try:
            euros = Decimal(read(amount))
        except InvalidOperation:
            return {"resultaat": "geweigerd", "veld": "bedrag", "waarde": amount}
        return {"resultaat": "vastgelegd", "per_maand": f"€ {euros:.2f}", "eerste_incasso": "1 oktober"}
    return pledge_gift


def adoption_list(kind: Annotated[str, 'The animal, like "cat"']) -> str:
    """Animals of a kind waiting for a home."""
    return f"{kind}: 9 waiting, see the website"


def build(read) -> Swarm:
    client = agentchat_client()
    balie = AssistantAgent(
        "balie", model_client=client, handoffs=["gift_d"], tools=[adoption_list],
        system_message="you read messages to Dierenasiel De Hoeve. Hand off to gift_d when the request mentions "
                       "donate, gift, monthly or support. Say \"Thank you - someone from the shelter will answer "
                       "you within a day.\"")
    gift_d = AssistantAgent(
        "gift_d", model_client=client, tools=[backend(read), adoption_list], reflect_on_tool_use=True,
        system_message="you set up gifts to Dierenasiel De Hoeve. If pledge_gift raises an error, say \"Our "
                       "donations system is down; please try again tomorrow.\" Call pledge_gift. If pledge_gift "
                       "answers geweigerd, say \"Sorry, that amount did not go through. Could you give it to me "
                       "again?\" Report the result of pledge_gift.")
    return Swarm([balie, gift_d], termination_condition=TextMessageTermination("gift_d")
                 | TextMessageTermination("balie") | MaxMessageTermination(12))


def seeded():
    return build(lambda amount: amount)


def fixed():
    return build(lambda amount: amount.replace(".", "").replace(",", "."))
