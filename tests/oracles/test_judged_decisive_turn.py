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


def _pair(*said, truth):
    """An AG2 two-agent chat: the asker opens it with the user's task (the initiator's opening),
    the two speak in turn."""
    return read({"chat_history": [{"role": "assistant" if k % 2 == 0 else "user", "name": n, "content": c}
                                  for k, (n, c) in enumerate(said)], "max_turns": len(said) // 2,
                 "ground_truth": truth})


def test_a_closing_courtesy_is_no_final_answer_and_a_chat_of_courtesies_is_blamed_on_the_answer():
    log = _pair(("asker", "How many minutes are there in 3.5 hours?"),
                ("calc", "3.5 h x 60 = 210 minutes."),
                ("asker", "Great, thanks a lot!"),
                ("calc", "Happy to help! Feel free to ask if anything else comes up."),
                ("asker", "Cheers, have a good evening."),
                ("calc", "You too! Goodbye."),
                ("asker", "Bye!"),
                ("calc", "Take care!"), truth="210")
    section, failures = judge_log(log)
    # the answer is the last message that says something of the task: right, so no wrong answer
    assert not [f for f in failures if f.detector == "expected_answer"], failures
    # the chat went round on courtesies past the done task: where it could have ended is the answer
    blame = section["attribution"]
    assert (blame["agent"], blame["step_ref"]) == ("calc", "1"), blame
    # the same chat whose answer is wrong: still traced to that answer, not to a farewell
    wrong = _pair(*[(n, c.replace("210", "190")) for n, c in
                    [("asker", "How many minutes are there in 3.5 hours?"), ("calc", "3.5 h x 60 = 210 minutes."),
                     ("asker", "Great, thanks a lot!"), ("calc", "You're welcome. Bye for now!")]], truth="210")
    [f] = [f for f in judge_log(wrong)[1] if f.detector == "expected_answer"]
    assert (f.agent, f.step_ref) == ("calc", "1") and "190" in f.description


def test_only_courtesy_reads_every_sentence():
    from masfuzz.oracles.wording import only_courtesy

    assert only_courtesy("Thanks so much! Take care.") and only_courtesy("Will do. Thank you!")
    assert not only_courtesy("Thanks! The invoice total is 310 EUR.")  # a sentence of the task
    assert not only_courtesy("Thank you, 42 it is.")  # a value, however polite
    assert not only_courtesy("I will do the migration tonight.") and not only_courtesy("Lisbon.")


def test_magentic_ones_user_proxy_is_the_user_and_a_supervisors_hand_back_is_a_hand_over(tmp_path):
    import json

    from masfuzz.adapters.transcript import load
    from masfuzz.trace import AgentTurn, DelegationEvent, Message, ToolCall, said_by_user

    lines = [{"source": "UserProxy", "message": "Which planet has the most moons?", "type": "OrchestrationEvent"},
             {"source": "Orchestrator (-> Assistant)", "message": "Assistant, answer from what you know.",
              "type": "OrchestrationEvent"},
             {"source": "Assistant", "message": "Saturn, with 146 confirmed moons.", "type": "OrchestrationEvent"}]
    (tmp_path / "log.jsonl").write_text("\n".join(json.dumps(x) for x in lines))
    trace = load(tmp_path / "log.jsonl").trace
    assert {e.agent for e in trace.events if isinstance(e, AgentTurn)} == {"Orchestrator", "Assistant"}
    assert [e.content for e in trace.events if said_by_user(e)] == ["Which planet has the most moons?"]
    assert ("UserProxy", "Orchestrator") not in {(d.from_, d.to) for d in trace.events if isinstance(d, DelegationEvent)}

    state = {"messages": [
        {"type": "human", "content": "Book a table for two."},
        {"type": "ai", "name": "boss", "content": "", "tool_calls": [
            {"name": "transfer_to_booker", "args": {"task_description": "Book a table for two."}, "id": "h1"}]},
        {"type": "tool", "name": "transfer_to_booker", "content": "Successfully transferred to booker", "tool_call_id": "h1"},
        {"type": "ai", "name": "booker", "content": "Booked for 19:00."},
        {"type": "ai", "name": "booker", "content": "", "tool_calls": [
            {"name": "transfer_back_to_boss", "args": {}, "id": "h2"}]},
        {"type": "tool", "name": "transfer_back_to_boss", "content": "Successfully transferred back to boss",
         "tool_call_id": "h2"},
        {"type": "ai", "name": "boss", "content": "Your table for two is booked at 19:00."}]}
    trace = read(state).trace
    assert not [e for e in trace.events if isinstance(e, ToolCall)]  # no tool called, only hand-overs
    assert [(d.from_, d.to) for d in trace.events if isinstance(d, DelegationEvent)] == [("boss", "booker"), ("booker", "boss")]
    assert not [e for e in trace.events if isinstance(e, Message) and "transferred" in e.content]


def _surfed(instruction, typed):
    page = ("Automatic OCR of the page screenshot has detected the following text:\n\n"
            "Spain coastline - the mainland coastline runs for 4,964 km.\n"
            "Spain-Portugal border - the frontier between the two countries is 1,214 km long.\n")
    return read({"history": [
        {"role": "human", "content": "How long, in kilometres, is the border between Spain and Portugal?"},
        {"role": "Orchestrator (thought)", "content": f"Next: WebSurfer. {instruction}"},
        {"role": "Orchestrator (-> WebSurfer)", "content": instruction},
        {"role": "WebSurfer", "content": f"I typed '{typed}' into the search bar.\n\n{page}"},
        {"role": "Orchestrator (thought)", "content": "The figure is on the page: 4,964 km."},
        {"role": "Orchestrator (final answer)", "content": "FINAL ANSWER: 4964"}], "ground_truth": "1214"})


def test_an_instruction_that_brought_in_the_word_the_wrong_value_sits_beside_is_blamed():
    steered = judge_log(_surfed("Please search for the length of the Spain coastline.", "Spain coastline length"))
    blame = steered[0]["attribution"]
    # the orchestrator's first message that used "coastline" (its thought before the instruction)
    assert (blame["agent"], blame["step_ref"]) == ("Orchestrator", "1"), blame
    # sent after the request's own words, the surfer that read the wrong line is the one blamed
    misread = judge_log(_surfed("Please search for the length of the border between Spain and Portugal.",
                                "Spain Portugal border length"))[0]["attribution"]
    assert (misread["agent"], misread["step_ref"]) == ("WebSurfer", "3"), misread


def _team(*said):
    return read({"messages": [
        {"source": "user", "type": "TextMessage",
         "content": "For the Q2 sales figures, gather them, total them per region and draw a bar chart."},
        *({"source": n, "type": "TextMessage", "content": c} for n, c in said)],
        "stop_reason": "Text 'TERMINATE' mentioned"})


PLAN = ("Plan:\n1. data_fetcher gathers the Q2 figures.\n2. RegionTotaller sums them per region.\n"
        "3. chart_maker draws the bar chart.\nThen we wrap up. data_fetcher, go ahead.")


def test_a_team_that_ends_before_a_member_its_plan_named_acted_is_a_premature_end():
    log = _team(("coordinator", PLAN), ("data_fetcher", "North 120, South 95, West 80."),
                ("RegionTotaller", "Totals: North 120, South 95, West 80; all regions 295."),
                ("coordinator", "We have the figures and the totals. Done. TERMINATE"))
    section, failures = judge_log(log)
    [f] = [f for f in failures if f.root_cause == "Premature Termination"]
    assert f.elements == ("coordinator", "chart_maker") and f.step_ref == "4"
    assert (section["attribution"]["agent"], section["attribution"]["step_ref"]) == ("coordinator", "4")
    # the member acted: the team ended when the plan was done ("Then", opening a line, names nobody)
    done = _team(*log_said(log), ("chart_maker", "Bar chart drawn: North, South, West."),
                 ("coordinator", "All three parts are done. TERMINATE"))
    assert not [f for f in judge_log(done)[1] if f.root_cause == "Premature Termination"]


def log_said(log):
    """The agents' messages of a `_team` log but its last, to go on from."""
    from masfuzz.trace import Message

    said = [(e.agent, e.content) for e in log.trace.events if isinstance(e, Message) and e.agent]
    return said[:-1]


def _desk(task, dishes, args=True):
    return read({"messages": [
        {"type": "human", "content": "Suggest a three-course dinner for six, without mushrooms: two guests cannot eat them."},
        {"type": "ai", "name": "host", "content": "", "tool_calls": [
            {"name": "transfer_to_chef", "args": {"task_description": task} if args else {}, "id": "c1"}]},
        {"type": "tool", "name": "transfer_to_chef", "content": "Successfully transferred to chef", "tool_call_id": "c1"},
        {"type": "ai", "name": "chef", "content": dishes},
        {"type": "ai", "name": "host", "content": "Here is your menu: " + dishes}]})


def test_a_hand_over_task_that_drops_what_the_user_excluded_is_the_loss_when_the_receiver_uses_it():
    lost = _desk("Suggest a three-course dinner for six.",
                 "Starter: creamy mushroom soup. Main: roast lamb. Dessert: lemon tart.")
    section, failures = judge_log(lost)
    [f] = [f for f in failures if f.root_cause == "Information Loss at Hand-over"]
    assert (f.agent, f.step_ref, f.elements) == ("host", "1", ("host", "chef", "exclusion"))
    assert (section["attribution"]["agent"], section["attribution"]["step_ref"]) == ("host", "1")
    # the task passed the exclusion on; or the chef kept to it anyway; or the log does not show
    # what the chef was given: nothing lost that the log shows
    kept = [_desk("Suggest a three-course dinner for six, no mushrooms.",
                  "Starter: creamy mushroom soup. Main: roast lamb. Dessert: lemon tart."),
            _desk("Suggest a three-course dinner for six.",
                  "Starter: tomato soup, with no mushrooms anywhere. Main: roast lamb. Dessert: lemon tart."),
            _desk("", "Starter: creamy mushroom soup. Main: roast lamb. Dessert: lemon tart.", args=False)]
    for log in kept:
        assert not [f for f in judge_log(log)[1] if f.root_cause == "Information Loss at Hand-over"]


def _ranked(reply):
    return read([
        {"role": "user", "content": "Which warehouse shipped the fewest parcels in March?"},
        {"type": "tool_call_item", "agent": {"name": "ops_bot"}, "raw_item": {
            "type": "function_call", "name": "parcels_by_site", "arguments": "{\"month\": \"2025-03\"}", "call_id": "p1"}},
        {"type": "tool_call_output_item", "agent": {"name": "ops_bot"}, "raw_item": {
            "type": "function_call_output", "call_id": "p1",
            "output": "[{\"site\": \"Leeds\", \"parcels\": 4210}, {\"site\": \"Hull\", \"parcels\": 3980}, "
                      "{\"site\": \"York\", \"parcels\": 5120}]"}},
        {"type": "message_output_item", "agent": {"name": "ops_bot"}, "raw_item": {
            "type": "message", "role": "assistant", "content": [{"type": "output_text", "text": reply}]}}])


def test_a_row_called_the_bottom_of_a_table_that_another_row_beats_is_a_misread():
    section, failures = judge_log(_ranked("Leeds shipped the fewest parcels in March: 4,210."))
    [f] = [f for f in failures if f.detector == "misread_table"]
    assert (f.agent, f.step_ref, f.elements) == ("ops_bot", "3", ("ops_bot", "Leeds")) and "Hull" in f.description
    assert (section["attribution"]["agent"], section["attribution"]["step_ref"]) == ("ops_bot", "3")
    # read right, or a sentence that names several rows (a ranking), or no figure of the row: nothing
    for reply in ("Hull shipped the fewest parcels in March: 3,980.",
                  "From the lowest: Hull 3,980, Leeds 4,210, York 5,120.",
                  "Leeds shipped the fewest parcels, I think."):
        assert not [f for f in judge_log(_ranked(reply))[1] if f.detector == "misread_table"], reply
