"""A SQLite cache of model replies, so a repeated request costs no model time and no money.

The key is a hash of what determines the answer: provider, model, base URL, messages, tools,
tool choice, response schema and sampling parameters (plus, for scripted policies, who asks).
The API key is never part of a key or a row. Each row counts its hits.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

from masfuzz.llm.types import ChatReply, ChatRequest

SCHEMA_VERSION = 1
DEFAULT_PATH = Path(".masfuzz") / "model-cache.sqlite"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS replies (
    key       TEXT PRIMARY KEY,
    provider  TEXT NOT NULL,
    model     TEXT NOT NULL,
    base_url  TEXT,
    reply     TEXT NOT NULL,
    created   REAL NOT NULL,
    hits      INTEGER NOT NULL DEFAULT 0
)
"""


def cache_key(
    provider: str,
    model: str,
    base_url: str | None,
    request: ChatRequest,
    scope: dict[str, Any] | None = None,
) -> str:
    body = {
        "provider": provider,
        "model": model,
        "base_url": base_url,
        "messages": [m.model_dump(mode="json") for m in request.messages],
        "tools": [t.model_dump(mode="json") for t in request.tools],
        "tool_choice": request.tool_choice,
        "response_schema": request.response_schema,
        "temperature": request.temperature,
        "seed": request.seed,
        "max_tokens": request.max_tokens,
        "metadata": request.metadata,
        "scope": scope or {},
    }
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()


class ResponseCache:
    """Thread-safe; several processes may share one file (WAL mode, busy timeout)."""

    def __init__(self, path: str | Path | None = None) -> None:
        self.path = Path(path or os.environ.get("MASFUZZ_CACHE") or DEFAULT_PATH)
        self._lock = threading.Lock()
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(self.path, timeout=30, check_same_thread=False)
            with self._lock, self._db:
                self._db.execute("PRAGMA journal_mode=WAL")
                version = self._db.execute("PRAGMA user_version").fetchone()[0]
                if version not in (0, SCHEMA_VERSION):
                    # An older or newer layout: a cache may always be dropped and rebuilt.
                    self._db.execute("DROP TABLE IF EXISTS replies")
                self._db.execute(_SCHEMA)
                self._db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
        except (sqlite3.DatabaseError, OSError) as exc:
            from masfuzz.errors import MasfuzzError

            raise MasfuzzError(f"{self.path}: not a usable model response cache ({exc}); "
                               "delete it or give another --cache") from None

    def get(self, key: str) -> ChatReply | None:
        with self._lock, self._db:
            row = self._db.execute("SELECT reply FROM replies WHERE key=?", (key,)).fetchone()
            if row is None:
                return None
            self._db.execute("UPDATE replies SET hits = hits + 1 WHERE key=?", (key,))
        return ChatReply.model_validate_json(row[0]).model_copy(update={"cached": True, "latency": 0.0})

    def put(self, key: str, provider: str, model: str, base_url: str | None, reply: ChatReply) -> None:
        stored = reply.model_copy(update={"cached": False}).model_dump_json()
        with self._lock, self._db:
            self._db.execute(
                "INSERT OR REPLACE INTO replies (key, provider, model, base_url, reply, created, hits)"
                " VALUES (?, ?, ?, ?, ?, ?, 0)",
                (key, provider, model, base_url, stored, time.time()),
            )

    def hits(self, key: str | None = None) -> int:
        """Hits of one row, or of the whole cache."""
        with self._lock:
            if key is None:
                row = self._db.execute("SELECT COALESCE(SUM(hits), 0) FROM replies").fetchone()
            else:
                row = self._db.execute("SELECT hits FROM replies WHERE key=?", (key,)).fetchone()
        return int(row[0]) if row else 0

    def __len__(self) -> int:
        with self._lock:
            return int(self._db.execute("SELECT COUNT(*) FROM replies").fetchone()[0])

    def close(self) -> None:
        with self._lock:
            self._db.close()
