"""A small MCP server of the project's own, with one known bug, for masfuzz's MCP tests.

`python mcp_server.py` serves over stdio, `python mcp_server.py --http PORT` over streamable
HTTP on 127.0.0.1. Four tools:
- `add`: correct;
- `lookup`: raises, as documented, for a key it does not have, which the SDK answers as an
  `isError` result (a documented refusal: never a finding);
- `convert`: the known bug. An unknown unit is refused as documented, but an empty one
  reaches the unit helper's "cannot happen" branch, which aborts the process as a failed C
  assertion would: one empty unit kills the whole server;
- `mean`: crashes (ZeroDivisionError) on the empty list its documentation says gives 0, which
  the SDK answers as an `isError` result too: the tool's exception, a finding.
Written against the MCP SDK 1.x (FastMCP) and 2.x (MCPServer) alike.
"""

from __future__ import annotations

import os
import sys

try:
    from mcp.server.mcpserver import MCPServer as Server
except ImportError:  # MCP SDK 1.x
    from mcp.server.fastmcp import FastMCP as Server

# quiet: the SDK logs every failed call with a formatted traceback, which takes longer than the call
server = Server("masfuzz-test-server", log_level="CRITICAL")
TABLE = {"alpha": "first", "beta": "second"}
FACTORS = {"m": 1.0, "km": 1000.0, "cm": 0.01}


@server.tool()
def add(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


@server.tool()
def lookup(key: str) -> str:
    """The entry stored under `key` (alpha or beta); another key raises ValueError."""
    if key not in TABLE:
        raise ValueError(f"no entry {key!r}")
    return TABLE[key]


def _factor(unit: str) -> float:
    if not unit:  # the bug: "cannot happen", so the process is aborted
        print("assertion failed: unit != NULL", file=sys.stderr, flush=True)
        os.abort()
    if unit not in FACTORS:
        raise ValueError(f"unknown unit {unit!r}")
    return FACTORS[unit]


@server.tool()
def convert(amount: float, unit: str) -> float:
    """Convert `amount` of `unit` (m, km or cm) to metres; another unit raises ValueError."""
    return amount * _factor(unit)


@server.tool()
def mean(values: list[float]) -> float:
    """The mean of `values`; an empty list gives 0."""
    return sum(values) / len(values)  # the bug: the empty list divides by zero


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--http":
        try:
            server.run("streamable-http", host="127.0.0.1", port=int(sys.argv[2]))
        except TypeError:  # 1.x: the address is a setting of the server
            server.settings.host, server.settings.port = "127.0.0.1", int(sys.argv[2])
            server.run("streamable-http")
    else:
        server.run()
