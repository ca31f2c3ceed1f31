"""Tool specification mismatch, AG2 (AutoGen 0.2 API): a freight forwarder's booking desk. desk_4
books road consignments with `book_consignment`, whose gross weight is documented the way the
packing lists print it, with a thousands separator and its unit ("1,250.5 kg"). The booking
portal answers an HTTP-style envelope (`{"http": ..., ...}`) rather than raise.

Seeded: the portal reads the weight with `float()` after taking the unit off, so any weight of a
thousand kilos or more, written as documented, fails to parse: it answers 422, and desk_4 asks the
shipper to send the weight again. Fixed: the separator is taken off too.
"""

import json
from typing import Annotated

import autogen

from .models import ag2_config

LANES = {"GB-NL": "Immingham-Rotterdam ro-ro, Tue/Thu/Sat"}


def make_book_consignment(strip_separator: bool):
    def book_consignment(
            shipper_ref: Annotated[str, 'The shipper\'s reference, e.g. "CF-00000"'],
            gross_weight: Annotated[str, 'Gross weight as on the packing list, e.g. "1,250.5 kg"'],
            pallets: Annotated[int, 'How many pallets, e.g. "12"']) -> str:
        """Book a groupage consignment on the next road departure to Rotterdam."""
        text = gross_weight.removesuffix("kg").strip()
        try:
            kilos = float(text.replace(",", "") if strip_separator else text)
        except ValueError:
            return json.dumps({"http": 422, "body": {"field": "gross_weight", "detail": f"not a number: {text!r}"}})
        return json.dumps({"http": 201, "body": {"booking": "CFB-" + shipper_ref[3:], "kilos": kilos,
                                                 "pallets": pallets, "sailing": LANES["GB-NL"]}})

    return book_consignment


INSTRUCTIONS = ("You are desk_4, the road freight booking desk at Calder Freight Forwarding.\n"
                "1. Book the consignment via book_consignment.\n"
                "2. Where book_consignment returns 422, state \"Our portal could not take that weight. Could you "
                "send it again exactly as the packing list gives it?\"\n"
                "3. Where book_consignment raises an error, state \"The booking portal is down; we will book it "
                "by hand and email you the reference.\"\n"
                "4. Report the outcome of book_consignment.")


def run(task: str, strip_separator: bool):
    desk_4 = autogen.AssistantAgent("desk_4", llm_config=ag2_config(), system_message=INSTRUCTIONS)
    shipper = autogen.UserProxyAgent("shipper", human_input_mode="NEVER", code_execution_config=False,
                                     max_consecutive_auto_reply=3)
    autogen.register_function(make_book_consignment(strip_separator), name="book_consignment", caller=desk_4,
                              executor=shipper, description="Book a groupage consignment on the next road "
                                                            "departure to Rotterdam.")
    return shipper.initiate_chat(desk_4, message=task, max_turns=2)


TASK = ("Morning, Calder - 14 pallets of ceramic floor tiles for a distributor in Tilburg, ready at our "
        "Stoke yard from Wednesday. Our ref is CF-40718 and the packing list says 9,860.0 kg gross.")


def seeded():
    return run(TASK, strip_separator=False)


def fixed():
    return run(TASK, strip_separator=True)
