"""Information loss with two arguments open: a hand-over note that dropped two facts the user
gave, both of the forms the receiver's tool documents, and the receiver asking back in the
user's language (`handover_facts`, `_asked_by_values`). Every open argument of the tool was given
by the user and did not reach the receiver: both are lost, whatever the question's words name
first. When one open argument is one the user gave nothing for, the question may be for that
one, and nothing is read; a note that carried both leaves nothing lost.
"""

from __future__ import annotations

import pytest

from masfuzz.oracles.semantic import handover_facts
from tests.oracles.test_zoo32_classes import FERRY, SAILINGS, _ferry

BOTH = [
    (told, question) for told, question in SAILINGS] + [
    ("Bonjour, traversée NS-118, acompte de 62,40 € déjà versé, il nous faut 2 cabines.",
     "Pourriez-vous me rappeler la traversée et le montant de l'acompte ?"),
    ("Buongiorno, traversata NS-118, caparra di 62,40 € già pagata, servono 2 cabine.",
     "Mi può indicare la traversata e l'importo della caparra?"),
]


@pytest.mark.parametrize("told, question", BOTH)
def test_a_question_after_a_note_that_dropped_two_given_facts_is_a_loss_of_both(told, question):
    [f] = handover_facts(_ferry(told, question, "Note: 2 cabins."), FERRY)
    assert (f.root_cause, f.agent) == ("Information Loss at Hand-over", "desk_f")
    assert "NS-118" in f.description and "62,40" in f.description
    assert "sailing of book_cabin and deposit of book_cabin" in f.description


@pytest.mark.parametrize("told, question", [
    # the user never named the sailing: the question may be for it
    ("Hola, ya pagué 62,40 € de señal, necesitamos 2 camarotes.", "¿Me puede decir la travesía?"),
    ("Guten Tag, ich habe schon 62,40 € angezahlt, wir brauchen 2 Kabinen.", "Welche Überfahrt, bitte?"),
])
def test_no_loss_is_read_when_an_open_argument_is_one_the_user_never_gave(told, question):
    assert handover_facts(_ferry(told, question, "Note: 2 cabins."), FERRY) == []


@pytest.mark.parametrize("told, question", BOTH)
def test_a_note_that_carried_both_facts_loses_nothing(told, question):
    assert handover_facts(_ferry(told, question, "Note: sailing NS-118, 2 cabins, deposit 62,40."), FERRY) == []
