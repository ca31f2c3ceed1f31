"""Systems whose check is code an agent writes and an executor of the app runs (`--run-code`),
for `test_code_run_reports.py`: the executor's report ("exitcode: 1 (execution failed)") reaches
the author as a message, not as a tool's answer.

A cycling club's bike-hire desk checks that a rider's frame size fits the bike asked for. The
checker works the fit out in Python; the executor runs it. The rider writes the inseam with a
decimal comma ("inseam: 81,5 cm"), which the code cannot compare with a number, so the run fails.

`ag2_seeded`: the checker's instructions close on "the fit check passed" whatever the run did.
`ag2_fixed`: they say what to answer when the code fails. Both run under the zoo's policy_z.
"""

from __future__ import annotations

import tempfile

import autogen
from autogen.coding import LocalCommandLineCodeExecutor

from examples.zoo.models import ag2_config

CHECK = "In Python, work out `fits = inseam * 0.67 <= 56`, the frame of the hire bike being 56 cm."
PASSED = 'Reply "Done, the fit check passed: the 56 cm hire bike is yours for Saturday."'
FAILED = 'If the code fails, say "I could not check the fit from the inseam given; please send it in whole cm."'


def _ag2(instructions: str):
    with tempfile.TemporaryDirectory(prefix="bike-fit-") as folder:
        checker = autogen.AssistantAgent("fit_checker", llm_config=ag2_config(),
                                         system_message="You check bike fits for the club's hire desk.\n"
                                         + instructions)
        desk = autogen.UserProxyAgent(
            "hire_desk", human_input_mode="NEVER", default_auto_reply="",
            code_execution_config={"executor": LocalCommandLineCodeExecutor(timeout=30, work_dir=folder)})
        return desk.initiate_chat(checker, message=TASK, max_turns=2)


TASK = "Can I hire the 56 cm road bike on Saturday? My inseam: 81,5 cm."


def ag2_seeded():
    return _ag2(f"{CHECK}\n{PASSED}")


def ag2_fixed():
    return _ag2(f"{CHECK}\n{FAILED}\n{PASSED}")
