"""Who and when on imported logs: the decisive step of a run that went on from a failure, a
final answer given before a closing courtesy, and the importer's reading of users and
hand-backs. Each log is small and of its own wording; what is checked is the class: the turn
that answered around a recoverable failure, not the words of one log."""

from __future__ import annotations

from masfuzz.adapters.transcript import read
from masfuzz.judging import judge_log

FAILED_FETCH = ("exitcode: 1 (execution failed)\nCode output: Traceback (most recent call last):\n"
                "  File \"fetch.py\", line 2, in <module>\n    import requests\n"
                "ModuleNotFoundError: No module named 'requests'")
FETCH = "```python\nimport requests\nr = requests.get('https://api.example.org/tides')\nprint(r.json()['high'])\n```"


def _group(*said, truth="4.71"):
    return read({"groupchat": {"messages": [
        {"role": "user", "name": "Admin", "content": "How high is tomorrow's high tide at the pier, in metres? "
                                                     "Fetch it from the tide API."},
        *({"role": "user", "name": n, "content": c} for n, c in said)]}, "ground_truth": truth})


def test_a_turn_that_says_the_run_failed_and_invents_the_data_is_the_decisive_step():
    log = _group(
        ("Hydrologist", FETCH),
        ("Terminal", FAILED_FETCH),
        ("Hydrologist", "The request could not run because the requests package is missing. To keep moving "
                        "I will assume a plausible reading instead:\n```python\nhigh = 3.25\nprint(high)\n```"),
        ("Terminal", "exitcode: 0 (execution succeeded)\nCode output: 3.25"),
        ("Skipper", "High tide tomorrow is 3.25 m. TERMINATE"))
    blame = judge_log(log)[0]["attribution"]
    # message 3, the made-up reading, not the failed fetch at 1
    assert (blame["agent"], blame["step_ref"]) == ("Hydrologist", "3"), blame


def test_a_turn_that_answers_as_if_nothing_failed_leaves_the_failed_call_decisive():
    # the same run, but the author never says a word of the failure: its call is where the
    # result was lost (the labelled transcripts' "code that fails and is not fixed")
    log = _group(
        ("Hydrologist", FETCH),
        ("Terminal", FAILED_FETCH),
        ("Hydrologist", "High tide tomorrow at the pier is 3.25 m."),
        ("Skipper", "Thanks. TERMINATE"))
    blame = judge_log(log)[0]["attribution"]
    assert (blame["agent"], blame["step_ref"]) == ("Hydrologist", "1"), blame


def test_failed_code_sent_again_unchanged_is_decided_at_the_first_retry():
    broken = "```python\nvals = [3, 1, 2]\nprint(vals[3])\n```"
    crash = ("exitcode: 1 (execution failed)\nCode output: Traceback (most recent call last):\n"
             "IndexError: list index out of range")
    said = [("Sorter", "Here it is:\n" + broken), ("Box", crash)]
    for n in range(3):
        said += [("Checker", f"Run {n + 1} raised IndexError again; index the last element properly."),
                 ("Sorter", "You're right, I changed it:\n" + broken), ("Box", crash)]
    log = read({"groupchat": {"max_round": len(said) + 1, "messages": [
        {"role": "user", "name": "Admin", "content": "Print the largest of 3, 1, 2 with code."},
        *({"role": "user", "name": n, "content": c} for n, c in said)]}})
    blame = judge_log(log)[0]["attribution"]
    # message 1 is the first run (its error said what to fix), 3 the checker, 4 the first
    # unchanged resubmission: where the coder stopped acting on the error
    assert (blame["agent"], blame["step_ref"]) == ("Sorter", "4"), blame
