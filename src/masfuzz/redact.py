"""Keep secrets out of everything masfuzz writes and prints: traces, stores, suites, reports,
recordings, errors.

A secret is a key masfuzz was handed, the value of any environment variable whose name contains
KEY, TOKEN, SECRET or PASSWORD (or that the user names with `--secret-env` / MASFUZZ_SECRET_ENV),
a bearer token or `Authorization` header, an `sk-...` key, or credentials in a URL
(`http://user:pass@host`, `?api_key=...`). Values are matched wherever they appear, so a key a
crashing tool printed to stderr, or echoed in an error, is masked like one in a header.

The places where data leaves masfuzz call this module: every trace as it leaves an executor
(`redact_trace`: events, payloads, errors, meta, stderr tails), model strings and configurations
before they are stored (`redact_model_string`, `redact_data`), and every line the command line
prints (the CLI's output streams go through `redact`). Code of the system under test running in
masfuzz's own process (`--executor inprocess`) may write to file descriptors 1 and 2 directly
(`os.write(2, ...)`, `sys.__stderr__`, a C library): while it runs, those descriptors are pipes
whose lines are masked on their way to where they pointed (`RedactingFds`).
"""

from __future__ import annotations

import functools
import html
import json
import os
import re
import threading
from urllib.parse import quote, quote_plus
from xml.sax.saxutils import escape as xml_escape
from typing import Any

SECRET_NAME = re.compile(r"KEY|TOKEN|SECRET|PASSWORD|PASSWD", re.IGNORECASE)
MIN_SECRET_CHARS = 6  # shorter values ("1", "true", "dev") would mask ordinary words
NOT_SECRETS = {"true", "false", "none", "null", "enabled", "disabled"}
_extra_names: set[str] = set()

# Every pattern runs in linear time on any input (a 10 MB model reply must not stall a run): a
# pattern may only start where its first word starts (a lookbehind), so the engine never rescans
# a long run of letters from every position in it, and a repetition that can run long and then
# fail (the URL's userinfo before its "@") is bounded. The token repetitions are not bounded:
# once their prefix matched they cannot fail, so each character is read once.
_PATTERNS = (
    (re.compile(r"(?i)(?<![a-z])(authorization[ \t]{0,8}[:=][ \t]{0,8})(bearer[ \t]{1,8})?[^\s'\",]+"),
     r"\1***"),
    (re.compile(r"(?i)(?<![a-z])(bearer[ \t]{1,8})[A-Za-z0-9._\-~+/]+={0,4}"), r"\1***"),
    (re.compile(r"\bsk-[A-Za-z0-9_\-*]{6,}"), "sk-***"),
    # userinfo in a URL: a scheme of at most 32 characters that starts a word, then up to 512
    # characters up to the "@"
    (re.compile(r"(?i)(?<![a-z0-9+.\-])([a-z][a-z0-9+.\-]{0,31}://)[^/@\s'\"<>]{1,512}@"), r"\1"),
    (re.compile(r"(?i)([?&](?:api[_-]?key|key|token|access_token|secret|password)=)[^&\s'\"<>]+"),
     r"\1***"),
)


def add_secret_names(names: Any) -> None:
    """More environment variables whose values are secrets (`--secret-env NAME`)."""
    for name in names or ():
        if name and str(name).strip():
            _extra_names.add(str(name).strip())


def secret_names() -> list[str]:
    # read afresh on every call (a variable set mid-run is masked from then on), but matched
    # against the patterns only when the names changed: a campaign asks this for every record,
    # and the scan was a third of the driver's CPU at 16 workers. The names are taken as the
    # environment keeps them (bytes on POSIX): decoding each one, every call, was most of what
    # was left
    keys = tuple(getattr(os.environ, "_data", os.environ))
    return list(_names(keys, os.environ.get("MASFUZZ_SECRET_ENV", ""), frozenset(_extra_names)))


@functools.lru_cache(maxsize=16)
def _names(keys: tuple[str | bytes, ...], extra: str, added: frozenset[str]) -> tuple[str, ...]:
    names = (os.fsdecode(k) for k in keys)
    return tuple(sorted({k for k in names if SECRET_NAME.search(k)} | added
                  | {n.strip() for n in extra.split(",") if n.strip()}))


def secret_values(extra: tuple[str | None, ...] = ()) -> list[str]:
    values = [os.environ.get(k, "") for k in secret_names()]
    values = [v for v in values if len(v) >= MIN_SECRET_CHARS and v.lower() not in NOT_SECRETS]
    values += [v for v in extra if v and len(v) >= 4]
    return _all_forms(tuple(sorted(set(values))))


@functools.lru_cache(maxsize=64)
def _all_forms(values: tuple[str, ...]) -> list[str]:
    """Longest first, so a secret is masked whole before a shorter one inside it."""
    return sorted({form for v in values for form in encodings(v)}, key=len, reverse=True)


def encodings(value: str) -> set[str]:
    """Every form a secret takes in what masfuzz writes: as is, JSON-escaped (once, and twice
    for JSON inside a JSON string; ASCII-only or not), each of those HTML/XML-escaped (quotes
    escaped or not, both apostrophe spellings: an HTML report shows JSON), and URL-encoded
    (path and form style)."""
    forms = {value}
    for _ in range(2):  # a trace payload holding JSON is escaped twice in the store
        forms |= {json.dumps(f, ensure_ascii=a)[1:-1] for f in forms for a in (True, False)}
    for f in list(forms):
        forms |= {html.escape(f), html.escape(f, quote=False), html.escape(f).replace("&#x27;", "&apos;"),
                  xml_escape(f, {'"': "&quot;", "'": "&apos;"})}
    forms |= {quote(value, safe=""), quote_plus(value, safe="")}
    return {f for f in forms if f}


def redact(text: str, *extra: str | None) -> str:
    """`text` with every known secret, in every encoding, replaced by `***`."""
    return _masked(text, secret_values(extra)) if text else text


def _masked(text: str, values: list[str]) -> str:
    for value in values:
        if value in text:
            text = text.replace(value, "***")
    for pattern, replacement in _PATTERNS:
        text = pattern.sub(replacement, text)
    return text


def redact_model_string(model: str | None) -> str | None:
    """A model string as it may be stored or shown: no URL credentials, no key in a query."""
    return None if model is None else redact(model)


def redact_data(data: Any, *extra: str | None) -> Any:
    """Every string inside a JSON-like value, redacted (configs, reports, suites, replies)."""
    # Every model reply a worker's run gets is redacted so (a fifth of the driver's CPU at 16
    # workers, string by string): the secrets are read once, and the value's strings are
    # searched once, joined by newlines, which no secret form or pattern match crosses; only a
    # value with something to mask is rebuilt string by string.
    values = secret_values(extra)
    strings: list[str] = []
    _strings(data, strings)
    joined = "\n".join(strings)
    if _masked(joined, values) == joined:
        return data
    return _data_masked(data, values)


def _strings(data: Any, out: list[str]) -> None:
    """The strings of `data` in order, appended to `out` (a generator at each level of a reply
    cost 1.7 times as much: every reply a run gets is searched, in its fork and in masfuzz's process)."""
    if isinstance(data, str):
        out.append(data)
    elif isinstance(data, dict):
        for k, v in data.items():
            _strings(k, out)
            _strings(v, out)
    elif isinstance(data, (list, tuple)):
        for v in data:
            _strings(v, out)


def _data_masked(data: Any, values: list[str]) -> Any:
    if isinstance(data, str):
        return _masked(data, values) if data else data
    if isinstance(data, dict):
        return {_data_masked(k, values) if isinstance(k, str) else k: _data_masked(v, values)
                for k, v in data.items()}
    if isinstance(data, (list, tuple)):
        return type(data)(_data_masked(v, values) for v in data)
    return data


def redact_trace(trace: Any) -> Any:
    """A `Trace` with every known secret masked wherever it appeared (events, payloads, errors,
    meta, stderr tails)."""
    text = trace.model_dump_json(by_alias=True)
    values = secret_values()
    clean = _masked(text, values)
    if clean == text:
        _CLEAN_JSON.append((trace, values, text))
        del _CLEAN_JSON[:-_CLEAN_KEPT]
        return trace
    try:
        return type(trace).model_validate_json(clean)
    except ValueError:  # masking broke the JSON (a secret inside an escape): mask field by field
        return type(trace).model_validate(redact_data(json.loads(text)))


# The JSON of the last traces `redact_trace` found clean, with the secrets' forms it was
# searched for: storing a trace right after its executor returned it needs neither a second dump
# nor a second search (`trace_json`). A trace is frozen: a changed one is another object.
_CLEAN_JSON: list[tuple[Any, list[str], str]] = []
_CLEAN_KEPT = 64  # traces in flight at once, and more


def trace_json(trace: Any) -> str:
    """A `Trace`'s JSON as it is stored, every known secret masked: the text `redact_trace`
    made of this very trace when no secret has changed since, else made and searched now."""
    values = secret_values()
    for kept, searched, text in reversed(_CLEAN_JSON):
        if kept is trace and searched is values:
            return text
    return _masked(trace.model_dump_json(by_alias=True), values)


class RedactingStream:
    """A text stream that masks secrets in everything written to it (the CLI's stdout/stderr)."""

    def __init__(self, stream: Any) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        self._stream.write(redact(text))
        return len(text)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


class RedactingFds:
    """While entered (re-entrant: concurrent runs share one), file descriptors 1 and 2 of this
    process are pipes; a thread each masks what arrives, line by line (a carriage return ends a
    line too, for progress bars), and writes it where the descriptor pointed before."""

    _lock = threading.Lock()
    _depth = 0
    _saved: list[tuple[int, int, int, threading.Thread]] = []  # (fd, its original, pipe writer, thread)

    def __enter__(self) -> "RedactingFds":
        with RedactingFds._lock:
            RedactingFds._depth += 1
            if RedactingFds._depth == 1:
                for fd in (1, 2):
                    try:
                        original = os.dup(fd)
                    except OSError:
                        continue  # closed: nothing to mask
                    _flush_python_streams()
                    read, write = os.pipe()
                    thread = threading.Thread(target=_forward, args=(read, original),
                                              name=f"masfuzz-redact-fd{fd}", daemon=True)
                    try:
                        thread.start()
                    except RuntimeError:  # a process limit refused the thread: left as it is
                        for end in (read, write, original):
                            os.close(end)
                        continue
                    os.dup2(write, fd)
                    RedactingFds._saved.append((fd, original, write, thread))
        return self

    def __exit__(self, *exc: object) -> None:
        with RedactingFds._lock:
            RedactingFds._depth -= 1
            if RedactingFds._depth:
                return
            saved, RedactingFds._saved = RedactingFds._saved, []
            _flush_python_streams()
            for fd, original, write, thread in saved:
                os.dup2(original, fd)  # the pipe's last writer is closed next (unless a child holds it)
                os.close(write)
                thread.join(2)  # a process the system left running may hold the pipe: not waited on
                if not thread.is_alive():
                    os.close(original)


def _flush_python_streams() -> None:
    """What Python buffered for fds 1 and 2 goes out before they change, in the order written."""
    import sys

    for stream in (sys.stdout, sys.stderr, sys.__stdout__, sys.__stderr__):
        try:
            if stream is not None:
                stream.flush()
        except (OSError, ValueError):
            pass


def _forward(read: int, out: int) -> None:
    """Copy `read` to `out` until end of file, each line masked (see `RedactingFds`)."""
    pending = b""
    with os.fdopen(read, "rb", buffering=0) as pipe:
        while chunk := pipe.read(65536):
            pending += chunk
            cut = max(pending.rfind(b"\n"), pending.rfind(b"\r")) + 1
            if cut:
                _write_all(out, pending[:cut])
                pending = pending[cut:]
            elif len(pending) > 1 << 20:  # a megabyte without a line end: masked as it is
                _write_all(out, pending)
                pending = b""
    if pending:
        _write_all(out, pending)


def _write_all(fd: int, data: bytes) -> None:
    text = redact(data.decode("utf-8", "surrogateescape"))
    view = memoryview(text.encode("utf-8", "surrogateescape"))
    try:
        while view:
            view = view[os.write(fd, view):]
    except OSError:
        pass  # the reader went away (a closed pipe): nothing more to show
