"""wording.content_stems, the oracles' one reader of what a text is about, should count a
three-letter word as a content word unless English's closed class (determiners, pronouns,
auxiliaries, an n't contraction's auxiliary) holds it, so that "car", "eye" or "tax" can decide
where a request belongs. It does not yet (its floor is four letters): lowering the floor alone
lost the seeded misroute of ac_carshare_unlock_misroute and test_routing_needs', because a short
domain word several tools' descriptions share ("car" of remote_unlock, report_damage and
fuel_card; "day") then makes every one of them look asked for (`_servable_by_description`
discounts only the words every tool shares). Strict xfails: they pass, and so fail, once both
are mended."""

from __future__ import annotations

import pytest

from masfuzz.oracles.instructed import misrouted_request
from masfuzz.oracles.wording import content_stems
from masfuzz.spec.model import AgentSpec, Delegation, SystemInfo, WorkflowSpec
from masfuzz.trace import AgentTurn, DelegationEvent, Message, TerminationEvent, Trace

SHORT_WORDS = pytest.mark.xfail(strict=True, reason="content_stems' four-letter floor; see the module's docstring")


@SHORT_WORDS
def test_short_content_words_count_and_function_words_do_not():
    assert content_stems("My car won't start and the van isn't mine.") >= {"car", "van", "start"}
    # the closed class, whatever its length: auxiliaries, pronouns, an n't contraction's auxiliary
    assert content_stems("Can you? She was not, but how are you doing it now? It doesn't, it won't.") <= {"do"}


# A front desk that passes a caller to one of two tool-less helplines, each saying what it
# handles in a three-letter word ("pet", "tax") beside words the two share.
DESKS = (
    AgentSpec(id="front_desk", instructions="Greet the caller and pass them to the right helpline."),
    AgentSpec(id="animal_line", description="Helpline for pet questions: feeding, walks, vaccinations."),
    AgentSpec(id="money_line", description="Helpline for tax questions: returns, deadlines, allowances."),
)


def _desks(to: str, request: str) -> tuple[Trace, WorkflowSpec]:
    spec = WorkflowSpec(
        system=SystemInfo(id="helplines", entry_agent="front_desk", pattern="orchestrated"), agents=DESKS,
        delegations=tuple(Delegation.model_validate({"from": "front_desk", "to": m, "trigger": "handoff"})
                          for m in ("animal_line", "money_line")))
    trace = Trace(scenario_id="s", events=(
        Message(role="user", content=request), AgentTurn(agent="front_desk"),
        DelegationEvent.model_validate({"from": "front_desk", "to": to, "trigger": "handoff"}),
        AgentTurn(agent=to), Message(agent=to, content="I have noted that and will look into it."),
        TerminationEvent(reason="completed", final_output="x")))
    return trace, spec


@SHORT_WORDS
@pytest.mark.parametrize("request_,right,wrong", [
    ("Our pet keeps scratching its ear, what should we do?", "animal_line", "money_line"),
    ("I think I paid too much tax last year, can it be fixed?", "money_line", "animal_line"),
])
def test_a_request_told_apart_by_a_three_letter_word_is_misrouted_to_the_other_line(request_, right, wrong):
    [f] = misrouted_request(*_desks(wrong, request_))
    assert (f.agent, f.elements[1:]) == ("front_desk", (wrong, right))
    assert misrouted_request(*_desks(right, request_)) == []
