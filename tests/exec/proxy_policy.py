"""A scripted model that says which process answered it (`answered in process N`), and fails
on a user message holding `FAIL`: the worker's model calls are masfuzz's to make
(`masfuzz.llm.proxy`).

    --sut-model scripted/tests/exec/proxy_policy.py:policy
"""

import os

from masfuzz.llm.scripted import last_user_text, say


def policy(request):
    if "FAIL" in last_user_text(request):
        raise RuntimeError("the model is down")
    return say(f"answered in process {os.getpid()} for {request.agent}")
