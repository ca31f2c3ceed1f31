"""The subprocess executor's worker: `python -m masfuzz.exec.worker`.

Protocol: one `ExecutionRequest` as JSON on stdin (target, scenario, model settings, timeout).
Answers on stdout, one JSON object per line:
  `{"ready": true, "system_id": ..., "framework": ...}` once the target is loaded (the parent
  starts the scenario's clock here, so interpreter start-up and framework import do not eat
  the scenario's time budget), then `{"trace": {...}}`; or `{"error": "..."}` when the target is
  bad input.
The system under test never writes to the protocol channel: file descriptor 1 is pointed at
stderr before the target is imported, so its prints (and its children's) cannot corrupt it.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
from typing import Any, TextIO

from masfuzz.errors import MasfuzzError


def _claim_stdout() -> TextIO:
    proto = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    return proto


def _send(proto: TextIO, message: dict[str, Any]) -> None:
    proto.write(json.dumps(message) + "\n")
    proto.flush()


def main() -> int:
    proto = _claim_stdout()
    from masfuzz.exec.request import ExecutionRequest  # after the stdout switch: imports may print
    from masfuzz.llm import settings

    try:
        request = ExecutionRequest.from_data(json.loads(sys.stdin.read()))
        system = request.target.open()
    except MasfuzzError as exc:
        _send(proto, {"error": str(exc)})
        return 0
    _send(proto, {"ready": True, "system_id": system.spec.system.id,
                  "framework": system.spec.system.framework})
    try:
        with settings.use(request.models):  # the parent's model settings, in force here
            trace = asyncio.run(system.run(request.scenario))
    except MasfuzzError as exc:
        _send(proto, {"error": str(exc)})
        return 0
    _send(proto, {"trace": trace.model_dump(mode="json", by_alias=True)})
    return 0


if __name__ == "__main__":
    status = main()
    sys.stderr.flush()
    # Skip interpreter shutdown: frameworks leave non-daemon threads (trace exporters, HTTP
    # pools) that would keep the worker alive after it has answered.
    os._exit(status)
