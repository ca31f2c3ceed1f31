"""Tool error not handled, Agents SDK (a function tool whose `failure_error_function` writes the
exception out for the model, as the SDK does by default): a milliner's made-to-measure desk.
`hats_h` quotes a hat with `quote_hat`, from the style and the customer's head measurement in
centimetres.

Seeded: the block table was typed in from the milliner's old chart, which goes in even
centimetres only (the blocks she owned then): any odd measurement, 57 cm among them, raises
KeyError, and the customer gets neither a price nor a date.
Fixed: a measurement between two blocks is made on the larger one, with padding, and one outside
the blocks' range is refused in words.
"""

from __future__ import annotations

from typing import Literal

from agents import Agent, function_tool

BLOCKS = {54: "B54", 56: "B56", 58: "B58", 60: "B60", 62: "B62"}
PRICES = {"fedora": 240, "cloche": 185, "boater": 210, "pillbox": 150}


def say_it_failed(ctx, error: Exception) -> str:
    return f"quote_hat failed: {type(error).__name__}: {error}"


def make_quote_hat(round_up: bool):
    @function_tool(failure_error_function=say_it_failed)
    def quote_hat(style: Literal["fedora", "cloche", "boater", "pillbox"], head_cm: int) -> dict:
        """Quote a made-to-measure felt or straw hat: the price, the block it is made on and the
        weeks it takes.

        Args:
            style: The hat's style.
            head_cm: The customer's head measurement in whole centimetres, 52 to 63.
        """
        if round_up and not 52 <= head_cm <= 63:
            return {"status": "refused", "reason": "we make hats for heads of 52 to 63 cm only"}
        size = head_cm + 1 if round_up and head_cm % 2 else head_cm
        block = BLOCKS[size]
        return {"quote": f"HQ-{head_cm}{len(style)}", "style": style, "block": block,
                "price": f"£{PRICES[style]}.00", "weeks": 5, "padding": size != head_cm}
    return quote_hat


def build(round_up: bool) -> Agent:
    return Agent(name="hats_h", tools=[make_quote_hat(round_up)],
                 instructions="You are hats_h at Bramble & Veil Millinery, taking made-to-measure orders.\n"
                              "Quote the hat with quote_hat.\n"
                              "Tell the customer what quote_hat answered: the price, the block and the weeks it takes.")


seeded = build(False)
fixed = build(True)
