"""The zoo's music office (examples/zoo/lg_piano_exam_misroute.py) with another seeded wiring
defect: its router's table has the classifier's labels, but its two rows were swapped when the
agents were renumbered, so the right label ENTRY reaches a3, who books practice rooms and cannot
enter a pupil. The classifier did its job; the table is the defect."""

from __future__ import annotations

from examples.zoo.lg_piano_exam_misroute import build, fixed  # noqa: F401  (fixed: the twin)


def seeded():
    return build({"ENTRY": "a3", "ROOM": "a2"})
