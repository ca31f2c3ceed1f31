"""A small Agents SDK desk whose agent owns tools that break: the system under test of the tools
phase's tests (`masfuzz run tests/campaign/fragile_tools_app.py:desk --phases tools`).

- `shout` raises on an empty name and on a name that is not ASCII: two runtime errors;
- `slow_echo` answers, slowly (so a test can stop or kill the campaign while it runs);
- `reserve` allocates what it is asked for: beyond the sandbox's memory limit that is a
  MemoryError the limit caused, not the tool.
"""

from __future__ import annotations

import time

from agents import Agent, function_tool


@function_tool
def shout(name: str) -> str:
    """Greet a customer loudly.

    Args:
        name: The customer's name.
    """
    first = name[0]  # IndexError on an empty name
    return f"HELLO {name.encode('ascii').decode().upper()} ({first})"  # UnicodeEncodeError on é


@function_tool
def slow_echo(text: str) -> str:
    """Repeat the text back.

    Args:
        text: What to repeat.
    """
    time.sleep(0.02)
    return text


@function_tool
def reserve(megabytes: int) -> int:
    """Reserve a buffer of this many megabytes.

    Args:
        megabytes: The buffer's size.
    """
    return len(bytearray(min(abs(megabytes), 4096) * 2**20))


desk = Agent(name="Desk", instructions="Greet the customer and help.", tools=[shout, slow_echo, reserve])
