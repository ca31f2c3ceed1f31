"""Research tools over a small built-in library: a keyword search and a page reader."""

from __future__ import annotations

import json

from langchain_core.tools import tool

LIBRARY = {
    "https://example.org/water-cycle": (
        "The water cycle",
        "Water evaporates from oceans, condenses into clouds and falls as precipitation. About "
        "86 percent of global evaporation happens over the oceans.",
    ),
    "https://example.org/photosynthesis": (
        "Photosynthesis",
        "Plants turn light, water and carbon dioxide into glucose and oxygen in their chloroplasts.",
    ),
    "https://example.org/plate-tectonics": (
        "Plate tectonics",
        "Earth's lithosphere is broken into plates that move a few centimetres a year, building "
        "mountains and opening oceans.",
    ),
    "https://example.org/honeybees": (
        "Honeybees",
        "A honeybee colony has one queen, thousands of workers and a few hundred drones; workers "
        "dance to tell each other where flowers are.",
    ),
}


def _words(text: str) -> set[str]:
    return {w.strip(".,;:?!'\"()").lower() for w in text.split() if len(w) > 3}


@tool
def web_search(query: str, max_results: int = 3) -> str:
    """Search the library; returns a JSON list of {url, title} ranked by shared keywords."""
    if not query.strip():
        raise ValueError("query is empty")
    wanted = _words(query)
    scored = sorted(
        ((len(wanted & _words(title + " " + body)), url, title) for url, (title, body) in LIBRARY.items()),
        reverse=True,
    )
    hits = [{"url": url, "title": title} for score, url, title in scored if score > 0][:max_results]
    return json.dumps(hits)


@tool
def fetch_page(url: str) -> str:
    """Read a page of the library by its URL (one of the URLs web_search returned)."""
    if url not in LIBRARY:
        raise KeyError(f"no page at {url}")
    title, body = LIBRARY[url]
    return f"{title}: {body}"


TOOLS = [web_search, fetch_page]
