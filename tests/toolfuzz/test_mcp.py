"""MCP servers as targets of `masfuzz tools`: the project's own small server (mcp_server.py, one
known bug: an empty unit aborts the server) over stdio and over streamable HTTP."""

from __future__ import annotations

import json
import shlex
import socket
import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace

import pytest

pytest.importorskip("mcp")

from masfuzz.cli import main
from masfuzz.errors import TargetError
from masfuzz.toolfuzz.mcp import PREFIX, parse_target, result_value
from masfuzz.toolfuzz.sandbox import isolation_problem
from masfuzz.toolfuzz.tools import ReturnedError, from_mcp

SERVER = Path(__file__).resolve().parent / "mcp_server.py"
STDIO = PREFIX + shlex.join([sys.executable, str(SERVER)])
needs_sandbox = pytest.mark.skipif(isolation_problem() is not None,
                                   reason="the kernel refuses the tool sandbox here")


def _run(capsys, *args: str) -> tuple[int, dict]:
    code = main(["tools", *args, "--format", "json", "--seed", "1"])
    out = capsys.readouterr().out
    return code, (json.loads(out) if out.strip() else {})


def _by_name(data: dict) -> dict[str, dict]:
    return {t["tool"]: t for t in data["tools"]}


@needs_sandbox
def test_stdio_server_every_tool_fuzzed_the_crash_found_the_errors_returned(capsys, tmp_path):
    code, data = _run(capsys, STDIO, "--calls", "8", "--store", str(tmp_path / "runs.db"))
    assert code == 0
    tools = _by_name(data)
    assert set(tools) == {"add", "lookup", "convert", "mean"} and all(t["kind"] == "mcp" for t in tools.values())
    assert all(t["calls"] == 8 for t in tools.values())
    # nothing timed out: the session runs in the sandbox's worker, not on masfuzz's event loop
    # (`mean` aside: a list nested 200 deep is a request the SDK's server never answers)
    assert not [e for n, t in tools.items() for e in t["errors"] if e["status"] == "timeout" and n != "mean"]
    # a correct tool: no finding, no error message
    assert tools["add"]["unique_errors"] == 0 and tools["add"]["ok"] == 8
    # the server's error answer (isError) to a documented refusal is error handling, never a finding
    assert tools["lookup"]["unique_errors"] == 0
    assert tools["lookup"]["returned_errors"] and tools["lookup"]["returned_errors"][0]["count"] >= 1
    # an exception the tool raised on input its documentation takes is a finding, though the SDK
    # answered it as an error result (2.x names no exception: "Error executing tool mean")
    raised = [e for e in tools["mean"]["errors"] if e["status"] == "error"]
    assert [e["arguments"]["values"] for e in raised] == [[]] and raised[0]["attribution"] == "sut"
    assert raised[0]["error_type"] in ("UnexpectedToolError", "ToolError", "ZeroDivisionError")
    # the known bug: an empty unit kills the server; found, pointed at the server, with what it printed
    crash = tools["convert"]["errors"]
    assert tools["convert"]["unique_errors"] == 1 and len(crash) == 1
    assert crash[0]["attribution"] == "sut" and crash[0]["frame"] == "<the tool's server>"
    assert crash[0]["arguments"]["unit"] == "" and "broke off the call" in crash[0]["message"]
    assert "assertion failed" in crash[0]["output"]
    # every call after a crash got a fresh server: the other units are refused, not failed
    assert tools["convert"]["ok"] + crash[0]["count"] == 8 and tools["convert"]["returned_errors"]


@needs_sandbox
def test_tool_option_narrows_and_an_unknown_name_is_a_one_line_error(capsys):
    code, data = _run(capsys, STDIO, "--calls", "3", "--tool", "add")
    assert code == 0 and [t["tool"] for t in data["tools"]] == ["add"]
    code = main(["tools", STDIO, "--calls", "3", "--tool", "nope"])
    err = capsys.readouterr().err
    assert code == 2 and "no tool named 'nope'" in err and "add, lookup, convert, mean" in err


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def http_server():
    port = _free_port()
    proc = subprocess.Popen([sys.executable, str(SERVER), "--http", str(port)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(600):  # up to a minute on a loaded machine; no timing is asserted
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if proc.poll() is not None:
                    pytest.fail("the test server did not start")
                time.sleep(0.1)
        yield SimpleNamespace(url=f"http://127.0.0.1:{port}/mcp", proc=proc)
    finally:
        proc.kill()
        proc.wait()


@needs_sandbox
def test_http_server_the_crash_is_the_finding_and_the_dead_server_is_not_counted(capsys, http_server):
    code, data = _run(capsys, http_server.url, "--calls", "6", "--tool", "lookup", "--tool", "convert",
                      "--workers", "1")
    assert code == 0
    tools = _by_name(data)
    assert list(tools) == ["lookup", "convert"]
    assert tools["lookup"]["unique_errors"] == 0 and tools["lookup"]["returned_errors"]
    own = [e for e in tools["convert"]["errors"] if e["attribution"] == "sut"]
    assert len(own) == 1 and own[0]["arguments"]["unit"] == "" and tools["convert"]["unique_errors"] == 1
    # a URL's server is not masfuzz's to restart: the calls after the crash are the settings'
    later = [e for e in tools["convert"]["errors"] if e["attribution"] != "sut"]
    assert all("unreachable" in e["message"] for e in later)
    assert http_server.proc.poll() is not None  # the bug really killed it


def test_a_result_marked_is_error_is_a_returned_error_whatever_its_text():
    text = SimpleNamespace(type="text", text="no entry 'x'")
    got = result_value(SimpleNamespace(content=[text], is_error=True))
    assert isinstance(got, ReturnedError) and got == "no entry 'x'"
    v1 = SimpleNamespace(content=[text], isError=True, structuredContent=None)  # SDK 1.x names
    assert isinstance(result_value(v1), ReturnedError)
    ok = result_value(SimpleNamespace(content=[], is_error=False, structured_content={"a": 1}))
    assert ok == '{"a": 1}' and not isinstance(ok, ReturnedError)


def test_targets_and_from_mcp(tmp_path):
    assert parse_target("app.py:agent") is None
    server = parse_target(f"mcp:{sys.executable} {SERVER}")
    assert server.transport == "stdio" and str(SERVER.parent) in server.folders()
    assert parse_target("http://127.0.0.1:9/sse").transport == "sse"
    assert parse_target("https://example.invalid/mcp").address() == ("example.invalid", 443)
    with pytest.raises(TargetError, match="no program"):
        parse_target("mcp:no-such-program-here --flag")
    tool = SimpleNamespace(name="add", description="Add.", input_schema={"type": "object"})
    assert from_mcp(tool, f"{sys.executable} {SERVER}").kind == "mcp"
    with pytest.raises(TargetError, match="give its server"):
        from_mcp(tool, object())  # a session of the caller's cannot be used in the sandbox


def test_an_mcp_target_that_is_not_a_program_is_a_one_line_error(capsys):
    assert main(["tools", "mcp:no-such-program-here", "--calls", "1"]) == 2
    assert "no program" in capsys.readouterr().err


@needs_sandbox
def test_an_agents_mcp_server_tools_are_fuzzed_and_reproduced(capsys, tmp_path):
    pytest.importorskip("agents")
    app = tmp_path / "mcp_agent.py"
    app.write_text(
        "from agents import Agent\nfrom agents.mcp import MCPServerStdio\n"
        f"server = MCPServerStdio({{'command': {sys.executable!r}, 'args': [{str(SERVER)!r}]}}, name='units')\n"
        "agent = Agent(name='helper', instructions='Help.', mcp_servers=[server])\n")
    code, data = _run(capsys, f"{app}:agent", "--calls", "3", "--tool", "convert", "--store", str(tmp_path / "r.db"))
    assert code == 0 and [t["tool"] for t in data["tools"]] == ["convert"]
    crash = data["tools"][0]["errors"][0]
    assert crash["frame"] == "<the tool's server>" and crash["arguments"]["unit"] == ""
    from masfuzz.api import call_tool  # the reproducer opens a session of its own, here

    assert call_tool(f"{app}:agent", "convert", {"amount": 2.0, "unit": "km"}) == "2000.0"
    # and its tools are the agent's edges in the coordination graph, described from the server
    from masfuzz.api import exec as exec_, inspect

    spec = inspect(f"{app}:agent")
    assert set(spec.permissions.allow) == {("helper", t) for t in ("add", "lookup", "convert", "mean")}
    convert = next(t for t in spec.tools if t.id == "convert")
    assert convert.kind == "mcp" and "unit" in convert.parameters["properties"]
    # a run connects the servers the app's main would: the tool answers (no "Server not
    # initialized" crash blamed on the app), and the call covers its edge
    policy = tmp_path / "policy.py"
    policy.write_text(
        "from masfuzz.llm.scripted import call, say, tool_results\n"
        "def policy(request):\n"
        "    done = tool_results(request, 'convert')\n"
        "    if not done and any(t.name == 'convert' for t in request.tools):\n"
        "        return call('convert', amount=2.0, unit='km')\n"
        "    return say('It is ' + (done[-1].content if done else 'unknown'))\n")
    trace = exec_(f"{app}:agent", "2 km in metres?", sut_model=f"scripted/{policy}:policy", executor="inprocess")
    end = trace.termination
    assert end.reason == "completed" and "2000.0" in (end.final_output or ""), (end.reason, end.detail)


_RICH_LOG = """[11/27/26 12:59:25] ERROR    Tool 'mean' raised an unexpected      server.py:455
                             exception
                             ╭─ Traceback (most recent call last─╮
                             │ /srv/venv/lib/python3.11/site-pac │
                             │ kages/mcp/server/mcpserver/tools/ │
                             │ base.py:179 in run                │
                             │                                   │
                             │ ❱ 179 │   │   │   result = await  │
                             │                                   │
                             │ /srv/app/stats_server.py:6 in     │
                             │ mean                              │
                             │                                   │
                             │ ❱ 6 │   return sum(values) / len( │
                             ╰───────────────────────────────────╯
                             ZeroDivisionError: division by zero

                             The above exception was the direct
                             cause of the following exception:

                             ╭─ Traceback (most recent call last─╮
                             │ /srv/venv/lib/python3.11/site-pac │
                             │ kages/mcp/server/mcpserver/tools/ │
                             │ base.py:213 in run                │
                             ╰───────────────────────────────────╯
                             UnexpectedToolError: Error executing
                             tool mean
"""


def test_an_exception_the_sdk_answered_as_an_error_result_is_the_tools_raise():
    from masfuzz.toolfuzz.mcp import escaped_exception

    # the server logged the traceback (rich's box, its paths wrapped): the tool's own exception
    raised = escaped_exception("mean", "Error executing tool mean", _RICH_LOG)
    assert raised.error_type == "ZeroDivisionError" and str(raised) == "division by zero"
    assert raised.frames[-1] == ("/srv/app/stats_server.py", 6, "mean")
    plain = ('Traceback (most recent call last):\n  File "/srv/app/s.py", line 6, in mean\n'
             "    return 1 / 0\nZeroDivisionError: division by zero\n")
    assert escaped_exception("mean", "Error executing tool mean: division by zero", plain).frames == [
        ("/srv/app/s.py", 6, "mean")]
    # no traceback logged: 2.x's crash text, or an exception's text after the tool's name
    assert escaped_exception("mean", "Error executing tool mean", "").error_type == "UnexpectedToolError"
    assert escaped_exception("mean", "Error executing tool mean: no entry 'x'", "").error_type == "ToolError"
    # a ToolError the tool raised on purpose, which 2.x logs as such: its error handling
    logged = "[11/27/26 12:59:25] INFO     Tool 'mean' failed: \"no entry 'x'\"     server.py:452\n"
    assert escaped_exception("mean", "Error executing tool mean: no entry 'x'", logged) is None
    # the server's own error handling, another tool's name, and the SDK refusing the arguments
    assert escaped_exception("mean", "no entry 'x'", "") is None
    assert escaped_exception("mean", "Error executing tool meaning: x", "") is None
    assert escaped_exception("mean", "Error executing tool mean: 1 validation error for meanArguments", "") is None
