"""What a campaign command shows on stderr while it runs (`--progress`).

On a terminal, a live panel drawn with rich: the phase, executions against the budget, coverage
C1..C4, failures, model calls, tokens, cost where known, elapsed time and the ETA against the
binding budget limit. Anywhere else (a CI log, a pipe, a test's capture, `TERM=dumb`) plain
lines, never an escape sequence: the campaign's own lines as `  .. TEXT`, and its numbers as one
`  .. progress: ...` line at every phase change, at most one every `PLAIN_EVERY` seconds between,
and one at the end. stdout is never written: reports and `--format json` own it.

A display must never break a campaign: whatever fails in it is dropped (the live panel falls back
to plain lines), and leaving the `with` block — normally, on an error or on Ctrl-C — stops the
live panel so the terminal is left as it was.
"""

from __future__ import annotations

import dataclasses
import sys
import time
from collections.abc import Callable
from types import TracebackType
from typing import Any

from masfuzz.campaign.status import Status

PLAIN_EVERY = 10.0  # seconds between two plain progress lines within a phase


def display_for(args: Any) -> "Display":  # a campaign's Config (--progress, --format)
    """The display `--progress` asks for: auto is a live panel when stderr is a terminal rich
    can draw on (not `TERM=dumb`; `NO_COLOR` only drops the colours), plain lines otherwise, and
    nothing with `--format json` (a machine reads that run's output); plain forces plain lines,
    off shows nothing."""
    mode = args.progress
    if mode == "auto":
        if args.format == "json":
            return Display("off")
        console = terminal_console()
        return Display("live", console=console) if console is not None else Display("plain")
    return Display(mode)


def terminal_console() -> Any:
    """A rich console on stderr, if stderr is a terminal it can draw a live panel on."""
    try:
        from rich.console import Console

        console = Console(stderr=True)
        return console if console.is_terminal and not console.is_dumb_terminal else None
    except Exception:  # no rich, or a stream it cannot read: plain lines
        return None


class Display:
    """`say(text)` for the campaign's lines, `update(status)` for its numbers; a context manager
    (`with display_for(args) as display:`) that stops the live panel on the way out."""

    def __init__(self, mode: str, *, console: Any = None, every: float = PLAIN_EVERY,
                 clock: Callable[[], float] = time.monotonic) -> None:
        if mode not in ("live", "plain", "off"):
            raise ValueError(f"no progress display {mode!r}")
        if mode == "live" and console is None:
            raise ValueError("a live display needs a rich console")
        self.mode = mode
        self.console = console
        self.every = every
        self.clock = clock
        self.last: Status | None = None  # the latest numbers
        self._at = clock()  # when `last` arrived
        self._shown: Status | None = None  # the latest plain line's numbers
        self._shown_at: float | None = None
        self._live: Any = None

    # -- what the campaign calls ---------------------------------------------------------------
    def say(self, msg: str) -> None:
        if self.mode == "off":
            return
        line = f"  .. {msg}"
        if self.mode == "live":
            try:
                from rich.text import Text

                # above the panel once it is up; a Text, so brackets are not markup
                self.console.print(Text(line), soft_wrap=True)
                return
            except Exception as exc:
                self._fall_back(exc)
        _write(line)

    def update(self, status: Status) -> None:
        if self.mode == "off":
            return
        self.last, self._at = status, self.clock()
        if self.mode == "live":
            try:
                if self._live is None:
                    self._start_live()
                elif status.event != "execution":  # else the next refresh (4 a second) shows it
                    self._live.refresh()
                return
            except Exception as exc:
                self._fall_back(exc)
        now = self.clock()
        if (status.event != "execution" or self._shown_at is None
                or now - self._shown_at >= self.every):
            self._plain(status, now)

    def close(self) -> None:
        """Stop the live panel (its last state stays on screen), or write the latest numbers
        if no plain line showed them yet."""
        if self._live is not None:
            live, self._live = self._live, None
            try:
                live.stop()
            except Exception:
                pass
        elif self.mode == "plain" and self.last is not None and self.last is not self._shown:
            self._plain(self.last, self.clock())

    def __enter__(self) -> "Display":
        return self

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()

    # -- the two ways of showing it ------------------------------------------------------------
    def _plain(self, status: Status, now: float) -> None:
        self._shown, self._shown_at = status, now
        _write(plain_line(status))

    def _start_live(self) -> None:
        from rich.live import Live

        live = Live(_Panel(self), console=self.console, refresh_per_second=4,
                    redirect_stdout=False, redirect_stderr=True, transient=False)
        live.start()
        self._live = live

    def _fall_back(self, exc: Exception) -> None:
        live, self._live = self._live, None
        if live is not None:
            try:
                live.stop()
            except Exception:
                pass
        self.mode = "plain"
        _write(f"  .. progress display failed ({type(exc).__name__}: {exc}); plain lines from here")

    def current(self) -> Status | None:
        """The latest numbers with the time since they arrived added to `elapsed` (the panel
        redraws between executions, and its clock should move)."""
        if self.last is None or self.last.event == "end":
            return self.last
        return dataclasses.replace(self.last, elapsed=self.last.elapsed + self.clock() - self._at)


def _write(line: str) -> None:
    try:
        print(line, file=sys.stderr, flush=True)
    except (OSError, ValueError):  # stderr closed or gone: nothing to show it on
        pass


# -- the words: one place, for both ways ---------------------------------------------------------
def duration(seconds: float) -> str:
    """12s, 3m05s, 1h02m."""
    s = int(round(seconds))
    if s < 60:
        return f"{s}s"
    if s < 3600:
        return f"{s // 60}m{s % 60:02d}s"
    return f"{s // 3600}h{s % 3600 // 60:02d}m"


def fields(status: Status) -> dict[str, str]:
    """The numbers, named, as both displays word them (only those that are known)."""
    b = status.budget
    out = {"phase": "done" if status.event == "end" else (status.phase or "starting"),
           "executions": f"{status.executions}/{b.executions}" if b.executions else str(status.executions)}
    for c in status.criteria:
        out[c.name] = f"{c.covered}/{c.total}"
    out["failures"] = str(status.failures) + (f" (+{status.set_aside} set aside)" if status.set_aside else "")
    out["tester calls"] = (f"{status.tester_calls}/{b.model_calls}" if b.model_calls
                           else str(status.tester_calls))
    out["app calls"] = str(status.sut_calls)
    if status.tokens_in or status.tokens_out:
        out["tokens"] = f"{status.tokens_in} in / {status.tokens_out} out"
    if status.cost is not None:
        out["tester cost"] = f"${status.cost:.4f}"
    if status.not_done:  # a phase that did not run, or failed, is never silent
        out["phases"] = ", ".join(f"{phase} {how.upper()}" for phase, how in status.not_done)
    out["elapsed"] = duration(status.elapsed) + (f"/{duration(b.wall_time)}" if b.wall_time else "")
    eta = status.eta
    if eta is not None and status.event != "end":
        out["eta"] = duration(eta)
    return out


def plain_line(status: Status) -> str:
    """One grep-friendly line: `  .. progress: structural, executions 12/40, C1 3/3, ...`."""
    f = fields(status)
    phase = f.pop("phase")
    return "  .. progress: " + ", ".join([phase, *(f"{k} {v}" for k, v in f.items())])


class _Panel:
    """The live panel: rich asks for it at every refresh, so its clock moves."""

    def __init__(self, display: Display) -> None:
        self.display = display

    def __rich__(self) -> Any:
        from rich.text import Text

        try:
            return self._render()
        except Exception as exc:  # drawn in rich's refresh thread: never raise there
            return Text(f"masfuzz: progress not shown ({type(exc).__name__}: {exc})")

    def _render(self) -> Any:
        from rich.progress_bar import ProgressBar
        from rich.table import Table
        from rich.text import Text

        status = self.display.current()
        grid = Table.grid(padding=(0, 1))
        if status is None:
            grid.add_row(Text("masfuzz: starting"))
            return grid
        f = fields(status)
        grid.add_column(style="bold", no_wrap=True)
        grid.add_column()
        head = Text(f["phase"], style="cyan")
        head.append(f"  executions {f['executions']}")
        used = status.used
        grid.add_row("masfuzz", head)
        if used is not None:
            bar = Table.grid(padding=(0, 1))
            bar.add_row(ProgressBar(total=1.0, completed=used, width=30), Text(f"{used:4.0%}"))
            grid.add_row("budget", bar)
        grid.add_row("coverage", Text("  ".join(f"{c.name} {f[c.name]}" for c in status.criteria)))
        failures = Text(f["failures"], style="red" if status.failures else "green")
        grid.add_row("failures", failures)
        models = f"tester {f['tester calls']} calls, app {f['app calls']} calls"
        if "tokens" in f:
            models += f", tokens {f['tokens']}"
        if "tester cost" in f:
            models += f", tester cost {f['tester cost']}"
        grid.add_row("models", Text(models))
        if "phases" in f:
            grid.add_row("phases", Text(f["phases"], style="red"))
        when = f"elapsed {f['elapsed']}" + (f", eta {f['eta']} ({status.eta_limit} budget)"
                                            if "eta" in f else "")
        grid.add_row("time", Text(when))
        return grid
