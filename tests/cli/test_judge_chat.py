"""`masfuzz judge --chat FILE|DIR`: chat transcripts judged, with the agent most responsible and
the decisive step of each, as the user's log numbers it."""

from __future__ import annotations

import json

TERMINAL_IDLE = ("There is no code from the last 1 message for me to execute. Group chat manager "
                 "should let other participants to continue the conversation. If the group chat "
                 "manager want to end the conversation, you should let other participant reply me "
                 "only with \"TERMINATE\"")

AG2_GROUP = {"max_round": 7, "groupchat": {"messages": [
    {"content": "Count the rows of data.csv with price > 10.", "role": "user", "name": "user_proxy"},
    {"content": "Plan: DataAnalyst loads the file and filters it.", "role": "user", "name": "Planner"},
    {"content": "```python\nimport pandas as pd\ndf = pd.read_csv('data.csv')\nprint((df.Price > 10).sum())\n```",
     "role": "user", "name": "DataAnalyst"},
    {"content": "exitcode: 1 (execution failed)\nCode output: KeyError: 'Price'", "role": "user",
     "name": "Computer_terminal"},
    {"content": "The column is probably missing; the count is likely 12.", "role": "user", "name": "DataAnalyst"},
    {"content": TERMINAL_IDLE, "role": "user", "name": "Computer_terminal"},
    {"content": "Let us double-check before we finish.", "role": "user", "name": "Planner"}]}}

MAGENTIC = {"messages": [
    {"source": "user", "type": "TextMessage", "content": "How many moons does Mars have?"},
    {"source": "MagenticOneOrchestrator", "type": "TextMessage", "content": "Plan: WebSurfer looks it up."},
    {"source": "MagenticOneOrchestrator", "type": "TextMessage", "content": "WebSurfer, search how many moons Mars has."},
    {"source": "WebSurfer", "type": "ToolCallRequestEvent",
     "content": [{"id": "s1", "name": "web_search", "arguments": "{\"query\": \"Mars moons\"}"}]},
    {"source": "WebSurfer", "type": "ToolCallExecutionEvent",
     "content": [{"call_id": "s1", "content": "Error: rate limited", "is_error": True}]},
    {"source": "WebSurfer", "type": "TextMessage", "content": "The search failed; from memory Mars has 3 moons."},
    {"source": "MagenticOneOrchestrator", "type": "TextMessage", "content": "FINAL ANSWER: 3"}]}

CLEAN = [{"content": "Say hello.", "role": "user", "name": "user"},
         {"content": "Hello! TERMINATE", "role": "assistant", "name": "greeter"}]


def _write(tmp_path, name, data):
    path = tmp_path / name
    path.write_text(json.dumps(data))
    return str(path)


def _judge(cli, tmp_path, *args):
    return cli("judge", *args, "--store", str(tmp_path / "runs.db"))


def test_an_ag2_group_chat_blames_the_code_that_failed_not_the_terminals_boilerplate(cli, tmp_path):
    log = _write(tmp_path, "ag2.json", AG2_GROUP)
    code, out, err = _judge(cli, tmp_path, "--chat", log)
    assert code == 0, err
    assert "ag2 transcript, failure" in out
    assert "attribution: agent DataAnalyst, step 2" in out
    assert "Termination Condition Violation" not in out  # the terminal's sentence is no announcement
    # what the log shows, not the coverage of the workflow derived from the log itself
    assert "seen: 3 agent(s): Planner, DataAnalyst, Computer_terminal" in out, out
    assert "  delegations: Planner -> DataAnalyst, DataAnalyst -> Computer_terminal, " in out
    assert "coverage" not in out and "C3" not in out and "obligations" not in out
    assert out.count("KeyError") == 0 and out.count("[agent_task_execution") <= 1  # each finding once
    code, out, err = _judge(cli, tmp_path, "--chat", log, "--format", "json")
    data = json.loads(out)
    assert "coverage" not in data and "structure" not in data
    assert data["seen"]["agents"] == ["Planner", "DataAnalyst", "Computer_terminal"]
    assert ["Planner", "DataAnalyst"] in data["seen"]["delegations"]
    assert data["seen"]["tools"] == ["code_execution"]
    assert data["run"]["command"] == "judge" and data["failures"] and data["rejected_proposals"] == []
    [judged] = data["judged"]["logs"]
    assert judged["format"] == "ag2" and judged["attribution"]["agent"] == "DataAnalyst"
    assert judged["attribution"]["step_ref"] == "2"
    [failure] = [f for f in judged["failures"] if f["detector"] == "missing_termination"]
    assert failure["root_cause"] == "Max Round Limit Exceeded"


def test_a_magentic_one_log_names_the_agent_and_step_of_the_wrong_answer(cli, tmp_path):
    log = _write(tmp_path, "m1.json", MAGENTIC)
    code, out, err = _judge(cli, tmp_path, "--chat", log)
    assert code == 0, err
    assert "magentic-one transcript, no failure found" in out  # the search error was recovered from
    code, out, err = _judge(cli, tmp_path, "--chat", log, "--expected", "2")
    assert "magentic-one transcript, failure" in out
    # its failed search was recoverable (a rate limit); the turn that said so and answered from
    # memory anyway is where the run went wrong
    assert "attribution: agent WebSurfer, step 5" in out
    code, out, _ = _judge(cli, tmp_path, "--chat", log, "--expected", "two", "--format", "json")
    [judged] = json.loads(out)["judged"]["logs"]
    # what the log cannot show is said, named by the input it is about: no stop word, no bound
    notes = json.loads(out)["notes"]
    assert [n for n in notes if n.startswith("judge --chat: ") and "does not say how its run ended" in n]
    assert not [n for n in notes if "--otel" in n]
    wrong = [f for f in judged["failures"] if f["detector"] == "expected_answer"]
    assert wrong and wrong[0]["agent"] == "WebSurfer" and wrong[0]["step_ref"] == "5"
    code, out, _ = _judge(cli, tmp_path, "--chat", log, "--expected", "3", "--format", "json")
    assert json.loads(out)["failures"] == []


def test_no_failure_is_an_empty_failures_list_in_json(cli, tmp_path):
    code, out, err = _judge(cli, tmp_path, "--chat", _write(tmp_path, "clean.json", CLEAN), "--format", "json")
    assert code == 0, err
    data = json.loads(out)
    assert data["failures"] == []
    [judged] = data["judged"]["logs"]
    assert judged["verdict"] == "no failure found" and judged["attribution"] is None
    assert judged["failures"] == [] and judged["rejected_proposals"] == []
    assert data["rejected_proposals"] == []


def test_a_folder_is_judged_log_by_log_with_one_summary(cli, tmp_path):
    logs = tmp_path / "logs"
    logs.mkdir()
    _write(logs, "a_ag2.json", AG2_GROUP)
    _write(logs, "b_magentic.json", MAGENTIC)
    _write(logs, "c_clean.json", CLEAN)
    _write(logs, "notes.json", {"what": "not a log"})
    code, out, err = _judge(cli, tmp_path, "--chat", str(logs), "--expected", "12")
    assert code == 0, err
    lines = out.strip().splitlines()
    assert lines[0].endswith("a_ag2.json: ag2, failure, agent DataAnalyst, step 2")
    assert lines[1].endswith("b_magentic.json: magentic-one, failure, agent WebSurfer, step 5")
    assert lines[2].endswith("c_clean.json: ag2, failure, agent greeter, step 1")  # "Hello!" is not 12
    assert lines[3] == "3 log(s): 3 with a failure, 0 without"
    assert "skipped" in err and "notes.json" in err
    # a report by default (exit 0, as exec and fuzz); --fail-on makes a failure the exit status
    code, _, err = _judge(cli, tmp_path, "--chat", str(logs), "--expected", "12", "--fail-on", "any")
    assert code == 1 and "--fail-on any: the system under test has" in err, err


def test_a_file_that_is_no_transcript_is_one_line_and_exit_2(cli, tmp_path):
    code, _, err = _judge(cli, tmp_path, "--chat", _write(tmp_path, "x.json", {"what": 1}))
    assert code == 2 and len(err.strip().splitlines()) == 1 and "not a chat transcript" in err
    code, _, err = _judge(cli, tmp_path, "--chat", str(tmp_path / "missing.json"))
    assert code == 2 and len(err.strip().splitlines()) == 1


def test_model_runs_flares_failure_and_judge_agents_on_the_log_told_the_expected_answer(cli, tmp_path):
    log = _write(tmp_path, "m1.json", MAGENTIC)
    tester = "scripted/tests/cli/answer_tester.py:policy"
    code, out, err = _judge(cli, tmp_path, "--chat", log, "--model", tester, "--no-cache", "--format", "json")
    assert code == 0, err
    [judged] = json.loads(out)["judged"]["logs"]
    assert [f for f in judged["failures"] if f["detector"] == "failure_agent"] == []  # nothing to compare with
    code, out, err = _judge(cli, tmp_path, "--chat", log, "--model", tester, "--no-cache", "--expected", "2",
                            "--format", "json")
    assert code == 0, err
    [judged] = json.loads(out)["judged"]["logs"]
    # the failure agent found the wrong answer the answer check found: one fault, one failure
    [agents] = [f for f in judged["failures"] if "failure_agent" in f["found_by"]]
    assert set(agents["found_by"]) == {"failure_agent", "expected_answer"} and len(judged["failures"]) == 1
    assert agents["agent"] == "WebSurfer" and agents["step_ref"] == "5"
    assert agents["clause"] == "task::WebSurfer::answer"


def test_otel_spans_get_who_and_when_named_by_their_span_ids(cli, tmp_path):
    from masfuzz.adapters import otel
    from masfuzz.adapters.transcript import read

    spans = tmp_path / "spans.json"
    otel.write(read(AG2_GROUP).trace, spans)
    code, out, err = _judge(cli, tmp_path, "--otel", str(spans), "--format", "json")
    assert code == 0, err
    [judged] = json.loads(out)["judged"]["logs"]
    blame = judged["attribution"]
    assert judged["format"] == "otel" and blame["agent"] == "DataAnalyst"
    document = json.loads(spans.read_text())
    ids = {s["spanId"] for rs in document["resourceSpans"] for ss in rs["scopeSpans"] for s in ss["spans"]}
    assert blame["step_ref"] in ids  # the code_execution call's span, as the user's spans name it


def test_a_folder_of_labelled_benchmark_dumps_names_agent_and_step_and_checks_their_answers(cli, tmp_path):
    """Dumps that keep the task's answer (`ground_truth`, as benchmark logs do) are checked
    against it: the wrong one is blamed on the code that printed the value, the right one is
    clean with `"failures": []`."""
    logs = tmp_path / "logs"
    logs.mkdir()
    _write(logs, "code.json", {"ground_truth": "5", "history": [
        {"name": "Lead", "role": "assistant", "content": "Task: count the late orders in orders.csv."},
        {"name": "Coder", "role": "user", "content": "```python\nprint(2)\n```"},
        {"name": "Runner", "role": "user", "content": "exitcode: 0 (execution succeeded)\nCode output: 2"},
        {"name": "Checker", "role": "user", "content": "Verified: 2 orders were late. TERMINATE"},
        {"name": "Runner", "role": "user", "content": TERMINAL_IDLE}]})
    _write(logs, "team.json", {"ground_truth": "Elm Road", "history": [
        {"role": "human", "content": "On which street does the Harbor Bridge start?"},
        {"role": "Orchestrator (-> WebSurfer)", "content": "Please look the bridge up."},
        {"role": "WebSurfer", "content": "The city's page says it starts at Elm Road."},
        {"role": "Orchestrator (termination condition)", "content": "FINAL ANSWER: Elm Road"}]})
    code, out, err = _judge(cli, tmp_path, "--chat", str(logs))
    assert code == 0, err
    assert out.strip().splitlines() == [
        f"{logs / 'code.json'}: ag2, failure, agent Coder, step 1",
        f"{logs / 'team.json'}: magentic-one, no failure found",
        "2 log(s): 1 with a failure, 1 without"]
    code, out, err = _judge(cli, tmp_path, "--chat", str(logs), "--format", "json")
    wrong, right = json.loads(out)["judged"]["logs"]
    assert (wrong["attribution"]["agent"], wrong["attribution"]["step_ref"]) == ("Coder", "1")
    assert "the code Coder wrote at message 1 printed it first" in wrong["attribution"]["why"]
    assert right["attribution"] is None and right["failures"] == [] and right["expected"] == "Elm Road"


def test_bench_attribution_scores_who_when_shaped_logs_per_subset_and_half(tmp_path):
    """`bench/bench_attribution.py --who-when DIR`: the dataset's layout (a folder per subset of
    N.json with `history`, `mistake_agent`, `mistake_step`, `ground_truth`), odd and even files
    scored apart, each against the random pick, an agent's name whatever its case; a folder
    without it is one line and exit 2."""
    import os
    import subprocess
    import sys

    from tests.conftest import ROOT

    code_log = {"ground_truth": "5", "mistake_agent": "Coder", "mistake_step": "1", "history": [
        {"name": "Lead", "role": "assistant", "content": "Task: count the late orders."},
        {"name": "Coder", "role": "user", "content": "```python\nprint(2)\n```"},
        {"name": "Runner", "role": "user", "content": "exitcode: 0 (execution succeeded)\nCode output: 2"},
        {"name": "Checker", "role": "user", "content": "Verified: 2 orders were late. TERMINATE"}]}
    subset = tmp_path / "Algorithm-Generated"
    subset.mkdir()
    _write(subset, "1.json", code_log)
    _write(subset, "2.json", {**code_log, "mistake_agent": "Checker", "mistake_step": "3"})
    _write(subset, "3.json", {**code_log, "mistake_agent": "coder"})  # a label's case is no other agent
    bench = [sys.executable, str(ROOT / "bench" / "bench_attribution.py"), "--who-when"]
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    # --each: a line per log too (to study the misses), the summary as without it
    out = subprocess.run([*bench, str(tmp_path), "--each"], capture_output=True, text=True, env=env,
                         check=True).stdout
    dev = next(ln for ln in out.splitlines() if ln.startswith("Algorithm-Generated odd"))
    held = next(ln for ln in out.splitlines() if ln.startswith("Algorithm-Generated even"))
    # one log each; agent, step, step+-1, none, then the random pick: 4 agents spoke, 4 messages
    assert dev.split()[3:8] == ["2", "100%", "100%", "100%", "0"] and dev.split()[8:] == ["25%", "25%", "75%"]
    assert held.split()[4:9] == ["1", "0%", "0%", "0%", "0"]  # "even (held out)": one word more
    assert "Checker" in out and "named in 0/1; instead: Coder 1" in out
    assert "Algo    2  label Checker @ 3    masfuzz Coder @ 1: " in out
    bad = subprocess.run([*bench, str(tmp_path / "Algorithm-Generated")], capture_output=True, text=True, env=env)
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1
