"""Whether a text is English is a property of the text, not of a list of "English-only" words:
the language whose closed-class words (articles, pronouns, prepositions, auxiliaries) the text
uses most (`wording.language_of`). Words two languages write alike ("is" and "we" in Dutch, "will"
in German, "i" in Italian) no longer make a foreign request English, and a foreign request is
then read from the run's values (a date in words filling one tool's documented form)."""

from __future__ import annotations

import pytest

from masfuzz.oracles.instructed import misrouted_request
from masfuzz.oracles.wording import in_english, language_of
from tests.oracles.test_zoo32_classes import RIVER, _river


@pytest.mark.parametrize("text, language", [
    ("Wat is uw postcode?", "nl"),
    ("Kunnen we morgen om tien uur komen?", "nl"),
    ("Ich will am Freitag kommen, geht das?", "de"),
    ("Mi può dire i dettagli della prenotazione?", "it"),
    ("Quel jour vous convient ?", "fr"),
    ("Pode indicar-me o código?", "pt"),
    ("Can I book it for Friday?", "en"),
    ("Is the van coming at ten?", "en"),
    ("Which day would suit you?", "en"),
    ("Friday 10:00?", None),  # no function word: no language shown
])
def test_a_text_is_in_the_language_whose_function_words_it_uses_most(text, language):
    assert language_of(text) == language
    assert in_english(text) == (language == "en")


@pytest.mark.parametrize("request_", [
    "Wij willen op 3 juli een kayak tocht maken, is dat mogelijk? We zijn met twee.",
    "Vorremmo fare un giro in kayak il 3 luglio, siamo in due.",
])
def test_a_foreign_request_sharing_words_with_english_is_read_from_its_values(request_):
    [f] = misrouted_request(_river(request_), RIVER)
    assert (f.root_cause, f.elements[1:]) == ("Misrouted Request", ("gear_g", "book_tour"))
