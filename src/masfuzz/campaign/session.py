"""`open_campaign`: one invocation's hold on a run of the store, the same under every command
that records a run (`cover`, `fuzz` and `run`, which may resume one; `tools` and `judge`, which
always start one).

It owns what each of those commands used to assemble again:

- the claim: the unfinished run of the same command, target and configuration is resumed (its
  lease taken, waiting `LEASE_TTL` for another live process holding it); a completed one is
  shown as stored (`shown`), not redone, unless `fresh`;
- the lease: renewed every `LEASE_TTL`/3 s while the invocation works, whatever the work holds
  (a campaign's event loop, tool fuzzing, judging a log with a model), and released whatever
  ends the invocation (an interrupt, masfuzz's own error), so the next invocation resumes the
  run, which keeps its `running` status;
- the control check the campaign starts with: a callable of the layer above (it knows the
  command's options), run once the run is claimed, its report kept for the summary;
- the model usage: earlier invocations' rows plus this one's, stored whatever happens;
- the finish: the summary written, the run completed, and its analysis read from the store.

The phases, the executor and the models are the command's (the API builds them from its
configuration); this object neither builds nor knows them.
"""

from __future__ import annotations

import asyncio
import os
import socket
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from masfuzz.campaign.engine import Campaign
from masfuzz.errors import MasfuzzError
from masfuzz.report.analysis import Analysis, analyze
from masfuzz.spec.model import WorkflowSpec
from masfuzz.store.db import RunStore


LEASE_TTL = 30.0  # seconds a run's lease lasts without renewal (a killed invocation frees it)


def lease_owner() -> str:
    """Who holds a run's lease: this process on this machine."""
    return f"{socket.gethostname()}:{os.getpid()}"


@dataclass
class CampaignRun:
    """The run an invocation works on (`open_campaign`)."""

    store: RunStore
    command: str
    run_id: int
    owner: str
    shown: Analysis | None = None  # a completed run of this configuration, shown as stored
    earlier: list[dict[str, Any]] = field(default_factory=list)  # usage of earlier invocations
    control: dict[str, Any] = field(default_factory=dict)  # the control check's summary part
    summary: dict[str, Any] = field(default_factory=dict)  # what `drive` adds to the summary
    finished: bool = False

    def drive(self, campaign: Campaign, tester: Any) -> dict[str, Any]:
        """Run the campaign; its usage is stored whatever happens (the lease is released by
        `open_campaign` when this raises). Returns the summary's part of the campaign."""
        t0 = time.perf_counter()
        try:
            asyncio.run(campaign.run())
        finally:
            self.store.record_usage(self.run_id, usage_rows(self.earlier, tester, campaign))
        self.summary = {
            "wall_time": round(time.perf_counter() - t0, 3), "stopped": campaign.stop_reason,
            "executions": {"run": campaign.recorder.executed,
                           "reused_from_store": campaign.recorder.reused},
            "phases": [r.as_dict() for r in campaign.results]}
        return self.summary

    def analysis(self) -> Analysis:
        return analyze(self.store, self.run_id)

    def finish(self, summary: dict[str, Any]) -> Analysis:
        """Complete the run with the campaign's summary, the control check's and `summary`
        (the phases' own parts), and return its analysis."""
        self.store.finish_run(self.run_id, "completed", {**self.summary, **self.control, **summary})
        self.finished = True
        return self.analysis()


@contextmanager
def open_campaign(store: RunStore, command: str, target: str, config: dict[str, Any], *,
                  spec: WorkflowSpec | None, seed: int | None, fresh: bool,
                  resumable: bool = True, check: Callable[[], dict[str, Any]] | None = None,
                  say: Callable[[str], None] = lambda msg: None) -> Iterator[CampaignRun]:
    """The run of `command` on `target` with `config` (what identifies it: a re-run with the
    same one resumes it), claimed under this process's lease; `resumable=False` always starts a
    new run (`tools`, `judge`). `check`, the control check, runs once the run is claimed (not
    for a run shown as stored). The store is closed and the lease released on the way out."""
    owner = lease_owner()
    try:
        held = _claim(store, command, target, config, owner, spec=spec, seed=seed,
                      fresh=fresh or not resumable, resumable=resumable, say=say)
        if held.shown is not None:
            yield held
            return
        try:
            with _kept(store, held.run_id, owner):
                held.earlier = store.usage(held.run_id)
                held.control = check() if check is not None else {}
                yield held
        finally:
            if not held.finished:
                store.release_lease(held.run_id, owner)
    finally:
        store.close()


@contextmanager
def _kept(store: RunStore, run_id: int, owner: str) -> Iterator[None]:
    """The lease on `run_id` renewed every LEASE_TTL/3 s until the block ends, from a thread of
    its own on a connection of its own: the store's connection belongs to the thread that opened
    it, and that thread's work may hold it for longer than a lease lasts (a tool's sandboxed
    calls, a log judged by a model, a control check), after which another process would take
    the run for abandoned. The renewal matches the owner, so one that comes after the release
    or the finish changes nothing."""
    stop = threading.Event()

    def keep() -> None:
        try:
            with RunStore(store.path) as own:
                while not stop.wait(LEASE_TTL / 3):
                    own.renew_lease(run_id, owner, LEASE_TTL)
        except (MasfuzzError, sqlite3.Error):
            return  # a store that cannot be written: the work's own next write says so

    keeper = threading.Thread(target=keep, name=f"masfuzz lease of run {run_id}", daemon=True)
    keeper.start()
    try:
        yield
    finally:
        stop.set()
        keeper.join()


def _claim(store: RunStore, command: str, target: str, config: dict[str, Any], owner: str, *,
           spec: WorkflowSpec | None, seed: int | None, fresh: bool, resumable: bool,
           say: Callable[[str], None]) -> CampaignRun:
    """The run this invocation continues or starts, or the completed run of the same
    configuration (shown, not redone, unless `fresh`)."""
    if not resumable:
        run_id = store.start_run(command, spec, target, config, seed=seed, owner=owner,
                                 ttl=LEASE_TTL)
        return CampaignRun(store, command, run_id, owner)
    if not fresh:
        done = store.completed_run(command, target, config)
        if done is not None and store.find_resumable(command, target, config) is None:
            return _shown(store, command, done, owner, say)
    run_id, state = store.claim_run(command, target, config, owner, spec=spec, seed=seed,
                                    fresh=fresh, wait=LEASE_TTL, ttl=LEASE_TTL)
    if state == "completed":  # another process finished it while this one waited
        return _shown(store, command, run_id, owner, say)
    if state == "resumed":
        say(f"resuming run {run_id} from {store.path}")
    return CampaignRun(store, command, run_id, owner)


def _shown(store: RunStore, command: str, run_id: int, owner: str,
           say: Callable[[str], None]) -> CampaignRun:
    say(f"run {run_id} of this configuration is already complete in {store.path}: shown as "
        "stored (--fresh starts a new run)")
    return CampaignRun(store, command, run_id, owner, shown=analyze(store, run_id))


def _free_model(model: str) -> bool:
    """Whether a model string names a model that costs nothing (an embedded or scripted one)."""
    from masfuzz.llm.accounting import price_of
    from masfuzz.llm.modelstring import parse_model_string

    try:
        parsed = parse_model_string(model)
    except MasfuzzError:
        return False
    return price_of(parsed.provider, parsed.model) == (0.0, 0.0)


def usage_rows(earlier: list[dict[str, Any]], tester: Any, campaign: Campaign) -> list[dict[str, Any]]:
    """Model usage of the run so far: earlier invocations' rows plus this one's (the tester's
    ledger by agent; the system under test's calls as its traces counted them)."""
    rows: dict[tuple[str, str, str], dict[str, Any]] = {}

    def add(role: str, agent: str, model: str, **values: Any) -> None:
        row = rows.setdefault((role, agent, model), {"role": role, "agent": agent, "model": model,
                                                     "calls": 0, "tokens_in": 0, "tokens_out": 0,
                                                     "cache_hits": 0, "seconds": 0.0, "cost": 0.0})
        for k, v in values.items():
            row[k] = None if v is None or row[k] is None else round(row[k] + v, 6)

    for r in earlier:
        add(r["role"], r["agent"], r["model"], **{k: r[k] for k in
            ("calls", "tokens_in", "tokens_out", "cache_hits", "seconds", "cost")})
    for (role, agent), u in tester.ledger.by_agent.items():
        add(role, agent, tester.model_string, calls=u.calls, tokens_in=u.tokens_in,
            tokens_out=u.tokens_out, cache_hits=u.cache_hits, seconds=u.wall_time, cost=u.cost)
    traces = [t for _, t in campaign.recorder.traces_this_invocation()]
    by_agent, priced = 0, True
    for t in traces:  # the calls each agent made, as the model layer saw them
        for agent, s in (t.meta.get("agent_settings") or {}).items():
            model = s.get("model")
            models = model if isinstance(model, list) else [str(model or "")]
            free = all(map(_free_model, models))
            priced = priced and free
            # the app's tokens are counted per run, not per agent: its cost is known only
            # when its models cost nothing (local, scripted); otherwise it is unknown, not $0
            add("sut", agent, ",".join(models), calls=s.get("calls", 0), cost=0.0 if free else None)
            by_agent += s.get("calls", 0)
    if traces:  # tokens and time only as whole runs count them
        sut = [t.usage for t in traces]
        add("sut", "-", "", calls=0 if by_agent else sum(u.model_calls for u in sut),
            tokens_in=sum(u.tokens_in for u in sut), tokens_out=sum(u.tokens_out for u in sut),
            seconds=sum(u.wall_time for u in sut), cost=0.0 if by_agent and priced else None)
    return list(rows.values())
