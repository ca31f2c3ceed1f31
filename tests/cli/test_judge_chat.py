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
    code, out, err = _judge(cli, tmp_path, "--chat", log, "--format", "json")
    [judged] = json.loads(out)["judged"]["logs"]
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
    assert "attribution: agent WebSurfer, step 3" in out  # its failed search: what it answered from
    code, out, _ = _judge(cli, tmp_path, "--chat", log, "--expected", "two", "--format", "json")
    [judged] = json.loads(out)["judged"]["logs"]
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
    assert lines[1].endswith("b_magentic.json: magentic-one, failure, agent WebSurfer, step 3")
    assert lines[2].endswith("c_clean.json: ag2, failure, agent greeter, step 1")  # "Hello!" is not 12
    assert lines[3] == "3 log(s): 3 with a failure, 0 without"
    assert "skipped" in err and "notes.json" in err


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
