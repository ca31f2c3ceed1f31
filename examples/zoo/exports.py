"""The export service both poll-loop systems (oa_poll_loop.py, lg_poll_loop.py) wrap as tools: a
job is READY on its second status poll. `normalise` is how a status poll turns the id it is given
into the key a job was stored under; the seeded systems lower-case it, and jobs are stored as
given, so their polls never find the job."""

from __future__ import annotations

from typing import Callable

POLLS_UNTIL_READY = 2


class Exports:
    def __init__(self, normalise: Callable[[str], str]) -> None:
        self.normalise = normalise
        self.polls: dict[str, int] = {}

    def start(self, report: str) -> str:
        job = f"JOB-{len(report)}"
        self.polls[job] = 0
        return f"Export of {report} started as job {job}."

    def status(self, job_id: str) -> str:
        key = self.normalise(job_id)
        if key not in self.polls:
            return f"Job {job_id}: PENDING."
        self.polls[key] += 1
        if self.polls[key] < POLLS_UNTIL_READY:
            return f"Job {job_id}: PENDING."
        return f"Job {job_id}: READY at https://files.example.com/{job_id}.csv"
