"""A scripted model that kills the process it runs in: the customer-service desk's policy,
except on a user message holding a mark.

- `HANG`: blocks this process's thread for an hour (what only killing the worker ends);
- `KILL-WORKER`: SIGKILL to this process (the system under test's worker process), every time;
- `LOSE-NODE-WORKER`: SIGKILL to this process's parent (under `--executor ray`, the Ray worker
  process running the task), every time;
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
        os.kill(os.getpid(), signal.SIGKILL)
    if "LOSE-NODE-WORKER-ONCE" in said:
        mark = Path(os.environ[FOLDER_ENV]) / "lost"
        if not mark.exists():
            mark.write_text(str(os.getppid()))
            os.kill(os.getppid(), signal.SIGKILL)
    elif "LOSE-NODE-WORKER" in said:
        os.kill(os.getppid(), signal.SIGKILL)
    return DESK(request)
