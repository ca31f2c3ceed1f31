"""Document tools for a records assistant (plain Python functions).

`document_kind` (seeded) takes the extension as what follows the first dot and indexes the split
without checking there is one: a file name without an extension ("README", a folder) raises
IndexError where the documentation promises "unknown", and "q1 report.v2.csv" is misread;
`document_kind_fixed` uses the last suffix.
`archive_name` rejects, as documented, an empty title.
"""

from __future__ import annotations

import re
from pathlib import PurePosixPath

_KINDS = {"csv": "spreadsheet", "xlsx": "spreadsheet", "pdf": "document", "docx": "document",
          "md": "text", "txt": "text", "png": "image", "jpg": "image"}


def document_kind(path: str) -> str:
    """What kind of document a file is, from its name.

    path: the file's path, e.g. "reports/q1 summary.csv"; spaces are fine. A file whose kind is
    not known (or that has no extension) is "unknown".
    """
    extension = path.split(".")[1]  # the seeded bug: no dot raises, several dots misread
    return _KINDS.get(extension.lower(), "unknown")


def document_kind_fixed(path: str) -> str:
    """What kind of document a file is, from its name.

    path: the file's path, e.g. "reports/q1 summary.csv"; spaces are fine. A file whose kind is
    not known (or that has no extension) is "unknown".
    """
    suffix = PurePosixPath(path.strip() or ".").suffix.lstrip(".")
    return _KINDS.get(suffix.lower(), "unknown")


def archive_name(title: str, year: int) -> str:
    """The archive file name for a document: the title in lower case, words joined by dashes,
    then the year, e.g. "Board Minutes", 2023 -> "board-minutes-2023.pdf".

    title: the document's title; an empty or blank title raises ValueError.
    year: the year, 1900 to 2100; another year raises ValueError.
    """
    words = re.findall(r"\w+", title.lower())
    if not words:
        raise ValueError("title must contain at least one word")
    if not 1900 <= year <= 2100:
        raise ValueError(f"year must be between 1900 and 2100, got {year}")
    return f"{'-'.join(words)[:120]}-{year}.pdf"
