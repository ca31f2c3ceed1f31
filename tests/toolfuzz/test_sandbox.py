"""A fuzzed tool that deletes files and opens sockets leaves everything outside its temporary
folder untouched and reaches no address."""

import os
import shutil
import socket
import threading

import pytest

from masfuzz.toolfuzz.fuzzer import fuzz_tool
from masfuzz.toolfuzz.sandbox import Sandbox, SandboxLimits
from masfuzz.toolfuzz.tools import from_callable


class Listener:
    """A server that counts connections reaching it: a TCP one on the loopback, or on the
    bound sockets given (Unix ones)."""

    def __init__(self, socks: list[socket.socket] | None = None) -> None:
        if socks is None:
            sock = socket.socket()
            sock.bind(("127.0.0.1", 0))
            socks = [sock]
        self.socks = socks
        for sock in socks:
            sock.listen()
            sock.settimeout(0.2)
        self.port = socks[0].getsockname()[1] if socks[0].family == socket.AF_INET else 0
        self.connections = 0
        self._stop = False
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        while not self._stop:
            for sock in self.socks:
                try:
                    conn, _ = sock.accept()
                    self.connections += 1
                    conn.close()
                except (TimeoutError, OSError):
                    continue

    def close(self) -> None:
        self._stop = True
        self.thread.join(2)
        for sock in self.socks:
            sock.close()


@pytest.fixture
def victim(tmp_path):
    folder = tmp_path / "precious"
    folder.mkdir()
    (folder / "keep.txt").write_text("do not delete")
    return folder


@pytest.fixture
def listener():
    srv = Listener()
    yield srv
    srv.close()


def _checked(status: int) -> None:
    if status != 0:  # rm ran (in the namespaces) and failed: the folder is not in the sandbox
        raise OSError(f"exit status {status}")


def make_hazard(victim_dir: str, port: int):
    def hazard(target: str, mode: str = "all") -> str:
        """Deletes files and phones home."""
        done = []
        for action in (
            lambda: os.remove(os.path.join(victim_dir, "keep.txt")),
            lambda: shutil.rmtree(victim_dir),
            lambda: open(os.path.join(victim_dir, "new.txt"), "w").write("x"),
            lambda: os.rename(os.path.join(victim_dir, "keep.txt"), "stolen.txt"),
            lambda: _checked(os.system(f"rm -r {victim_dir}")),  # no -f: a folder not there fails
            lambda: socket.create_connection(("127.0.0.1", port), timeout=1).close(),
            lambda: socket.getaddrinfo("example.com", 80),
            lambda: shutil.rmtree(os.path.join(victim_dir, "..", os.path.basename(victim_dir))),
        ):
            try:
                action()
                done.append("ok")
            except OSError as exc:
                done.append(type(exc).__name__)
        with open("inside.txt", "w") as fh:  # writing inside its own folder is fine
            fh.write(target)
        os.remove("inside.txt")
        return ",".join(done)
    return hazard


@pytest.mark.parametrize("use_netns", [True, False], ids=["namespace", "blocked-sockets"])
def test_hazardous_tool_is_contained(victim, listener, use_netns):
    tool = from_callable(make_hazard(str(victim), listener.port), name="hazard")
    with Sandbox(tool, SandboxLimits(time_s=10), use_netns=use_netns) as box:
        out = box.call({"target": "x"})
        result = fuzz_tool(tool, calls=30, seed=3, sandbox=box)
    # with the namespaces rm runs and fails (a program that failed: a returned error message);
    # without them starting it is refused
    assert out.status == ("handled" if use_netns else "ok"), out
    assert "ok" not in out.result.split(",")  # every escape attempt failed
    assert (victim / "keep.txt").read_text() == "do not delete"
    assert sorted(p.name for p in victim.iterdir()) == ["keep.txt"]
    assert listener.connections == 0
    assert result.calls == 30


def test_each_call_gets_a_fresh_empty_folder():
    def leaves_files(name: str) -> str:
        found = sorted(os.listdir("."))
        with open("left-behind.txt", "w") as fh:
            fh.write(name)
        return ",".join(found) or "empty"

    with Sandbox(from_callable(leaves_files)) as box:
        outs = [box.call({"name": str(i)}) for i in range(3)]
    assert [o.result for o in outs] == ["empty"] * 3


def test_a_hanging_call_is_killed_at_its_time_limit_and_the_next_call_works():
    def sleepy(seconds: float) -> str:
        import time

        time.sleep(seconds)
        return "woke"

    with Sandbox(from_callable(sleepy), SandboxLimits(time_s=1.0)) as box:
        hung = box.call({"seconds": 60})
        fine = box.call({"seconds": 0})
    assert hung.status == "timeout"
    assert hung.duration < 5
    assert fine.status == "ok" and fine.result == "woke"


def test_a_crash_is_recorded_not_raised():
    def crasher(code: int) -> str:
        os._exit(code)

    with Sandbox(from_callable(crasher)) as box:
        out = box.call({"code": 3})
        again = box.call({"code": 4})
    assert out.status == "crash" and "exit code 3" in out.message
    assert again.status == "crash"


def test_memory_limit_stops_a_runaway_allocation():
    def hog(mb: int) -> int:
        return len(bytearray(mb * 2**20))

    with Sandbox(from_callable(hog), SandboxLimits(memory_mb=200)) as box:
        big = box.call({"mb": 2000})
        small = box.call({"mb": 10})
    assert big.status in ("error", "crash") and "Memory" in (big.error_type + big.message)
    assert small.status == "ok"


def _double(n: int) -> int:
    return 2 * n


def test_a_worker_ready_after_start_stopped_waiting_still_answers_its_first_call(monkeypatch):
    # an MCP server starting on a loaded machine made its worker say "ready" after `_start`
    # had stopped waiting: that message was read as the first call's answer, a "Crash" blamed
    # on the tool
    monkeypatch.setattr(Sandbox, "READY_WAIT_S", 0.0)
    with Sandbox(from_callable(_double)) as box:
        first = box.call({"n": 4})
        assert (first.status, first.result) == ("ok", "8"), first
        assert box.call({"n": 5}).status == "ok" and box.network_isolation != "unknown"
