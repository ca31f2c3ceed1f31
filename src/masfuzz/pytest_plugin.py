"""pytest plugin: every case of a masfuzz suite becomes one test; `masfuzz_run` runs a target
for trace assertions (`masfuzz.testing`).

Suites are collected from files named `masfuzz-suite*.yaml` / `masfuzz-suite*.json` (or
`*.masfuzz-suite.yaml`), or named explicitly with `--masfuzz-suite PATH`. A case passes when
re-executing its scenario still produces every witness it was saved with. The cases run as
`masfuzz replay` runs them, with its settings from the option table (`MASFUZZ_*` variables,
`[tool.masfuzz]` and `[tool.masfuzz.replay]` in pyproject.toml: the executor, the time limit,
the sandbox, the model-call settings, the model). This module imports nothing heavy until a
suite is actually collected.
"""

from __future__ import annotations

import asyncio
import fnmatch
from pathlib import Path
from typing import Any

import pytest

_PATTERNS = ("masfuzz-suite*.yaml", "masfuzz-suite*.yml", "masfuzz-suite*.json",
             "*.masfuzz-suite.yaml", "*.masfuzz-suite.json")


def pytest_addoption(parser: Any) -> None:
    group = parser.getgroup("masfuzz")
    group.addoption("--masfuzz-suite", action="append", default=[], metavar="PATH",
                    help="run the cases of this masfuzz suite file as tests")
    group.addoption("--masfuzz-target", default=None,
                    help="system under test for the suites (default: the one each suite records)")
    group.addoption("--masfuzz-sut-model", default=None,
                    help="override the model driving the system under test")


@pytest.fixture
def masfuzz_run() -> Any:
    """`masfuzz.testing.run`: one execution of a target under masfuzz, for trace assertions."""
    from masfuzz.testing import run

    return run


def pytest_collect_file(file_path: Path, parent: Any) -> Any:
    if any(fnmatch.fnmatch(file_path.name, p) for p in _PATTERNS):
        return SuiteFile.from_parent(parent, path=file_path)
    return None


def pytest_collection_modifyitems(session: Any, config: Any, items: list) -> None:
    for path in config.getoption("masfuzz_suite") or []:
        suite_file = SuiteFile.from_parent(session, path=Path(path).resolve())
        items.extend(suite_file.collect())


class SuiteFile(pytest.File):
    def collect(self) -> Any:
        from masfuzz.generate.suite import load_suite

        suite = load_suite(self.path)
        for case in suite.cases:
            yield SuiteCaseItem.from_parent(self, name=f"{case.id} {case.title}", suite=suite,
                                            case=case)


# One executor per target, and one event loop for the session: the pool's warm workers belong
# to the loop that started them, so every case runs on the same one; both end with the session.
_EXECUTORS: dict[Any, Any] = {}
_LOOP: list[asyncio.AbstractEventLoop] = []
_CONFIG: list[Any] = []  # `replay`'s configuration, resolved once for the session


def _replay_config(config: Any) -> Any:
    """`masfuzz replay`'s configuration (`masfuzz.options.Config`): --masfuzz-sut-model over
    MASFUZZ_SUT_MODEL and the project's settings, as a flag is over them."""
    if not _CONFIG:
        from masfuzz.options import resolve

        model = config.getoption("masfuzz_sut_model")
        _CONFIG.append(resolve("replay", {"sut_model": model} if model else {}))
    return _CONFIG[0]


def _loop() -> asyncio.AbstractEventLoop:
    if not _LOOP:
        _LOOP.append(asyncio.new_event_loop())
    return _LOOP[0]


def pytest_sessionfinish(session: Any, exitstatus: Any) -> None:
    if not _LOOP:
        return
    loop = _LOOP.pop()
    for executor in _EXECUTORS.values():
        loop.run_until_complete(executor.aclose())
    _EXECUTORS.clear()
    _CONFIG.clear()
    loop.close()


class SuiteCaseItem(pytest.Item):
    def __init__(self, *, suite: Any, case: Any, **kw: Any) -> None:
        super().__init__(**kw)
        self.suite, self.case = suite, case

    def runtest(self) -> None:
        from masfuzz.api import executor_for
        from masfuzz.campaign.known import as_replayed
        from masfuzz.generate.suite import check_case
        from masfuzz.target import Orchestration, Target

        ref = self.config.getoption("masfuzz_target") or self.suite.target
        # the suite's own graph travels with its target
        target = Target.of(ref, Orchestration.from_data(self.suite.orchestration))
        settings = _replay_config(self.config)
        if target not in _EXECUTORS:
            _EXECUTORS[target] = executor_for(settings)
        executor = _EXECUTORS[target]

        async def execute(sc: Any) -> Any:
            return await executor.run(target, sc)

        # replay's --timeout (MASFUZZ_TIMEOUT, [tool.masfuzz] timeout) where it is tighter
        scenario = as_replayed(self.case.scenario, settings.sut_model, settings.timeout)
        outcome = check_case(self.case, _loop().run_until_complete(execute(scenario)))
        if not outcome.passed:
            raise SuiteCaseFailure(outcome)

    def repr_failure(self, excinfo: Any, style: Any = None) -> str:
        if isinstance(excinfo.value, SuiteCaseFailure):
            o = excinfo.value.outcome
            ended = o.trace.termination
            how = (f"\n  the run ended: {ended.reason}: {ended.detail}"
                   if ended is not None and ended.reason != "completed" and ended.detail else "")
            return (f"witnesses lost: {', '.join(o.lost)}\n  input: {o.case.scenario.input!r}\n"
                    f"  observed agents: {o.trace.speaker_order} {o.detail}{how}")
        return super().repr_failure(excinfo)

    def reportinfo(self) -> tuple[Any, int, str]:
        return self.path, 0, f"masfuzz case {self.case.id}"


class SuiteCaseFailure(Exception):
    def __init__(self, outcome: Any) -> None:
        super().__init__("witness lost")
        self.outcome = outcome
