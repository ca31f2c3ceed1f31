"""Black-box process runner: start the unmodified app against the loopback endpoint, feed its
`input()` calls, kill its whole process group at the time limit, keep its output's tails."""

from __future__ import annotations

import asyncio
import json
import os
import re
import shlex
import sys
import time
from dataclasses import dataclass, field

from masfuzz.errors import TargetError
from masfuzz.sutenv import DUMMY_KEY
from masfuzz.proc import kill_group, start_in_group
from masfuzz.scenario import Scenario

DEFAULT_TIMEOUT = 120.0
OUTPUT_TAIL = 8000


@dataclass
class BlackboxApp:
    command: str | list[str]
    cwd: str | None = None
    env: dict[str, str] = field(default_factory=dict)  # per-app overrides, win over defaults
    answers: list[str] | None = None  # stdin lines; default: the scenario's input, if any
    # agent name -> system prompt, or (name, prompt) pairs
    agents: dict[str, str] | list[tuple[str, str]] = field(default_factory=dict)
    name: str = ""

    def argv(self, scenario_input: str | None) -> list[str]:
        """The command to start; `{input}` becomes the scenario's input. Without an input the
        command runs as written (its own arguments carry the task), so `{input}` is an error."""
        try:
            argv = shlex.split(self.command) if isinstance(self.command, str) else list(self.command)
        except ValueError as exc:
            raise TargetError(f"--blackbox {self.command!r}: {exc}") from None
        if not argv:
            raise TargetError("--blackbox: empty command")
        if argv[0] in ("python", "python3"):
            argv[0] = sys.executable
        if scenario_input is None:
            if any("{input}" in a for a in argv):
                raise TargetError(f"--blackbox {self.command!r}: the command holds {{input}} but "
                                  "no --input was given to put there")
            return argv
        return [a.replace("{input}", scenario_input) for a in argv]

    @property
    def system_id(self) -> str:
        if self.name:
            return self.name
        argv = shlex.split(self.command) if isinstance(self.command, str) else self.command
        if "-m" in argv[:-1]:  # python -m pkg.app
            return argv[argv.index("-m") + 1]
        scripts = [a for a in argv if a.endswith(".py")]
        # else the last word-like argument: not an option, not {input}, not a task in the command
        words = [a for a in argv if a and not a.startswith("-") and "{input}" not in a
                 and not any(c.isspace() for c in a)]
        return os.path.splitext(os.path.basename(scripts[0] if scripts else (words or argv)[-1]))[0]


def app_environment(url: str, scenario_input: str | None,
                    overrides: dict[str, str]) -> dict[str, str]:
    """The app's environment: the endpoint, a dummy key, and `MASFUZZ_INPUT` when the scenario
    has an input (never one inherited from masfuzz's own environment)."""
    env = dict(os.environ)
    for name in list(env):  # the app must reach nothing but the endpoint
        if re.search(r"(KEY|TOKEN|SECRET)$", name, re.IGNORECASE):
            del env[name]
    env.pop("MASFUZZ_INPUT", None)
    # the price (AG2's field; masfuzz's model costs nothing) keeps AG2 apps from warning per call
    config_list = [{"model": "masfuzz-sut", "api_key": DUMMY_KEY, "base_url": url, "price": [0, 0]}]
    env.update({
        "OPENAI_BASE_URL": url, "OPENAI_API_BASE": url, "OPENAI_API_KEY": DUMMY_KEY,
        "OAI_CONFIG_LIST": json.dumps(config_list),
        # The Agents SDK exports its traces to OpenAI's servers: nothing of a run may leave the
        # machine, and with no route there the exporter's retries kept every app alive ~10 s.
        "OPENAI_AGENTS_DISABLE_TRACING": "1",
        "PYTHONUNBUFFERED": "1", "NO_PROXY": "127.0.0.1,localhost,::1",
        "no_proxy": "127.0.0.1,localhost,::1",
    })
    if scenario_input is not None:
        env["MASFUZZ_INPUT"] = scenario_input
    env.update(overrides)
    return env


@dataclass
class AppOutcome:
    status: int | None  # exit status; None when killed at the timeout
    timed_out: bool
    stdout: str
    stderr: str
    wall_time: float


async def _drain(stream: asyncio.StreamReader | None, keep: list[str]) -> None:
    text = ""
    while stream is not None and (chunk := await stream.read(65536)):
        text = (text + chunk.decode("utf-8", "replace"))[-OUTPUT_TAIL:]
        keep[:] = [text]


async def run_app(app: BlackboxApp, url: str, scenario: Scenario, timeout: float) -> AppOutcome:
    argv = app.argv(scenario.input)
    if app.answers is not None:
        answers = app.answers
    else:  # the input answers the first input(); without one, input() sees end of file
        answers = [scenario.input] if scenario.input is not None else []
    t0 = time.perf_counter()
    try:
        proc = await start_in_group(
            *argv, cwd=app.cwd, env=app_environment(url, scenario.input, app.env),
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE)
    except OSError as exc:
        raise TargetError(f"--blackbox {argv[0]!r}: cannot start: {exc.strerror}") from None
    out: list[str] = []
    err: list[str] = []
    readers = [asyncio.ensure_future(_drain(proc.stdout, out)),
               asyncio.ensure_future(_drain(proc.stderr, err))]
    assert proc.stdin is not None
    try:
        proc.stdin.write("".join(a + "\n" for a in answers).encode())
        await proc.stdin.drain()
        proc.stdin.close()  # after the scripted answers, input() sees end of file
    except (BrokenPipeError, ConnectionResetError):
        pass
    timed_out = False
    try:
        status: int | None = await asyncio.wait_for(proc.wait(), timeout)
    except TimeoutError:
        timed_out, status = True, None
    await kill_group(proc)  # also whatever the app started
    await asyncio.wait(readers, timeout=2)
    for r in readers:
        r.cancel()
    return AppOutcome(status, timed_out, "".join(out), "".join(err),
                      round(time.perf_counter() - t0, 6))


