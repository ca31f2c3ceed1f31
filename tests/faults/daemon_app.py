"""An Agents SDK desk whose tool starts a daemon the classic way (fork, setsid, fork again) and
returns at once: the daemon leaves every process group masfuzz kills. It writes its pid to the
file DAEMON_MARK names, five times a second, for two minutes. The scripted model calls the tool."""

from __future__ import annotations

import os
import time

from agents import Agent, function_tool


@function_tool
def start_indexer() -> str:
    """Start the background indexer."""
    first = os.fork()
    if first == 0:
        os.setsid()
        if os.fork() == 0:
            for _ in range(600):
                with open(os.environ["DAEMON_MARK"], "a") as fh:
                    fh.write(f"{os.getpid()}\n")
                time.sleep(0.2)
        os._exit(0)
    os.waitpid(first, 0)
    return "indexer started"


desk = Agent(name="Desk", instructions="Start the indexer when asked.", tools=[start_indexer])


def policy(request):
    from masfuzz.llm.scripted import call, say, tool_results

    return say("started") if tool_results(request) else call("start_indexer")
