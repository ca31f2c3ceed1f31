"""Tool specification mismatch, AutoGen AgentChat (RoundRobinGroupChat): an equity research desk
writes a short company report, the way AgentChat's company-research example does, with a fourth
member for the filings. `stock_analysis_agent` pulls the price history with
`fetch_price_history`, `search_agent` reads the news with `news_search`, `filings_k` takes the
ratios from the latest filing with `key_ratios`, and `report_agent` writes it up; the team ends on
the report agent's TERMINATE (or a message limit).

Seeded: `fetch_price_history` documents the exchange-qualified symbol the data vendor's portal
shows, "NYSE:XOM", but its code still splits the symbol the way the old vendor wrote it
("XOM.N"), so it answers `{"status": {"code": 422, ...}}` to the very form it documents; the
analyst reports the prices unavailable and the report goes out without them. Fixed: the symbol
is split on the colon it is documented with.
"""

from __future__ import annotations

import sqlite3
from typing import Annotated

from autogen_agentchat.agents import AssistantAgent
from autogen_agentchat.conditions import MaxMessageTermination, TextMentionTermination
from autogen_agentchat.teams import RoundRobinGroupChat

from .models import agentchat_client

SYMBOL = Annotated[str, 'The exchange-qualified symbol as the vendor portal shows it, e.g. "NYSE:XOM"']
CLOSES = [("NASDAQ", "AAL", "2025-09-30", 11.23), ("NASDAQ", "AAL", "2025-12-31", 13.58),
          ("NASDAQ", "AAL", "2026-03-31", 15.06), ("NYSE", "DAL", "2026-03-31", 61.10)]


def vendor_db() -> sqlite3.Connection:
    """The data vendor's end-of-quarter closes, as the desk mirrors them."""
    db = sqlite3.connect(":memory:", check_same_thread=False)  # the team runs tools off the loop's thread
    db.execute("create table closes (exchange text, ticker text, day text, close real)")
    db.executemany("insert into closes values (?, ?, ?, ?)", CLOSES)
    return db


def price_tools(split_on: str):
    db = vendor_db()

    def fetch_price_history(symbol: SYMBOL) -> dict:
        """Quarter-end closing prices for a listed company over the last year."""
        if symbol.count(split_on) != 1:
            return {"status": {"code": 422, "reason": f"symbol {symbol!r} not understood; expected TICKER.X"}}
        if split_on == ":":
            exchange, ticker = symbol.split(":")
        else:
            ticker, exchange = symbol.split(".")
        rows = db.execute("select day, close from closes where exchange = ? and ticker = ? order by day",
                          (exchange, ticker)).fetchall()
        if not rows:
            return {"status": {"code": 404, "reason": f"no closes for {symbol}"}}
        first, last = rows[0][1], rows[-1][1]
        return {"status": {"code": 200}, "symbol": symbol, "closes": dict(rows),
                "change_pct": round((last - first) / first * 100, 1)}

    return fetch_price_history


def news_search(query: Annotated[str, "What to search the news wires for"]) -> list:
    """Recent headlines about a company from the desk's news wires."""
    return [{"wire": "RTRS", "headline": "American Airlines lifts full-year guidance on premium demand"},
            {"wire": "DJ", "headline": "Pilots' union ratifies four-year contract at American"}]


def key_ratios(symbol: SYMBOL) -> dict:
    """Leverage and margin ratios from the company's latest 10-Q."""
    return {"filing": "10-Q 2026-Q1", "ratios": {"net_debt_to_ebitda": 3.9, "operating_margin_pct": 6.8}}


def build(split_on: str) -> RoundRobinGroupChat:
    client = agentchat_client()
    stock = AssistantAgent(
        "stock_analysis_agent", model_client=client, tools=[price_tools(split_on)], reflect_on_tool_use=True,
        description="Pulls the share price history.",
        system_message="Equity desk, price history.\n"
                       "- fetch_price_history on the company's symbol.\n"
                       "- If fetch_price_history fails, reply: prices: unavailable, reason: <reason>\n"
                       "- reply: prices: <change_pct>% over four quarters")
    search = AssistantAgent(
        "search_agent", model_client=client, tools=[news_search], reflect_on_tool_use=True,
        description="Reads the news wires.",
        system_message="Equity desk, news.\n"
                       "- news_search for the company.\n"
                       "- reply: news: <headline>")
    filings = AssistantAgent(
        "filings_k", model_client=client, tools=[key_ratios], reflect_on_tool_use=True,
        description="Reads the latest filing.",
        system_message="Equity desk, filings.\n"
                       "- key_ratios on the company's symbol.\n"
                       "- reply: ratios: leverage <net_debt_to_ebitda>x, margin <operating_margin_pct>%")
    report = AssistantAgent(
        "report_agent", model_client=client, description="Writes the report.",
        system_message="Equity desk, report writer. You write from what your colleagues found.\n"
                       "- reply: report: drafted from prices, news and ratios, TERMINATE")
    return RoundRobinGroupChat([stock, search, filings, report],
                               termination_condition=TextMentionTermination("TERMINATE") | MaxMessageTermination(18))


def seeded():
    return build(".")


def fixed():
    return build(":")
