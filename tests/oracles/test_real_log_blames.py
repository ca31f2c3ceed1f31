"""False blames seen on real multi-agent logs (AG2 group chats with code execution,
Magentic-One-style orchestrator teams), each fixed: the executor's stock "reply TERMINATE"
sentence, an orchestrator speaking between worker turns, a stop word that ended an earlier chat
of a sequence, and the first failed tool call kept for the decisive step; and a wrong final
answer traced to the agent whose words or code put its value forward."""

from __future__ import annotations

import pytest

from masfuzz.oracles.detectors import announced_end, detect, loops
from masfuzz.oracles.eventlog import event_log
from masfuzz.oracles.blame import blame_all
from masfuzz.oracles.responsibility import answer_check, decisive
from masfuzz.trace import (
    AgentTurn, ChatEnd, ChatStart, Message, TerminationEvent, ToolCall, ToolResult, Trace,
)

EXECUTOR_BOILERPLATE = (
    "There is no code from the last 1 message for me to execute. Group chat manager should let "
    "other participants to continue the conversation. If the group chat manager want to end the "
    "conversation, you should let other participant reply me only with \"TERMINATE\"")
ASSISTANT_BOILERPLATE = ("Reply TERMINATE if the task has been solved at full satisfaction. "
                         "Otherwise, reply CONTINUE, or the reason why the task is not solved yet.")


def _chat(*said, reason="max_turns"):
    events = [Message(role="user", content="solve it")]
    for agent, text in said:
        events += [AgentTurn(agent=agent), Message(agent=agent, content=text)]
    return Trace(scenario_id="s", events=(*events, TerminationEvent(reason=reason, detail="max_round=8")))


def test_stock_sentences_that_name_the_stop_word_announce_nothing():
    assert announced_end(EXECUTOR_BOILERPLATE) is None
    assert announced_end(ASSISTANT_BOILERPLATE) is None
    assert announced_end("The answer is 42. TERMINATE") == "TERMINATE"
    assert announced_end("TERMINATE") == "TERMINATE"
    assert announced_end("All checks pass, ending the workflow now.") == "ending the workflow"


def test_an_executor_echoing_the_stock_sentence_is_not_blamed_for_termination():
    trace = _chat(("coder", "Let me think about the data."), ("Computer_terminal", EXECUTOR_BOILERPLATE),
                  ("coder", "Still thinking."), ("critic", "Please go on."))
    [f] = [f for f in detect(trace) if f.detector == "missing_termination"]
    assert f.root_cause == "Max Round Limit Exceeded" and "Computer_terminal" not in f.elements
    # an agent that really says the stop word mid-run is still the violation
    said = _chat(("coder", "Done: 42. TERMINATE"), ("critic", "Wait, one more check."), ("coder", "ok"))
    [f] = [f for f in detect(said) if f.detector == "missing_termination"]
    assert f.root_cause == "Termination Condition Violation" and f.elements[0] == "coder"


def test_orchestrator_worker_alternation_with_progress_is_no_loop():
    progressing = _chat(*[s for n in range(4) for s in (
        ("Orchestrator", f"WebSurfer, open result {n} and read the table."),
        ("WebSurfer", f"Result {n} lists {100 + 17 * n} rows for year {1990 + n}."))])
    assert [f for f in loops(progressing, None) if f.elements[:1] == ("speakers",)] == []
    done = progressing.model_copy(update={"events": (*progressing.events[:-1], TerminationEvent(reason="completed"))})
    assert not event_log(done).dead_loop  # nor is it a dead loop for FLARE's failure agents
    # the same messages again and again: the loop without progress it is
    stuck = _chat(*[s for _ in range(4) for s in (
        ("Orchestrator", "WebSurfer, please search for the 2021 census table."),
        ("WebSurfer", "I could not find the table on this page."))])
    [f] = loops(stuck, None)
    assert f.elements == ("speakers", "Orchestrator", "WebSurfer")
    stuck_done = stuck.model_copy(update={"events": (*stuck.events[:-1], TerminationEvent(reason="completed"))})
    assert event_log(stuck_done).dead_loop
    # who and when: the first turn that only repeated its agent's earlier one
    [blamed] = blame_all(stuck, [f])
    assert blamed.step == f.evidence[2] and blamed.agent == "Orchestrator"


def test_new_tool_results_are_progress_same_results_are_not():
    def run(payloads, pages=True):
        events = [Message(role="user", content="find it")]
        for n, p in enumerate(payloads):
            events += [AgentTurn(agent="Orchestrator"), Message(agent="Orchestrator", content="Search again."),
                       AgentTurn(agent="WebSurfer"),
                       ToolCall(agent="WebSurfer", tool="web_search", arguments={"page": n if pages else 1}, call_id=f"c{n}"),
                       ToolResult(agent="WebSurfer", tool="web_search", call_id=f"c{n}", payload=p)]
        return Trace(events=(*events, TerminationEvent(reason="max_turns")))

    fresh = [f"page {n}: " + " ".join(f"fact{n}x{k}" for k in range(12)) for n in range(4)]
    assert [f for f in loops(run(fresh), None) if f.elements[:1] == ("speakers",)] == []
    assert [f for f in loops(run(["nothing found"] * 4, pages=False), None) if f.elements[:1] == ("speakers",)]


def test_a_stop_word_that_ended_an_earlier_chat_of_a_sequence_is_no_violation():
    events = [ChatStart(chat="c1", sender="user", recipient="planner", kind="sequence"),
              AgentTurn(agent="planner"), Message(agent="planner", content="Plan ready. TERMINATE"),
              ChatEnd(chat="c1", reason="termination message"),
              ChatStart(chat="c2", sender="user", recipient="writer", kind="sequence", carryover=True)]
    for n in range(3):
        events += [AgentTurn(agent="writer"), Message(agent="writer", content=f"draft {n}"),
                   AgentTurn(agent="user"), Message(agent="user", content=f"revise {n}")]
    events += [ChatEnd(chat="c2"), TerminationEvent(reason="max_turns")]
    found = [f for f in detect(Trace(events=tuple(events))) if f.detector == "missing_termination"]
    assert [f.root_cause for f in found] == ["Max Round Limit Exceeded"]
    # the same words inside the chat that went on are still the violation
    same = [e for e in events if not isinstance(e, (ChatStart, ChatEnd))]
    [f] = [f for f in detect(Trace(events=tuple(same))) if f.detector == "missing_termination"]
    assert f.root_cause == "Termination Condition Violation"


def test_a_recovered_tool_error_is_no_failure_but_the_decisive_step_of_a_failed_run():
    events = (Message(role="user", content="How many albums?"),
              AgentTurn(agent="coder"),
              ToolCall(agent="coder", tool="fetch_page", arguments={"url": "x"}, call_id="c1"),
              ToolResult(agent="coder", tool="fetch_page", call_id="c1", status="error", payload="HTTP 404"),
              Message(agent="coder", content="The page is gone; from memory there were 2 albums."),
              AgentTurn(agent="checker"), Message(agent="checker", content="Confirmed: 2 albums."),
              TerminationEvent(reason="completed", final_output="Confirmed: 2 albums."))
    trace = Trace(events=events)
    assert [f for f in detect(trace) if f.detector == "unrecovered_tool_error"] == []
    assert decisive(trace, blame_all(trace, detect(trace))) is None  # no failure: no blame
    wrong = answer_check(trace, "3")
    assert wrong is not None and (wrong.agent, wrong.step) == ("coder", 4)
    blame = decisive(trace, blame_all(trace, [wrong]))
    assert (blame.agent, blame.step) == ("coder", 2) and "first failed tool call" in blame.why
    assert answer_check(trace, "2") is None


def test_a_failed_call_made_good_later_is_no_candidate():
    events = (Message(role="user", content="How many albums?"),
              AgentTurn(agent="coder"),
              ToolCall(agent="coder", tool="run", arguments={"code": "x"}, call_id="c1"),
              ToolResult(agent="coder", tool="run", call_id="c1", status="error", payload="NameError"),
              ToolCall(agent="coder", tool="run", arguments={"code": "y"}, call_id="c2"),
              ToolResult(agent="coder", tool="run", call_id="c2", payload="47"),
              AgentTurn(agent="reviewer"), Message(agent="reviewer", content="The output shows 74."),
              TerminationEvent(reason="completed", final_output="The output shows 74."))
    trace = Trace(events=events)
    blame = decisive(trace, blame_all(trace, [answer_check(trace, "47")]))
    assert (blame.agent, blame.step) == ("reviewer", 7) and "expected_answer" in blame.why


def test_numbers_of_the_task_are_no_wrong_values_even_when_an_agent_relays_it():
    events = (AgentTurn(agent="manager"), Message(agent="manager", content="Task: total revenue for 2023 from sales.csv."),
              AgentTurn(agent="analyst"), Message(agent="analyst", content="For 2023 I estimate 1,250,000."),
              TerminationEvent(reason="completed", final_output="Total for 2023: 1,250,000"))
    wrong = answer_check(Trace(events=events), "1,312,400")
    assert (wrong.agent, wrong.step) == ("analyst", 3)  # 1,250,000 is the wrong value, not 2023
    assert answer_check(Trace(events=events), "1250000") is None


def test_behaviour_coverage_sees_no_loop_after_a_stop_word_that_ended_an_earlier_chat():
    from masfuzz.coverage.behaviour import observed_behaviours

    events = (ChatStart(chat="c1"), AgentTurn(agent="planner"), Message(agent="planner", content="Plan. TERMINATE"),
              ChatEnd(chat="c1"), ChatStart(chat="c2"), AgentTurn(agent="writer"), Message(agent="writer", content="Draft."),
              ChatEnd(chat="c2"), TerminationEvent(reason="completed"))
    assert "anomaly::writer::loop_after_termination" not in observed_behaviours(Trace(events=events))
    one_chat = tuple(e for e in events if not isinstance(e, (ChatStart, ChatEnd)))
    assert "anomaly::writer::loop_after_termination" in observed_behaviours(Trace(events=one_chat))


def test_an_executors_echo_of_a_failed_run_is_not_the_agent_relaying_the_raw_error():
    """A log records the executor's reply (the failed run's output) as a message: that echo is
    the result, not the agent passing the raw error on; the agent's next attempt, different code
    that runs, is the recovery."""
    from masfuzz.adapters.transcript import read

    log = read({"chat_history": [
        {"content": "Print pi to 5 decimals using numpy.", "role": "assistant", "name": "user_proxy"},
        {"content": "```python\nimport numpy as np\nprint(round(np.pi, 5))\n```", "role": "user", "name": "assistant"},
        {"content": "exitcode: 1 (execution failed)\nCode output: ModuleNotFoundError: No module named 'numpy'",
         "role": "assistant", "name": "user_proxy"},
        {"content": "numpy is missing; use math.\n```python\nimport math\nprint(round(math.pi, 5))\n```",
         "role": "user", "name": "assistant"},
        {"content": "exitcode: 0 (execution succeeded)\nCode output: 3.14159", "role": "assistant", "name": "user_proxy"},
        {"content": "Pi to 5 decimals is 3.14159. TERMINATE", "role": "user", "name": "assistant"}]}, "pi.json")
    assert [f for f in detect(log.trace) if f.detector == "unrecovered_tool_error"] == []


def test_a_tool_refusal_the_agent_claims_as_success_is_decided_at_the_claim():
    """The tool answered truly (the refund window is over); the agent told the user it worked:
    the claim is the step that went wrong, not the call that came first."""
    events = (Message(role="user", content="Refund order 7 please."),
              AgentTurn(agent="refunds"),
              ToolCall(agent="refunds", tool="issue_refund", arguments={"order": 7}, call_id="r1"),
              ToolResult(agent="refunds", tool="issue_refund", call_id="r1", status="error",
                         payload="Error: order 7 is past the 30-day refund window"),
              Message(agent="refunds", content="Your refund for order 7 has been processed!"),
              TerminationEvent(reason="completed", final_output="Your refund for order 7 has been processed!"))
    trace = Trace(events=events)
    found = blame_all(trace, detect(trace))
    [claim] = [f for f in found if f.root_cause == "Incorrect Verification"]
    blame = decisive(trace, found)
    assert (blame.agent, blame.step) == ("refunds", claim.step) and claim.step == 4


def _city_run(instruction: str, report: str) -> Trace:
    return Trace(events=(
        Message(role="user", content="What was the population of the capital of Australia in 2021?"),
        AgentTurn(agent="Orchestrator"), Message(agent="Orchestrator", content=instruction),
        AgentTurn(agent="WebSurfer"), Message(agent="WebSurfer", content=report),
        AgentTurn(agent="Orchestrator"), Message(agent="Orchestrator", content="FINAL ANSWER: 5,231,147"),
        TerminationEvent(reason="completed", final_output="FINAL ANSWER: 5,231,147")))


def test_a_wrong_value_a_worker_found_on_a_wrong_instruction_is_the_instructions():
    """The orchestrator named a city nobody had named; the worker looked it up as told: the
    instruction is where the run went wrong. The same report on a faithful instruction is the
    worker's own mistake."""
    misled = _city_run("Please search the 2021 census population of Sydney.",
                       "The ABS page says Greater Sydney had 5,231,147 people.")
    wrong = answer_check(misled, "453,558")
    assert (wrong.agent, wrong.step) == ("Orchestrator", 2)
    faithful = _city_run("Please search the 2021 census population of the capital of Australia.",
                         "The ABS page says Greater Sydney had 5,231,147 people.")
    wrong = answer_check(faithful, "453,558")
    assert (wrong.agent, wrong.step) == ("WebSurfer", 4)


# --- a wrong final answer traced to where its value entered (issue 27: what agents said) ---------

def _read(history, **kept):
    from masfuzz.adapters.transcript import read

    return read({"history": history, **kept}, "log.json").trace


def _console(*said):
    """A Magentic-One console log: (role, content) per message, the role its speaker."""
    return _read([{"role": role, "content": text} for role, text in said])


def _blamed(trace, expected):
    wrong = answer_check(trace, expected)
    return wrong.agent, wrong.step_ref


IDLE_M1 = "No code block detected in the messages. Please provide a markdown-encoded code block to execute."


def test_a_value_printed_by_code_is_its_authors_not_the_executors_nor_the_verifiers():
    """The checker "verified" what the code printed; the executor only ran it and its stock
    reply is no answer; the list numbers of the plan are no value the task gave."""
    trace = _read([
        {"name": "Lead", "role": "assistant", "content": "Task: count the orders in orders.csv shipped "
         "after their due date.\nPlan:\n1. Load the file.\n2. Compare the dates."},
        {"name": "Coder", "role": "user", "content": "```python\nimport pandas as pd\n"
         "df = pd.read_csv('orders.csv')\nprint((df.shipped > df.due).sum())\n```"},
        {"name": "Runner", "role": "user", "content": "exitcode: 0 (execution succeeded)\nCode output: 2"},
        {"name": "Checker", "role": "user", "content": "I have verified the result: 2 orders were late."},
        {"name": "Runner", "role": "user", "content": EXECUTOR_BOILERPLATE},
        {"name": "Checker", "role": "user", "content": "TERMINATE"}])
    assert _blamed(trace, "5") == ("Coder", "1")
    assert answer_check(trace, "2") is None  # the checker's answer, not the executor's reply


def test_a_magentic_one_final_answer_line_is_the_answer_and_its_value_the_workers():
    trace = _read([
        {"role": "human", "content": "On which street is the Harbor Bridge of Port Elm?"},
        {"role": "Orchestrator (thought)", "content": "Initial plan: WebSurfer looks the bridge up."},
        {"role": "Orchestrator (-> WebSurfer)", "content": "Please find the street of the Harbor Bridge of Port Elm."},
        {"role": "WebSurfer", "content": "I typed 'Harbor Bridge Port Elm' into the search bar. "
         "The city's page says the bridge starts at Elm Road."},
        {"role": "Orchestrator (-> Assistant)", "content": "Please double-check the street."},
        {"role": "Assistant", "content": "I have no browser; I cannot check it."},
        {"role": "Orchestrator (thought)", "content": "Request satisfied."},
        {"role": "Orchestrator (termination condition)", "content": "No agent selected.\nFINAL ANSWER: Elm Road\n"
         "(the run closed)"}])
    assert _blamed(trace, "Quay Street") == ("WebSurfer", "3")
    assert answer_check(trace, "Elm Road") is None


def test_a_magentic_one_terminal_runs_the_assistants_code_and_is_never_blamed_for_it():
    trace = _read([
        {"role": "human", "content": "What is the mean of the values in data.txt?"},
        {"role": "Orchestrator (-> Assistant)", "content": "Please write a script that averages data.txt."},
        {"role": "Assistant", "content": "```python\nvals = [float(x) for x in open('data.txt')]\n"
         "print(sum(vals) / (len(vals) + 1))\n```"},
        {"role": "Orchestrator (-> ComputerTerminal)", "content": "Please run the script."},
        {"role": "ComputerTerminal", "content": "The script ran, then exited with Unix exit code: 0\n"
         "Its output was:\n41.5"},
        {"role": "Orchestrator (-> ComputerTerminal)", "content": "Please report the mean."},
        {"role": "ComputerTerminal", "content": IDLE_M1},
        {"role": "Orchestrator (termination condition)", "content": "FINAL ANSWER: 41.5"}])
    assert _blamed(trace, "83") == ("Assistant", "2")


def test_a_quoted_text_value_is_blamed_on_who_first_said_it_not_on_who_confirmed_it():
    trace = _read([
        {"name": "Lead", "role": "assistant", "content": "Task: translate 'I see the river' into Veln."},
        {"name": "Translator", "role": "user", "content": "Verb first, then object: the sentence is \"Sor nira pel\"."},
        {"name": "Lead", "role": "assistant", "content": "Checker, please check the translation."},
        {"name": "Checker", "role": "user", "content": "I confirm that \"Sor nira pel\" is right.\nTERMINATE"}])
    assert _blamed(trace, "Sor pel nira") == ("Translator", "1")


def test_a_plans_heading_numbers_and_a_letter_inside_words_are_no_statement_of_the_value():
    plan = _read([
        {"role": "human", "content": "How many moons does the planet Vell have?"},
        {"role": "Orchestrator (thought)", "content": "Initial plan:\n### 3. FACTS TO DERIVE\n- the count of moons"},
        {"role": "Orchestrator (-> WebSurfer)", "content": "Please count the moons of Vell."},
        {"role": "WebSurfer", "content": "The almanac page lists 3 moons of Vell."},
        {"role": "Orchestrator (termination condition)", "content": "FINAL ANSWER: 3"}])
    assert _blamed(plan, "2") == ("WebSurfer", "3")
    letter = _read([
        {"role": "human", "content": "Which letter ends the code word?"},
        {"role": "Orchestrator (-> WebSurfer)", "content": "Please look the code word up."},
        {"role": "WebSurfer", "content": "The code word is Kayak, so its last letter is k."},
        {"role": "Orchestrator (termination condition)", "content": "FINAL ANSWER: k"}])
    assert _blamed(letter, "s") == ("WebSurfer", "2")


def test_a_short_answer_is_compared_whole_numbers_by_value_lists_as_sets():
    from masfuzz.oracles.responsibility import matches
    assert not matches("shrimp and grits", "shrimp")  # the expected words merely appear
    assert matches("Shrimp.", "shrimp") and matches("$55", "55") and matches("1000.0", "1,000")
    assert matches("Tidal, Harbinger", "Harbinger, Tidal") and not matches("Harbinger", "Harbinger, Tidal")
    assert not matches("Harbinger, Tidal, Oasis", "Harbinger, Tidal")
    # a sentence is read for the value: not inside a longer name it quotes, numbers among its own
    assert not matches('The missing course is "shrimp and grits". TERMINATE', "shrimp")
    assert matches('The missing course is "shrimp". TERMINATE', "shrimp")
    assert matches("Confirmed: Paris. TERMINATE", "Paris") and matches("The total is 1,312,400.", "1312400")
    assert not matches("Agreed, the answer is 74. TERMINATE", "47")
    # a number by value in a sentence too: 17,000 hours is not the expected 17, nor 3.17 it
    assert not matches("It would take about 17,000 hours.\nTERMINATE", "17")
    assert not matches("The ratio is 3.17 here.\nTERMINATE", "17")
    assert matches("It would take about 17 thousand hours.\nTERMINATE", "17")
    trace = _read([
        {"role": "human", "content": "Which main course left the menu?"},
        {"role": "Orchestrator (-> WebSurfer)", "content": "Please compare the two menus."},
        {"role": "WebSurfer", "content": "The later menu no longer lists shrimp and grits."},
        {"role": "Orchestrator (termination condition)", "content": "FINAL ANSWER: shrimp and grits"}])
    assert _blamed(trace, "shrimp") == ("WebSurfer", "2")


def test_the_names_of_the_task_an_agent_relays_first_are_no_wrong_instruction():
    trace = _read([
        {"name": "Planner", "role": "assistant", "content": "# General Task\nHow many coins can Mira keep "
         "from the Velmont game?\n## Plan\n1. Work out the rules.\n2. Verify the count."},
        {"name": "Solver", "role": "user", "content": "Mira keeps 30 coins in the Velmont game."},
        {"name": "Checker", "role": "user", "content": "I agree: Mira keeps 30 coins.\nTERMINATE"}])
    assert _blamed(trace, "16") == ("Solver", "1")  # not the opening agent, who relayed the task


@pytest.mark.parametrize("instruction, report", [
    ("please look up census table tb-5503 for the capital.", "Table tb-5503 gives 5,231,147 people."),
    ("please use the 2016 census figures for the capital.", "The 2016 census gives 5,231,147 people."),
    ("please check postcode NSW 2000 area: SW1A 1AA style codes aside.", "SW1A 1AA area gives 5,231,147 people."),
])
def test_a_wrong_instruction_is_read_from_the_facts_it_brought_in_not_only_names(instruction, report):
    """An instruction that brought in an id, a figure or a code of no earlier message, which the
    worker's wrong report repeats, is where the run went wrong, in lower case too."""
    wrong = answer_check(_city_run(instruction, report), "453,558")
    assert (wrong.agent, wrong.step) == ("Orchestrator", 2)
    wrong = answer_check(_city_run("please search for the capital's population.", report), "453,558")
    assert (wrong.agent, wrong.step) == ("WebSurfer", 4)


def test_a_runtime_warning_printed_into_a_message_states_no_value():
    """The Python runtime's warnings that a console log interleaves with an agent's message
    ("...py:216: UserWarning: Resolved model mismatch: gpt-4o-2024-08-06 != ...") are the
    process's: the 6 of the model's date is no statement of the wrong answer 6."""
    warning = ("/opt/app/agents/orchestrator.py:216: UserWarning: Resolved model mismatch: "
               "gpt-4o-2024-08-06 != gpt-4o-2024-05-13. Model mapping may be incorrect.\n"
               "  ledger_response = await self._model_client.create(")
    trace = _console(
        ("human", "How many stations lie between Ashby and Corran, not counting them?"),
        ("Orchestrator (thought)", f"Initial plan:\nWebSurfer lists the stations.\n\n{warning}"),
        ("Orchestrator (-> WebSurfer)", "Please list the stations between Ashby and Corran."),
        ("WebSurfer", "The line's page shows 6 stations between Ashby and Corran."),
        ("Orchestrator (termination condition)", "FINAL ANSWER: 6"))
    assert _blamed(trace, "9") == ("WebSurfer", "3")


def test_a_web_address_states_no_value():
    """A page's address names the page: the 12 of a search's "&first=12" is not the worker
    stating the wrong count 12, the later report is."""
    trace = _console(
        ("human", "How many bridges cross the Vell river in Port Elm?"),
        ("Orchestrator (-> WebSurfer)", "Please search for the bridges over the Vell."),
        ("WebSurfer", "I typed 'Vell river bridges' into the search bar.\nHere is a screenshot of "
         "[Vell river bridges - Search](https://search.example/search?q=vell+bridges&first=12&sp=-1)."),
        ("Orchestrator (-> WebSurfer)", "Please open the city's page on its bridges."),
        ("WebSurfer", "The city's page counts 12 bridges over the Vell."),
        ("Orchestrator (termination condition)", "FINAL ANSWER: 12"))
    assert _blamed(trace, "9") == ("WebSurfer", "4")
    # an answer that is an address is still traced to who first gave it
    link = _console(
        ("human", "Which file holds the Vell bridge register?"),
        ("WebSurfer", "The register is at https://files.example/vell-2019.csv as the city says."),
        ("Assistant", "I have nothing to add."),
        ("Orchestrator (termination condition)", "FINAL ANSWER: https://files.example/vell-2019.csv"))
    assert _blamed(link, "https://files.example/vell-2024.csv") == ("WebSurfer", "1")


def test_a_closing_remark_is_no_answer_to_a_question_of_a_number():
    """A group chat that ends on "no objections, I will finalize" answered with the number it
    last put forward: a wrong one is traced from there (to the solver that first said it), not
    from the remark's own words, which its speaker said first. An answer given as such ("FINAL
    ANSWER: unknown") stays the answer; a right number earlier is no answer the run gave."""
    def chat(said):
        return _read([
            {"name": "Lead", "role": "assistant", "content": "# General Task\nHow many bridges cross the Vell?"},
            {"name": "Solver", "role": "user", "content": f"The city's register counts {said} bridges over the Vell."},
            {"name": "Checker", "role": "user", "content": "The count looks plausible to me."},
            {"name": "Lead", "role": "user", "content": "Since there are no objections, I will finalize.\nTERMINATE"}])
    assert _blamed(chat(17), "12") == ("Solver", "1")
    assert _blamed(chat(12), "12") == ("Lead", "3")  # the right count said, but not as the answer
    given = _console(
        ("human", "How many bridges cross the Vell?"),
        ("Orchestrator (-> WebSurfer)", "Please count the bridges over the Vell."),
        ("WebSurfer", "The register lists 17 bridges over the Vell."),
        ("Orchestrator (termination condition)", "FINAL ANSWER: unknown"))
    assert _blamed(given, "12") == ("Orchestrator", "3")


def _group(*said):
    """An AG2 group chat: (speaker, content) per message, the first the opening that relays the task."""
    return _read([{"name": name, "role": "assistant" if not n else "user", "content": text}
                  for n, (name, text) in enumerate(said)])


def test_code_an_opening_carries_from_an_earlier_run_is_no_part_of_the_task():
    """An AG2 opening relays the task and, after it, the code of an earlier run ("## Results from
    last response"): its numbers are not the task's, and the sample data it made up, printed
    later by another agent's run, is that code's: its author's. The executor's "exitcode: 0" is
    no value a run printed."""
    def run(docks):
        opening = ("# General Task\nWhen did the ferry with the most passengers on 3 March dock?\n"
                   "## Results from last response\nThe data files were missing; sample data was made:\n"
                   f"```python\nschedule = {{'ferry': ['Gull', 'Tern'], 'docks': ['10:00 AM', '{docks}']}}\n```")
        return _group(
            ("Analyst", opening),
            ("Computer_terminal", "exitcode: 0 (execution succeeded)\nCode output: "),
            ("Database_Expert", "```python\nprint(latest_docking())\n```"),
            ("Computer_terminal", "exitcode: 0 (execution succeeded)\nCode output: 11:30 AM"),
            ("Verifier", "The Tern carried the most passengers; it docked at 11:30 AM.\nTERMINATE"))

    assert _blamed(run("11:30 AM"), "4:52 PM") == ("Analyst", "0")
    # a value the run computed, held by no earlier code, stays the run's author's
    assert _blamed(run("09:45 AM"), "4:52 PM") == ("Database_Expert", "2")
    # numbers the task states in its own words stay the task's
    task = _group(
        ("Lead", "# General Task\nHow many bridges cross the Vell since 12 May?"),
        ("Solver", "There are 12 bridges."))
    assert _blamed(task, "9") == ("Solver", "1")


def test_a_year_in_an_answer_of_a_count_is_its_context():
    """"742 edits before March 2016": the count is the answer's value, the year its context.
    The year, first named by another agent, is not what the answer says wrongly."""
    trace = _group(
        ("Lead", "# General Task\nHow many edits did the wiki page of the novel that won the Tessel "
         "Prize get before the month it was published?"),
        ("Prize", "The winning novel is Harbour Lights (2016 novel)."),
        ("Counter", "The page had 742 edits before its publication."),
        ("Lead", "So: 742 edits before March 2016.\nTERMINATE"))
    assert _blamed(trace, "85") == ("Counter", "2")
    # an expected year keeps years as values
    assert _blamed(trace, "2015") == ("Prize", "1")


def test_a_wrong_number_the_task_names_too_is_traced_past_the_opening():
    """"Pick token 2" of tokens numbered 1 to 4: the task names every token, so the wrong pick is
    a task's number; still the answer's value, first given by the code that printed it."""
    trace = _group(
        ("Lead", "# General Task\nTokens 1, 2, 3 and 4 sit in a tray. Which token is removed first most often?"),
        ("Simulator", "```python\nprint(simulate())\n```"),
        ("Computer_terminal", "exitcode: 0 (execution succeeded)\nCode output: 2\n"),
        ("Checker", "The simulation says token 2 is removed first most often. TERMINATE"))
    assert _blamed(trace, "4") == ("Simulator", "1")


def test_a_page_a_surfer_reported_is_the_pages_words_not_the_surfers():
    """A number in the text read off a page's screenshot is no value the surfer put forward: the
    assistant that then computes the wrong count states it first. An orchestrator that restates
    what a worker's page showed took it from that report, and so does the surfer summing up."""
    page = ("I clicked 'Timetable'.\n\nHere is a screenshot of [Elm Line timetable](https://rail.example/elm). "
            "The viewport shows 40% of the webpage.\nAutomatic OCR of the page screenshot has detected the "
            "following text:\n\nElm Line  Zone {z}  trains 06:10 07:40")
    def run(question, *rest):
        return _console(("human", question), ("Orchestrator (-> WebSurfer)", "Please open the Elm Line timetable."),
                        ("WebSurfer", page.format(z=6)), *rest, ("Orchestrator (termination condition)", "FINAL ANSWER: 6"))

    computed = run("How many stops lie between Ashby and Corran on the Elm Line?",
                   ("Orchestrator (-> Assistant)", "Please count the stops between Ashby and Corran from the timetable."),
                   ("Assistant", "Counting the listed stations, there are 6 stops between them."))
    assert _blamed(computed, "9") == ("Assistant", "4")
    restated = run("Which zone of the Elm Line timetable is Corran in?",
                   ("Orchestrator (-> WebSurfer)", "The page says zone 6; please confirm it on the fares page."),
                   ("WebSurfer", "I could not open the fares page."))
    assert _blamed(restated, "4") == ("WebSurfer", "2")


def test_the_numbers_of_an_answer_of_a_name_are_its_working_not_its_value():
    """Asked for a name, an answer that says "of the 3 trails with 1,200 reviews, **Mist Trail**"
    gives the name; its counts are the working that led there, first said by another agent."""
    trace = _group(
        ("Lead", "# General Task\nWhich waterfall trail in the park is rated best?"),
        ("Finder", "The search lists 3 trails with over 1,200 reviews."),
        ("Picker", "Of those, the best rated is **Mist Trail**."),
        ("Lead", "Of the 3 trails with 1,200 reviews, the answer is **Mist Trail**.\nTERMINATE"))
    assert _blamed(trace, "Yosemite Falls") == ("Picker", "2")
    # asked for a number, the answer's numbers are its value (as before)
    assert _blamed(trace, "5") == ("Finder", "1")


def test_a_label_in_bold_and_a_stop_word_in_bold_are_no_value_of_the_answer():
    """"**Summary:**" names what follows and "**TERMINATE**" ends the chat: neither is the text
    value the answer gives, so neither is traced to the first message that used the word."""
    labelled = _group(
        ("Lead", "# General Task\nWhich waterfall trail is rated best? Reply with a short summary."),
        ("Picker", "The best rated trail is \"Mist Trail\"."),
        ("Lead", "**Summary:** the best rated trail is \"Mist Trail\".\nTERMINATE"))
    assert _blamed(labelled, "Yosemite Falls") == ("Picker", "1")
    stopped = _group(
        ("Lead", "# General Task\nWhich waterfall trail is rated best? Reply TERMINATE when done."),
        ("Picker", "The best rated trail is Mist Trail."),
        ("Lead", "I agree.\nThe best rated trail is Mist Trail.\n**TERMINATE**"))
    assert _blamed(stopped, "Yosemite Falls") == ("Picker", "1")


def test_an_opening_that_relays_another_task_than_the_users_request_is_the_decisive_step():
    """The dump keeps the user's request (`question`) and the opening agent relays another task
    ("# General Task\\nError: Function lookup not found."): the team then debugged a script and
    answered that. The opening set it on the wrong task; an opening that relays the request
    (however its plan then goes) is no candidate."""
    from masfuzz.adapters.transcript import read
    from masfuzz.judging import judge_log

    def run(task):
        history = [
            {"name": "Debug_Lead", "role": "assistant", "content": f"You are given a task.\n# General Task\n{task}\n"
             "## Plan\n1. Fix the script.\n2. Run the tests."},
            {"name": "Coder", "role": "user", "content": "Here is the fixed script:\n```python\nprint(sum([4, 16]))\n```"},
            {"name": "Computer_terminal", "role": "user", "content": "exitcode: 0 (execution succeeded)\nCode output: 20\n"},
            {"name": "Tester", "role": "user", "content": "The script prints 20 as expected: all is fixed.\nTERMINATE"}]
        log = read({"history": history, "ground_truth": "3.1.3.1; 1.11.1.7", "question": (
            "What are the EC numbers of the two most commonly used chemicals for the virus testing "
            "method in the 2016 paper about sweet potato viruses?")}, "log.json")
        return judge_log(log)[0]["attribution"]

    assert (lambda a: (a["agent"], a["step_ref"]))(run("Error: Function lookup not found.")) == ("Debug_Lead", "0")
    relayed = run("What are the EC numbers of the two most commonly used chemicals for the virus testing "
                  "method in the 2016 paper about sweet potato viruses?")
    assert (relayed["agent"], relayed["step_ref"]) == ("Coder", "1")


def test_a_name_the_users_request_gives_is_no_value_of_the_answer():
    """The answer quotes the film the user asked about beside the colour it answers: the film's
    name is the request's (kept beside the messages as `question`), not a value the answer gives,
    so the first agent to give the colour, not the opening that relayed the question, is blamed."""
    question = "In the film Harbour Lights, what colour was the lantern on the pier?"
    history = [
        {"name": "Lead", "role": "assistant", "content": f"# General Task\n{question}"},
        {"name": "Critic", "role": "user", "content": "The lantern in \"Harbour Lights\" was \"green\"."},
        {"name": "Lead", "role": "assistant", "content": "So in \"Harbour Lights\" the lantern was \"green\".\nTERMINATE"}]
    assert _blamed(_read(history, question=question), "red") == ("Critic", "1")


def test_a_value_in_the_pages_a_search_printed_is_picked_by_who_states_it_not_made_by_the_search():
    """A run that printed a web search's results holds many names; the one the answer gives wrongly
    was picked by the agent that stated it, not computed by the search's code. A run that printed
    a value of its own (no pages) is still the code's."""
    pages = ("Search Result 1:\nDog genome assemblies\nhttps://genomes.example/dog\nUU_Cfam_GSD_1.0 and "
             "CanFam3.1 are listed.\nSearch Result 2:\nCanFam4 release\nhttps://assemblies.example/canfam4\n")
    trace = _group(
        ("Lead", "# General Task\nWhich dog genome assembly was most relevant in May 2020?"),
        ("Searcher", "```python\nprint(perform_web_search('dog genome assembly May 2020'))\n```"),
        ("Computer_terminal", f"exitcode: 0 (execution succeeded)\nCode output: {pages}"),
        ("Checker", "The most relevant assembly is **UU_Cfam_GSD_1.0**.\nTERMINATE"))
    assert _blamed(trace, "CanFam3.1") == ("Checker", "3")
    computed = _group(
        ("Lead", "# General Task\nWhich dog genome assembly was most relevant in May 2020?"),
        ("Searcher", "```python\nprint(pick_assembly(2020, 5))\n```"),
        ("Computer_terminal", "exitcode: 0 (execution succeeded)\nCode output: UU_Cfam_GSD_1.0\n"),
        ("Checker", "The most relevant assembly is **UU_Cfam_GSD_1.0**.\nTERMINATE"))
    assert _blamed(computed, "CanFam3.1") == ("Searcher", "1")


def test_a_run_cut_off_while_working_is_decided_at_its_first_run_that_gave_nothing():
    """An AG2 chat that stopped without announcing its end (no stop word: a round limit the dump
    does not state) and with no answer line: its last message is where it was cut, not an answer.
    The first code run that failed or printed nothing ("Code output: []"), made good later or not,
    is where the turns went, blamed on the code's author; a run that announced its end is traced
    by the value its answer gives, as before."""
    def run(last):
        return _group(
            ("Lead", "# General Task\nHow many studio albums did the band release between 2000 and 2009?"),
            ("Scraper", "```python\nprint(scrape_table('discography'))\n```"),
            ("Computer_terminal", "exitcode: 0 (execution succeeded)\nCode output: []\n"),
            ("Checker", "The table was empty, so I parse the text.\n```python\nprint(count_albums(text))\n```"),
            ("Computer_terminal", "exitcode: 1 (execution failed)\nCode output: NameError: name 'text' is not defined\n"),
            ("Checker", last))
    cut = run("Let me define the text and count the 7 sections again.")
    assert cut.termination.reason == "other"
    assert _blamed(cut, "3") == ("Scraper", "1")
    assert "first run that failed or printed nothing" in answer_check(cut, "3").description
    ended = run("The band released 7 studio albums in that decade.\nTERMINATE")
    assert _blamed(ended, "3") == ("Checker", "5")
    printed = _group(  # a run that printed something gave a result: the cut run's answer is traced
        ("Lead", "# General Task\nHow many studio albums did the band release between 2000 and 2009?"),
        ("Scraper", "```python\nprint(scrape_table('discography'))\n```"),
        ("Computer_terminal", "exitcode: 0 (execution succeeded)\nCode output: 7 albums\n"),
        ("Checker", "So the count is 7; let me check the years of each before we conclude."))
    assert _blamed(printed, "3") == ("Scraper", "1")  # the code that printed the wrong 7 first
    assert "printed it first" in answer_check(printed, "3").description


def test_of_findings_at_one_step_the_agent_that_took_it_is_the_one_most_responsible():
    """The critic said TERMINATE and the writer went on, polishing what was approved, round after
    round: the turn past the end is the decisive step, and both the unheeded end (the critic's,
    its announcer's) and the loop (the writer's) are decided there. Who and when names the writer,
    who took that turn and repeated itself."""
    from masfuzz.adapters.transcript import read
    from masfuzz.judging import judge_log

    said = [("user_proxy", "Write a one-line motto for a ferry company."),
            ("Writer", "Across the water, on time, every time."), ("Critic", "Good. TERMINATE"),
            ("Writer", "Across the water, every time on time."), ("Critic", "Good."),
            ("Writer", "On time, every time, across the water."), ("Critic", "Good.")]
    log = read({"max_round": 7, "groupchat": {"messages": [
        {"name": n, "role": "user", "content": c} for n, c in said]}}, "log.json")
    section, failures = judge_log(log)
    at_three = {(f.detector, f.agent) for f in failures if f.step_ref == "3"}
    assert ("missing_termination", "Critic") in at_three and ("loop", "Writer") in at_three
    assert (section["attribution"]["agent"], section["attribution"]["step_ref"]) == ("Writer", "3")


def test_a_tool_call_that_gave_back_nothing_decides_a_team_stopped_at_its_bound():
    """An AgentChat team stopped by its message limit (the dump keeps `stop_reason`) while its
    researcher was still looking: the search that came back empty ("[]") is where the run went,
    though the next search answered; a team that approved its answer is traced as before."""
    from masfuzz.adapters.transcript import read

    def run(last, stop):
        messages = [
            {"source": "user", "type": "TextMessage", "content": "When did the lighthouse on Gull Point first shine?"},
            {"source": "researcher", "type": "ToolCallRequestEvent",
             "content": [{"id": "s1", "name": "search", "arguments": "{\"q\": \"Gull Point lighthouse\"}"}]},
            {"source": "researcher", "type": "ToolCallExecutionEvent",
             "content": [{"call_id": "s1", "content": "[]", "is_error": False}]},
            {"source": "researcher", "type": "ToolCallRequestEvent",
             "content": [{"id": "s2", "name": "search", "arguments": "{\"q\": \"Gull Point light history\"}"}]},
            {"source": "researcher", "type": "ToolCallExecutionEvent",
             "content": [{"call_id": "s2", "content": "Gull Point light, built 1908, rebuilt 1931.", "is_error": False}]},
            {"source": "researcher", "type": "TextMessage", "content": last}]
        return read({"messages": messages, **({"stop_reason": stop} if stop else {})}, "log.json").trace

    cut = run("It was rebuilt in 1931; I still need the first lighting date.",
              "Maximum number of messages 6 reached, current message count: 6")
    assert cut.termination.reason == "max_turns"
    assert _blamed(cut, "1912") == ("researcher", "1")
    assert "researcher's call of search" in answer_check(cut, "1912").description
    approved = run("It first shone in 1931. APPROVE", None)
    assert _blamed(approved, "1912") == ("researcher", "5")


def test_a_wrong_answer_given_around_a_run_that_gave_nothing_is_decided_at_that_run():
    """The scraper's run printed nothing; the checker's next run worked but printed no answer, and
    the checker then answered from memory. The run answered around a result it never got: its
    first run that gave nothing is the decisive step, made good later or not. When a later run
    printed the expected answer, the team had it, and the agent that misread it is blamed."""
    from masfuzz.adapters.transcript import read
    from masfuzz.judging import judge_log

    def attribution(printed):
        history = [
            {"name": "Lead", "role": "assistant", "content": "# General Task\nHow many studio albums did the band release between 2000 and 2009?"},
            {"name": "Scraper", "role": "user", "content": "```python\nprint(scrape_table('discography'))\n```"},
            {"name": "Computer_terminal", "role": "user", "content": "exitcode: 0 (execution succeeded)\nCode output: []\n"},
            {"name": "Checker", "role": "user", "content": "```python\nprint(count_albums(load_text()))\n```"},
            {"name": "Computer_terminal", "role": "user", "content": f"exitcode: 0 (execution succeeded)\nCode output: {printed}\n"},
            {"name": "Checker", "role": "user", "content": "The band released 7 studio albums in that decade.\nTERMINATE"}]
        got = judge_log(read({"history": history, "ground_truth": "3"}, "log.json"))[0]["attribution"]
        return got["agent"], got["step_ref"], got["why"]

    agent, step, why = attribution("Sections found: studio, live, compilations")
    assert (agent, step) == ("Scraper", "1") and "answered around a result it never got" in why
    assert attribution("3 studio albums")[:2] == ("Checker", "5")  # it had the answer, and misread it
