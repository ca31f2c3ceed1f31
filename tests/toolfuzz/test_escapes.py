"""The escape corpus (escape_corpus.py) against the tool sandbox, as root and as an unprivileged
user: afterwards, judged from outside, the host folder is byte-identical, a host TCP and a host
Unix listener saw no connection, a sentinel process is alive and got no signal, the run store
is intact, no planted secret reached a call, nothing a call started still runs, and the limits
held (processes, memory, disk) for root too."""

import json
import os
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

import pytest

from masfuzz.toolfuzz.sandbox import isolation_problem
from tests.toolfuzz import escape_corpus
from tests.toolfuzz.test_os_sandbox import _tree_hash
from tests.toolfuzz.test_sandbox import Listener

pytestmark = pytest.mark.skipif(isolation_problem() is not None,
                                reason=f"no OS isolation here: {isolation_problem()}")
REPO = Path(__file__).resolve().parents[2]
NOBODY = 65534
MEMORY_SECRET = f"sk-planted-memory-{uuid.uuid4().hex}"  # in no config: only in masfuzz's memory
DISK_MB = 32
SENTINEL = """
import signal, sys, time
log = sys.argv[1]
def note(sig, frame):
    open(log, "a").write(f"{sig}\\n")
for sig in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT, signal.SIGUSR1, signal.SIGURG):
    signal.signal(sig, note)
open(log + ".ready", "w").close()
while True:
    time.sleep(1)
"""


def unix_listener(path: str, abstract: str) -> Listener:
    """A Unix stream server at a path (connectable by any uid, were it outside) and at an
    abstract address, counting connections."""
    socks = []
    for address in (path, "\0" + abstract):
        sock = socket.socket(socket.AF_UNIX)
        sock.bind(address)
        socks.append(sock)
    os.chmod(path, 0o777)
    return Listener(socks)


def _processes_with(marker: str) -> list[int]:
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            if marker.encode() in Path(f"/proc/{pid}/cmdline").read_bytes():
                found.append(int(pid))
        except OSError:
            continue
    return found


@pytest.fixture
def arena():
    """A host folder every uid may reach: the victim folder (writable by all, so only the
    sandbox keeps the unprivileged side out), the project holding the tool and a planted .env,
    the listeners, a sentinel process holding a secret, and an open run store."""
    root = Path(tempfile.mkdtemp(prefix="masfuzz-escapes-"))
    root.chmod(0o755)
    victim = root / "victim"
    victim.mkdir()
    (victim / "keep.txt").write_text("do not delete")
    victim.chmod(0o777)
    (victim / "keep.txt").chmod(0o666)
    project = root / "project"
    project.mkdir()
    shutil.copy(Path(escape_corpus.__file__), project / "escape_tool.py")
    secrets = [f"sk-planted-{uuid.uuid4().hex}" for _ in range(4)]
    (project / ".env").write_text(f"OPENAI_API_KEY={secrets[0]}\n")
    store_dir = root / "store"
    store_dir.mkdir()
    store_dir.chmod(0o777)
    marker = f"masfuzz-escape-{uuid.uuid4().hex}"
    log = root / "sentinel.log"
    sentinel = subprocess.Popen([sys.executable, "-c", SENTINEL, str(log), marker],
                                env={**os.environ, "SENTINEL_SECRET": secrets[1]})
    for _ in range(200):
        if Path(str(log) + ".ready").exists():
            break
        time.sleep(0.05)
    tcp = Listener()
    unix = unix_listener(str(root / "host.sock"), f"masfuzz-escape-{uuid.uuid4().hex}")
    config = {"victim": str(victim), "project": str(project), "port": tcp.port,
              "unix": str(root / "host.sock"), "abstract": unix.socks[1].getsockname()[1:].decode(),
              "sentinel": sentinel.pid, "driver_pgid": os.getpgid(0), "marker": marker, "secrets": secrets,
              "store": str(store_dir / "store.db"), "disk_mb": DISK_MB,
              # `own_memory`: MEMORY_SECRET's value, planted in masfuzz's environment by each test
              "memory_needle": MEMORY_SECRET[::-1], "memory_control": f"never-planted-{uuid.uuid4().hex}"[::-1]}
    yield root, config, tcp, unix, sentinel, log
    tcp.close()
    unix.close()
    sentinel.kill()
    sentinel.wait()
    shutil.rmtree(root, ignore_errors=True)


def _open_store(path: str) -> sqlite3.Connection:
    """A run store open the way masfuzz holds one (WAL: .db, -wal and -shm descriptors)."""
    db = sqlite3.connect(path, check_same_thread=False)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("CREATE TABLE IF NOT EXISTS runs (id INTEGER PRIMARY KEY, note TEXT)")
    db.execute("INSERT INTO runs (note) VALUES ('before the escapes')")
    db.commit()
    return db


def _show(outcomes: dict) -> None:
    for probe, outcome in outcomes.items():  # what each probe managed, for the log (-s)
        print(f"{probe:14} {outcome['status']:8} {(outcome['result'] or outcome['message'])[:150]!r}")


def _store_bytes(path: str) -> bytes:
    return b"".join(Path(path + s).read_bytes() for s in ("", "-wal") if Path(path + s).exists())


def _judge(outcomes: dict, root: Path, config: dict, tcp, unix, sentinel, log, victim_hash: str,
           project_hash: str) -> None:
    problems = {p: o for p, o in outcomes.items() if o["result"] not in ("", "nothing")
                and p not in ("fork_bomb", "disk_fill", "survivors", "state_set")}
    assert problems == {}, problems
    assert _tree_hash(Path(config["victim"])) == victim_hash, sorted(os.listdir(config["victim"]))
    assert _tree_hash(Path(config["project"])) == project_hash
    assert tcp.connections == 0 and unix.connections == 0
    assert sentinel.poll() is None, "the sentinel process was killed"
    assert not log.exists() or log.read_text() == "", f"the sentinel got signals {log.read_text()!r}"
    assert outcomes["state_set"]["status"] == "ok"  # so state_check ran in the same worker
    assert outcomes["native_alloc"]["status"] == "ok"  # 3 GB refused to native code: no crash
    # a forged "ok" not taken: the call's process died without its outcome
    assert outcomes["forge_outcome"]["status"] == outcomes["forge_sealed"]["status"] == "crash"
    forked = int(outcomes["fork_bomb"]["result"].split()[-1]) if outcomes["fork_bomb"]["result"] else 0
    assert 0 < forked <= 64, outcomes["fork_bomb"]  # SandboxLimits(processes=64), as uid 0 inside
    written = outcomes["disk_fill"]["result"]
    assert written.startswith("wrote ") and 0 < int(written.split()[1]) <= DISK_MB, written
    text = json.dumps(outcomes)
    assert not any(s in text for s in config["secrets"])
    deadline = time.monotonic() + 10
    while _processes_with(config["marker"]) != [sentinel.pid] and time.monotonic() < deadline:
        time.sleep(0.2)
    assert _processes_with(config["marker"]) == [sentinel.pid]  # the sentinel only: no survivor


def _victim_and_project_hashes(config: dict) -> tuple[str, str]:
    return _tree_hash(Path(config["victim"])), _tree_hash(Path(config["project"]))


@pytest.mark.skipif(os.geteuid() != 0, reason="the root side of the corpus needs root")
def test_escape_corpus_as_root(arena, monkeypatch):
    root, config, tcp, unix, sentinel, log = arena
    Path(config["project"]).chmod(0o700)  # a private project: copied in, not bound
    monkeypatch.setenv("OPENAI_API_KEY", config["secrets"][2])
    monkeypatch.setenv("MASFUZZ_PLANTED_TOKEN", config["secrets"][3])
    monkeypatch.setenv("MASFUZZ_MEMORY_TOKEN", MEMORY_SECRET)
    monkeypatch.chdir(config["project"])
    db = _open_store(config["store"])
    store_before = _store_bytes(config["store"])
    hashes = _victim_and_project_hashes(config)
    try:
        outcomes = escape_corpus.run_corpus(config)
    finally:
        monkeypatch.chdir(REPO)
    _show(outcomes)
    assert _store_bytes(config["store"]) == store_before
    assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    assert db.execute("SELECT note FROM runs").fetchall() == [("before the escapes",)]
    db.close()
    _judge(outcomes, root, config, tcp, unix, sentinel, log, *hashes)


def unprivileged(*argv: str, uid: int = NOBODY) -> list[str]:
    """`argv` run as `uid` (65534). A Python installed under a private home (/root/.pyenv) is not
    reachable by that uid: then the run gets a mount namespace of its own where the home is an
    empty folder holding only the Python install (nothing else of the machine changes)."""
    python = Path(sys.base_prefix)
    private = next((p for p in [python, *python.parents] if p != Path("/") and not (p.stat().st_mode & 0o001)), None)
    run = ["setpriv", f"--reuid={uid}", f"--regid={uid}", "--clear-groups", *argv]
    if private is None:
        return run
    inner = python.relative_to(private)
    script = ('set -e; stage=$(mktemp -d); mount --bind "$1" "$stage"; '
              'mount -t tmpfs -o mode=755,size=1m tmpfs "$2"; mkdir -p "$2/$3"; mount --bind "$stage" "$2/$3"; '
              'shift 3; exec "$@"')
    return ["unshare", "--mount", "--propagation", "private", "--", "sh", "-c", script, "sh",
            str(python), str(private), str(inner), *run]


# dropping to an unprivileged uid needs root, and setpriv and unshare (util-linux)
UNPRIVILEGED = pytest.mark.skipif(os.geteuid() != 0 or shutil.which("setpriv") is None
                                  or shutil.which("unshare") is None,
                                  reason="running the corpus as uid 65534 needs root, setpriv and unshare")


def unprivileged_env(root: Path, **extra: str) -> dict[str, str]:
    """The environment of a run as uid 65534: this checkout's code, a home in the arena."""
    return {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "PYTHONPATH": f"{REPO / 'src'}:{REPO}",
            "HOME": str(root), "PYTHONDONTWRITEBYTECODE": "1", "MASFUZZ_MEMORY_TOKEN": MEMORY_SECRET, **extra}


def store_for_nobody(path: str) -> sqlite3.Connection:
    """The run store, opened as masfuzz holds one, its files then owned by uid 65534: outside
    a sandbox that uid could write it, so only the sandbox keeps it intact."""
    db = _open_store(path)
    for p in Path(path).parent.iterdir():
        os.chown(p, NOBODY, NOBODY)
    return db


@UNPRIVILEGED
def test_escape_corpus_as_an_unprivileged_user(arena):
    root, config, tcp, unix, sentinel, log = arena
    store_for_nobody(config["store"]).close()  # opened by the unprivileged runner too
    config_file = root / "config.json"
    config_file.write_text(json.dumps(config))
    hashes = _victim_and_project_hashes(config)
    env = unprivileged_env(root, OPENAI_API_KEY=config["secrets"][2], MASFUZZ_PLANTED_TOKEN=config["secrets"][3])
    done = subprocess.run(unprivileged(sys.executable, "-m", "tests.toolfuzz.escape_corpus", str(config_file)), cwd=REPO, env=env, capture_output=True,
                          text=True, timeout=900)
    assert done.returncode == 0, done.stderr[-3000:]
    outcomes = json.loads(done.stdout.strip().splitlines()[-1])
    _show(outcomes)
    db = sqlite3.connect(config["store"])
    assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    assert db.execute("SELECT note FROM runs").fetchall() == [("before the escapes",)]
    db.close()
    _judge(outcomes, root, config, tcp, unix, sentinel, log, *hashes)


ENV_TOOL = '''
import os


def region(city: str) -> str:
    """The shipping region of a city."""
    raise LookupError(f"region={os.environ.get('SHOP_REGION')} key={'OPENAI_API_KEY' in os.environ}")
'''


def test_only_allowed_and_passed_names_enter_a_calls_environment(tmp_path, monkeypatch, capsys):
    from masfuzz.cli import main

    tool = tmp_path / "env_tool.py"
    tool.write_text(ENV_TOOL)
    monkeypatch.setenv("SHOP_REGION", "eu-west")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-planted-never-inside")
    argv = ["tools", f"{tool}:region", "--calls", "2", "--seed", "1", "--store", str(tmp_path / "r.db")]
    assert main([*argv, "--pass-env", "SHOP_REGION", "--format", "json"]) in (0, 1)
    out = capsys.readouterr().out
    assert "region=eu-west key=False" in out and "sk-planted" not in out
    assert main([*argv, "--format", "json"]) in (0, 1)  # not passed: not there
    assert "region=None key=False" in capsys.readouterr().out
    assert main([*argv, "--pass-env", "NOT-A-NAME"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--pass-env" in err


def test_a_machine_file_the_sandbox_does_not_show_is_the_settings_failure(tmp_path):
    from masfuzz.toolfuzz.grouping import attribution
    from masfuzz.toolfuzz.sandbox import Sandbox
    from masfuzz.toolfuzz.tools import from_callable

    data = tmp_path / "elsewhere" / "prices.csv"
    data.parent.mkdir()
    data.write_text("apple,1.5\n")

    def read_prices(path: str) -> str:
        """Reads a price list."""
        return open(path).read()

    with Sandbox(from_callable(read_prices)) as box:
        outside = box.call({"path": str(data)})
        nowhere = box.call({"path": str(tmp_path / "missing.csv")})
    assert outside.error_type == "FileNotFoundError"
    whose, why = attribution(outside)
    assert whose == "settings" and "--fixture" in why
    assert attribution(nowhere) == ("sut", None)  # missing on the machine too: the tool's own error


def test_the_probes_added_last_get_out_where_no_sandbox_holds_them(arena):
    """Called in this process, unconfined: a folder descriptor held from outside leads to the
    victim folder, the parent's memory opens, the driver's group gets the signal, the kernel's
    settings open for writing (as root). So each can fail the corpus.
    The group signalled is a sentinel's own, not this process's: under xdist every worker shares
    this process's group, and the SIGURG would reach the sentinel of a sandbox test running
    beside this one (CI saw that test fail on a signal this test sent)."""
    root, config, tcp, unix, _, _ = arena
    log = root / "own-group.log"
    sentinel = subprocess.Popen([sys.executable, "-c", SENTINEL, str(log), "own-group"], start_new_session=True)
    deadline = time.monotonic() + 10
    while not Path(str(log) + ".ready").exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    config = {**config, "driver_pgid": sentinel.pid, "sentinel": sentinel.pid}
    held = os.open("/usr", os.O_PATH | os.O_DIRECTORY)
    try:
        said = {p: escape_corpus.escape(p, json.dumps(config))
                for p in ("held_fds", "parent_memory", "group_signal", "kernel_settings")}
        deadline = time.monotonic() + 10
        while not (log.exists() and log.read_text()) and time.monotonic() < deadline:
            time.sleep(0.1)
    finally:
        os.close(held)
        sentinel.kill()
        sentinel.wait()
    assert f"through held descriptor {held}" in said["held_fds"], said
    assert (Path(config["victim"]) / f"via-fd-{held}").exists()
    assert f"opened /proc/{os.getppid()}/mem" in said["parent_memory"], said
    assert said["group_signal"] == f"signalled group {config['driver_pgid']}", said
    assert log.read_text().split() == [str(int(signal.SIGURG))]
    if os.geteuid() == 0:
        assert "opened /proc/sys/kernel/core_pattern for writing" in said["kernel_settings"], said
