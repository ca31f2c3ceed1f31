"""`masfuzz.testing`: trace assertions that pass on what the run did and fail, readably, on what
it did not."""

import pytest

from masfuzz.testing import expect

pytest.importorskip("agents")

APP = "examples/customer_service/app.py:triage_agent"
POLICY = "scripted/examples/customer_service/policy.py:policy"
SEAT = "Please change my seat to 14C, confirmation ABC123"


@pytest.fixture(scope="module")
def seat_change():
    from masfuzz.testing import run

    return run(APP, SEAT, sut_model=POLICY)


def test_what_the_run_did_passes_in_one_chain(seat_change):
    (expect(seat_change)
        .delegated("triage_agent", "seat_booking_agent")
        .called("update_seat", by="seat_booking_agent", times=1, new_seat="14C",
                confirmation_number="[A-Z0-9]{6}")
        .never_called("faq_lookup_tool")
        .ended("completed", within=6)
        .no_failure()
        .no_failure("RC", "restricted_tool_call"))


@pytest.mark.parametrize("assertion, message", [
    (lambda e: e.called("update_seat", new_seat="15C"), "expected update_seat to be called with {'new_seat': '15C'}"),
    (lambda e: e.called("update_seat", by="triage_agent"), "expected update_seat to be called by triage_agent"),
    (lambda e: e.called("update_seat", times=2), "to be called 2 time(s), it was 1"),
    (lambda e: e.never_called("update_seat"), "expected update_seat never to be called, it was 1 time(s)"),
    (lambda e: e.called_before("update_seat", "faq_lookup_tool"), "but faq_lookup_tool was never called"),
    (lambda e: e.delegated("triage_agent", "faq_agent"), "expected a delegation triage_agent -> faq_agent"),
    (lambda e: e.ended("max_turns"), "expected the run to end by max_turns, it ended by completed"),
    (lambda e: e.ended(within=1), "expected the run to end within 1 turns"),
])
def test_what_the_run_did_not_do_fails_with_the_trace(seat_change, assertion, message):
    with pytest.raises(AssertionError) as caught:
        assertion(expect(seat_change))
    text = str(caught.value)
    assert message in text
    assert "trace " in text and "tool_call           seat_booking_agent -> update_seat" in text


def test_no_failure_fails_on_the_apps_own_failure(masfuzz_run, tmp_path, monkeypatch):
    monkeypatch.setenv("VIDEO_TEAM_OUT", str(tmp_path))
    trace = masfuzz_run("examples/video_team/team.py:selector_team", "Make a 30-second video about the water cycle.",
                        sut_model="scripted/examples/video_team/policy.py:policy")
    expect(trace).ended("message_limit")
    with pytest.raises(AssertionError, match=r"expected no failure of ST, found: \[system_termination\]"):
        expect(trace).no_failure("ST")
