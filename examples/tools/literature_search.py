"""A literature-search tool like LangChain's PubMed tool in ToolFuzz's case study (§5.5), over a
small offline corpus.

The query matches words of paper titles. Like the real PubMed API, it also understands a
publication-date filter, `("2020/01/01"[Date - Publication] : "2020/12/31"[Date - Publication])`,
that the documentation never mentions: an agent asked for "papers from 2020" writes the year into
the query, which matches no title word about dates, and gets the newest papers instead. A
malformed date inside the filter raises.
"""

from __future__ import annotations

import re
from datetime import datetime

_PAPERS = [
    ("2024-09-15", "A novel small molecule ZYZ384 inhibits cancer growth via RNA binding"),
    ("2024-03-02", "RNA technology in cancer immunotherapy: a review"),
    ("2023-06-30", "Protein folding with deep learning"),
    ("2022-01-12", "mRNA vaccines against cancer: progress and prospects"),
    ("2020-11-26", "TUG1 long non-coding RNA promotes cancer progression"),
    ("2020-05-04", "RNA interference technology for cancer therapy"),
    ("2020-02-17", "COVID-19 transmission dynamics"),
    ("2019-08-08", "Cancer incidence trends in Europe"),
]
_DATE_FILTER = re.compile(r'\(\s*"([^"]*)"\[Date - Publication\]\s*:\s*"([^"]*)"\[Date - Publication\]\s*\)')


def pubmed_search(query: str) -> str:
    """Search PubMed for medical and life-science papers. Input is a search query."""
    start = end = None
    m = _DATE_FILTER.search(query)
    if m:
        start = datetime.strptime(m.group(1), "%Y/%m/%d").date().isoformat()
        end = datetime.strptime(m.group(2), "%Y/%m/%d").date().isoformat()
        query = query[: m.start()] + query[m.end():]
    words = [w for w in re.findall(r"[a-z0-9]+", query.lower()) if w not in ("and", "or", "the", "of")]
    if not words and start is None:
        raise ValueError("empty query")
    hits = []
    for date, title in sorted(_PAPERS, reverse=True):
        if start is not None and not (start <= date <= end):
            continue
        title_words = set(re.findall(r"[a-z0-9]+", title.lower()))
        if not words or sum(w in title_words for w in words) * 2 >= len(words):
            hits.append(f"Published: {date} Title: {title}")
    return "\n".join(hits[:3]) if hits else "No good PubMed Result was found"
