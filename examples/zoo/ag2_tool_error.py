"""Tool execution error not handled, AG2 (AutoGen 0.2 API): the currency tool raises on a currency
it has no rate for, and the assistant hands the raw error to the user; a user proxy runs the tool.

Seeded: `convert` indexes its rate table and raises KeyError for an unlisted currency. Fixed: it
answers that it has no rate for that currency, and the assistant, should the tool still break,
says so without passing the raw error on.
"""

from typing import Annotated

import autogen

from .models import ag2_config

RATES = {"USD": 1.08, "GBP": 0.85, "CHF": 0.94}


def make_convert(checked: bool):
    def convert(amount: Annotated[float, 'The amount in euros, like "100.00"'],
                currency: Annotated[str, 'The currency to convert to, like "USD"']) -> str:
        """Convert euros to another currency."""
        if checked and currency not in RATES:
            return f"No exchange rate for {currency}; I can convert to {', '.join(RATES)}."
        return f"EUR {amount:.2f} is {currency} {amount * RATES[currency]:.2f}."

    return convert


HANDLED = " If convert raises an error, say \"Sorry, I cannot convert money right now; please try again later.\""


def run(task: str, checked: bool):
    assistant = autogen.AssistantAgent("exchange_assistant", llm_config=ag2_config(),
                                       system_message="You convert currencies. Call convert."
                                       + (HANDLED if checked else "") + " Report the result of convert.")
    user = autogen.UserProxyAgent("customer", human_input_mode="NEVER", code_execution_config=False,
                                  max_consecutive_auto_reply=3)
    autogen.register_function(make_convert(checked), caller=assistant, executor=user,
                              description="Convert euros to another currency.")
    return user.initiate_chat(assistant, message=task, max_turns=2)


TASK = "How much is 250.00 euros in JPY?"


def seeded():
    return run(TASK, checked=False)


def fixed():
    return run(TASK, checked=True)
