"""The setup of examples/tools/shop.py (`--setup examples/tools/shop_setup.py:make_db`)."""

import os
import sqlite3


def make_db(folder: str) -> None:
    """The setup: run in the sandbox before each call, in the call's folder."""
    db = sqlite3.connect(os.path.join(folder, "shop.db"))
    db.execute("CREATE TABLE items (name TEXT PRIMARY KEY, price REAL)")
    db.executemany("INSERT INTO items VALUES (?, ?)", [("apple", 0.5), ("pear", 0.75)])
    db.commit()
    db.close()
    os.environ["SHOP_DB"] = os.path.join(folder, "shop.db")
