"""Misrouted request, LangGraph (langgraph-supervisor): an Italian real-estate analyst for
buyers relocating to Rome and Milan. `planner`, the supervisor, reads the client's message and
hands it on: `listings_rag` searches the agency's listings (a SQLite table of the portals'
ads, Italian field names) with `search_listings`, `finance_agent` prices a mortgage with
`mortgage_quote`, and `trends_k` reads the area price index with `area_trend`.

Seeded: planner's routing lines are from the agency's letting days, when listings_rag held only
rentals: a flat for sale falls under the finance line ("purchase"), so a buyer's search goes to
finance_agent, which can quote a mortgage but cannot search a single listing. Fixed: the
listings line covers homes for sale as well as rentals.
"""

from __future__ import annotations

import re
import sqlite3

from langchain_core.tools import tool
from langgraph.prebuilt import create_react_agent
from langgraph_supervisor import create_supervisor

from .models import chat_model

ADS = [("RM-1182", "Roma", "Monti", 2, 438_000, "vendita"), ("RM-1190", "Roma", "Trastevere", 2, 405_000, "vendita"),
       ("RM-1201", "Roma", "Pigneto", 3, 389_000, "vendita"), ("RM-0977", "Roma", "Monti", 2, 1_850, "affitto"),
       ("MI-2210", "Milano", "Isola", 2, 415_000, "vendita")]
CITIES = {"rome": "Roma", "roma": "Roma", "milan": "Milano", "milano": "Milano"}


def listings_db() -> sqlite3.Connection:
    db = sqlite3.connect(":memory:", check_same_thread=False)  # the graph runs tools off the caller's thread
    db.execute("create table annunci (rif text, citta text, zona text, camere int, prezzo int, contratto text)")
    db.executemany("insert into annunci values (?, ?, ?, ?, ?, ?)", ADS)
    return db


DB = listings_db()


@tool(parse_docstring=True)
def search_listings(query: str) -> list:
    """Search the agency's listings (portal ads) for homes that fit a client's request.

    Args:
        query: The client's request in their own words.
    """
    words = query.lower()
    city = next((c for w, c in CITIES.items() if re.search(rf"\b{w}\b", words)), None)
    beds = re.search(r"\b(two|three|\d)[- ]bed", words)
    budget = re.search(r"€\s?([\d,.]+)", query)
    sql, args = "select rif, zona, camere, prezzo from annunci where contratto = 'vendita'", []
    if city:
        sql, args = sql + " and citta = ?", [*args, city]
    if beds:
        sql, args = sql + " and camere >= ?", [*args, {"two": 2, "three": 3}.get(beds.group(1)) or int(beds.group(1))]
    if budget:
        sql, args = sql + " and prezzo <= ?", [*args, int(re.sub(r"[,.]", "", budget.group(1)))]
    return [{"rif": r, "zona": z, "camere": c, "prezzo": f"€{p:,}"} for r, z, c, p in DB.execute(sql, args)]


@tool(parse_docstring=True)
def mortgage_quote(price: str) -> dict:
    """An indicative 25-year mortgage on a purchase price, at the partner bank's fixed rate.

    Args:
        price: The purchase price in euros, e.g. "€300,000".
    """
    principal = int(re.sub(r"[^\d]", "", price)) * 0.8
    rate = 0.0335 / 12
    monthly = principal * rate / (1 - (1 + rate) ** -300)
    return {"esito": "indicativo", "rata_mensile": f"€{monthly:,.0f}", "anticipo": "20%", "tasso": "3.35% fisso"}


@tool(parse_docstring=True)
def area_trend(query: str) -> str:
    """The year-on-year asking-price trend for the areas a client asks about.

    Args:
        query: The client's request in their own words.
    """
    return "Roma centro: +3.1% a/a; Milano: +4.6% a/a (fonte: osservatorio dell'agenzia, T1)"


LISTINGS_LINE = {
    "letting days": "Hand over to listings_rag anything about rentals, lettings or rooms to let.",
    "sales too": "Hand over to listings_rag anything about a flat or house on sale, rentals, lettings or rooms to let.",
}


def build(listings_line: str):
    model = chat_model()
    listings_rag = create_react_agent(
        model, [search_listings], name="listings_rag",
        prompt="You search the agency's listings for the client.\n"
               "- Search the ads with search_listings.\n"
               "- Share what search_listings found, with each ad's reference.")
    finance_agent = create_react_agent(
        model, [mortgage_quote], name="finance_agent",
        prompt="You are the agency's mortgage desk.\n"
               "- Work out an indicative repayment with mortgage_quote.\n"
               "- Share what mortgage_quote came back with.")
    trends_k = create_react_agent(
        model, [area_trend], name="trends_k",
        prompt="You read the agency's price index.\n"
               "- Look the areas up with area_trend.\n"
               "- Share what area_trend said.")
    return create_supervisor(
        [listings_rag, finance_agent, trends_k], model=model, supervisor_name="planner",
        prompt="You are the planner of Casa Tevere Relocation, an agency for clients moving to Rome or Milan.\n"
               f"- {listings_line}\n"
               "- Hand over to finance_agent anything about a purchase, mortgages or yields.\n"
               "- Hand over to trends_k anything about neighbourhood trends or market movements.\n"
               "- Once colleagues have answered, thank the client.").compile()


seeded = build(LISTINGS_LINE["letting days"])
fixed = build(LISTINGS_LINE["sales too"])
