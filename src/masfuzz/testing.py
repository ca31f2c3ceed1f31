"""Trace assertions for your own tests: run the system under masfuzz, then say what the run must
have done, in the words trajectory tests use.

    from masfuzz.testing import expect, run

    def test_seat_change():
        trace = run("app.py:triage_agent", "Change my seat to 14C, confirmation ABC123",
                    sut_model="scripted/policy.py:policy")
        (expect(trace)
            .delegated("triage_agent", "seat_booking_agent")
            .called("update_seat", new_seat="14C", confirmation_number="[A-Z0-9]{6}")
            .never_called("faq_lookup_tool")
            .ended("completed", within=6)
            .no_failure())

Each assertion returns the expectation, so they chain; a failed one raises `AssertionError` with
what was expected and the whole trace as `masfuzz exec` prints it. Under pytest the `masfuzz_run`
fixture is `run`, with the session's warm executors.
"""

from __future__ import annotations

import re
from typing import Any

from masfuzz.trace import DelegationEvent, ToolCall, Trace


def run(target: str, input: str, **options: Any) -> Trace:  # noqa: A002 - the command's word
    """One execution of `target` on `input`, as `masfuzz exec` runs it (options as its flags:
    `sut_model=`, `fault=[...]`, `stub=[...]`, `max_turns=`, `timeout=`, `executor=`)."""
    from masfuzz import api

    return api.exec(target, input, **options)


def expect(trace: Trace) -> "Expectation":
    return Expectation(trace)


class Expectation:
    def __init__(self, trace: Trace) -> None:
        self.trace = trace

    # -- tools ---------------------------------------------------------------------------------
    def called(self, tool: str, *, by: str | None = None, times: int | None = None,
               **arguments: Any) -> "Expectation":
        """`tool` was called (by agent `by`, exactly `times` times) with at least these
        arguments; a string value may be a regular expression the argument must match whole."""
        calls = self._calls(tool, by)
        matching = [c for c in calls if _matches(c.arguments, arguments)]
        who = f" by {by}" if by else ""
        if not matching:
            seen = "; ".join(f"{c.agent}: {c.arguments}" for c in calls) or "never called"
            self._fail(f"expected {tool} to be called{who}" + (f" with {arguments}" if arguments else "")
                       + f" ({tool}: {seen})")
        if times is not None and len(matching) != times:
            self._fail(f"expected {tool} to be called{who} {times} time(s), it was {len(matching)}")
        return self

    def never_called(self, tool: str, *, by: str | None = None) -> "Expectation":
        calls = self._calls(tool, by)
        if calls:
            first = self.trace.events.index(calls[0])
            self._fail(f"expected {tool} never to be called{f' by {by}' if by else ''}, "
                       f"it was {len(calls)} time(s), first at event {first}")
        return self

    def called_before(self, first: str, then: str) -> "Expectation":
        """The first call of `first` came before the first call of `then` (both called)."""
        order = [e.tool for e in self.trace.events if isinstance(e, ToolCall)]
        for tool in (first, then):
            if tool not in order:
                self._fail(f"expected {first} before {then}, but {tool} was never called")
        if order.index(first) > order.index(then):
            self._fail(f"expected {first} before {then}; the calls came in the order {order}")
        return self

    # -- delegation and ending ------------------------------------------------------------------
    def delegated(self, source: str, target: str) -> "Expectation":
        edges = [(e.from_, e.to) for e in self.trace.events if isinstance(e, DelegationEvent)]
        if (source, target) not in edges:
            self._fail(f"expected a delegation {source} -> {target}; the run delegated "
                       + (", ".join(f"{a} -> {b}" for a, b in edges) or "nothing"))
        return self

    def ended(self, reason: str | None = None, *, within: int | None = None) -> "Expectation":
        """The run ended for `reason` (completed, max_turns, timeout, crash, ...) after at most
        `within` agent turns."""
        end = self.trace.termination
        got = end.reason if end else "no ending"
        if reason is not None and got != reason:
            detail = f" ({end.detail})" if end and end.detail else ""
            self._fail(f"expected the run to end by {reason}, it ended by {got}{detail}")
        turns = len(self.trace.speaker_order)
        if within is not None and turns > within:
            self._fail(f"expected the run to end within {within} turns, it took {turns}")
        return self

    def no_failure(self, *categories: str) -> "Expectation":
        """No failure of the app's own (of these categories or Table-1 symbols; any if none
        given), as the deterministic detectors judge the trace."""
        from masfuzz.oracles import detect
        from masfuzz.report.verdict import failure_verdict

        found = [f.model_dump(mode="json") for f in detect(self.trace)]
        failing = failure_verdict(found, categories or ("any",)).failing  # the CLI's --fail-on
        if failing:
            self._fail("expected no failure" + (f" of {', '.join(categories)}" if categories else "")
                       + ", found: " + "; ".join(f"[{f['category']}] {f['description']}" for f in failing))
        return self

    # -- ----------------------------------------------------------------------------------------
    def _calls(self, tool: str, by: str | None) -> list[ToolCall]:
        return [e for e in self.trace.events if isinstance(e, ToolCall) and e.tool == tool
                and (by is None or e.agent == by)]

    def _fail(self, message: str) -> None:
        from masfuzz.report.trace_text import render_text

        raise AssertionError(f"{message}\n\n{render_text(self.trace)}")


def _matches(actual: dict[str, Any], wanted: dict[str, Any]) -> bool:
    for key, value in wanted.items():
        if key not in actual:
            return False
        got = actual[key]
        if isinstance(value, str) and isinstance(got, str):
            if got != value and not _full_match(value, got):
                return False
        elif got != value:
            return False
    return True


def _full_match(pattern: str, text: str) -> bool:
    try:
        return re.fullmatch(pattern, text) is not None
    except re.error:
        return False
