import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
# masfuzz's CLI in a process of its own (for tests that kill it or read it while it runs)
MASFUZZ_CLI = [sys.executable, "-c", "import sys; from masfuzz.cli import main; sys.exit(main(sys.argv[1:]))"]


def pytest_collection_modifyitems(items):
    """`make test` runs the suite in pytest-xdist workers (`--dist loadgroup`), which hand out
    single tests: the tests that share a module- or package-scoped fixture (a Ray cluster, a
    llama.cpp server, one stored run) go to one worker as one xdist group, so that the fixture is
    built once, as in a serial run, and not once per worker or again each time its module comes
    back to a worker."""
    for item in items:
        for name in item.fixturenames:
            shared = [d for d in item._fixtureinfo.name2fixturedefs.get(name, ())
                      if d.scope in ("module", "package") and d.baseid]  # ours, not a plugin's
            if shared:
                item.add_marker(pytest.mark.xdist_group(f"{shared[-1].baseid}::{name}"))
                break


def stored_rows(store, table: str) -> int:
    """Rows of a run store's table, read while a campaign may be writing it (0 before it is)."""
    import sqlite3

    try:
        db = sqlite3.connect(store, timeout=1)
        try:
            return db.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
        finally:
            db.close()
    except sqlite3.OperationalError:
        return 0  # not written yet


@pytest.fixture(autouse=True)
def _own_model_cache(monkeypatch, tmp_path_factory):
    """Each test its own model-reply cache. The default, `.masfuzz/model-cache.sqlite` in the
    current folder, is the repository's for every test run from it (`in_repo`): one test would
    get the replies another cached (a stateful policy not called again), the more so with
    parallel workers sharing it, and a policy edited since a past run would answer from its
    old replies. A test that names its own cache (`--cache`) still has it."""
    monkeypatch.setenv("MASFUZZ_CACHE", str(tmp_path_factory.mktemp("model-cache") / "replies.sqlite"))


@pytest.fixture
def in_repo(monkeypatch):
    """The repository as the current folder: targets and policies named relative to it."""
    monkeypatch.chdir(ROOT)


@pytest.fixture
def cli(capsys):
    """Run the masfuzz CLI in-process; returns (exit status, stdout, stderr)."""
    from masfuzz.cli import main

    def run(*argv: str) -> tuple[int, str, str]:
        code = main(list(argv))
        out = capsys.readouterr()
        return code, out.out, out.err

    return run


@pytest.fixture
def provider_endpoint(monkeypatch):
    """No key in the environment, and the provider's endpoint (OPENAI_BASE_URL) a loopback
    listener that records every request: a test asserts it stays empty."""
    import threading
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    seen: list[str] = []

    class Provider(BaseHTTPRequestHandler):
        def do_POST(self):  # noqa: N802 - the base's name
            seen.append(self.path)
            self.send_response(500)
            self.end_headers()

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Provider)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    monkeypatch.setenv("OPENAI_BASE_URL", f"http://127.0.0.1:{server.server_address[1]}/v1")
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    yield seen
    server.shutdown()
