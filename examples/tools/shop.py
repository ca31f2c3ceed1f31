"""Tools that read state: a shop's SQLite database (made by `shop_setup.make_db`, the `--setup`) and its
notes (the `--fixture` folder examples/tools/shop_fixture):

    masfuzz tools examples/tools/shop.py --fixture examples/tools/shop_fixture \
        --setup examples/tools/shop_setup.py:make_db
"""

import os
import sqlite3

def price(item: str) -> str:
    """The price of an item, in euros. Bug: builds its SQL from the input."""
    db = sqlite3.connect(os.environ["SHOP_DB"])
    row = db.execute(f"SELECT price FROM items WHERE name = '{item}'").fetchone()
    return f"{item}: unknown" if row is None else f"{item}: {row[0]:.2f} EUR"


def aisle(line: int) -> str:
    """Line `line` (from 0) of the shop's aisle notes. Bug: no bounds check."""
    with open("aisles.txt") as fh:
        return fh.read().splitlines()[line]


def run_report(name: str) -> str:
    """Runs the report script `name` with sh and returns what it printed. Bug: a failed
    script's error is returned as if it were the report."""
    import subprocess

    done = subprocess.run(["sh", "-c", f"cat {name}.txt"], capture_output=True, text=True)
    return done.stdout + done.stderr
