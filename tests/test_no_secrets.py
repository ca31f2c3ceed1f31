"""No secret reaches any file masfuzz writes or anything it prints: values of environment
variables under every secret-name pattern (and one named with --secret-env), credentials in a
model string, a key a crashing tool printed to stderr, a token in a tool's error text, and what a
tool running inside masfuzz's own process writes straight to file descriptors 1 and 2. Every
file masfuzz writes (it runs in a folder of the test's, its home there too: the store, the model
cache, the suite, the reports in every format) and both streams, read at the file descriptors,
are searched for every value and each escaped form of it."""

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent / "llm"))
from llmkit import StatusServer  # noqa: E402

from tests.conftest import EXAMPLES, ROOT  # noqa: E402

pytest.importorskip("agents")

APP = str(ROOT / "tests" / "redact" / "leaky_app.py")
POLICY = f"scripted/{APP}:policy"
TESTER = "scripted/" + str(EXAMPLES / "testers" / "template_tester.py") + ":policy"
# values with a quote, a backslash, non-ASCII letters and markup: each is written JSON-, HTML-,
# XML- or URL-escaped somewhere (a trace in the store, the HTML report, a query string)
SECRETS = {
    "MY_API_KEY": "sk-planted-api-key-111111",
    "SERVICE_TOKEN": 'planted"service\\token-ü-222222',
    "DB_PASSWORD": "planted<db>&pass'word-333333",
    "X_SECRET_VALUE": "planted-secret-value-éß-444444",
    "CUSTOM_CRED": 'planted-custom "cred" 555555',
}
URL_PASSWORD = "pa55word-planted-666666"


def forms(value):
    """The value and each escaped form of it a file or a line could hold."""
    from masfuzz.redact import encodings

    return encodings(value)


def test_planted_secrets_never_leave(capfd, tmp_path, monkeypatch):
    from masfuzz.cli import main

    work = tmp_path / "work"  # masfuzz's folder and home: whatever it writes by default is here
    work.mkdir()
    monkeypatch.chdir(work)
    monkeypatch.setenv("HOME", str(work))
    monkeypatch.setenv("XDG_CACHE_HOME", str(work / ".cache"))
    for name, value in SECRETS.items():
        monkeypatch.setenv(name, value)
    store, suite = str(tmp_path / "runs.db"), str(tmp_path / "suite.yaml")
    cache = str(tmp_path / "cache.sqlite")
    printed = []

    def run(*argv):
        code = main([*argv, "--secret-env", "CUSTOM_CRED"])
        out, err = capfd.readouterr()  # at the descriptors: what reached them past sys.std*
        printed.append(out + err)
        return code, out, err

    # the sandbox keeps every variable out of the system unless passed on purpose: pass the
    # tool's secrets so that what it leaks is masfuzz's to redact
    leak = ("--pass-env", "MY_API_KEY", "--pass-env", "SERVICE_TOKEN")
    # a tool writing a token and a key straight to fds 2 and 1, in masfuzz's process and not
    for executor in ("inprocess", "pool"):
        code, out, err = run("exec", f"{APP}:desk", "--input", "write the debug log", "--sut-model",
                             POLICY, "--executor", executor, *leak)
        assert code == 0, err
        if executor == "inprocess":  # the tool's own lines reached the terminal, masked
            assert "debug: token ***" in err and "debug: key ***" in out, (out, err)

    # a tool error carrying a token, and a tool that prints a key to stderr and dies
    for words in ("check my billing account", "refresh my session"):
        for fmt in ("text", "json"):
            code, _, err = run("exec", f"{APP}:desk", "--input", words, "--sut-model", POLICY,
                               "--format", fmt, "--failures", *leak)
            assert code == 0, err
    code, out, _ = run("exec", f"{APP}:desk", "--input", "refresh my session", "--sut-model",
                       POLICY, "--format", "json", *leak)
    assert "fatal: key *** rejected" in out  # the stderr tail is kept, masked
    # credentials in a model string, against a loopback endpoint that answers
    with StatusServer([200]) as srv:
        host = srv.url.split("://", 1)[1]
        model = f"openai-compatible/m@http://user:{URL_PASSWORD}@{host}"
        code, _, err = run("exec", f"{APP}:desk", "--input", "hello", "--sut-model", model,
                           "--cache", cache, "--max-turns", "2", "--format", "json")
        assert code == 0, err
        assert srv.requests  # the credentials did reach the endpoint's URL...
    # a campaign: store, suite, report; and tool fuzzing with its store
    code, _, err = run("cover", f"{APP}:desk", "--model", TESTER, "--sut-model", POLICY,
                       "--store", store, "--suite", suite, "--cache", cache, "--faults", "none",
                       "--attempts", "1", "--format", "json")
    assert code == 0, err
    for fmt in ("text", "json"):
        assert run("report", "--store", store, "--format", fmt, "--obligations")[0] == 0
        # the tool sees DB_PASSWORD only because it is passed on purpose (the sandbox keeps
        # every other variable out): what it then leaks in an error is still redacted
        code, _, err = run("tools", f"{APP}:billing_lookup", "--calls", "40", "--seed", "3",
                           "--store", store, "--format", fmt, "--pass-env", "DB_PASSWORD")
        assert code == 0, err
    assert run("report", "--store", store)[0] == 0
    for kind in ("text", "json", "junit", "sarif", "html"):  # the reports, written to files
        assert run("report", "--store", store, "--report", f"{kind}:{tmp_path / f'report.{kind}'}")[0] == 0
    written = [p for p in tmp_path.rglob("*") if p.is_file()]
    assert any(p.suffix == ".db" for p in written) and any(p.suffix == ".yaml" for p in written)
    contents = {path: path.read_bytes() for path in written}
    for value in (*SECRETS.values(), URL_PASSWORD):
        for form in forms(value):
            for text in printed:
                assert form not in text, form
            for path, data in contents.items():
                assert form.encode() not in data, (form, path)
    everything = "\n".join(printed)
    assert "backend refused token ***" in everything and "password ***" in everything
