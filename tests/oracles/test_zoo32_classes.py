"""Oracle misses of a blind set whose customers write in Spanish, French, German, Italian or
Portuguese while the agents' instructions and tools are in English, by class, each beside its
correct twin (hand-built specs and traces, in domains of their own, two languages a class):

- a receiving agent's question in the customer's language, asking for the one documented-form
  argument of its tool the hand-over left out (a sum with a decimal comma): the run's values,
  not the question's words, say what it lacks;
- an early speaker's question in the customer's language for the one argument of its tool that
  nothing said fills (the user's date in words fills the date), which the member after it then
  makes: the order put it first;
- allowed speaker transitions that leave each member one next speaker, cut by a stop word the
  first member's local-language acknowledgement trips: the graph states the order of work;
- a request in another language than the tools, whose date in words fills one tool's documented
  date and which speaks of that tool's own (international) word, sent to a member without it;
- a reply that asks back as a structured object's message or before a stop word.
"""

from __future__ import annotations

import pytest

from masfuzz.oracles.instructed import (SPEAKING_ORDER, instructed_order, misrouted_request, participation,
                                        stated_order)
from masfuzz.oracles.semantic import handover_facts
from masfuzz.oracles.wording import asks_back, dates_in_words
from masfuzz.spec.model import AgentSpec, Permissions, SystemInfo, ToolSpec, WorkflowSpec
from masfuzz.trace import (HANDOVER_INPUTS, AgentTurn, DelegationEvent, Message, TerminationEvent, ToolCall,
                           ToolResult, Trace)


def _tool(name: str, description: str, params: dict[str, str], ints: tuple[str, ...] = ()) -> ToolSpec:
    return ToolSpec(id=name, description=description, parameters={
        "type": "object", "required": list(params), "properties": {
            p: {"type": "integer" if p in ints else "string", "description": d} for p, d in params.items()}})


# -- a question in the customer's language for the one argument the hand-over dropped ----------

FERRY = WorkflowSpec(
    system=SystemInfo(id="ferry", entry_agent="desk_f"),
    agents=(AgentSpec(id="desk_f", instructions="Write the cabin office a note with the sailing and the cabins."),
            AgentSpec(id="cabin_c", instructions="Book the cabin with book_cabin.")),
    tools=(_tool("book_cabin", "Book a cabin on a night sailing, part paid by the deposit already taken.", {
        "sailing": 'The sailing, e.g. "NS-000"', "cabins": "How many cabins",
        "deposit": 'The deposit paid, in euros with a decimal comma, e.g. "45,00"'}, ints=("cabins",)),),
    permissions=Permissions(allow=(("cabin_c", "book_cabin"),)),
    delegations=({"from": "desk_f", "to": "cabin_c"},))


def _ferry(told: str, question: str, note: str) -> Trace:
    trace = Trace(scenario_id="s", events=(
        Message(role="user", content=told), AgentTurn(agent="desk_f"),
        Message(agent="desk_f", content=note), DelegationEvent(**{"from": "desk_f"}, to="cabin_c"),
        AgentTurn(agent="cabin_c"), Message(agent="cabin_c", content=question),
        TerminationEvent(reason="completed", final_output=question)))
    return trace.model_copy(update={"meta": {HANDOVER_INPUTS: [{"since": 4, "agent": "cabin_c", "text": note}]}})


SAILINGS = [
    ("Hola, ya pagué 62,40 € de señal para la travesía NS-118, necesitamos 2 camarotes.", "¿Me puede decir la cantidad?"),
    ("Guten Tag, für die Überfahrt NS-118 habe ich schon 62,40 € angezahlt, wir brauchen 2 Kabinen.",
     "Wie hoch war die Anzahlung, bitte?"),
]


@pytest.mark.parametrize("told, question", SAILINGS)
def test_a_question_in_any_language_for_the_one_argument_the_note_dropped_is_a_lost_fact(told, question):
    [f] = handover_facts(_ferry(told, question, "Note: sailing NS-118, 2 cabins."), FERRY)
    assert (f.root_cause, f.agent) == ("Information Loss at Hand-over", "desk_f")
    assert "62,40" in f.description and "deposit" in f.description


@pytest.mark.parametrize("told, question", SAILINGS)
def test_a_question_is_no_loss_when_the_note_carried_the_value(told, question):
    assert handover_facts(_ferry(told, question, "Note: sailing NS-118, 2 cabins, deposit 62,40."), FERRY) == []
    # the sailing dropped too, both given by the user: both are lost, whichever the question names
    # (`test_two_facts_asked_back.py`)
    # an English question is read by its words, and this one asks for no argument
    assert handover_facts(_ferry(told, "Which deck would you like?", "Note: sailing NS-118, 2 cabins."), FERRY) == []


# -- an early question in the customer's language for what the next member makes ---------------

BOILER = WorkflowSpec(
    system=SystemInfo(id="boiler", entry_agent="visit_v", pattern="fixed_order"),
    agents=(AgentSpec(id="visit_v", instructions="Book the service visit with book_visit."),
            AgentSpec(id="rota_r", instructions="Check the rota with engineer_rota.")),
    tools=(_tool("book_visit", "Book a boiler service visit.", {
        "visit_date": 'The day of the visit, e.g. "2026-01-31"', "engineer": 'The engineer\'s rota code, e.g. "TN-00"'}),
           _tool("engineer_rota", "Who is on the rota on a day.", {"visit_date": 'The day, e.g. "2026-01-31"'})),
    permissions=Permissions(allow=(("visit_v", "book_visit"), ("rota_r", "engineer_rota"))))


def _boiler(told: str, question: str) -> Trace:
    return Trace(scenario_id="s", events=(
        Message(role="user", content=told), AgentTurn(agent="visit_v"), Message(agent="visit_v", content=question),
        AgentTurn(agent="rota_r"),
        ToolCall(agent="rota_r", tool="engineer_rota", call_id="r", arguments={"visit_date": "2026-03-03"}),
        ToolResult(agent="rota_r", tool="engineer_rota", call_id="r",
                   payload='{"status": {"code": 200}, "on_call": {"code": "TN-04", "name": "Mia"}}'),
        Message(agent="rota_r", content="TN-04, Mia."), TerminationEvent(reason="completed", final_output="TN-04")))


@pytest.mark.parametrize("told, question", [
    ("Bonjour, pourriez-vous entretenir notre chaudière le 3 mars ?", "Pourriez-vous me donner le code ?"),
    ("Buongiorno, vorrei la revisione della caldaia il 3 marzo.", "Mi può indicare il codice?"),
])
def test_an_early_question_in_any_language_for_what_the_next_member_makes_is_an_order_violation(told, question):
    [f] = instructed_order(_boiler(told, question), BOILER)
    assert (f.root_cause, f.agent, f.elements) == (SPEAKING_ORDER, "visit_v", ("rota_r", "visit_v"))


def test_an_early_question_is_silent_when_the_date_too_is_unknown_or_nothing_was_asked():
    # no date given at all: the question may be for the day as well as for the engineer
    assert instructed_order(_boiler("Bonjour, notre chaudière fait du bruit.", "Quel jour ?"), BOILER) == []
    assert instructed_order(_boiler("Buongiorno, la caldaia il 3 marzo.", "Va bene, ci pensiamo noi."), BOILER) == []


def test_dates_in_words_are_read_in_the_major_european_languages():
    assert dates_in_words("le 14 juin, am 3. Juli, 18 de abril, il 24 ottobre, March 12th") == [
        (6, 14), (7, 3), (4, 18), (10, 24), (3, 12)]
    assert dates_in_words("Mai 2026, 14 people") == []


# -- allowed speaker transitions that leave one next speaker state the order ------------------

def _winery(edges: tuple[tuple[str, str], ...]) -> WorkflowSpec:
    return WorkflowSpec(
        system=SystemInfo(id="cellar", entry_agent="welcome_w", pattern="selector"),
        agents=(AgentSpec(id="welcome_w", instructions="Acknowledge the request."),
                AgentSpec(id="cellar_c", instructions="Check which cellar is free."),
                AgentSpec(id="host_h", instructions="Confirm the visit.")),
        delegations=tuple({"from": a, "to": b, "trigger": "selector"} for a, b in edges))


CHAIN = (("welcome_w", "cellar_c"), ("cellar_c", "host_h"), ("host_h", "welcome_w"))


@pytest.mark.parametrize("ack", ["¡Gracias! La confirmación llegará del anfitrión.",
                                 "Danke! Die Bestätigung kommt vom Gastgeber."])
def test_a_stop_before_the_members_a_forced_transition_path_gives_a_turn_is_premature(ack):
    trace = Trace(scenario_id="s", events=(
        Message(role="user", content="Una visita a la bodega el sábado, por favor."), AgentTurn(agent="welcome_w"),
        Message(agent="welcome_w", content=ack),
        TerminationEvent(reason="text_mention", detail="Termination message condition met", final_output=ack)))
    assert stated_order(_winery(CHAIN)) == ["welcome_w", "cellar_c", "host_h"]
    found = participation(trace, _winery(CHAIN))
    assert {(f.root_cause, f.agent, f.elements[1]) for f in found} == {
        ("Premature Termination", "welcome_w", "cellar_c"), ("Premature Termination", "welcome_w", "host_h")}
    # a selector free to choose among several states no order
    free = CHAIN + (("welcome_w", "host_h"), ("cellar_c", "welcome_w"))
    assert stated_order(_winery(free)) == [] and participation(trace, _winery(free)) == []


# -- a request in another language, told apart by its values --------------------------------

RIVER = WorkflowSpec(
    system=SystemInfo(id="river", entry_agent="tours_t", pattern="selector"),
    agents=(AgentSpec(id="tours_t", description="Books guided tours.", instructions="Book with book_tour."),
            AgentSpec(id="gear_g", description="Rents paddles and dry bags.", instructions="Quote with rent_gear.")),
    tools=(_tool("book_tour", "Book a guided kayak tour on the river.", {
        "day": 'The day of the tour, e.g. "2026-01-31"', "people": "How many paddlers"}, ints=("people",)),
           _tool("rent_gear", "Rent paddles and dry bags.", {"items": "What to rent", "days": "For how many days"},
                 ints=("days",))),
    permissions=Permissions(allow=(("tours_t", "book_tour"), ("gear_g", "rent_gear"))),
    delegations=({"from": "tours_t", "to": "gear_g", "trigger": "selector"},
                 {"from": "gear_g", "to": "tours_t", "trigger": "selector"}))


def _river(request: str) -> Trace:
    return Trace(scenario_id="s", events=(
        Message(role="user", content=request), AgentTurn(agent="gear_g"),
        Message(agent="gear_g", content="¿Podría darme más detalles? TERMINATE"),
        TerminationEvent(reason="text_mention", final_output="TERMINATE")))


@pytest.mark.parametrize("request_", [
    "Queremos hacer una excursión en kayak el 3 de julio, somos dos.",
    "Olá, gostaríamos de um passeio de kayak no dia 3 de julho, somos dois.",
])
def test_a_foreign_request_whose_date_and_word_fit_one_tool_is_misrouted_elsewhere(request_):
    [f] = misrouted_request(_river(request_), RIVER)
    assert (f.root_cause, f.agent, f.elements[1:]) == ("Misrouted Request", None, ("gear_g", "book_tour"))


@pytest.mark.parametrize("request_", [
    "Queremos hacer una excursión en kayak el 3 de julio y alquilar paddles.",  # speaks of the other's word too
    "Queremos hacer una excursión en kayak, somos dos.",  # no value tells
])
def test_a_foreign_request_is_left_alone_when_its_values_or_words_do_not_tell(request_):
    assert misrouted_request(_river(request_), RIVER) == []


# -- asking back as a structured message or before a stop word ---------------------------------

@pytest.mark.parametrize("reply", ['{"active": false, "reference": "", "message": "Pode indicar-me o código?"}',
                                   '{"ok": false, "note": {"text": "Können Sie mir die Nummer nennen?"}}',
                                   "¿Me podría indicar la fecha? TERMINATE", "Quel jour vous convient ? APPROVE"])
def test_a_question_in_a_structured_reply_or_before_a_stop_word_asks_back(reply):
    assert asks_back(reply)


@pytest.mark.parametrize("reply", ['{"active": true, "message": "Le passe est actif."}',
                                   "Réservé pour le 3 juillet. TERMINATE", '{"n": 3}'])
def test_a_structured_or_stop_worded_statement_asks_nothing(reply):
    assert not asks_back(reply)


@pytest.mark.parametrize("question", ["¿Para cuántas personas? TERMINATE", "Für wie viele Personen? TERMINATE"])
def test_a_run_ended_by_a_stop_word_after_a_question_waits_for_the_user(question):
    def ended(said: str) -> Trace:
        return Trace(scenario_id="s", events=(
            Message(role="user", content="Una visita a la bodega el sábado."), AgentTurn(agent="welcome_w"),
            Message(agent="welcome_w", content=said),
            TerminationEvent(reason="text_mention", detail="Text 'TERMINATE' mentioned", final_output=said)))
    assert participation(ended(question), _winery(CHAIN)) == []
    assert participation(ended("Gracias. TERMINATE"), _winery(CHAIN))
