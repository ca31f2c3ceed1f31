"""A scripted model that kills the processes running the system under test: the
customer-service desk's policy, except on a user message holding a mark. A scripted model runs
in the process that started the system's worker (the model proxy, `masfuzz.llm.proxy`): under
`--executor ray`, the Ray worker process (the actor) running the task.

- `HANG`: blocks its thread for an hour (what only killing the worker ends);
- `KILL-WORKER`: SIGKILL to the system under test's worker process (this process's child
  running `masfuzz.exec.worker`) and the processes of its group, every time;
- `LOSE-NODE-WORKER`: SIGKILL to this process (the Ray worker process), every time;
- `LOSE-NODE-WORKER-ONCE`: the same, once per folder named by KILLING_POLICY_DIR (a file there
  says it happened); later runs answer as the desk does.

    --sut-model scripted/tests/exec/killing_policy.py:policy
"""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

from masfuzz.loader import load_target

DESK = load_target(f"{Path(__file__).resolve().parents[2]}/examples/customer_service/policy.py:policy").obj
FOLDER_ENV = "KILLING_POLICY_DIR"


def policy(request):
    said = " ".join(m.content or "" for m in request.messages if m.role == "user")
    if "HANG" in said:
        time.sleep(3600)
    if "KILL-WORKER" in said:
        for pid in _workers():
            # its whole group at once: a sandboxed worker serves from a process inside its
            # namespaces, which would otherwise go on (and stream events) for a moment
            try:
                os.killpg(pid, signal.SIGKILL)
            except OSError:
                os.kill(pid, signal.SIGKILL)
    if "LOSE-NODE-WORKER-ONCE" in said:
        mark = Path(os.environ[FOLDER_ENV]) / "lost"
        if not mark.exists():
            mark.write_text(str(os.getpid()))
            os.kill(os.getpid(), signal.SIGKILL)
    elif "LOSE-NODE-WORKER" in said:
        os.kill(os.getpid(), signal.SIGKILL)
    return DESK(request)


def _workers() -> list[int]:
    """This process's children that are masfuzz workers."""
    pids = []
    for task in Path(f"/proc/{os.getpid()}/task").iterdir():
        for pid in (task / "children").read_text().split():
            try:
                if b"masfuzz.exec.worker" in Path(f"/proc/{pid}/cmdline").read_bytes():
                    pids.append(int(pid))
            except OSError:
                continue
    return pids
