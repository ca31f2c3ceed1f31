"""One scripted tester for every FLARE role in a `masfuzz fuzz` run, dispatched on who asks
(`request.agent`), as one real tester model would be asked: the Specification Agent reads the
stages from the selector's instructions, the failure agent reports one real violation and one
quoting text nobody said (the judge keeps the first), the Space Agent splits tool tasks, the mapper maps turns to behaviours."""

import time

from tests.fuzz import flare_testers
from tests.oracles import oracle_testers

_MAPPER = flare_testers.mapper()


def policy(request):
    if request.agent == "specification-agent":
        return flare_testers.reader(request)
    if request.agent in ("failure-agent", "judge-agent"):
        return oracle_testers.reporter(request)
    if request.agent == "space-agent":
        return flare_testers.splitter(request)
    if request.agent == "behaviour-mapper":
        return _MAPPER(request)
    raise AssertionError(f"unexpected tester role {request.agent!r}")


def slow(request):
    """`policy`, each call blocking briefly (its thread, not the event loop), as a remote
    model's would: what runs meanwhile shows whether the campaign waits on it."""
    time.sleep(0.02)
    return policy(request)
