"""Information loss at a carry-over, AG2 (AutoGen 0.2 API): two chats in sequence
(`initiate_chats`); the intake agent logs the complaint, then the shipping agent ships a
replacement for the order the first chat found.

Seeded: the second chat excludes the first from its carry-over
(`finished_chat_indexes_to_exclude_from_carryover`), so the order number never reaches the
shipping agent, which asks for it again. Fixed: the carry-over is kept.
"""

from typing import Annotated

import autogen

from .models import ag2_config

ORDER = Annotated[str, 'The order number, like "ORD-1234"']


def log_complaint(order_number: ORDER) -> str:
    """Log a complaint about a damaged order."""
    return f"Complaint C-17 logged for order {order_number}: damaged on arrival."


def ship_replacement(order_number: ORDER) -> str:
    """Ship a replacement for an order."""
    return f"Replacement for order {order_number} ships tomorrow."


def handled(tool: str) -> str:
    """Both agents say plainly when their tool itself breaks, rather than pass its raw error on."""
    return f"If {tool} raises an error, say \"Sorry, our system is not answering; please try again later.\""


def run(task: str, exclude_first: bool):
    cfg = ag2_config()
    customer = autogen.UserProxyAgent("customer", human_input_mode="NEVER", code_execution_config=False)
    intake = autogen.AssistantAgent("intake", llm_config=cfg, system_message="You take complaints. "
                                    "Call log_complaint. " + handled("log_complaint")
                                    + " Report the result of log_complaint.")
    shipping = autogen.AssistantAgent("shipping", llm_config=cfg, system_message="You ship replacements. "
                                      "Call ship_replacement. " + handled("ship_replacement")
                                      + " Report the result of ship_replacement.")
    autogen.register_function(log_complaint, caller=intake, executor=customer, description="Log a complaint.")
    autogen.register_function(ship_replacement, caller=shipping, executor=customer,
                              description="Ship a replacement for an order.")
    second = {"sender": customer, "recipient": shipping, "message": "Ship a replacement for the damaged order.",
              "max_turns": 2, "summary_method": "last_msg"}
    if exclude_first:
        second["finished_chat_indexes_to_exclude_from_carryover"] = [0]
    return autogen.initiate_chats([
        {"sender": customer, "recipient": intake, "message": task, "max_turns": 2, "summary_method": "last_msg"},
        second])


TASK = "My order ORD-1234 arrived damaged."


def seeded():
    return run(TASK, exclude_first=True)


def fixed():
    return run(TASK, exclude_first=False)
