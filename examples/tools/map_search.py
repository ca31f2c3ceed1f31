"""A map-search tool like ToolFuzz's Figure 3 (open-street-map-search), over a small offline
gazetteer instead of the OpenStreetMap web API.

Two runtime errors hide in it, both reachable by an agent: a query of 100 characters or more
fails the length assertion, and a query without the `query: ` prefix fails the split. The
documentation mentions the prefix but not the length limit.
"""

from __future__ import annotations

_PLACES = {
    "supermarket": ["Safeway, 2020 Market St, San Francisco", "Migros, Limmatplatz, Zurich"],
    "coffee shop": ["Blue Bottle Coffee, 66 Mint St, San Francisco", "Café Henrici, Zurich"],
    "library": ["San Francisco Public Library, 100 Larkin St", "ETH Library, Rämistrasse 101, Zurich"],
    "office": ["Salesforce Tower, 415 Mission St, San Francisco", "Prime Tower, Zurich"],
}
_NATURE = {"park": ["Golden Gate Park, San Francisco", "Zürichhorn park, Zurich"],
           "lake": ["Lake Merced, San Francisco", "Lake Zurich"]}


def open_street_map_search(query: str) -> str:
    """A tool to query a map, capable of locating places by name and handling simple queries.
    The queries must start with 'query: ', an example is 'query: libraries in San Francisco'.
    The purpose of the tool is to locate places like coffee shops, offices, etc."""
    assert len(query) < 100, "Query is too long. Query must be less than 100 characters"
    search_query = query.split("query: ")[1]
    keywords = ["supermarket", "coffee shop", "library", "office"]
    text = search_query.lower()
    if any(word in text for word in keywords):
        table = _PLACES
    else:
        table = _NATURE
    found = [p for kind, places in table.items() if kind in text or kind + "s" in text for p in places]
    city = [w for w in ("san francisco", "zurich") if w in text]
    if city:
        found = [p for p in found if any(c in p.lower() for c in city)]
    return "\n".join(found) if found else "No places found."
