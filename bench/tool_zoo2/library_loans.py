"""Library loan tools for a branch librarian's assistant (plain Python functions on SQLite).

The catalogue and loans live in SQLite (built afresh in memory per call here, as a test copy of
the branch's database would be). `find_borrower` (seeded) pastes the name into its SQL: a name
with an apostrophe (O'Brien) breaks the statement (sqlite3.OperationalError);
`find_borrower_fixed` binds it. `loan_status` (seeded) indexes the row a lookup returns without
checking there is one: a barcode not in the catalogue raises TypeError where the documentation
promises "not in catalogue"; the fixed twin checks. `renew_loan` rejects, as documented, a
renewal of more than 4 weeks or of a book that is not on loan.
"""

from __future__ import annotations

import sqlite3
from datetime import date, timedelta

_BOOKS = [("31000001", "The Left Hand of Darkness", "2024-06-20"),
          ("31000002", "Middlemarch", None),
          ("31000003", "Cien años de soledad", "2024-06-11"),
          ("31000004", "Things Fall Apart", None)]
_BORROWERS = [("Ana Lima", "C-1001", "31000001"), ("Tomás Ruiz", "C-1002", "31000003"),
              ("Siobhán Kelly", "C-1003", None), ("Wei Zhang", "C-1004", None)]


def _db() -> sqlite3.Connection:
    con = sqlite3.connect(":memory:")
    con.execute("CREATE TABLE books (barcode TEXT PRIMARY KEY, title TEXT, due TEXT)")
    con.execute("CREATE TABLE borrowers (name TEXT, card TEXT, barcode TEXT)")
    con.executemany("INSERT INTO books VALUES (?, ?, ?)", _BOOKS)
    con.executemany("INSERT INTO borrowers VALUES (?, ?, ?)", _BORROWERS)
    return con


def find_borrower(name: str) -> str:
    """Find a borrower's card number by their name (or part of it).

    name: the borrower's name as it is on their card, any part of it, e.g. "Lima".
    """
    con = _db()
    rows = con.execute(  # the seeded bug: the name is pasted into the SQL
        f"SELECT name, card FROM borrowers WHERE name LIKE '%{name.strip()}%' ORDER BY name").fetchall()
    return "; ".join(f"{n} ({c})" for n, c in rows) or "no borrower found"


def find_borrower_fixed(name: str) -> str:
    """Find a borrower's card number by their name (or part of it).

    name: the borrower's name as it is on their card, any part of it, e.g. "Lima".
    """
    con = _db()
    rows = con.execute("SELECT name, card FROM borrowers WHERE name LIKE ? ORDER BY name",
                       (f"%{name.strip()}%",)).fetchall()
    return "; ".join(f"{n} ({c})" for n, c in rows) or "no borrower found"


def loan_status(barcode: str) -> str:
    """Whether a book is on loan, and until when.

    barcode: the 8-digit barcode on the book's back cover, e.g. "31000002". A barcode that is
        not in the catalogue answers "not in catalogue".
    """
    row = _db().execute("SELECT title, due FROM books WHERE barcode = ?", (barcode.strip(),)).fetchone()
    title, due = row[0], row[1]  # the seeded bug: no row for an unknown barcode
    return f"{title}: on loan until {due}" if due else f"{title}: on the shelf"


def loan_status_fixed(barcode: str) -> str:
    """Whether a book is on loan, and until when.

    barcode: the 8-digit barcode on the book's back cover, e.g. "31000002". A barcode that is
        not in the catalogue answers "not in catalogue".
    """
    row = _db().execute("SELECT title, due FROM books WHERE barcode = ?", (barcode.strip(),)).fetchone()
    if row is None:
        return "not in catalogue"
    title, due = row
    return f"{title}: on loan until {due}" if due else f"{title}: on the shelf"


def renew_loan(barcode: str, weeks: int = 2) -> str:
    """Renew a loan.

    barcode: the book's 8-digit barcode; a book that is not on loan raises LookupError.
    weeks: how many weeks to add, 1 to 4; another number raises ValueError.
    """
    if not 1 <= weeks <= 4:
        raise ValueError(f"weeks must be 1 to 4, got {weeks}")
    con = _db()
    row = con.execute("SELECT due FROM books WHERE barcode = ?", (barcode.strip(),)).fetchone()
    if row is None or row[0] is None:
        raise LookupError(f"no book with barcode {barcode!r} is on loan")
    due = date.fromisoformat(row[0]) + timedelta(weeks=weeks)
    con.execute("UPDATE books SET due = ? WHERE barcode = ?", (due.isoformat(), barcode.strip()))
    return f"renewed until {due.isoformat()}"
