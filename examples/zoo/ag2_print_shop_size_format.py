"""Tool specification mismatch, AG2 (AutoGen 0.2 API, tools registered with the decorators): a
print shop's web-order desk. `press_q` quotes paper stock (`stock_price`) and books print runs
(`book_run`) on the shop's press scheduler, whose answers are a numbered status and a note (0 is
booked, 31 a size the scheduler cannot read, 44 a stock it does not hold). `book_run` documents a
finished size as millimetres joined by a plain x ("297x420"), the form the web shop's order page
uses.

Seeded: the size is split on "×", the multiplication sign the scheduler's own job tickets print,
so every size written as documented comes back 31 and press_q says sorry and asks again. Fixed:
the size is read with the x it documents (and the sign the tickets use).
"""

import re
from typing import Annotated

import autogen

from .models import ag2_config

STOCKS = {"silk 170gsm": 0.42, "uncoated 120gsm": 0.18, "recycled 300gsm": 0.95}  # GBP a sheet at A3
SCHEDULE = {"Tue": "press 2 (Heidelberg SM52), 10:30", "Wed": "press 1 (Ryobi 524), 14:00"}
TICKET_SIGN = re.compile(r"(\d+)×(\d+)")
ORDER_PAGE_FORM = re.compile(r"(\d+)\s*[x×]\s*(\d+)")


def scheduler(size_form: re.Pattern):
    """The press scheduler's booking call: a numbered status and a note."""
    def book(job: str, size: str) -> tuple[int, str]:
        parsed = size_form.fullmatch(size.strip())
        if parsed is None:
            return 31, f"size {size!r} not readable"
        width, height = map(int, parsed.groups())
        return 0, f"{job} booked on {SCHEDULE['Tue']}: {width}x{height} mm, proofs by e-mail tonight"
    return book


PRESS_Q = ("you take web orders for Inkwell Print Co. on Leith Walk.\n"
           "Call book_run.\n"
           'If book_run raises an error, say "Our press scheduler is offline - we will book your run by hand and e-mail you."\n'
           'If book_run answers 31, say "Sorry, the press did not take that size. Could you send the finished size again?"\n'
           "Report the result of book_run.")


def run(task: str, size_form: re.Pattern):
    press_q = autogen.AssistantAgent("press_q", llm_config=ag2_config(), system_message=PRESS_Q)
    web_shop = autogen.UserProxyAgent("web_shop", human_input_mode="NEVER", code_execution_config=False,
                                      max_consecutive_auto_reply=3)
    schedule = scheduler(size_form)

    @web_shop.register_for_execution()
    @press_q.register_for_llm(description="Book a print run on the press scheduler.")
    def book_run(job: Annotated[str, 'The web order\'s job number, like "PQ-10000"'],
                 size: Annotated[str, 'The finished size in millimetres, width x height, like "210x297"']) -> str:
        status, note = schedule(job, size)
        return f"{status:02d} {note}"

    @web_shop.register_for_execution()
    @press_q.register_for_llm(description="The price per sheet of a paper stock.")
    def stock_price(stock: Annotated[str, 'The paper stock, like "silk 170gsm"']) -> str:
        price = STOCKS.get(stock.lower())
        return f"{stock}: GBP {price:.2f} a sheet" if price is not None else f"{stock}: not stocked"

    return web_shop.initiate_chat(press_q, message=task, max_turns=2)


TASK = "Job PQ-20031: 150 posters at 297x420, silk 170gsm."


def seeded():
    return run(TASK, TICKET_SIGN)


def fixed():
    return run(TASK, ORDER_PAGE_FORM)
