"""Progress while a campaign runs: a live rich panel on a terminal, plain grep-friendly lines
anywhere else, stdout untouched; the numbers shown at the end are the report's."""

import io
import json
import os
import re
import subprocess
import sys

import pytest

from masfuzz.campaign.budget import Budget
from masfuzz.campaign.status import Criterion, Status
from masfuzz.cli.progress import Display, fields, plain_line

from tests.conftest import MASFUZZ_CLI, ROOT
from tests.generate.test_cover import CS, CS_SUT, TESTER

ESC = "\x1b"
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
PROGRESS = re.compile(r"^  \.\. progress: (?P<phase>[^,]+), executions (?P<n>\d+)(?:/(?P<limit>\d+))?, "
                      r"C1 (?P<C1>\d+/\d+), C2 (?P<C2>\d+/\d+), C3 (?P<C3>\d+/\d+), C4 (?P<C4>\d+/\d+), "
                      r"failures (?P<failures>\d+)(?: \(\+(?P<aside>\d+) set aside\))?, .*elapsed \d+", re.M)


def _status(event="execution", *, executions=5, executed=5, elapsed=10.0, budget=Budget(),
            tester_calls=0, phase="structural", cost=None):
    return Status(event=event, phase=phase, executions=executions, executed=executed, reused=0,
                  budget=budget, elapsed=elapsed,
                  criteria=tuple(Criterion(f"C{i}", 1, 2) for i in range(1, 5)),
                  failures=1, set_aside=2, tester_calls=tester_calls, sut_calls=3, tokens_in=0,
                  tokens_out=0, cost=cost)


def _cover_args(tmp_path, *extra):
    return ["cover", CS, "--model", TESTER, "--sut-model", CS_SUT, "--no-cache", "--no-check",
            "--store", str(tmp_path / "runs.db"), "--suite", str(tmp_path / "suite.yaml"),
            "--budget-executions", "6", *extra]


def _agree(numbers, report):
    """The numbers a display showed last are the report's."""
    coverage = report["coverage"]
    assert int(numbers["n"]) == coverage["scenarios"]
    for c in ("C1", "C2", "C3", "C4"):
        crit = coverage["criteria"][c]
        assert numbers[c] == f"{crit['covered']}/{crit['total']}", c
    own = [f for f in report["failures"] if f["attribution"] == "sut"]
    assert int(numbers["failures"]) == len(own)
    assert int(numbers["aside"] or 0) == len(report["failures"]) - len(own)


# -- not a terminal: plain lines ------------------------------------------------------------------
def test_plain_lines_on_stderr_with_the_reports_numbers_and_stdout_untouched(cli, tmp_path, monkeypatch):
    pytest.importorskip("agents")
    monkeypatch.chdir(ROOT)
    code, out, err = cli(*_cover_args(tmp_path, "--format", "json", "--progress", "plain"))
    assert code == 0, err
    report = json.loads(out)  # stdout is the document alone
    assert ESC not in err and ESC not in out
    lines = [m.groupdict() for m in PROGRESS.finditer(err)]
    assert lines, err
    assert all(line["limit"] == "6" for line in lines)
    assert lines[0]["phase"] == "structural" and lines[-1]["phase"] == "done"
    _agree(lines[-1], report)
    assert "  .. phase structural" in err  # the campaign's own lines are still said


def test_auto_is_plain_when_stderr_is_not_a_terminal_and_silent_with_format_json(cli, tmp_path, monkeypatch):
    pytest.importorskip("agents")
    monkeypatch.chdir(ROOT)
    code, out, err = cli(*_cover_args(tmp_path, "--format", "json"))
    assert code == 0 and "  .. " not in err, err
    code, out, err = cli(*_cover_args(tmp_path, "--fresh"))
    assert code == 0 and ESC not in err
    assert PROGRESS.search(err) and "progress: done, executions 6/6" in err
    code, out, err = cli(*_cover_args(tmp_path, "--fresh", "--progress", "off"))
    assert code == 0 and "  .. " not in err


def test_plain_lines_are_rate_limited_but_every_phase_and_the_end_are_shown():
    now = [0.0]
    written = io.StringIO()
    display = Display("plain", every=10.0, clock=lambda: now[0])
    sys_stderr, sys.stderr = sys.stderr, written
    try:
        with display:
            display.update(_status("phase", executions=0, executed=0))
            for i in range(1, 30):  # 29 executions, one a second
                now[0] = float(i)
                display.update(_status(executions=i, executed=i, elapsed=float(i)))
            now[0] = 29.5
            display.update(_status("phase", phase="fuzz", executions=29, executed=29))
            now[0] = 30.0
            display.update(_status(executions=30, executed=30, elapsed=30.0, phase="fuzz"))
        # leaving the block writes the latest numbers no line showed yet
    finally:
        sys.stderr = sys_stderr
    shown = [int(m["n"]) for m in PROGRESS.finditer(written.getvalue())]
    assert shown == [0, 10, 20, 29, 30]


# -- ETA ------------------------------------------------------------------------------------------
def test_eta_follows_the_rate_against_an_executions_budget():
    s = _status(executions=10, executed=5, elapsed=10.0, budget=Budget(executions=20))
    assert s.eta == pytest.approx(20.0) and s.eta_limit == "executions"  # 10 left at 2 s each
    assert fields(s)["eta"] == "20s" and "eta 20s" in plain_line(s)
    assert _status(executed=0, budget=Budget(executions=20)).eta is None  # no rate yet


def test_eta_is_the_nearest_limit_and_absent_without_one():
    s = _status(executions=10, executed=10, elapsed=10.0, budget=Budget(wall_time=15.0, executions=100))
    assert s.eta == pytest.approx(5.0) and s.eta_limit == "wall time"
    calls = _status(elapsed=10.0, tester_calls=40, budget=Budget(model_calls=50))
    assert calls.eta == pytest.approx(2.5) and calls.eta_limit == "model calls"
    free = _status(budget=Budget())
    assert free.eta is None and free.used is None
    assert "eta" not in fields(free) and "eta" not in plain_line(free)
    assert "eta" not in fields(_status("end", budget=Budget(executions=20)))  # over: no ETA


def test_cost_is_shown_only_where_known():
    assert "cost" not in plain_line(_status(cost=None))
    assert "tester cost $0.0123" in plain_line(_status(cost=0.0123))


# -- a terminal: the live panel ---------------------------------------------------------------------
def _last_frame(out):
    text = ANSI.sub("", out)
    return text[text.rindex("masfuzz "):]


def _frame_numbers(frame):
    found = {"n": re.search(r"executions (\d+)", frame)[1]}
    for c in ("C1", "C2", "C3", "C4"):
        found[c] = re.search(rf"{c} (\d+/\d+)", frame)[1]
    m = re.search(r"failures +(\d+)(?: \(\+(\d+) set aside\))?", frame)
    found["failures"], found["aside"] = m[1], m[2]
    return found


def test_the_live_panel_shows_the_reports_numbers_and_leaves_the_terminal_clean(tmp_path, monkeypatch):
    pytest.importorskip("agents")
    from rich.console import Console

    from masfuzz import api
    from masfuzz.report.json_report import JsonReporter

    monkeypatch.chdir(ROOT)
    screen = io.StringIO()
    console = Console(file=screen, force_terminal=True, width=110)
    opts = api.options("cover", target=CS, model=TESTER, sut_model=CS_SUT, no_cache=True, no_check=True,
                       store=str(tmp_path / "runs.db"), suite=str(tmp_path / "s.yaml"), budget_executions=6)
    with Display("live", console=console) as display:
        analysis = api.run_cover(opts, progress=display.say, status=display.update)
    out = screen.getvalue()
    frame = _last_frame(out)
    assert "done" in frame and "executions 6/6" in frame and "elapsed" in frame
    assert "  .. phase structural" in ANSI.sub("", out)  # the lines go above the panel
    _agree(_frame_numbers(frame), json.loads(JsonReporter().render(analysis)))
    assert out.rstrip("\n").endswith("\x1b[?25h")  # the cursor is shown again


def test_ctrl_c_stops_the_live_panel_and_restores_the_cursor():
    from rich.console import Console

    screen = io.StringIO()
    with pytest.raises(KeyboardInterrupt):
        with Display("live", console=Console(file=screen, force_terminal=True, width=80)) as display:
            display.update(_status("phase", budget=Budget(executions=20)))
            display.update(_status(budget=Budget(executions=20)))
            raise KeyboardInterrupt
    out = screen.getvalue()
    assert "\x1b[?25l" in out and out.rstrip("\n").endswith("\x1b[?25h")
    assert "executions 5/20" in _last_frame(out) and "eta 30s" in _last_frame(out)


def test_a_display_that_fails_falls_back_to_plain_lines(capsys):
    class Broken:
        is_terminal, is_dumb_terminal = True, False

        def __getattr__(self, name):
            raise RuntimeError("no terminal after all")

    display = Display("live", console=Broken())
    with display:
        display.say("phase structural")
        display.update(_status("phase"))
    err = capsys.readouterr().err
    assert "progress display failed" in err and "  .. phase structural" in err
    assert PROGRESS.search(err) and display.mode == "plain"


def test_a_status_callback_that_raises_never_breaks_the_campaign(tmp_path, monkeypatch):
    pytest.importorskip("agents")
    from masfuzz import api

    monkeypatch.chdir(ROOT)
    said = []

    def boom(status):
        raise ValueError("display exploded")

    opts = api.options("cover", target=CS, model=TESTER, sut_model=CS_SUT, no_cache=True, no_check=True,
                       store=str(tmp_path / "runs.db"), suite=str(tmp_path / "s.yaml"), budget_executions=3)
    analysis = api.run_cover(opts, progress=said.append, status=boom)
    assert analysis.scenarios == 3
    assert said.count("progress display stopped: ValueError: display exploded") == 1


def test_under_a_real_terminal_the_panel_is_live_and_the_report_goes_to_stdout(tmp_path):
    pytest.importorskip("agents")
    import select

    pty = pytest.importorskip("pty")
    master, slave = pty.openpty()
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "TERM": "xterm-256color", "COLUMNS": "110"}
    env.pop("NO_COLOR", None)
    env.pop("FORCE_COLOR", None)
    proc = subprocess.Popen(
        [*MASFUZZ_CLI,
         *_cover_args(tmp_path, "--executor", "inprocess")],
        stdout=subprocess.PIPE, stderr=slave, stdin=subprocess.DEVNULL, cwd=ROOT, env=env)
    os.close(slave)
    chunks = []
    while True:
        if not select.select([master], [], [], 120)[0]:
            proc.kill()
            pytest.fail("no output on the terminal for 120 s")
        try:
            data = os.read(master, 65536)
        except OSError:  # the other side closed
            break
        if not data:
            break
        chunks.append(data)
    out = proc.stdout.read().decode()
    assert proc.wait(timeout=120) == 0
    os.close(master)
    err = b"".join(chunks).decode(errors="replace")
    assert ESC not in out  # the report on stdout has no escape sequence
    assert "\x1b[?25l" in err and err.rstrip("\r\n").endswith("\x1b[?25h")  # live, then restored
    frame = _frame_numbers(_last_frame(err))
    report = re.search(r"coverage over (\d+) scenario", out)
    assert frame["n"] == report[1] == "6"
    for c in ("C1", "C2", "C3", "C4"):
        assert re.search(rf"^  {c} .*?(\d+/\d+) ", out, re.M)[1].replace(" ", "") == frame[c]


def test_a_resumed_campaign_counts_what_the_store_holds(cli, tmp_path, monkeypatch):
    pytest.importorskip("agents")
    from masfuzz import api

    monkeypatch.chdir(ROOT)
    seen = []

    def interrupt(status):
        seen.append(status)
        if status.executions == 3:
            raise KeyboardInterrupt  # Ctrl-C after the third execution

    opts = api.options("cover", target=CS, model=TESTER, sut_model=CS_SUT, no_cache=True, no_check=True,
                       store=str(tmp_path / "runs.db"), suite=str(tmp_path / "suite.yaml"),
                       budget_executions=6)
    with pytest.raises(KeyboardInterrupt):
        api.run_cover(opts, status=interrupt)
    code, out, err = cli(*_cover_args(tmp_path, "--format", "json", "--progress", "plain"))
    assert code == 0, err
    assert "resuming run" in err
    last = [m.groupdict() for m in PROGRESS.finditer(err)][-1]
    assert last["phase"] == "done"
    _agree(last, json.loads(out))


@pytest.mark.parametrize("term,live", [("xterm-256color", True), ("dumb", False)])
def test_auto_draws_a_panel_only_on_a_terminal_rich_can_draw_on(term, live, monkeypatch):
    import argparse

    from masfuzz.cli.progress import display_for

    pty = pytest.importorskip("pty")

    master, slave = pty.openpty()
    try:
        with open(slave, "w", closefd=False) as tty:
            monkeypatch.setattr(sys, "stderr", tty)
            for name in ("FORCE_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE"):
                monkeypatch.delenv(name, raising=False)
            monkeypatch.setenv("TERM", term)
            monkeypatch.setenv("NO_COLOR", "1")  # colours off; the panel stays
            mode = display_for(argparse.Namespace(progress="auto", format="text")).mode
            assert mode == ("live" if live else "plain")
            assert display_for(argparse.Namespace(progress="auto", format="json")).mode == "off"
            assert display_for(argparse.Namespace(progress="plain", format="text")).mode == "plain"
    finally:
        os.close(master)
        os.close(slave)
