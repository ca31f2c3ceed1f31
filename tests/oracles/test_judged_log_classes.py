"""Who and when on imported logs, for classes a second blind set of labelled logs showed: a claim
sent in a call's arguments, ... Each log is small and of its own wording (its framework's shape,
not the blind set's); what is checked is the class."""

from __future__ import annotations

import json

from masfuzz.adapters.transcript import read
from masfuzz.judging import judge_log


def _ai(name, text="", calls=()):
    return {"type": "ai", "name": name, "content": text,
            "tool_calls": [{"id": f"c{k}-{t}", "name": t, "args": a} for k, (t, a) in enumerate(calls)]}


def _tool(name, call_id, payload):
    return {"type": "tool", "name": name, "tool_call_id": call_id, "content": json.dumps(payload)}


def _membership(note):
    return read({"messages": [
        {"type": "human", "content": "Please cancel my gym membership 88-210 from next month."},
        _ai("member_desk", calls=[("cancel_membership", {"membership": "88-210"})]),
        _tool("cancel_membership", "c0-cancel_membership", {"ok": False, "reason": "minimum term runs to March"}),
        _ai("member_desk", calls=[("add_crm_note", {"membership": "88-210", "note": note})]),
        _tool("add_crm_note", "c0-add_crm_note", {"saved": True}),
        _ai("member_desk", "All done: your membership has been cancelled from next month.")]})


def test_a_success_first_claimed_in_a_calls_arguments_is_decided_at_that_call():
    blame = judge_log(_membership("Membership cancelled at the member's request."))[0]["attribution"]
    assert (blame["agent"], blame["step_ref"]) == ("member_desk", "3"), blame
    # a note that records the refusal truly is no claim: the message stays the decisive step
    blame = judge_log(_membership("Cancellation refused: minimum term runs to March."))[0]["attribution"]
    assert (blame["agent"], blame["step_ref"]) == ("member_desk", "5"), blame


def _surfer_log(article_ocr):
    ocr = "Automatic OCR of the page screenshot has detected the following text:\n\n"
    return read({"ground_truth": "1,345", "history": [
        {"role": "human", "content": "According to Wikipedia, what is the summit elevation of Ben Nevis, in metres?"},
        {"role": "Orchestrator (-> WebSurfer)", "content": "Search for Ben Nevis on Wikipedia and open the article."},
        {"role": "WebSurfer", "content": "I typed 'Ben Nevis' into the search box.\n\n" + ocr +
         "Ben Nevis walks | Trail guide\nThe path climbs 1,352 m of ascent from Glen Nevis ..."},
        {"role": "Orchestrator (-> WebSurfer)", "content": "Read the summit elevation from the infobox of the article."},
        {"role": "WebSurfer", "content": "The infobox gives the summit at 1,352 metres above sea level.\n\n" + ocr
         + article_ocr},
        {"role": "Orchestrator (thought)", "content": "FINAL ANSWER: 1352"}]})


def test_a_wrong_value_misread_from_a_right_page_is_the_readers_not_an_earlier_snippets():
    # the article the surfer read shows the expected 1,345 beside the ascent's 1,352: its own reading
    blame = judge_log(_surfer_log("Ben Nevis\nElevation 1,345 m (4,413 ft)\nAscent from Glen Nevis 1,352 m"))[0]["attribution"]
    assert (blame["agent"], blame["step_ref"]) == ("WebSurfer", "4"), blame
    # a page that does not show the expected value leaves the value the first page's, as before
    blame = judge_log(_surfer_log("Ben Nevis\nAscent from Glen Nevis 1,352 m"))[0]["attribution"]
    assert (blame["agent"], blame["step_ref"]) == ("WebSurfer", "2"), blame


def _drafts(*lines):
    """A round-robin AgentChat team: a writer hands over a headline, an editor answers."""
    said = [{"source": "user", "type": "TextMessage",
             "content": "Write a headline of at most 6 words for our library's late-night opening."}]
    for k, line in enumerate(lines):
        said += [{"source": "writer", "type": "TextMessage", "content": line},
                 {"source": "editor", "type": "TextMessage",
                  "content": f"Round {k + 1}: that headline has more than six words, trim it to six."}]
    return read({"messages": said, "stop_reason": "Maximum number of messages 20 reached, current message count: 20"})


def test_a_loop_that_resends_the_same_draft_in_new_courtesies_is_found_at_the_first_resend():
    same = "\"Your library now stays open late into the night\""
    log = _drafts(f"Draft: {same}", "Sure, a shorter idea: \"Library open late every single weeknight now\"",
                  f"Good point, here it is trimmed: {same}", f"Apologies! Final trimmed headline: {same}",
                  f"Thanks for bearing with me, this one fits: {same}", f"Here you go, the polished line: {same}")
    blame = judge_log(log)[0]["attribution"]
    assert (blame["agent"], blame["step_ref"]) == ("writer", "5"), blame
    # each draft new: the team revises, however alike its courtesies
    moving = _drafts(*(f"Sure, here it is trimmed: \"{h}\"" for h in (
        "Your library now stays open late tonight", "Library open late every single weeknight",
        "Late nights now at the library", "Library hours stretch past midnight now",
        "Read late: library open till midnight", "Your library, open until midnight")))
    assert not [f for f in judge_log(moving)[1] if f.detector == "loop"]


def _booking(choice):
    """An Agents SDK dump whose input refuses something, and a call that takes `choice`."""
    return read({"input": "Our flight LH400 was cancelled. We don't need a hotel voucher, please just rebook us "
                          "on the next flight tomorrow morning.",
                 "new_items": [
                     {"type": "tool_call_item", "agent": {"name": "rebooking_desk"}, "raw_item": {
                         "type": "function_call", "name": "rebook", "call_id": "r1",
                         "arguments": json.dumps({"booking": "LH400-7Q", "compensation": choice})}},
                     {"type": "tool_call_output_item", "agent": {"name": "rebooking_desk"}, "raw_item": {
                         "type": "function_call_output", "call_id": "r1", "output": "{\"status\": \"rebooked\"}"}},
                     {"type": "message_output_item", "agent": {"name": "rebooking_desk"}, "raw_item": {
                         "type": "message", "role": "assistant",
                         "content": [{"type": "output_text", "text": "You are rebooked on LH402 at 07:10."}]}}]})


def test_a_call_that_takes_the_choice_the_user_refused_is_decided_at_that_call():
    section, failures = judge_log(_booking("hotel_voucher"))
    [f] = [f for f in failures if f.detector == "refused_choice"]
    assert (f.agent, f.step_ref) == ("rebooking_desk", "0")
    assert (section["attribution"]["agent"], section["attribution"]["step_ref"]) == ("rebooking_desk", "0")
    assert not [f for f in judge_log(_booking("meal_voucher"))[1] if f.detector == "refused_choice"]


def _report(*said):
    return read({"chat_history": [
        {"role": "assistant", "name": "requester", "content": "Read sales_2024.csv, total the revenue per region, "
                                                               "and write the totals to region_totals.xlsx."},
        *({"role": "user" if k % 2 == 0 else "assistant", "name": "analyst" if k % 2 == 0 else "requester",
           "content": c} for k, c in enumerate(said))]})


def test_a_team_that_ends_before_the_file_the_user_asked_for_was_made_ended_too_early():
    totals = "exitcode: 0 (execution succeeded)\nCode output: North 120\nSouth 95\n"
    read_it = "```python\nimport pandas as pd\nprint(pd.read_csv('sales_2024.csv').groupby('region').revenue.sum())\n```"
    section, failures = judge_log(_report(read_it, totals, "North 120, South 95. TERMINATE"))
    [f] = [f for f in failures if f.detector == "deliverable"]
    assert (f.agent, f.step_ref, f.subject) == ("analyst", "3", "region_totals.xlsx")
    # the file written by the code: made, whatever the closing says; the input file is no deliverable
    write_it = read_it.replace("print(", "(").replace(".sum())", ".sum().to_excel('region_totals.xlsx'))")
    assert not [f for f in judge_log(_report(write_it, "exitcode: 0 (execution succeeded)\nCode output: ",
                                             "Saved. TERMINATE"))[1] if f.detector == "deliverable"]


def _ferries(reply):
    return read({"messages": [
        {"type": "human", "content": "Which ferry can I still take from Dover to Calais this afternoon?"},
        _ai("ferry_agent", calls=[("list_sailings", {"from": "Dover", "to": "Calais"})]),
        _tool("list_sailings", "c0-list_sailings", {"sailings": [
            {"sails": "14:05", "vessel": "Spirit of Kent", "state": "boarding"},
            {"sails": "16:40", "vessel": "Pride of Hythe", "state": "withdrawn", "note": "crew shortage"}]}),
        _ai("ferry_agent", reply)]})


def test_a_row_its_tool_said_does_not_hold_given_as_good_is_the_agents_wrong_fact():
    section, failures = judge_log(_ferries("Take the 16:40 sailing on the Pride of Hythe, it is the latest one."))
    [f] = [f for f in failures if f.detector == "void_row"]
    assert (f.agent, f.step_ref) == ("ferry_agent", "3")
    assert (section["attribution"]["agent"], section["attribution"]["step_ref"]) == ("ferry_agent", "3")
    # the agent that says the row's state, or gives a row that holds, told the truth
    for reply in ("The 16:40 Pride of Hythe was withdrawn; take the 14:05 Spirit of Kent.",
                  "Take the 14:05 sailing on the Spirit of Kent."):
        assert not [f for f in judge_log(_ferries(reply))[1] if f.detector == "void_row"], reply


def _moving(summary):
    return read({"chats": [
        {"chat_history": [
            {"role": "assistant", "name": "client", "content": "We are moving a two-bedroom flat from Leeds to York "
             "on 3 May. The piano must travel in a climate-controlled van. Please get me a removals quote."},
            {"role": "user", "name": "quoter", "content": "Quote: GBP 1,150 for the move on 3 May."},
            {"role": "assistant", "name": "client", "content": "Fine, go ahead."},
            {"role": "user", "name": "quoter", "content": summary}], "summary": summary},
        {"chat_history": [
            {"role": "assistant", "name": "client", "content": f"Book the van for the move.\nContext: \n{summary}"},
            {"role": "user", "name": "booker", "content": "Booked a standard 7.5 t van for 3 May. TERMINATE"}]}]})


def test_a_requirement_the_carried_summary_leaves_out_is_lost_at_that_summary():
    blame = judge_log(_moving("Agreed: two-bedroom move Leeds to York on 3 May, GBP 1,150. TERMINATE"))[0]["attribution"]
    assert (blame["agent"], blame["step_ref"]) == ("quoter", "0:3"), blame
    kept = _moving("Agreed: two-bedroom move Leeds to York on 3 May, GBP 1,150; the piano travels in a "
                   "climate-controlled van. TERMINATE")
    assert not [f for f in judge_log(kept)[1] if f.detector == "handover_facts"]


def _cameras(instruction, found):
    return read({"ground_truth": "300", "messages": [
        {"type": "human", "content": "By how many dollars does the Canon EOS R5 Mark II list price exceed the Nikon Z8's?"},
        _ai("lead", instruction),
        _ai("shopper", found),
        _ai("lead", "The Canon is $100 dearer than the Nikon Z8 ($3,999 against $3,899).")]})


def test_an_instruction_that_cut_the_users_name_short_is_where_the_wrong_value_came_from():
    blame = judge_log(_cameras("shopper: find the list prices of the Canon EOS R5 and the Nikon Z8.",
                               "Canon EOS R5: $3,999. Nikon Z8: $3,899."))[0]["attribution"]
    assert (blame["agent"], blame["step_ref"]) == ("lead", "1"), blame
    # the whole name in the instruction: the worker that found the wrong price is blamed
    blame = judge_log(_cameras("shopper: find the list prices of the Canon EOS R5 Mark II and the Nikon Z8.",
                               "Canon EOS R5 Mark II: $3,999. Nikon Z8: $3,899."))[0]["attribution"]
    assert (blame["agent"], blame["step_ref"]) == ("shopper", "2"), blame


def test_a_failed_run_patched_into_code_that_prints_the_wrong_value_is_decided_at_the_patch():
    failed = ("exitcode: 1 (execution failed)\nCode output: Traceback (most recent call last):\n"
              "KeyError: 'unit_price'")
    log = read({"ground_truth": "4,310", "groupchat": {"messages": [
        {"role": "user", "name": "Owner", "content": "What was the stock value of warehouse B in June? stock.csv has it."},
        {"role": "user", "name": "stock_coder", "content": "```python\nimport pandas as pd\nd = pd.read_csv('stock.csv')\n"
                                                        "print((d.qty * d.unit_price).sum())\n```"},
        {"role": "user", "name": "runner", "content": failed},
        {"role": "user", "name": "stock_coder", "content": "Using the standard rate of 10 per unit:\n```python\n"
                                                        "import pandas as pd\nd = pd.read_csv('stock.csv')\n"
                                                        "print((d.qty * 10).sum())\n```"},
        {"role": "user", "name": "runner", "content": "exitcode: 0 (execution succeeded)\nCode output: 5120"},
        {"role": "user", "name": "auditor", "content": "Warehouse B held 5,120 in stock value in June. TERMINATE"}]}})
    blame = judge_log(log)[0]["attribution"]
    assert (blame["agent"], blame["step_ref"]) == ("stock_coder", "3"), blame
