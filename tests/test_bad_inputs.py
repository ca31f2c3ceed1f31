"""A corpus of bad inputs, each of which must end in one line on stderr, exit status 2 and no
traceback: environment variables and option values (every setting of the option table, from a
flag and from its variable), stores, caches, suites, manifests, targets, policies and inputs.
Cases that masfuzz once accepted silently are in it, so they stay refused."""

from __future__ import annotations

import os
import shutil
import sqlite3
from pathlib import Path

import pytest

from masfuzz.cli import main
from masfuzz.options import TABLE, _parser_for

from tests.conftest import EXAMPLES, ROOT

CS = str(EXAMPLES / "customer_service" / "app.py") + ":triage_agent"
CS_SUT = "scripted/" + str(EXAMPLES / "customer_service" / "policy.py") + ":policy"
ARGV = {"inspect": ["t.py:x"], "exec": ["t.py:x", "--input", "hi"], "cover": ["t.py:x"],
        "replay": ["s.yaml"], "report": [], "tools": ["t.py:x"], "serve": [],
        "models": ["check", "scripted/p.py:policy"], "fuzz": ["t.py:x"], "judge": ["--otel", "s.json"], "run": ["t.py:x"],
        "mutate": ["t.py:x"]}
BAD = ["abc", "-3", "nan", "inf", "0", "99999999999", "maybe", "", "C9", "1.5"]


def _option_cases():
    """Every (command, setting): its first rejected value, as a flag and as a variable."""
    cases = []
    for s in TABLE:
        for command in s.commands:
            parse = _parser_for(s, command)
            for raw in BAD:
                try:
                    parse(raw)
                except ValueError:
                    if s.flag_kind != "switch":
                        cases.append((f"{command} {s.flag} {raw!r}", [command, *ARGV[command], s.flag, raw], {}))
                    if raw or s.flag_kind != "append":
                        cases.append((f"{command} {s.env}={raw!r}", [command, *ARGV[command]], {s.env: raw}))
                    break
    return cases


def _files(tmp: Path) -> dict[str, Path]:
    """Bad files of every kind masfuzz reads."""
    f = {}
    f["not_sqlite"] = tmp / "garbage.db"
    f["not_sqlite"].write_bytes(b"this is not a database" * 50)
    f["foreign"] = tmp / "foreign.db"
    db = sqlite3.connect(f["foreign"])
    db.execute("CREATE TABLE orders (id INTEGER)")
    db.commit()
    db.close()
    f["future"] = tmp / "future.db"
    db = sqlite3.connect(f["future"])
    db.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT)")
    db.execute("INSERT INTO meta VALUES ('schema_version', '99')")
    db.commit()
    db.close()
    f["corrupt_cache"] = tmp / "cache.sqlite"
    f["corrupt_cache"].write_bytes(b"SQLite format 3\x00" + b"\x00\xff" * 3000)
    f["latin1_suite"] = tmp / "latin1.yaml"
    f["latin1_suite"].write_bytes("format: masfuzz-suite\ntarget: caf\xe9.py:x\n".encode("latin-1"))
    f["yaml_error"] = tmp / "broken.yaml"
    f["yaml_error"].write_text("format: masfuzz-suite\ncases: [\n")
    f["not_suite"] = tmp / "other.yaml"
    f["not_suite"].write_text("hello: world\n")
    f["truncated"] = tmp / "truncated.yaml"
    f["truncated"].write_text("format: masfuzz-suite\nformat_version: 1\ntarget: x.py:y\ncases:\n"
                              "- id: sc-1\n  kind: witness\n  title: t\n  expected: [reach::a]\n"
                              "  scenario:\n    input: hi\n- id: sc-2\n  kind: witn")
    f["bad_case"] = tmp / "badcase.yaml"
    f["bad_case"].write_text("format: masfuzz-suite\nformat_version: 1\ntarget: x.py:y\ncases:\n"
                             "- id: sc-1\n  expected: [reach::a]\n")
    f["no_input_case"] = tmp / "noinput.yaml"
    f["no_input_case"].write_text("format: masfuzz-suite\nformat_version: 1\ntarget: x.py:y\ncases:\n"
                                  "- id: sc-1\n  expected: [reach::a]\n  scenario:\n    input: null\n")
    f["version"] = tmp / "v9.yaml"
    f["version"].write_text("format: masfuzz-suite\nformat_version: 9\ncases: []\n")
    f["empty_manifest"] = tmp / "empty.yaml"
    f["empty_manifest"].write_text("")
    f["manifest_list"] = tmp / "list.yaml"
    f["manifest_list"].write_text("- a\n- b\n")
    f["manifest_unknown"] = tmp / "unknown.yaml"
    f["manifest_unknown"].write_text("format_version: 1\nsystem: {id: s, entry_agent: a}\nagents: [{id: a}]\n"
                                     "delegations: [{from: a, to: ghost, trigger: handoff}]\n")
    f["manifest_binary"] = tmp / "binary.json"
    f["manifest_binary"].write_bytes(b"\xff\xfe\x00{")
    f["syntax"] = tmp / "syntax_app.py"
    f["syntax"].write_text("def broken(:\n")
    f["raises"] = tmp / "raises_app.py"
    f["raises"].write_text("raise RuntimeError('import-time failure')\n")
    f["exits"] = tmp / "exits_app.py"
    f["exits"].write_text("import sys\nsys.exit(7)\n")
    f["attr_raises"] = tmp / "attr_app.py"
    f["attr_raises"].write_text("class M:\n    @property\n    def agent(self):\n        raise KeyError('boom')\n"
                                "m = M()\n")
    f["not_agent"] = tmp / "plain_app.py"
    f["not_agent"].write_text("value = 42\n\ndef factory(x):\n    return x\n")
    f["factory_raises"] = tmp / "factory_app.py"
    f["factory_raises"].write_text("def build():\n    raise ValueError('cannot build')\n")
    f["policy_syntax"] = tmp / "policy_syntax.py"
    f["policy_syntax"].write_text("def policy(request:\n")
    f["policy_missing"] = tmp / "policy_none.py"
    f["policy_missing"].write_text("x = 1\n")
    f["policy_not_callable"] = tmp / "policy_value.py"
    f["policy_not_callable"].write_text("policy = 3\n")
    f["non_utf8_py"] = tmp / "latin_app.py"
    f["non_utf8_py"].write_bytes(b"x = '\xe9'\n")
    f["cases_not_list"] = tmp / "cases5.yaml"
    f["cases_not_list"].write_text("format: masfuzz-suite\nformat_version: 1\ntarget: x.py:y\ncases: 5\n")
    # "billion laughs": nine anchors, each a list of nine aliases of the one before (300 bytes
    # that stand for 400 million nodes), as a manifest and as a suite
    laughs = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{n}: &{n} [{', '.join([f'*{p}'] * 9)}]\n" for p, n in zip("abcdefgh", "bcdefghi"))
    f["laughs_manifest"] = tmp / "laughs.yaml"
    f["laughs_manifest"].write_text(laughs)
    f["laughs_suite"] = tmp / "laughs_suite.yaml"
    f["laughs_suite"].write_text("format: masfuzz-suite\nformat_version: 1\n" + laughs + "cases: [*i]\n")
    f["self_alias"] = tmp / "self_alias.yaml"
    f["self_alias"].write_text("system: &s {id: s, entry_agent: a, more: *s}\nagents: [a]\n")
    f["deep_yaml"] = tmp / "deep.yaml"
    f["deep_yaml"].write_text("system: " + "[" * 5000 + "]" * 5000 + "\n")
    f["deep_json"] = tmp / "deep.json"
    f["deep_json"].write_text("[" * 100_000 + "]" * 100_000)
    f["factory_exits"] = tmp / "factory_exit_app.py"
    f["factory_exits"].write_text("import sys\n\ndef build():\n    sys.exit(3)\n")
    f["interrupts"] = tmp / "interrupt_app.py"
    f["interrupts"].write_text("raise KeyboardInterrupt\n")
    f["factory_interrupts"] = tmp / "factory_interrupt_app.py"
    f["factory_interrupts"].write_text("def build():\n    raise KeyboardInterrupt\n")
    f["corrupt_page"] = _store_with_a_corrupt_page(tmp / "corrupt_page.db")
    f["async_main"] = tmp / "async_main_app.py"
    f["async_main"].write_text("import sys\n\nasync def main():\n    sys.exit(4)\n")
    f["pyproject_dir"] = tmp / "proj"
    f["pyproject_dir"].mkdir()
    (f["pyproject_dir"] / "pyproject.toml").write_text("[tool.masfuzz]\nretries = 'many'\n")
    return f


def _store_with_a_corrupt_page(path: Path) -> Path:
    """A run store whose `runs` table's page is overwritten: opening it works, reading a run
    does not (SQLite: 'database disk image is malformed')."""
    from masfuzz.store.db import RunStore

    with RunStore(path) as store:
        for i in range(40):
            store.start_run("cover", target=f"app{i}.py:x" * 20, config={"seed": i})
    db = sqlite3.connect(path)
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    [page] = db.execute("SELECT rootpage FROM sqlite_master WHERE name='runs'").fetchone()
    size = db.execute("PRAGMA page_size").fetchone()[0]
    db.close()
    with open(path, "r+b") as fh:
        fh.seek((page - 1) * size)
        fh.write(b"\xde\xad\xbe\xef" * (size // 4))
    return path


def _file_cases(f: dict[str, Path]):
    store = lambda p: ["report", "--store", str(p)]  # noqa: E731
    return [
        ("report: not sqlite", store(f["not_sqlite"]), {}),
        ("report: another application's database", store(f["foreign"]), {}),
        ("report: a store from the future", store(f["future"]), {}),
        ("report: missing store", store(f["not_sqlite"].with_name("nope.db")), {}),
        ("report: a store with a corrupt page", store(f["corrupt_page"]), {}),
        ("report: run that does not exist", ["report", "--store", str(f["foreign"]), "--run", "7"], {}),
        ("cover: store is not sqlite", ["cover", CS, "--store", str(f["not_sqlite"]), "--sut-model", CS_SUT], {}),
        ("tools: store is foreign", ["tools", f"{EXAMPLES}/tools/control.py:celsius_to_fahrenheit", "--store",
                                     str(f["foreign"]), "--seed", "1", "--calls", "5"], {}),
        ("tools: --fixture is no folder", ["tools", f"{EXAMPLES}/tools/control.py:celsius_to_fahrenheit",
                                           "--fixture", str(f["not_sqlite"]), "--calls", "5"], {}),
        ("tools: --setup names no function", ["tools", f"{EXAMPLES}/tools/control.py:celsius_to_fahrenheit",
                                              "--setup", f"{f['policy_missing']}:setup", "--calls", "5"], {}),
        ("tools: --setup raises", ["tools", f"{EXAMPLES}/tools/control.py:celsius_to_fahrenheit",
                                   "--setup", f"{f['factory_raises']}:build", "--calls", "5",
                                   "--unsafe-no-sandbox"], {}),
        ("run: --fixture is no folder", ["run", CS, "--phases", "tools", "--fixture",
                                         str(f["not_sqlite"])], {}),
        ("exec: corrupt model cache", ["exec", CS, "--input", "hi", "--sut-model", CS_SUT, "--cache",
                                       str(f["corrupt_cache"]), "--executor", "inprocess"], {}),
        ("exec: cache path is a folder", ["exec", CS, "--input", "hi", "--sut-model", CS_SUT, "--cache",
                                          str(f["pyproject_dir"]), "--executor", "inprocess"], {}),
        ("replay: non-UTF-8 suite", ["replay", str(f["latin1_suite"])], {}),
        ("replay: YAML error", ["replay", str(f["yaml_error"])], {}),
        ("replay: not a suite", ["replay", str(f["not_suite"])], {}),
        ("replay: suite truncated mid-file", ["replay", str(f["truncated"])], {}),
        ("replay: malformed case", ["replay", str(f["bad_case"])], {}),
        ("replay: case without an input", ["replay", str(f["no_input_case"])], {}),
        ("replay: suite of another version", ["replay", str(f["version"])], {}),
        ("replay: missing suite", ["replay", str(f["version"].with_name("none.yaml"))], {}),
        ("replay: suite is a folder", ["replay", str(f["pyproject_dir"])], {}),
        ("replay: cases is not a list", ["replay", str(f["cases_not_list"])], {}),
        ("replay: suite of a billion laughs", ["replay", str(f["laughs_suite"])], {}),
        ("inspect: manifest of a billion laughs", ["inspect", str(f["laughs_manifest"])], {}),
        ("inspect: manifest with an alias inside itself", ["inspect", str(f["self_alias"])], {}),
        ("inspect: manifest nested 5000 deep", ["inspect", str(f["deep_yaml"])], {}),
        ("inspect: JSON manifest nested 100000 deep", ["inspect", str(f["deep_json"])], {}),
        ("inspect: factory calls sys.exit(3)", ["inspect", f"{f['factory_exits']}:build()"], {}),
        ("inspect: factory called by masfuzz calls sys.exit(3)", ["inspect", f"{f['factory_exits']}:build"], {}),
        ("inspect: target raises KeyboardInterrupt on import", ["inspect", f"{f['interrupts']}:x"], {}),
        ("inspect: factory raises KeyboardInterrupt", ["inspect", f"{f['factory_interrupts']}:build()"], {}),
        ("inspect: an async main that builds no system", ["inspect", f"{f['async_main']}:main"], {}),
        ("inspect: empty manifest", ["inspect", str(f["empty_manifest"])], {}),
        ("inspect: manifest is a list", ["inspect", str(f["manifest_list"])], {}),
        ("inspect: manifest names an unknown agent", ["inspect", str(f["manifest_unknown"])], {}),
        ("inspect: binary manifest", ["inspect", str(f["manifest_binary"])], {}),
        ("inspect: syntax error in the target", ["inspect", f"{f['syntax']}:x"], {}),
        ("inspect: target raises on import", ["inspect", f"{f['raises']}:x"], {}),
        ("inspect: target calls sys.exit on import", ["inspect", f"{f['exits']}:x"], {}),
        ("inspect: attribute access raises", ["inspect", f"{f['attr_raises']}:m.agent"], {}),
        ("inspect: not an agent", ["inspect", f"{f['not_agent']}:value"], {}),
        ("inspect: a file with no system at its top level", ["inspect", str(f["not_agent"])], {}),
        ("inspect: a file with three agents, none named",
         ["inspect", str(EXAMPLES / "customer_service" / "app.py")], {}),
        ("inspect: factory needs arguments", ["inspect", f"{f['not_agent']}:factory"], {}),
        ("inspect: factory raises", ["inspect", f"{f['factory_raises']}:build()"], {}),
        ("inspect: call syntax error", ["inspect", f"{f['factory_raises']}:build("], {}),
        ("inspect: non-UTF-8 source", ["inspect", f"{f['non_utf8_py']}:x"], {}),
        ("inspect: a folder as target", ["inspect", f"{f['pyproject_dir']}:x"], {}),
        ("inspect: no attribute", ["inspect", f"{CS.split(':')[0]}:nothing"], {}),
        ("inspect: missing module", ["inspect", "no_such_module_xyz:agent"], {}),
        ("inspect: no colon", ["inspect", "justtext"], {}),
        ("exec: policy with a syntax error", ["exec", CS, "--input", "hi", "--sut-model",
                                              f"scripted/{f['policy_syntax']}:policy", "--executor", "inprocess"], {}),
        ("exec: policy missing", ["exec", CS, "--input", "hi", "--sut-model",
                                  f"scripted/{f['policy_missing']}:policy", "--executor", "inprocess"], {}),
        ("exec: policy not callable", ["exec", CS, "--input", "hi", "--sut-model",
                                       f"scripted/{f['policy_not_callable']}:policy", "--executor", "inprocess"], {}),
        ("exec: unparsable model string", ["exec", CS, "--input", "hi", "--sut-model", "gpt4"], {}),
        ("exec: unknown provider", ["exec", CS, "--input", "hi", "--sut-model", "acme/model"], {}),
        ("exec: bad port in model URL", ["exec", CS, "--input", "hi", "--sut-model",
                                         "openai-compatible/m@http://127.0.0.1:notaport/v1"], {}),
        ("exec: unknown agent in --agent-model", ["exec", CS, "--input", "hi", "--sut-model", CS_SUT,
                                                  "--agent-model", "ghost_agent=" + CS_SUT], {}),
        ("exec: unknown tool in --fault", ["exec", CS, "--input", "hi", "--sut-model", CS_SUT,
                                           "--fault", "ghost_tool=error"], {}),
        ("exec: unknown fault mode", ["exec", CS, "--input", "hi", "--fault", "update_seat=explode"], {}),
        ("exec: unknown tool in --stub", ["exec", CS, "--input", "hi", "--sut-model", CS_SUT,
                                          "--stub", "ghost_tool=done"], {}),
        ("exec: --stub file missing", ["exec", CS, "--input", "hi", "--stub", "update_seat=@/nonexistent/s.json"], {}),
        ("exec: --stub on a black-box app", ["exec", "--blackbox", "python app.py", "--input", "hi",
                                             "--stub", "update_seat=done"], {}),
        ("exec: empty input", ["exec", CS, "--input", "", "--sut-model", CS_SUT], {}),
        ("exec: input not UTF-8", ["exec", CS, "--input", "caf\udce9", "--sut-model", CS_SUT], {}),
        ("exec: no target and no blackbox", ["exec", "--input", "hi"], {}),
        ("exec: no --input for a target", ["exec", CS, "--sut-model", CS_SUT], {}),
        ("exec: {input} in a black-box command without --input",
         ["exec", "--blackbox", "python app.py {input}", "--sut-model", CS_SUT], {}),
        ("exec: api key variable not set", ["exec", CS, "--input", "hi", "--api-key-env", "NO_SUCH_VAR_XYZ",
                                            "--sut-model", "openai/gpt-4.1-mini"], {}),
        ("cover: unknown criterion", ["cover", CS, "--criteria", "C1,C9"], {}),
        ("cover: link to an unknown agent", ["cover", CS, "--link", "triage_agent->ghost", "--sut-model", CS_SUT], {}),
        ("cover: link without arrow", ["cover", CS, "--link", "triage_agent"], {}),
        ("cover: coordinator on a manifest", ["cover", str(EXAMPLES / "manifests" / "customer_service.yaml"),
                                              "--coordinator", "boss", "--sut-model", CS_SUT], {}),
        ("serve: port out of range", ["serve", "--port", "99999"], {}),
        # a mutant given less time than the target: every mutant as slow as it would be a kill
        ("mutate: mutant time factor below 1", ["mutate", CS, "--mutant-timeout-factor", "0.5"], {}),
        ("mutate: negative mutant time constant", ["mutate", CS, "--mutant-timeout-const", "-1"], {}),
        ("models: no action", ["models"], {}),
        ("unknown command", ["frobnicate"], {}),
        ("pyproject: bad value", ["report"], {"__cwd__": str(f["pyproject_dir"])}),
        ("MASFUZZ_SECRET_ENV is ignored, bad value elsewhere", ["report", "--run", "x"], {}),
    ]


def _cases(tmp_path: Path):
    return _file_cases(_files(tmp_path)) + _option_cases()


def test_the_corpus_is_large():
    assert len(_option_cases()) + 70 >= 150


def test_every_bad_input_is_one_line_and_exit_2(tmp_path, capsys, monkeypatch):
    failed = []
    cases = _cases(tmp_path)
    assert len(cases) >= 150
    for name, argv, env in cases:
        with monkeypatch.context() as m:
            m.chdir(env.pop("__cwd__", str(tmp_path)))
            for k, v in env.items():
                m.setenv(k, v)
            try:
                code = main(list(argv))
            except SystemExit as exc:  # argparse --help and the like never count
                code = f"SystemExit({exc.code})"
            except BaseException as exc:  # noqa: BLE001 - a traceback is what this test hunts
                code = f"{type(exc).__name__}: {exc}"
        out, err = capsys.readouterr()
        ok = code == 2 and err.count("\n") == 1 and err.startswith("masfuzz: error:") \
            and "Traceback" not in err + out
        if not ok:
            failed.append(f"{name}: exit {code!r}, stderr {err[:200]!r}")
    assert not failed, f"{len(failed)} of {len(cases)} bad inputs:\n" + "\n".join(failed)


CS_EXEC_ARGS = ["exec", CS, "--input", "change my seat to 14C, confirmation ABC123", "--sut-model", CS_SUT,
                "--no-cache"]
CS_COVER = ["cover", CS, "--model", "scripted/" + str(EXAMPLES / "testers" / "template_tester.py") + ":policy",
            "--sut-model", CS_SUT, "--attempts", "1", "--executor", "inprocess", "--no-cache"]


def _cli_process(argv: list[str], preexec=None, prefix: tuple[str, ...] = ()):
    """masfuzz in a process of its own: (exit status, stdout, stderr)."""
    import subprocess

    from tests.conftest import MASFUZZ_CLI

    done = subprocess.run([*prefix, *MASFUZZ_CLI, *argv], capture_output=True, text=True, cwd=ROOT,
                          preexec_fn=preexec, timeout=600)
    return done.returncode, done.stdout, done.stderr


def _one_line(code, err, words):
    """Exit 2, and the error one line after the progress a campaign printed before it."""
    last = err.rstrip("\n").rpartition("\n")[2]
    return code == 2 and err.count("masfuzz: error:") == 1 and last.startswith("masfuzz: error:") \
        and words in last and "Traceback" not in err


def test_a_full_disk_is_one_line_and_the_store_resumes(tmp_path):
    """The store cannot grow past 300 kB (RLIMIT_FSIZE, as a full disk): the campaign stops with
    one line, what it recorded stays, and the same command run again finishes the run."""
    import resource
    import signal

    store = tmp_path / "runs.db"

    def small_disk():
        resource.setrlimit(resource.RLIMIT_FSIZE, (300_000, 300_000))
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # writes then fail (EFBIG), as on a full disk

    code, out, err = _cli_process([*CS_COVER, "--store", str(store)], preexec=small_disk)
    assert _one_line(code, err, "cannot write the run store"), (code, err[-2000:])
    assert "Traceback" not in out + err
    code, out, err = _cli_process([*CS_COVER, "--store", str(store)])
    assert code == 0, err[-2000:]
    assert "resuming run 1" in err
    db = sqlite3.connect(store)
    assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    assert db.execute("SELECT status FROM runs").fetchall() == [("completed",)]


def test_a_read_only_store_is_reported_and_refused_for_writing(tmp_path, cli, monkeypatch):
    """A store masfuzz may not write (its file and folder read-only to the user) is read by
    `report`; a command that would write it says it cannot, in one line; so does a campaign
    whose suite goes to that folder (it was a traceback after the campaign)."""
    import os
    import shutil

    monkeypatch.chdir(ROOT)
    folder = tmp_path / "ro"
    folder.mkdir()
    store = folder / "runs.db"
    assert cli(*CS_COVER, "--store", str(store))[0] == 0
    want = cli("report", "--store", str(store))[1]
    prefix: tuple[str, ...] = ()
    if os.geteuid() == 0:  # root writes whatever the mode says: be nobody, in a user namespace
        if not shutil.which("unshare") or _cli_process(["--version"], prefix=("unshare", "--user"))[0]:
            pytest.skip("running as root without user namespaces: no way to be refused a write")
        prefix = ("unshare", "--user")
    store.chmod(0o444)
    folder.chmod(0o555)
    try:
        code, out, err = _cli_process(["report", "--store", str(store)], prefix=prefix)
        assert code == 0 and out == want, err
        code, out, err = _cli_process([*CS_COVER, "--store", str(store)], prefix=prefix)
        assert _one_line(code, err, "masfuzz cannot write this run store"), err
        # a store it can write, a suite in the read-only folder: the campaign's end says so
        writable = tmp_path / "rw"
        writable.mkdir(mode=0o777)
        writable.chmod(0o777)
        code, out, err = _cli_process([*CS_COVER, "--store", str(writable / "runs.db"), "--suite",
                                       str(folder / "suite.yaml")], prefix=prefix)
        assert _one_line(code, err, "cannot write the suite (Permission denied)"), err
    finally:
        folder.chmod(0o755)


@pytest.mark.skipif(os.geteuid() != 0 or not all(map(shutil.which, ("setpriv", "unshare", "prlimit"))),
                    reason="a process limit of a user of its own needs root, setpriv, unshare and prlimit")
@pytest.mark.parametrize("nproc", [5, 10])
def test_a_process_limit_is_one_line_never_a_crash_of_the_app(nproc):
    """Run as a uid no other process has (RLIMIT_NPROC counts that user's processes and threads:
    masfuzz's own, here), `exec` and `tools` under `ulimit -u` 5 and 10: wherever the machine
    refuses masfuzz a process or a thread (the worker's start, its reading thread, a run's
    fork, the tool sandbox's worker), the end is one line naming the limit, or calls that are
    masfuzz's failures; never a traceback, an EOFError, or a crash finding of the app's."""
    import json
    import subprocess

    from tests.conftest import MASFUZZ_CLI
    from tests.toolfuzz.test_escapes import unprivileged, unprivileged_env

    import tempfile

    tmp_path = Path(tempfile.mkdtemp(prefix="masfuzz-nproc-"))  # pytest's is root's alone
    tmp_path.chmod(0o777)
    env = unprivileged_env(tmp_path)
    uid = 40_000 + nproc  # no one's
    tools = ["tools", str(ROOT / "tests" / "faults" / "hanging_tool.py") + ":hang_on_odd", "--calls", "4",
             "--timeout", "5", "--store", str(tmp_path / "tools.db"), "--format", "json"]
    for argv in ([*CS_EXEC_ARGS, "--format", "json", "--failures"], *([tools] if nproc == 5 else [])):
        done = subprocess.run(["prlimit", f"--nproc={nproc}", *unprivileged(*MASFUZZ_CLI, *argv, uid=uid)],
                              cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)
        print(argv[0], done.returncode, done.stderr[-300:])
        assert "Traceback" not in done.stderr and "EOFError" not in done.stderr, done.stderr[-3000:]
        if done.returncode == 2:
            assert done.stderr.count("\n") == 1 and done.stderr.startswith("masfuzz: error: "), done.stderr
            continue
        assert done.returncode in (0, 1), done.stderr[-3000:]
        data = json.loads(done.stdout)
        if argv[0] == "exec":
            assert [f for f in data["failures"] if f["attribution"] == "sut"] == [], data["failures"]
        else:  # a call the machine refused is masfuzz's failure, never the tool's crash
            errors = [e for t in data["tools"] for e in t["errors"]]
            assert [e for e in errors if e["attribution"] == "sut" and e["error_type"].startswith("Crash")] == [], errors
            assert all(e["attribution"] == "harness" for e in errors if e["error_type"] == "MasfuzzError"), errors
    shutil.rmtree(tmp_path, ignore_errors=True)


def _running(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().rpartition(") ")[2].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.parametrize("executor", ["inprocess", "pool"])
def test_a_daemon_a_tool_started_does_not_outlive_masfuzz(tmp_path, monkeypatch, executor):
    """A tool forks, calls setsid and forks again: its daemon leaves the process group masfuzz
    kills. `exec` still ends it (and says so), with no traceback ("Event loop is closed" from
    the worker's pipes, which the daemon held open)."""
    import os
    import signal
    import time

    pytest.importorskip("agents")
    app = ROOT / "tests" / "faults" / "daemon_app.py"
    mark = tmp_path / "daemon.pids"
    monkeypatch.setenv("DAEMON_MARK", str(mark))
    code, out, err = _cli_process(["exec", f"{app}:desk", "--input", "start the indexer", "--sut-model",
                                   f"scripted/{app}:policy", "--executor", executor,
                                   # outside the OS sandbox, where nothing but masfuzz's reaping ends
                                   # the daemon (inside, its PID namespace dies with the worker:
                                   # tests/exec/test_sut_sandbox.py), and it may write its mark
                                   *(["--unsafe-no-sandbox"] if executor == "pool" else [])])
    pids = {int(p) for p in mark.read_text().split()} if mark.exists() else set()
    try:
        assert code == 0, err
        assert "Traceback" not in err and "Event loop is closed" not in err, err
        assert "indexer started" in out and pids  # the daemon did start
        time.sleep(1)
        assert not [p for p in pids if _running(p)], f"survivors: {pids}"
    finally:
        for pid in pids:
            if _running(pid):
                os.kill(pid, signal.SIGKILL)


def _zombie_children() -> list[int]:
    import os

    me, found = str(os.getpid()), []
    for entry in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{entry}/stat") as fh:
                state, ppid = fh.read().rpartition(") ")[2].split()[:2]
        except (OSError, ValueError):
            continue
        if ppid == me and state == "Z":
            found.append(int(entry))
    return found


def test_replaced_tool_workers_are_reaped(cli, monkeypatch):
    """Every timeout replaces the tool's sandbox worker; the processes of each one killed are
    reaped, none left defunct (masfuzz adopts orphans, so they are its to reap)."""
    monkeypatch.chdir(ROOT)
    before = set(_zombie_children())
    code, out, err = cli("tools", "tests/faults/hanging_tool.py:hang_on_odd", "--calls", "12", "--seed", "1",
                         "--timeout", "0.5")
    assert code == 0, err
    assert "Timeout" in out  # workers were replaced
    assert set(_zombie_children()) - before == set()


def test_a_refused_fork_is_the_harness_problem_not_a_crash(monkeypatch):
    """A call whose process the machine refuses (a process limit: fork fails with EAGAIN) is
    masfuzz's failure to run it, attributed to the harness, never a crash of the tool's."""
    import os

    from masfuzz.toolfuzz import sandbox
    from masfuzz.toolfuzz.grouping import attribution
    from masfuzz.toolfuzz.tools import from_callable

    from tests.faults.hanging_tool import hang_on_odd

    def refused():
        raise BlockingIOError(11, "Resource temporarily unavailable")

    tool = from_callable(hang_on_odd)
    monkeypatch.setattr(os, "fork", refused)
    read, write = os.pipe()  # stands for the channel to masfuzz, which the call never touches
    try:
        data = sandbox._fresh_call(os.fdopen(read), tool, {"n": 2}, False, sandbox.SandboxLimits(),
                                   "/nonexistent", sandbox.CallState(), None)
    finally:
        os.close(write)
    outcome = sandbox.CallOutcome.from_json(data)
    assert outcome.status == "error" and "refused" in outcome.message
    assert attribution(outcome)[0] == "harness"


def test_a_function_that_exits_while_a_framework_captures_its_team_is_a_load_error(tmp_path):
    """A module using no framework is offered to every framework already imported; AgentChat's
    capture runs its `main()`, whose `sys.exit(4)` ended masfuzz with exit 4 and no output when
    AgentChat had been imported before (as in a longer session or test run)."""
    import subprocess
    import sys

    pytest.importorskip("autogen_agentchat")
    app = tmp_path / "exits.py"
    app.write_text("import sys\n\nasync def main():\n    sys.exit(4)\n")
    done = subprocess.run([sys.executable, "-c", "import sys, autogen_agentchat; from masfuzz.cli import main; "
                           "sys.exit(main(sys.argv[1:]))", "inspect", f"{app}:main"],
                          capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert _one_line(done.returncode, done.stderr, "SystemExit: 4"), done.stderr


def test_a_file_asking_for_a_secret_as_it_loads_says_what_it_asked(tmp_path, capsys):
    """LangGraph's multi-agent tutorials ask for their keys with getpass in a cell when the
    variable is unset; getpass reads the terminal, not stdin, and the load ended in a bare
    "EOFError (getpass.py:148)"."""
    app = tmp_path / "asks_key.py"
    app.write_text("import getpass, os\n\nif not os.environ.get('NOPE_API_KEY'):\n"
                   "    os.environ['NOPE_API_KEY'] = getpass.getpass('Please provide your NOPE_API_KEY')\n"
                   "x = 1\n")
    assert main(["inspect", f"{app}:x", "--unsafe-no-sandbox"]) == 2
    err = capsys.readouterr().err
    assert _one_line(2, err, "getpass: 'Please provide your NOPE_API_KEY'"), err
    assert "--pass-env" in err
