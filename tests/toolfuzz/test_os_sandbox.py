"""The OS sandbox holds against a destructive tool that goes around Python: a `dir_fd` unlink,
sqlite3 outside its folder, `_posixsubprocess.fork_exec`, native libc `unlink`/`fopen`/`system`/
`fork` through ctypes, a connection to a loopback listener and a memory hog. Afterwards the folder
outside is byte-identical, the listener got no connection and nothing the tool started runs."""

import hashlib
import os
import time
import uuid
from pathlib import Path

import pytest

from masfuzz.cli import main
from masfuzz.toolfuzz import sandbox as sandbox_module
from masfuzz.toolfuzz.sandbox import Sandbox, SandboxLimits, isolation_problem
from masfuzz.toolfuzz.tools import from_callable

from tests.toolfuzz.test_sandbox import Listener

pytestmark = pytest.mark.skipif(isolation_problem() is not None,
                                reason=f"no OS isolation here: {isolation_problem()}")


def _tree_hash(folder: Path) -> str:
    h = hashlib.sha256()
    for p in sorted(folder.rglob("*")):
        h.update(str(p.relative_to(folder)).encode())
        if p.is_file():
            h.update(p.read_bytes())
    return h.hexdigest()


def make_bypasser(victim: str, port: int, marker: str):
    def bypass(step: str) -> str:
        """Tries one way around the sandbox."""
        import ctypes
        import socket
        import sqlite3
        import sys

        libc = ctypes.CDLL(None, use_errno=True)
        libc.fopen.restype = ctypes.c_void_p
        path = os.path.join(victim, "keep.txt").encode()
        if step == "dir_fd":
            fd = os.open(victim, os.O_RDONLY)
            os.unlink("keep.txt", dir_fd=fd)
        elif step == "sqlite":
            sqlite3.connect(os.path.join(victim, "stolen.db")).execute("CREATE TABLE t (x)")
        elif step == "fork_exec":
            import _posixsubprocess  # below the audit hook: starts a program unseen

            args = [sys.executable, "-c", "import time; time.sleep(600)", marker]
            read, write = os.pipe()
            _posixsubprocess.fork_exec(  # Python 3.11's signature, as subprocess calls it
                args, [os.fsencode(sys.executable)], True, (), None, None, -1, -1, -1, -1, -1, -1,
                read, write, False, False, -1, None, None, None, -1, None, False)
        elif step == "libc_unlink":
            if libc.unlink(path) != 0:
                raise OSError(ctypes.get_errno(), "unlink failed")
        elif step == "libc_fopen":
            if not libc.fopen(os.path.join(victim, "new.txt").encode(), b"w"):
                raise OSError(ctypes.get_errno(), "fopen failed")
        elif step == "libc_system":
            libc.system(f"rm -rf {victim}; touch {victim}/x; sleep 600 # {marker}".encode())
        elif step == "libc_fork":
            if libc.fork() == 0:
                libc.sleep(600)
                libc._exit(0)
        elif step == "network":
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
        elif step == "memory":
            blocks = [bytearray(256 * 2**20) for _ in range(64)]  # 16 GiB
            return str(len(blocks))
        return "done"
    return bypass


def _processes_with(marker: str, wait: float) -> list[int]:
    deadline = time.monotonic() + wait
    while True:
        found = [int(p) for p in filter(str.isdigit, os.listdir("/proc"))
                 if _cmdline(p) is not None and marker.encode() in _cmdline(p)]
        if not found or time.monotonic() >= deadline:
            return found
        time.sleep(0.2)


def _cmdline(pid: str) -> bytes | None:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return None


def test_bypasses_are_contained(tmp_path):
    victim = tmp_path / "precious"
    victim.mkdir()
    (victim / "keep.txt").write_text("do not delete")
    before = _tree_hash(victim)
    listener = Listener()
    marker = f"masfuzz-sandbox-{uuid.uuid4().hex}"
    tool = from_callable(make_bypasser(str(victim), listener.port, marker), name="bypass")
    outcomes = {}
    try:
        with Sandbox(tool, SandboxLimits(time_s=5, memory_mb=512)) as box:
            for step in ("dir_fd", "sqlite", "fork_exec", "libc_unlink", "libc_fopen",
                         "libc_system", "libc_fork", "network", "memory"):
                outcomes[step] = box.call({"step": step})
    finally:
        listener.close()
    assert _tree_hash(victim) == before, outcomes
    assert listener.connections == 0
    for step in ("dir_fd", "sqlite", "libc_unlink", "libc_fopen", "network", "memory"):
        assert outcomes[step].status in ("error", "blocked"), (step, outcomes[step])
    assert _processes_with(marker, wait=3.0) == []


def test_refused_isolation_is_one_line_unless_unsafe(capsys, monkeypatch, tmp_path):
    tool = f"{Path(__file__).resolve().parents[2]}/examples/tools/control.py:celsius_to_fahrenheit"
    monkeypatch.setattr(sandbox_module, "_PROBLEM", ["unshare refused: Operation not permitted"])
    argv = ["tools", tool, "--calls", "5", "--seed", "1", "--store", str(tmp_path / "r.db")]
    code = main(argv)
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "--unsafe-no-sandbox" in err
    assert "Operation not permitted" in err
    code = main([*argv, "--unsafe-no-sandbox"])
    out, err = capsys.readouterr()
    assert code == 0 and "WITHOUT the OS sandbox" in err and "network isolation: blocked-sockets" in out


def test_a_linked_folder_is_shown_with_what_it_leads_to(tmp_path):
    """A project's `.venv` linked to a virtual environment elsewhere: Python's path names the
    link, which is recreated inside, so the folder it leads to must be bound too (a clone with
    its venv linked in failed every call with "No module named ...")."""
    from masfuzz.exec.confine import Confinement

    real = tmp_path / "envs" / "shop"
    real.mkdir(parents=True)
    (tmp_path / "project").mkdir()
    (tmp_path / "project" / ".venv").symlink_to(real)
    sources = Confinement(str(tmp_path / "scratch"), 1, [str(tmp_path / "project" / ".venv")]).open_sources()
    try:
        assert [(s.path, s.link) for s in sources] == [(str(real), ""), (str(tmp_path / "project" / ".venv"), str(real))]
    finally:
        for s in sources:
            if s.fd >= 0:
                os.close(s.fd)


def _priced(item: str) -> str:
    """A price from a library on the import path (imported when called, as a lazy import is)."""
    import shop_prices_lib

    return shop_prices_lib.price(item)


@pytest.mark.skipif(isolation_problem() is not None, reason=f"no OS isolation here: {isolation_problem()}")
def test_a_library_on_the_import_path_outside_the_tools_folder_is_shown(tmp_path, monkeypatch):
    """A PYTHONPATH folder (or an editable install's source, a .pth file's folder) outside the
    tool's own folder and the Python install: every call failed on the import, the sandbox
    showing neither; it is shown read-only now, its dot-files hidden."""
    lib = tmp_path / "libs"
    lib.mkdir()
    (lib / "shop_prices_lib.py").write_text("def price(item):\n    return f'{item}: 1.50'\n")
    (lib / ".env").write_text("SECRET=planted-in-a-library-folder\n")
    monkeypatch.syspath_prepend(str(lib))
    with Sandbox(from_callable(_priced)) as box:
        outcome = box.call({"item": "apple"})
    assert outcome.status == "ok" and outcome.result == "apple: 1.50", outcome
    from masfuzz.exec.confine import hidden_names

    assert str(lib / ".env") in hidden_names([str(lib)])
