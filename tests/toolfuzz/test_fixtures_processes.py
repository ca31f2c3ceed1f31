"""Issue 16, items 3-5: a call's folder holds the fixture and what the setup made; a tool may
start programs inside the sandbox (still no network); what a tool prints never reaches
masfuzz's output; a finding's reproducer is the first call's, escaped."""

import json
import os
import textwrap
import uuid

import pytest

from masfuzz.cli import main
from masfuzz.report.tools import tools_text
from masfuzz.toolfuzz.fuzzer import FuzzResult, record
from masfuzz.toolfuzz.sandbox import CallOutcome, CallState, Sandbox, SandboxLimits, isolation_problem
from masfuzz.toolfuzz.tools import from_callable

from tests.toolfuzz.test_sandbox import Listener

isolated = pytest.mark.skipif(isolation_problem() is not None,
                              reason=f"no OS isolation here: {isolation_problem()}")

TOOLS = '''
import os
import sqlite3
import subprocess


def make_shop(folder):
    db = sqlite3.connect(os.path.join(folder, "shop.db"))
    db.execute("CREATE TABLE items (name TEXT, price REAL)")
    db.execute("INSERT INTO items VALUES ('apple', 1.5)")
    db.commit()
    db.close()
    os.environ["SHOP_DB"] = "shop.db"


def broken_setup():
    raise RuntimeError("no database server")


def price(name: str) -> str:
    """The price of an item in the shop's database."""
    row = sqlite3.connect(os.environ["SHOP_DB"]).execute(
        "SELECT price FROM items WHERE name = ?", (name,)).fetchone()
    return "unknown" if row is None else str(row[0])


def note(line: int) -> str:
    """One line of the notes."""
    lines = open("notes.txt").read().splitlines()
    return lines[line] if 0 <= line < len(lines) else "no such line"


def undecodable(text: str) -> str:
    """Raises with a lone surrogate in its message (undecodable bytes decoded with surrogateescape)."""
    raise ValueError("bad byte \\udcff in " + text[:4])


def chatty(text: str) -> str:
    """Echoes the text, printing as it goes (Python, C level and a program)."""
    print("python says", text, "{")
    os.write(1, b"fd 1 says }\\n")
    os.write(2, b"fd 2 says [\\n")
    subprocess.run(["sh", "-c", "echo a program says ]"])
    return text
'''


@pytest.fixture
def tools_file(tmp_path):
    path = tmp_path / f"shop_{uuid.uuid4().hex[:8]}.py"
    path.write_text(TOOLS)
    return path


def _tool(tools_file, name):
    from masfuzz.loader import load_target
    from masfuzz.toolfuzz.tools import wrap_tool

    return wrap_tool(load_target(f"{tools_file}:{name}").obj)


def _state(tools_file, name, **kw):
    from masfuzz.loader import load_target

    fn = load_target(f"{tools_file}:{name}").obj
    return CallState(setup=fn, setup_name=name, setup_takes_folder=True, **kw)


def test_the_fixture_is_copied_afresh_into_each_calls_folder(tmp_path, tools_file):
    fixture = tmp_path / "fixture"
    fixture.mkdir()
    (fixture / "notes.txt").write_text("first\nsecond\n")
    with Sandbox(_tool(tools_file, "note"), state=CallState(fixture=str(fixture))) as box:
        outs = [box.call({"line": i}) for i in (1, 0)]
    assert [(o.status, o.result) for o in outs] == [("ok", "second"), ("ok", "first")]
    assert (fixture / "notes.txt").read_text() == "first\nsecond\n"


def test_setup_creates_a_database_and_sets_the_environment_before_each_call(tools_file):
    with Sandbox(_tool(tools_file, "price"), state=_state(tools_file, "make_shop")) as box:
        outs = [box.call({"name": n}) for n in ("apple", "pear", "apple")]
    assert [(o.status, o.result) for o in outs] == [("ok", "1.5"), ("ok", "unknown"), ("ok", "1.5")]
    assert "SHOP_DB" not in os.environ


def test_a_failing_setup_or_missing_fixture_is_the_settings_error_exit_2(tools_file, tmp_path, capsys):
    base = ["tools", f"{tools_file}:price", "--calls", "3", "--seed", "1", "--store", str(tmp_path / "r.db")]
    if isolation_problem() is not None:
        base.append("--unsafe-no-sandbox")
    assert main([*base, "--setup", f"{tools_file}:broken_setup"]) == 2
    err = capsys.readouterr().err
    assert "--setup" in err and "no database server" in err and "Traceback" not in err
    assert main([*base, "--fixture", str(tmp_path / "missing")]) == 2
    assert "--fixture" in capsys.readouterr().err
    assert main([*base, "--setup", f"{tools_file}:make_shop"]) == 0
    out = capsys.readouterr().out
    assert "UE 0" in out and f"--setup {tools_file}:make_shop" in out


@isolated
def test_a_tool_may_start_programs_in_the_sandbox_but_they_have_no_network():
    listener = Listener()
    marker = uuid.uuid4().hex

    def shell(command: str) -> str:
        """Runs a shell command and returns its output."""
        import subprocess

        done = subprocess.run(["sh", "-c", command], capture_output=True, text=True)
        return done.stdout + done.stderr

    try:
        with Sandbox(from_callable(shell), SandboxLimits(time_s=10)) as box:
            made = box.call({"command": f"echo {marker} > here.txt && cat here.txt && pwd"})
            net = box.call({"command": f"exec 3<>/dev/tcp/127.0.0.1/{listener.port} && echo connected"
                                       if os.path.exists("/bin/bash") else "true"})
            py_net = box.call({"command": f"{_python()} -c 'import socket; socket.create_connection("
                                          f"(\"127.0.0.1\", {listener.port}), timeout=2); print(\"connected\")'"})
            failed = box.call({"command": "ls /no/such/folder"})
    finally:
        listener.close()
    assert made.status == "ok" and made.result.startswith(marker), made
    assert "/call-" in made.result  # it ran in the call's own folder
    assert "connected" not in net.result and "connected" not in py_net.result.splitlines()
    assert listener.connections == 0
    # the program failed and the tool returned its output: a returned error message, not "ok"
    assert failed.status == "handled" and failed.message.startswith("sh exited with status"), failed


def _python() -> str:
    import sys

    return sys.executable


def test_without_the_namespaces_starting_a_program_is_refused():
    def shell(command: str) -> str:
        """Runs a command."""
        import subprocess

        return subprocess.run(["sh", "-c", command], capture_output=True, text=True).stdout

    with Sandbox(from_callable(shell), isolate=False) as box:
        out = box.call({"command": "echo hi"})
    assert out.status == "blocked" and "starting a program" in out.message


def test_what_a_tool_prints_never_reaches_masfuzz_output(tools_file, tmp_path, capfd):
    argv = ["tools", f"{tools_file}:chatty", "--calls", "4", "--seed", "1", "--format", "json",
            "--store", str(tmp_path / "r.db")]
    if isolation_problem() is not None:
        argv.append("--unsafe-no-sandbox")
    code = main(argv)
    out, err = capfd.readouterr()
    data = json.loads(out)  # nothing the tool printed is mixed into it
    assert code == 0 and data["tools"][0]["calls"] == 4
    assert "says" not in out and "says" not in err


@isolated
def test_the_output_of_a_call_is_kept_with_its_outcome(tools_file):
    with Sandbox(_tool(tools_file, "chatty")) as box:
        out = box.call({"text": "hello"})
        again = box.call({"text": "bye"})
    assert out.status == "ok"
    for line in ("python says hello {", "fd 1 says }", "fd 2 says [", "a program says ]"):
        assert line in out.output
    assert "hello" not in again.output  # each call's own


def test_the_reproducer_is_the_first_calls_and_escaped():
    tool = from_callable(lambda key: key, name="lookup")
    result = FuzzResult("lookup", seed=0)
    first = {"key": "abc\u009bdef-long"}
    shorter = {"key": "\u009b"}
    for arguments in (first, shorter):
        record(result, tool, arguments, CallOutcome(
            "error", error_type="ValueError", message=f"bad key {arguments['key']!r}",
            frames=[("/somewhere/lookup.py", 3, "lookup")], output="printed \u009b\n"))
    (error,) = result.unique.values()
    assert error.arguments == first and error.first_call == 1 and error.shortest == shorter
    assert error.message == f"bad key {first['key']!r}"

    from masfuzz.toolfuzz.session import SessionConfig, session_data

    part = {"tool": "lookup", "kind": "python", "notes": [], "seconds": 0.1, "calls": 2, "ok": 0,
            "failed": 2, "blocked": 0, "blocked_reasons": {}, "network_isolation": "namespace",
            "unique_errors": 1, "tc_per_ue": 2.0,
            "chao1": {"estimate": 1.0, "lower": 1.0, "upper": 1.0}, "priors": {},
            "errors": [error.to_dict()], "returned_errors": []}
    data = session_data(SessionConfig(seed=0), [part], [], "tools.py:lookup")
    text = tools_text(data)
    assert "\u009b" not in text  # never raw
    assert r'with arguments {"key": "abc\u009bdef-long"}' in text
    line = next(x for x in text.splitlines() if "reproduce: python -c" in x)
    assert r"abc\\u009bdef-long" in line and "call_tool" in line
    assert r'"printed \u009b"' in text
    dumped = json.dumps(data, ensure_ascii=True, default=str)
    assert "\u009b" not in dumped and json.loads(dumped)["tools"][0]["errors"][0]["arguments"] == first


def test_the_reproduce_command_calls_the_tool_with_exactly_those_arguments(tmp_path):
    import shlex

    from masfuzz.api import call_tool
    from masfuzz.report.tools import reproducer

    path = tmp_path / f"echo_{uuid.uuid4().hex[:8]}.py"
    path.write_text(textwrap.dedent('''
        def echo(text: str) -> str:
            """Echoes."""
            return text
    '''))
    arguments = {"text": "it's \u009b \"quoted\" \\ back"}
    command = shlex.split(reproducer(f"{path}:echo", "echo", arguments))
    assert command[:2] == ["python", "-c"]
    code = command[2]
    calls = []
    namespace = {"call_tool": lambda *a: calls.append(a) or call_tool(*a), "print": lambda *a: None}
    exec(code.replace("from masfuzz.api import call_tool; ", ""), namespace)
    assert calls and json.loads(calls[0][2]) == arguments
    assert call_tool(f"{path}:echo", "echo", calls[0][2]) == arguments["text"]


def test_a_lone_surrogate_in_a_message_or_an_argument_is_written_escaped(tools_file, tmp_path, capsys):
    store = str(tmp_path / "r.db")
    argv = ["tools", f"{tools_file}:undecodable", "--calls", "3", "--seed", "1", "--format", "json",
            "--store", store]
    if isolation_problem() is not None:
        argv.append("--unsafe-no-sandbox")
    code = main(argv)
    out = capsys.readouterr().out
    out.encode("utf-8")  # valid UTF-8 text: nothing lone is printed raw
    data = json.loads(out)
    assert code == 0 and data["tools"][0]["errors"]
    assert data["tools"][0]["errors"][0]["message"].startswith("bad byte \udcff in")  # kept, escaped in JSON
    assert "\\udcff" in out

    from masfuzz.report.tools import findings_of
    from masfuzz.store.db import RunStore

    arguments = {"text": "a\ud800b"}  # an argument holding one, too
    tool = from_callable(lambda text: text, name="lone")
    result = FuzzResult("lone", seed=0)
    record(result, tool, arguments, CallOutcome("error", error_type="ValueError", message="lone \ud800",
                                                frames=[("/x/lone.py", 1, "lone")]))
    (error,) = result.unique.values()
    with RunStore(store) as db:
        run = db.latest_run()
        db.record_tool_finding(run, findings_of({"tools": [{"tool": "lone", "errors": [error.to_dict()]}]})[0])
        kept = {f["tool"]: f for f in db.tool_findings(run)}  # the finding's JSON: exactly as found
        columns = dict(db.db.execute("SELECT tool, message FROM tool_findings WHERE run_id=?", (run,)))
    assert kept["undecodable"]["message"].startswith("bad byte \udcff in")
    assert kept["lone"]["message"] == "lone \ud800" and kept["lone"]["arguments"] == arguments
    # the text column SQLite holds as UTF-8: the escape, visibly
    assert columns["undecodable"].startswith("bad byte \\udcff in") and columns["lone"] == "lone \\ud800"


def _running(marker: str) -> list[str]:
    """The processes on this machine whose command line holds `marker`, zombies left out."""
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as fh:
                line = fh.read().replace(b"\0", b" ").decode(errors="replace")
            with open(f"/proc/{pid}/stat") as fh:
                state = fh.read().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if marker in line and state != "Z":
            found.append(f"{pid}: {line}")
    return found


@isolated
def test_no_process_a_call_started_outlives_the_call():
    seconds = f"1000.{uuid.uuid4().int % 10**6}"  # a command line no other process has

    def background(how: str) -> str:
        """Starts a program and returns without waiting for it."""
        import subprocess
        import time

        if how == "popen":
            started = subprocess.Popen(["sleep", seconds])
        elif how == "shell":  # the shell exits at once: its sleep is an orphan
            started = subprocess.Popen(["sh", "-c", f"sleep {seconds} &"])
            started.wait()
        else:  # a new session, as a daemon would
            started = subprocess.Popen(["sleep", seconds], start_new_session=True)
        time.sleep(0.2)
        return f"started {started.pid}"

    with Sandbox(from_callable(background), SandboxLimits(time_s=20)) as box:
        for how in ("popen", "shell", "session"):
            out = box.call({"how": how})
            assert out.status == "ok" and out.result.startswith("started"), out
            assert _running(seconds) == [], how  # gone once the call's outcome is back
        again = box.call({"how": "popen"})  # the worker itself lives on
        assert again.status == "ok"
