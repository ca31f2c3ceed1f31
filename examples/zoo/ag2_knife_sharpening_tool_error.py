"""Tool error not handled, AG2 two-agent chat (`register_function`, `max_consecutive_auto_reply`,
`is_termination_msg`): a mobile knife sharpener's order line. `edge_desk` quotes a job with
`quote_sharpening` and passes the till's answer on word for word, so the customer sees the price
exactly as the till shows it; `bench` runs the tool and ends the chat when the desk answers
without a tool call.

Seeded: the till indexes its price table by blade type, and the table has no row for serrated
bread knives (they go to a partner workshop): the documented "bread" raises KeyError, AG2 hands
the raw error back as the tool's answer, and the desk passes it on to the customer word for word.
Fixed: the till answers a blade it does not sharpen itself with the partner's terms.
"""

from typing import Annotated, Literal

import autogen

from .models import ag2_config

PRICES = {"chef": 6.0, "santoku": 6.0, "paring": 4.0, "cleaver": 8.0, "scissors": 5.0}
PARTNER = {"bread": "serrated edges go to Hartmann Schleiferei, 2 weeks, £9 a blade"}


def till(lookup):
    def quote_sharpening(
            blade: Literal["chef", "santoku", "paring", "bread", "cleaver", "scissors"],
            count: Annotated[int, 'The number of blades to sharpen, e.g. "2"']) -> dict:
        """Price a sharpening job at the market stall, per blade."""
        each = lookup(blade)
        if isinstance(each, str):
            return {"price": None, "sent_out": each}
        return {"price": f"£{each * count:.2f}", "ready": "while you wait, about 10 minutes a blade"}
    return quote_sharpening


def table_only(blade: str):
    return PRICES[blade]


def with_partner(blade: str):
    return PRICES[blade] if blade in PRICES else PARTNER.get(blade, "we don't sharpen that, sorry")


SYSTEM = ("you take sharpening orders for Keen Edge, a mobile knife sharpener at the farmers' markets.\n"
          "Quote the job with quote_sharpening.\n"
          "Pass on what quote_sharpening says word for word, so the price is exactly as the till shows it.")


def run(task: str, lookup):
    edge_desk = autogen.AssistantAgent("edge_desk", llm_config=ag2_config(), system_message=SYSTEM)
    bench = autogen.UserProxyAgent(
        "bench", human_input_mode="NEVER", code_execution_config=False, max_consecutive_auto_reply=4,
        is_termination_msg=lambda m: bool(m.get("content")) and not m.get("tool_calls"))
    autogen.register_function(till(lookup), caller=edge_desk, executor=bench,
                              description="Price a sharpening job at the market stall, per blade.")
    return bench.initiate_chat(edge_desk, message=task)


TASK = "how much to sharpen 1 bread knife?"


def seeded():
    return run(TASK, table_only)


def fixed():
    return run(TASK, with_partner)
