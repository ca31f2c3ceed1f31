"""The worker's answers, sealed: a frame the system under test cannot forge for another run.

A pool worker (`masfuzz.exec.worker`) answers on a pipe, one JSON line per message (the ready
note, the trace's events, the model calls it asks masfuzz to make, the trace). The system under
test runs in the same process as the code that writes those lines (the adapters record the run
where it happens), so the pipe is one of its open descriptors: a tool that writes a line of
masfuzz's protocol onto every descriptor (or a program it starts, through /proc/self/fd) would
make masfuzz record a trace or a model call of its choosing, and could write the answer to the
*next* run ahead of time. So every line is sealed with a key masfuzz gives with each request
(`KEY_FIELD`), never in the environment nor on a descriptor the system can read (the worker
closes the request pipe in the process that runs it): a line without the key's seal is not the
worker's, and is dropped (`Opener`). What the system's own code could still do is read the key
from the memory of the process it runs in and forge the answer of its *own* run, as it could
patch the recorder itself; the key changes with each request, so no run can answer for another.

A frame: `\\x1e`, the seal (HMAC-SHA256 of the line, 32 hex digits), the JSON line, a newline.
JSON escapes every control character inside a string, so `\\x1e` starts a frame and nothing else
of the worker's: bytes written before it on the same line (a write that did not end its line)
are dropped with the forgery, and the frame after them still opens.
"""

from __future__ import annotations

import hmac
import secrets

KEY_FIELD = "channel_key"  # in each request line the pool sends: the key its answers are sealed with
MARK = b"\x1e"
_SEAL = 32  # hex digits of the seal


def new_key() -> str:
    return secrets.token_hex(16)


def _seal(key: bytes, payload: bytes) -> bytes:
    # the one-shot digest: no HMAC object per line (a run seals one for each of its events)
    return hmac.digest(key, payload, "sha256").hex()[:_SEAL].encode()


def seal(key: bytes, payload: bytes) -> bytes:
    """`payload` (one JSON line, no newline) as a frame sealed with `key`."""
    return MARK + _seal(key, payload) + payload + b"\n"


class Opener:
    """The pool's side: the payload of each line sealed with the current request's key; a line
    that is not (the system's writing) is counted and dropped, and a late line of the request
    before (sealed with the key before) dropped silently."""

    def __init__(self, key: bytes = b"") -> None:
        self.key, self.previous = key, b""
        self.forged = 0
        self.first_forged = ""

    def rekey(self, key: str) -> None:
        self.previous, self.key = self.key, key.encode()
        self.forged, self.first_forged = 0, ""

    def open(self, line: bytes) -> bytes | None:
        """The payload of `line` (end of input: b"" as it is), None when it is to be dropped."""
        if not line:
            return line
        at = line.rfind(MARK)
        frame = line[at + 1:].rstrip(b"\n") if at >= 0 else b""
        tag, payload = frame[:_SEAL], frame[_SEAL:]
        for key in (self.key, *([self.previous] if self.previous else [])):
            if len(tag) == _SEAL and hmac.compare_digest(tag, _seal(key, payload)):
                if at > 0:  # a write of the system's that did not end its line, then this frame
                    self._note(line[:at])
                return payload if key == self.key else None
        self._note(line)
        return None

    def _note(self, forged: bytes) -> None:
        self.forged += 1
        if not self.first_forged:
            self.first_forged = forged[:120].decode("utf-8", "replace")

    def meta(self) -> dict[str, object]:
        """What the trace says of the lines dropped in this request (nothing when none)."""
        if not self.forged:
            return {}
        return {FORGED: {"lines": self.forged, "first": self.first_forged,
                         "says": "lines written onto masfuzz's channel with the worker that the worker did "
                                 "not seal (the system's code wrote them): dropped, not recorded"}}


FORGED = "channel_forged"  # trace.meta: the lines an `Opener` dropped


def last_sealed(key: bytes, data: bytes) -> bytes | None:
    """The payload of the last line of `data` (JSON lines) sealed with `key`; None when none is:
    what else a pipe holds, before or after it, its other writers wrote."""
    opener = Opener(key)
    for line in reversed(data.split(b"\n")):
        if line and (payload := opener.open(line + b"\n")):
            return payload
    return None
