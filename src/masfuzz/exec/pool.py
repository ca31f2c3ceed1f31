"""The isolated executors: the system under test runs in worker processes masfuzz can always kill.

`PoolExecutor` (the default, kind "pool") keeps up to `concurrency` warm workers
(`python -m masfuzz.exec.worker`), each of which opens its target once and then serves many
execution requests, so an execution costs about what it costs in-process. `SubprocessExecutor`
(kind "subprocess") starts a fresh worker for every request.

Whatever the system under test does, the caller gets a trace and the campaign goes on: at the
request's time limit the worker's whole process group is killed (the worker and anything it
started) and the run is a `timeout`; a worker that dies (a segfault, an abort, `os._exit`, any
exit status) or calls `sys.exit` is a `crash`. Both keep the events the worker streamed before
the end, and the model use it reported (each SUT model call done, with its tokens, by agent:
the progress and the report count it as a finished run's), and say which agent or tool was
running; a run killed at its time limit is first asked for its stacks (`masfuzz.exec.stacks`),
which name the app's own code it was in or say it waited for masfuzz's model. A killed or dead
worker is replaced lazily.

With `concurrency` above 1, workers are forked from a template process (`masfuzz.exec.template`)
that imported the agent framework once, so a worker starts without importing it again; each
still leads its own process group, and its exit status is reported.

A worker measures code coverage from its first request on, or never (coverage must be tracing
before the target is imported): a warm worker serves only requests of its target that ask for
code coverage as its first one did. A killed worker's trace carries no code coverage.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import sys
import time
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from masfuzz.errors import MasfuzzError, TargetError
from masfuzz.exec import cgroup, frames, stacks
from masfuzz.exec.base import Executor
from masfuzz.exec.request import JUDGE, JUDGED, ExecutionRequest
from masfuzz.exec.sandbox import (PEAK_KEY, PLAN_ENV, Plan, check, died_of, discard, hit, model_refused, plan_for,
                                   programs_of, said_out_of_memory)
from masfuzz.exec.template import ForkedProcess, Template
from masfuzz.llm import proxy
from masfuzz.llm.client import SLOTS_ENV
from masfuzz.llm.settings import ModelSettings
from masfuzz.loader import FRAMEWORKS
from masfuzz.proc import kill_group, start_in_group
from masfuzz.redact import trace_json
from masfuzz.target import Target, adapter_name
from masfuzz.trace import (ENDED_IN_MODEL_CALL, EVENTS, MODEL_SECONDS, SANDBOX_LIMITS, STACKS_AT_KILL, AgentTurn, Trace,
                           Usage, ended_trace, running_tool)

if TYPE_CHECKING:  # imported when judging: a worker that never judges loads no detector
    from masfuzz.oracles.failure import Failure
    from masfuzz.oracles.portable import PortableJudge

LOAD_TIMEOUT = 120.0  # seconds to import the target (a cold framework import on a busy machine)
STDERR_TAIL = 4000  # characters of the worker's stderr kept for a crash report
HELD = 200_000  # characters of stderr kept whole for a stack dump (`_Tail.hold`)
_PROTOCOL_LIMIT = 64 * 1024 * 1024  # a trace is one JSON line; allow large ones
_EVENT_LINE = b'{"event":'
_MODEL_LINE = b'{"model_call":'  # a SUT model call starting or ending (`trace.model_call`)
_MODEL_REQUEST = b'{"%s":' % proxy.REQUEST_KEY.encode()  # a SUT model call for us to make
_TRACE_LINE = b'{"trace":'
_LIMIT_LINE = b'{"limit_hit":'  # the event before it shows a sandbox limit hit (`sandbox.watch`)
_PEAK_LINE = b'{"%s":' % PEAK_KEY.encode()  # how much a run that died grew (`sandbox.peak_note`)
_STACKS_LINE = b'{"%s":' % stacks.KEY.encode()  # the run's stacks, asked for before a kill
STACKS_WAIT = 1.0  # seconds a run has to answer with its stacks (`stacks.DUMP`), then faulthandler's


class _Gone(Exception):
    """The worker a request was sent to died judging the run before it (`Worker.judging`): the
    request never ran there, and goes to another worker."""


class _Ended(Exception):
    """The request ended without a trace: (kind, message)."""

    def __init__(self, kind: str, message: str, limit: dict[str, Any] | None = None,
                 taken: list[dict[str, Any]] | None = None) -> None:
        super().__init__(message)
        self.kind = kind
        self.limit = limit  # the sandbox limit it hit (`sandbox.died_of`), if one
        self.stacks = taken or []  # the run's stacks just before the kill (`masfuzz.exec.stacks`)


class Worker:
    """One worker process, its own process group, and the tail of its stderr."""

    def __init__(self, proc: asyncio.subprocess.Process | ForkedProcess, plan: Plan | None = None) -> None:
        self.proc = proc
        self.plan = plan  # its sandbox (None: unsandboxed); its scratch folder goes with it
        self.serves: tuple[Target, bool] | None = None  # its target, whether it measures code
        self.stderr = _Tail(proc.stderr)
        self.calls: set[asyncio.Task[None]] = set()  # its model calls being answered
        self.named: frozenset[str] = frozenset()  # the model strings its run named (`model_refused`)
        self.frames = frames.Opener()  # its answers' seals, a key per request (`masfuzz.exec.frames`)
        # its judging of the run before (`PoolExecutor._judge`), under way while it is idle: its
        # answer is read before the next request's
        self.judging: asyncio.Future[Any] | None = None

    @classmethod
    async def start(cls, python: str, template: Template | None = None, plan: Plan | None = None) -> "Worker":
        """A worker forked from `template` (its framework imported already), else started;
        confined by `plan` (`masfuzz.exec.sandbox`) unless None."""
        env = _worker_env()
        if plan is not None:
            env[PLAN_ENV] = plan.to_env()
        try:
            if template is not None:
                try:
                    return cls(await template.fork(env, _PROTOCOL_LIMIT), plan)
                except OSError:
                    pass  # the template is gone: start one the slow way
            proc = await start_in_group(
                python, "-m", "masfuzz.exec.worker",
                stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE, limit=_PROTOCOL_LIMIT, env=env,
            )
        except BaseException:
            discard(plan)
            raise
        return cls(proc, plan)

    @property
    def alive(self) -> bool:
        return self.proc.returncode is None

    async def send(self, request: ExecutionRequest) -> None:
        """An execution request. When the worker is still judging the run before (`judging`), it
        is sent at once all the same (the worker reads it as soon as it has judged: no round trip
        to masfuzz between), and its answers are read once the judging's is; raises `_Gone`
        when the worker died judging (the request was not run)."""
        judging, self.judging = self.judging, None
        key = await self.send_text(json.dumps(request.to_data()), rekey=judging is None)
        if judging is not None:
            await asyncio.wait([judging])  # (cancelling this wait leaves the judging be)
            if not self.alive:
                raise _Gone()
            self.frames.rekey(key)

    async def send_text(self, request: str, *, rekey: bool = True) -> str:
        """A request (one JSON object's text) with the key its answers are to be sealed with (the
        key; `rekey`: the answers read from now on are this request's)."""
        assert self.proc.stdin is not None
        key = frames.new_key()
        if rekey:
            self.frames.rekey(key)
        try:
            self.proc.stdin.write(f'{request[:-1]},"{frames.KEY_FIELD}":"{key}"}}\n'.encode())
            await self.proc.stdin.drain()
        except (BrokenPipeError, ConnectionResetError):
            pass  # it died before reading; its exit status says why
        return key

    def answer(self, line: bytes, models: ModelSettings) -> None:
        """Make the model call the worker asked for (`masfuzz.llm.proxy`) and send it the
        reply, in a task of its own: the run goes on streaming meanwhile."""

        async def reply() -> None:
            try:
                message = json.loads(line)[proxy.REQUEST_KEY]
            except (ValueError, KeyError, TypeError):
                message = None
            model = message.get("model") if isinstance(message, dict) else None
            if (why := model_refused(model, self.named, self.plan)) is not None:
                out = proxy.refused(message, why)
            else:
                out = await proxy.answer(message, models)
            assert self.proc.stdin is not None
            try:
                self.proc.stdin.write(out.encode() + b"\n")
                await self.proc.stdin.drain()
            except (BrokenPipeError, ConnectionResetError, RuntimeError):
                pass  # the worker is gone; its end is reported by the run

        task = asyncio.ensure_future(reply())
        self.calls.add(task)
        task.add_done_callback(self.calls.discard)

    async def kill(self) -> None:
        for task in list(self.calls):  # nobody is left to read their replies
            task.cancel()
        await kill_group(self.proc)
        await self.stderr.close()
        discard(self.plan)


class PoolExecutor(Executor):
    kind = "pool"
    reuse = True  # keep a worker warm for the next request of the same target

    def __init__(self, *, load_timeout: float = LOAD_TIMEOUT, python: str | None = None,
                 template: bool | None = None, **options: Any) -> None:
        super().__init__(**options)
        self.adapter = adapter_name(self.adapter)  # the worker imports it by name
        check(self.sandbox)  # bad input, before anything runs, when the kernel refuses it
        self.load_timeout = load_timeout
        self.python = python or sys.executable
        # fork workers from a template process (`exec.template`); by default when several
        # workers share it (one worker pays the same import either way)
        self.template = self.concurrency > 1 if template is None else template
        self._template: Template | None = None
        self._template_lock: tuple[Any, asyncio.Lock] | None = None  # (its loop, the lock)
        self._idle: list[Worker] = []
        self._judge_text: str | None = None  # the judge's text the template is to make ready (`will_judge`)

    async def _execute(self, request: ExecutionRequest) -> Trace:
        return (await self._on_worker(request))[0]

    async def judged(self, request: ExecutionRequest,
                     judge: PortableJudge) -> tuple[Trace, list[Failure] | None]:
        """The execution, then its judging on the same worker (a judging request, `JUDGE`),
        while the campaign's process goes on with the other workers' traces and model calls: the
        detectors were most of its CPU at 16 workers, one trace at a time. With one worker there
        is nothing to overlap, and the caller judges, as it always did."""
        if self.concurrency == 1:
            return await super().judged(request, judge)
        if self._judge_text is None:
            self.will_judge(judge)
        async with self._semaphore():
            trace, judging = await self._on_worker(request, judge)
        # the slot is free as soon as the trace is in: the worker judges it while the next
        # request goes to it (`Worker.send`), where the driver's round trip held the slot
        return trace, (None if judging is None else await asyncio.shield(judging))

    async def _on_worker(self, request: ExecutionRequest, judge: PortableJudge | None = None
                         ) -> tuple[Trace, asyncio.Future[list[Failure] | None] | None]:
        """The request's trace from a warm (or new) worker; with `judge`, the trace as it leaves
        the executor (`finished`) and its judging by that worker, under way (answering what
        `judge` found in it there, or None when judging failed in the worker: the caller judges
        it); None when the run did not end well."""
        worker = await self._warm(request) or await self._started(request)
        healthy = False
        try:
            try:
                trace = await self._serve(worker, request)
            except _Gone:  # the worker died judging the run before this one: another runs it
                worker = await self._started(request)
                trace = await self._serve(worker, request)
            healthy = worker.alive and trace.termination is not None \
                and trace.termination.reason not in ("timeout", "crash")
            if judge is None:
                return trace, None
            trace = self.finished(request, trace)
            if not healthy:
                return trace, None
            judging = await self._judge(worker, request, trace, judge)
            if self.reuse:
                worker.judging = judging
            else:  # the worker ends with this request: once it has judged
                await asyncio.wait([judging])
            return trace, judging
        finally:
            if healthy and worker.alive and self.reuse:
                worker.serves = (request.target, request.code_coverage)
                self._idle.append(worker)
            else:
                await worker.kill()

    async def _started(self, request: ExecutionRequest) -> Worker:
        return await Worker.start(self.python, await self._forks(), self._plan(request))

    def will_judge(self, judge: PortableJudge) -> None:
        """The template makes `judge` ready before it forks the workers (`Template.prepare_judge`):
        rebuilt, its readings of the specification made and its patterns for the team's names
        compiled once for all of them, where each worker's first judging did it (a quarter of a
        second of CPU each, 16 of them at once as a campaign starts). With one worker the caller
        judges (`judged`)."""
        if self.concurrency > 1 and self.template:
            self._judge_text = judge.text

    def _plan(self, request: ExecutionRequest) -> Plan | None:
        """The sandbox of a new worker for `request`'s target (None: --unsafe-no-sandbox)."""
        if not self.sandbox.enabled:
            return None
        # the target is open in this process already (for its spec; not in a Ray actor, which
        # opens nothing of the app outside its workers): its agents' MCP servers start in the
        # sandbox from what they need, shown read-only
        opened = request.target.opened()
        return plan_for(self.sandbox, request.target.ref, programs_of(opened) if opened else ())

    async def _forks(self) -> Template | None:
        """The template workers are forked from: started on first use, on this event loop, with
        the agent frameworks and adapters this process has imported (opening the target
        imported those its workers need); None when off or it cannot start."""
        if not self.template:
            return None
        loop = asyncio.get_running_loop()
        if self._template_lock is None or self._template_lock[0] is not loop:
            self._template_lock = (loop, asyncio.Lock())
        async with self._template_lock[1]:
            t = self._template
            if t is None or not t.alive or t.loop is not loop:
                if t is not None:
                    self._template = None
                    if t.loop is loop:
                        await t.close()
                try:
                    t = self._template = await Template.start(self.python, _preload(), _worker_env())
                except OSError:
                    self.template = False
                    return None
            if self._judge_text is not None and t.judge != self._judge_text:
                await t.prepare_judge(self._judge_text)
            return t

    async def _warm(self, request: ExecutionRequest) -> Worker | None:
        """An idle worker that already opened the request's target, measuring code coverage or
        not as the request asks; other idle workers (or dead ones) are stopped on the way, since
        a worker serves one target."""
        while self._idle:
            w = self._idle.pop(0)
            if w.alive and w.serves == (request.target, request.code_coverage):
                return w
            await w.kill()
        return None

    async def _serve(self, worker: Worker, request: ExecutionRequest) -> Trace:
        scenario = request.scenario
        events: list[Any] = []
        info: dict[str, Any] = {}
        worker.stderr.reset()
        worker.named = frozenset(m for m in (scenario.sut_model, *scenario.agent_models.values()) if m)
        t_run = time.perf_counter()
        killed = cgroup.oom_killed(worker.plan.cgroup if worker.plan else None)
        try:
            await worker.send(request)  # its input stays open: model replies come that way
            info = await self._next(worker, self.load_timeout, request.models, loading=True)
            if "ready" not in info:
                raise _Ended("crash", "worker answered without reporting the target loaded")
            t_run = time.perf_counter()
            deadline = t_run + request.limit
            while True:
                answer = await self._next(worker, max(0.0, deadline - time.perf_counter()),
                                          request.models, shown=request.limit, events=events)
                if "exit" in answer:
                    raise _Ended("crash", f"the system under test called sys.exit({answer['exit']})"
                                 + (f": {answer['message']}" if answer.get("message") else ""))
                if "trace" not in answer:
                    raise _Ended("crash", "worker answered without a trace")
                hits = _limit_hits(events) + _oom_kills(worker.plan, killed)
                noted = {**({SANDBOX_LIMITS: hits} if hits else {}), **worker.frames.meta()}
                return answer["trace"].model_copy(update={"meta": {**answer["trace"].meta, **noted}}) \
                    if noted else answer["trace"]
        except _Ended as ended:
            kept = _events(events)
            meta = {"stderr_tail": worker.stderr.text[-STDERR_TAIL:]} if worker.stderr.text else {}
            meta.update(worker.frames.meta())
            answering = _model_answering(events)
            place = stacks.where(ended.stacks)
            if place.kind == "app":  # its own code held the run, whatever model call was open
                answering = None
            if answering is not None:
                meta[ENDED_IN_MODEL_CALL] = answering
                meta[MODEL_SECONDS] = round(_model_seconds(events, time.monotonic()), 3)
            if ended.stacks:
                meta[STACKS_AT_KILL] = {"where": place.words(), "stacks": ended.stacks}
            usage, by_agent = _model_use(events, scenario)
            if by_agent:  # the calls each agent made before the end, as a finished run says them
                meta["agent_settings"] = by_agent
            died = [ended.limit] if ended.limit is not None else []
            killed_now = [] if died and died[0]["limit"] == "memory" else _oom_kills(worker.plan, killed)
            if hits := _limit_hits(events) + died + killed_now:
                meta[SANDBOX_LIMITS] = hits
            said = f" {place.words()}," if place.kind == "app" or place.kind == "model" and answering is None else ""
            return ended_trace(
                scenario, ended.kind, f"{ended}{said}{_while(kept, answering)}".rstrip(","),
                time.perf_counter() - t_run,
                system_id=info.get("system_id", ""), framework=info.get("framework", ""),
                meta=meta, events=kept, usage=usage,
            )
        except BaseException:
            await worker.kill()
            raise

    async def _judge(self, worker: Worker, request: ExecutionRequest, trace: Trace,
                     judge: PortableJudge) -> asyncio.Future[list[Failure] | None]:
        """`trace` judged with `judge` by `worker` (which ran it) in its own process, on the trace
        as this process has it (the JSON the store is about to write): the request sent now
        (before the worker may take another: it reads them in order), its answer read by the
        task returned (`_judgment`)."""
        await worker.send_text(f'{{"{JUDGE}":{judge.text},"trace":{trace_json(trace)}}}')
        return asyncio.ensure_future(self._judgment(worker, request))

    async def _judgment(self, worker: Worker, request: ExecutionRequest) -> list[Failure] | None:
        """What the judge found, as `worker` answers; None when it could not judge (it is killed
        if it took longer than the run may: a judging of ordinary traces takes milliseconds). A
        worker the pool killed before its answer was read answers nothing, whatever its pipe still
        holds: whether the answer got out before the kill is a race, and the caller judges."""
        try:  # no run's stacks to ask for at the limit: as while loading
            answer = await self._next(worker, request.limit, request.models, loading=True)
        except (_Ended, MasfuzzError):
            return None
        if not worker.alive:
            return None
        found = answer.get(JUDGED)
        if not isinstance(found, list):
            return None
        from masfuzz.oracles.failure import Failure

        try:
            return [Failure.model_validate(f) for f in found]
        except ValidationError:
            return None

    async def _next(self, worker: Worker, limit: float, models: ModelSettings, *,
                    loading: bool = False, shown: float | None = None,
                    events: list[Any] | None = None) -> dict[str, Any]:
        """The worker's next protocol line within `limit` seconds, else kill and explain
        (`shown`: the run's whole time limit, for the message). Event lines go to `events`
        unparsed: they are read only if the run ends without a trace. Model calls the worker
        asks for are made meanwhile, with `models`, the request's settings."""
        proc = worker.proc
        assert proc.stdout is not None
        try:
            async with asyncio.timeout(limit):  # one deadline for all the lines, no task each
                while True:
                    line = worker.frames.open(await proc.stdout.readline())
                    if line is None:  # not the worker's: the system wrote it (`frames`)
                        continue
                    if line.startswith(_MODEL_REQUEST):
                        worker.answer(line, models)
                        continue
                    if events is None or not line.startswith((_EVENT_LINE, _MODEL_LINE, _LIMIT_LINE, _PEAK_LINE)):
                        break
                    events.append(line)
        except TimeoutError:
            taken = [] if loading else await _stacks_of(worker)
            await worker.kill()
            if loading:
                raise TargetError(f"loading the target took longer than {limit:g} s") from None
            raise _Ended("timeout", f"no result within {shown or limit:g} s (--timeout); the worker "
                         "was killed", taken=taken) from None
        except ValueError:  # a line over the protocol limit
            raise _Ended("crash", "worker sent an answer too large to read") from None
        if line.startswith(_TRACE_LINE):  # the common case, validated straight from JSON
            try:
                return {"trace": Trace.model_validate_json(line[len(_TRACE_LINE):].rstrip()[:-1])}
            except ValidationError as exc:
                raise _Ended("crash", f"worker sent an invalid trace: {exc.errors()[0]['msg']}")
        if not line:
            status = await proc.wait()
            await worker.stderr.drained()
            limit = died_of(status, worker.stderr.text, worker.plan, _grown(events or []))
            if limit is not None and limit["limit"] == "cpu":  # a spin, as a timeout is
                raise _Ended("timeout", f"the system under test used up its CPU time in the sandbox "
                             f"({worker.plan.limits.cpu_s} s a run, --sandbox-cpu); the worker "
                             "was killed", limit)
            raise _Ended("crash", _death(status, worker.stderr.last_line(), limit,
                                         said_out_of_memory(worker.stderr.text)), limit)
        try:
            answer = json.loads(line)
        except json.JSONDecodeError:
            raise _Ended("crash", f"worker sent garbage: {line[:80]!r}") from None
        if not isinstance(answer, dict):
            raise _Ended("crash", f"worker sent garbage: {line[:80]!r}")
        if "error" in answer:
            await worker.kill()
            raise MasfuzzError(str(answer["error"]))
        return answer

    async def aclose(self) -> None:
        idle, self._idle = self._idle, []
        # all at once: each kill waits for its worker's end (the kernel freeing a process of
        # 100 MB and more), and one after the other 16 of them took 2 s of a loaded machine
        # at the end of every campaign, its workers idle
        await asyncio.gather(*(w.kill() for w in idle))
        template, self._template = self._template, None
        if template is not None and template.loop is asyncio.get_running_loop():
            await template.close()


async def _stacks_of(worker: Worker) -> list[dict[str, Any]]:
    """The run's stacks, asked of it before the kill at its time limit (`masfuzz.exec.stacks`):
    its Python answer on the channel, else (the run stuck in native code) faulthandler's dump
    on its stderr; [] when neither came. The signal goes to the worker's process group: the
    worker ignores it while a run goes on, the run's process answers, a program a tool started
    ends as it would a moment later at the kill."""
    proc = worker.proc
    if not worker.alive or proc.stdout is None:
        return []
    try:
        os.killpg(proc.pid, stacks.DUMP)
    except OSError:
        return []
    with contextlib.suppress(TimeoutError, ValueError, KeyError, TypeError):
        async with asyncio.timeout(STACKS_WAIT):
            while raw := await proc.stdout.readline():
                line = worker.frames.open(raw)
                if line and line.startswith(_STACKS_LINE):
                    return list(json.loads(line)[stacks.KEY])
    worker.stderr.hold()
    with contextlib.suppress(OSError):
        os.killpg(proc.pid, stacks.NATIVE)
    await asyncio.sleep(STACKS_WAIT / 2)  # faulthandler writes from the handler itself, at once
    return stacks.parse_faulthandler(worker.stderr.held or "")


def _worker_env() -> dict[str, str]:
    # the workers' model calls are made here (the model proxy), within this process's
    # --max-connections bound: a worker holding a connection slot of its own while it waits
    # would starve the call it waits for
    return {k: v for k, v in os.environ.items() if k != SLOTS_ENV}


def _preload() -> list[str]:
    """What a template imports before forking workers: the worker's own modules and the
    detectors it judges with (`JUDGE`), the thread pool asyncio starts for `to_thread` (a tool
    run off the event loop: imported by a worker's first run otherwise), and the agent frameworks and masfuzz adapters this process has
    imported."""
    frameworks = [m for m in FRAMEWORKS if m in sys.modules]
    adapters = sorted(m for m in sys.modules
                      if m.startswith("masfuzz.adapters.") and m.count(".") == 2)
    return ["masfuzz.exec.worker", "masfuzz.exec.request", "masfuzz.exec.base", "concurrent.futures.thread",
            "masfuzz.oracles.portable", *frameworks, *adapters]


class SubprocessExecutor(PoolExecutor):
    """A fresh worker for every request (stopped once it has answered its one request)."""

    kind = "subprocess"
    reuse = False


def _events(lines: list[bytes]) -> tuple[Any, ...]:
    """The streamed events, as far as they can be read (the last line may be cut off)."""
    raw = []
    for line in lines:
        if not line.startswith(_EVENT_LINE):
            continue
        try:
            raw.append(json.loads(line)["event"])
        except (ValueError, KeyError, TypeError):
            break
    try:
        return tuple(EVENTS.validate_python(raw))
    except ValidationError:
        return ()


def _oom_kills(plan: Plan | None, before: int) -> list[dict[str, Any]]:
    """The memory limit's hit when the kernel killed a process of the sandbox's memory cgroup
    during the run (a child the system started: the system went on without it)."""
    if plan is None or cgroup.oom_killed(plan.cgroup) <= before:
        return []
    return [hit("memory", plan.limits)]


def _limit_hits(lines: list[bytes]) -> list[dict[str, Any]]:
    """The sandbox limits the run hit, each at the event streamed just before its note."""
    hits, count = [], 0
    for line in lines:
        if line.startswith(_EVENT_LINE):
            count += 1
        elif line.startswith(_LIMIT_LINE):
            try:
                hits.append({**json.loads(line)["limit_hit"], "event": count - 1})
            except (ValueError, KeyError, TypeError):
                break
    return hits


def _model_notes(lines: list[bytes]) -> Iterator[dict[str, Any]]:
    """The worker's notes of SUT model calls starting and ending, as far as they can be read."""
    for line in lines:
        if not line.startswith(_MODEL_LINE):
            continue
        try:
            yield json.loads(line)
        except ValueError:
            return


def _model_answering(lines: list[bytes]) -> str | None:
    """The agent whose model call was still running when the run ended ("" for a call no
    adapter named), or None when no model call was."""
    open_calls: list[str] = []
    for note in _model_notes(lines):
        agent = str(note.get("model_call", ""))
        if note.get("busy"):
            open_calls.append(agent)
        elif agent in open_calls:
            open_calls.remove(agent)
    return open_calls[-1] if open_calls else None


def _model_seconds(lines: list[bytes], now: float) -> float:
    """How long the run's model calls took, the one still running up to `now` (each note's
    `at` is on the monotonic clock the worker and this process share)."""
    started: dict[str, list[float]] = {}
    total = 0.0
    for note in _model_notes(lines):
        at = note.get("at")
        if not isinstance(at, (int, float)):
            continue
        agent = str(note.get("model_call", ""))
        if note.get("busy"):
            started.setdefault(agent, []).append(at)
        elif started.get(agent):
            total += at - started[agent].pop()
    return total + sum(now - at for ats in started.values() for at in ats)


def _model_use(lines: list[bytes], scenario: Any) -> tuple[Usage, dict[str, dict[str, Any]]]:
    """The model calls the worker reported done before the run ended, with their tokens, and
    the calls by agent on the model the scenario gave it (a killed run's model use is counted
    as a finished run's is)."""
    usage, by_agent = Usage(), {}
    for note in _model_notes(lines):
        if note.get("busy"):
            continue
        tokens = note.get("usage") or {}
        usage.model_calls += 1
        usage.tokens_in += int(tokens.get("tokens_in", 0))
        usage.tokens_out += int(tokens.get("tokens_out", 0))
        agent = str(note.get("model_call", ""))
        model = scenario.agent_models.get(agent) or scenario.sut_model or ""
        by_agent.setdefault(agent or "-", {"model": model, "calls": 0})["calls"] += 1
    return usage, by_agent


def _while(events: tuple[Any, ...], answering: str | None = None) -> str:
    """Which tool (else which agent's model call, else which agent) was running when the run
    ended."""
    call = running_tool(events)
    if call is not None:
        return f" while {call.agent} ran tool {call.tool}"
    if answering is not None:
        return f" while {answering or 'an agent'} waited for its model's answer"
    turns = [e.agent for e in events if isinstance(e, AgentTurn)]
    return f" while {turns[-1]} was acting" if turns else ""


def _grown(lines: list[bytes]) -> float | None:
    """The MB a run that died grew by, as its worker noted (`sandbox.peak_note`)."""
    for line in lines:
        if line.startswith(_PEAK_LINE):
            with contextlib.suppress(ValueError, KeyError, TypeError):
                return float(json.loads(line)[PEAK_KEY])
    return None


def _death(status: int, last_line: str, limit: dict[str, Any] | None = None, memory_said: bool = False) -> str:
    """One line: how the worker ended, and whose the end is when a signal ended it (a kill or a
    crash of native code often leaves no Python traceback): a sandbox limit's (`died_of`) or
    the app's own, saying so when its output named memory that masfuzz did not see it use."""
    if status < 0:
        try:
            name = signal.Signals(-status).name
        except ValueError:
            name = f"signal {-status}"
        whose = (f"at the sandbox's {limit['limit']} limit, not the app's crash" if limit else
                 "no sandbox limit's: the app's, or a kill from outside" if -status == signal.SIGKILL else
                 "the app's own crash" + ("; its output names an allocation refused, but the run did not grow "
                                          "near --sandbox-memory" if memory_said else ""))
        what = f"worker killed by {name} ({whose})"
    else:
        what = f"worker exited with status {status} before answering"
    return f"{what}: {last_line}" if last_line else what


class _Tail:
    """Drains a stream in the background (so a chatty worker never blocks on a full pipe),
    keeping only its last characters."""

    def __init__(self, stream: asyncio.StreamReader | None) -> None:
        self.text = ""
        self.held: str | None = None  # all that came since `hold`, up to HELD characters
        self._task = asyncio.ensure_future(self._drain(stream)) if stream else None

    async def _drain(self, stream: asyncio.StreamReader) -> None:
        while chunk := await stream.read(65536):
            text = chunk.decode("utf-8", "replace")
            self.text = (self.text + text)[-STDERR_TAIL:]
            if self.held is not None:
                self.held = (self.held + text)[:HELD]

    def hold(self) -> None:
        """Keep all that comes from now on (a stack dump longer than the tail)."""
        self.held = ""

    def reset(self) -> None:
        self.text, self.held = "", None

    async def drained(self) -> None:
        if self._task is not None:  # (one closed meanwhile, by a kill, is drained as far as it got)
            await asyncio.wait([self._task], timeout=2)

    def last_line(self) -> str:
        lines = [ln.strip() for ln in self.text.splitlines() if ln.strip()]
        return lines[-1][:300] if lines else ""

    async def close(self) -> None:
        if self._task is not None and not self._task.done():
            self._task.cancel()
            try:
                await self._task
            except (asyncio.CancelledError, Exception):
                pass
