"""What the semantic oracles read in words: sentences, negations, the actions a tool performs and
a sentence claims done, a tool's failure in its payload, and where a text names an agent.

The oracles of `semantic.py` and `instructed.py` judge runs that ended normally from what agents
said and what tools answered. Every rule here leans towards silence: a sentence that negates,
asks, hedges or speaks of the future claims nothing, and a payload is a failure only when it says
so plainly, so that an oracle built on them stays quiet on a correct run.
"""

from __future__ import annotations

import ast
import functools
import json
import re
import threading
import unicodedata
from collections.abc import Iterable
from typing import Any
from http import HTTPStatus

import snowballstemmer

from masfuzz.spec.model import AgentSpec, ToolSpec, WorkflowSpec

# Actions a tool can perform, each with the words that name it in a tool's name or description
# (stems) and the words with which a sentence reports it done (past participles).
# The past participles include those of French, German, Spanish, Italian and Dutch (their gendered
# and plural endings: réservée, reservadas, prenotati), and the stems a few of their nouns
# (Reservierung, reserva, prenotazione, boeking), so that a claim in those languages ("Ihr Platz
# ist reserviert", "Votre créneau est réservé") is read as the English one is.
ACTIONS: dict[str, tuple[tuple[str, ...], str]] = {
    "book": (("book", "reserve", "reservation", "reserva", "reservier", "reserver", "prenot", "prenotazione",
              "buch", "boek"),
             r"booked|reserved|réservée?s?|reserviert|gebucht|reservad[oa]s?|prenotat[oaie]|riservat[oaie]|"
             r"gereserveerd|geboekt"),
    "refund": (("refund", "reimburse", "rembours", "erstatt", "reembols", "rimbors", "terugbetal"),
               r"refunded|reimbursed|remboursée?s?|erstattet|rückerstattet|reembolsad[oa]s?|rimborsat[oaie]|"
               r"terugbetaald"),
    "change": (("update", "change", "modify", "move", "switch", "edit", "reschedule", "rebook", "modifi",
                "andern", "wijzig"),
               r"updated|changed|modified|moved|switched|edited|rescheduled|rebooked|modifiée?s?|geändert|"
               r"modificad[oa]s?|modificat[oaie]|gewijzigd|aangepast|aktualisiert|actualizad[oa]s?|"
               r"aggiornat[oaie]|mise? à jour"),
    "cancel": (("cancel", "annul", "stornier", "annuleer"),
               r"cancell?ed|annulée?s?|storniert|cancelad[oa]s?|annullat[oaie]|geannuleerd"),
    "send": (("send", "email", "notify", "mail"),
             r"sent|emailed|notified|mailed|delivered|envoyée?s?|gesendet|verschickt|versendet|enviad[oa]s?|"
             r"inviat[oaie]|spedit[oaie]|verzonden|verstuurd"),
    "pay": (("pay", "charge", "payment"), r"paid|charged|payée?s?|bezahlt|pagad[oa]s?|pagat[oaie]|betaald"),
    "create": (("create", "add", "register", "schedule", "submit"),
               r"created|added|registered|scheduled|placed|submitted|opened|filed|créée?s?|enregistrée?s?|"
               r"erstellt|angelegt|eingetragen|registriert|cread[oa]s?|registrad[oa]s?|creat[oaie]|"
               r"registrat[oaie]|aangemaakt|geregistreerd|ingediend"),
    "delete": (("delete", "remove"), r"deleted|removed|supprimée?s?|gelöscht|eliminad[oa]s?|eliminat[oaie]|"
                                     r"verwijderd"),
    "confirm": (("confirm", "bestatig", "conferm", "bevestig"),
                r"confirmed|confirmée?s?|bestätigt|confirmad[oa]s?|confermat[oaie]|bevestigd"),
}
_DONE = {name: re.compile(rf"\b(?:{done})\b", re.IGNORECASE)
         for name, (_, done) in ACTIONS.items()}
# Success said without a past verb, handing the outcome over in the present: "here is your
# booking", "your reference is BK-221", "you're confirmed", "the room is yours", "it is in place"
# ("it's yours": the verb contracted is the same sentence). A texter's "youre in", "ur in", "u r
# all set" say "you're" as well; "in" a queue, a line or luck is no place won.
PRESENT_DONE = (r"\bhere(?:'s| is| are)\s+(?:your|the)\b|\byour\s+(?:\w+\s+)?(?:reference|confirmation|"
                r"ticket|receipt)(?:\s+(?:number|code|no))?\s+is\b|\b(?:you(?:'re|\u2019re|re|\s+are)|ur|u\s+r)\s+(?:all\s+)?"
                r"(?:set|booked|good|confirmed|sorted|covered|in(?!\s+(?:the\s+|a\s+)?(?:queue|line|waitlist|wait\s*list|waiting\s+list|luck)\b))\b|(?:\bis|'s)\s+(?:now\s+)?(?:yours|in\s+place|"
                r"on\s+(?:its|the)\s+way|under\s+way|live)\b")
# Success in general words in French, German, Spanish, Italian and Dutch: sure (it says nothing but
# success: "erfolgreich", "¡listo!", "è andata a buon fine") or general ("c'est fait", "erledigt").
FOREIGN_SURE = (r"\b(?:avec succès|réussie?s?|erfolgreich|hat geklappt|con éxito|exitosamente|listo|"
                r"con successo|riuscit[oaie]|andat[oa] a buon fine|succesvol|gelukt|geregeld)\b")
FOREIGN_DONE = FOREIGN_SURE + r"|\b(?:c'est fait|tout est (?:en ordre|réglé)|effectuée?s?|erledigt|hech[oa]|" \
    r"fatt[oa]|in orde|" + ACTIONS["confirm"][1] + r")\b"
# Success said as the person being on the list the action keeps, whatever the action: "you're
# signed up", "Sie sind eingetragen", "vous êtes inscrit", "u bent ingeschreven" (a booking desk
# says it of a booking as a register says it of a sign-up).
LISTED = (r"\b(?:signed (?:you )?up|enrolled|eingetragen|angemeldet|inscrite?s?|inscrit[oa]s?|iscritt[oaie]|"
          r"ingeschreven|aangemeld|genoteerd|notiert|vorgemerkt|"
          # a desk's idiom of the person written in its book: "I've got you down for 06:15", "I have
          # you down for Friday", "you're down for the 14th" (down on a waiting list is not)
          r"(?:(?:got|have) you down|you(?:'re|\u2019re| are) (?:now )?down for)(?!(?:\s+(?:on|for))?\s+(?:the\s+|a\s+)?"
          r"(?:queue|wait\s*list|waiting\s+list|reserve\s+list|stand-?by)))\b")
# A ticked item of a markdown task list ("- [x] dock reservation", "* [X] deposit taken"): the
# checklist's way of saying the item done; an unticked one ("- [ ]") says it still to do.
TICKED_ITEM = r"^\s*(?:[-*+]\s+|\d+[.)]\s+)?\[[xX\u2713\u2714]\]\s*\S"
# A negation of trouble, not of the outcome: a reassuring desk says success by denying a problem
# ("No issues at all with your payment", "nothing stopped the transfer", "it didn't fail this
# time", "went through without a hitch", "nothing to worry about"). Its "no" and "issue" negate
# the trouble, so they neither hedge nor negate the claim beside it (`plain`).
_TROUBLE = r"(?:issues?|problems?|troubles?|hitch(?:es)?|hiccups?|snags?|glitch(?:es)?|complications?|hassles?)"
_NOTHING_STOPPED = (r"nothing\s+(?:(?:is|was|has\s+been)\s+)?(?:stopp(?:ed|ing)|block(?:ed|ing)|hold(?:ing)?\s+up|held\s+up|"
                    r"(?:went|gone|going)\s+wrong|got\s+in\s+the\s+way)")
TROUBLE_DENIED = re.compile(
    r"\b(?:(?:no|zero|not\s+(?:a\s+single|any|one)|without\s+(?:any|a|the\s+slightest))\s+(?:\w+\s+)?" + _TROUBLE
    + r"(?:\s+(?:at\s+all|whatsoever))?|" + _NOTHING_STOPPED + r"|(?:did|has|have|had)\s*(?:not|n['\u2019]?t)\s+fail(?:ed)?|"
    r"nothing\s+to\s+worry\s+about|no\s+need\s+to\s+worry)\b", re.IGNORECASE)
# ... and such a denial said of the thing itself is the success claimed: "no issues at all with
# your payment", "no problems on the transfer", "nothing stopped your booking", "it didn't fail".
# A bare "No trouble at all!" answers thanks (`COURTESY`): the claim names what had no trouble.
# Trouble denied on someone's side ("nothing went wrong on your end") reassures about that side,
# not about the outcome.
_NOT_A_SIDE = r"(?!\s*(?:on|from|at)\s+(?:your|our|my|their)\s+(?:end|side|part)\b)"
DENIED_TROUBLE_CLAIM = (r"(?:no|zero|not\s+(?:a\s+single|any|one))\s+(?:\w+\s+)?" + _TROUBLE
                        + r"(?:\s+(?:at\s+all|whatsoever))?" + _NOT_A_SIDE + r"\s+(?:with|on|for|in)\s+\w|"
                        + _NOTHING_STOPPED + r"\b" + _NOT_A_SIDE + r"|(?:did|has|have)\s*(?:not|n['\u2019]?t)\s+fail(?:ed)?\b")
# A claim that does not name the action in its verb ("all set", "went through", "has been
# issued") is about a tool only when it names the tool's object (the seat of update_seat) or its
# action as a noun ("your refund has been issued", "the booking is complete").
GENERIC_DONE = re.compile(
    TICKED_ITEM + "|" + LISTED + r"|\b(?:successfully|success|confirmed|all set|went through|is complete|completed|done|issued|"
    r"processed|granted|approved|executed|carried out|finali[sz]ed|sorted|taken care of|good to go|"
    r"gone through|gone in|all good|squared away|wrapped up|put you (?:down|in)|pencil+ed (?:you )?in|"
    # the passive past of an errand run without naming it ("your date has been put through", "the
    # slot has been secured", "it's been seen to")
    r"locked in|put through|secured|arranged|actioned|seen to|dealt with|handled|nailed down)\b|"
    r"\b(?:" + DENIED_TROUBLE_CLAIM + ")|" + PRESENT_DONE + "|" + FOREIGN_DONE,
    re.IGNORECASE)
# The general words that claim success and nothing else: a sentence saying one answers an
# outcome whatever it names ("You're all set"), unlike "processed" or "done", which a refusal
# handled is too.
SURE_DONE = re.compile(
    # "Done" (or "All done") as the verdict a reply opens with, what it is about after a dash or
    # a colon ("Done - Thursday, 10:00"): said of the outcome asked for, not of a refusal handled
    r"^\W*(?:all\s+)?done\s*(?:[-\u2013\u2014:,!.]|$)|"
    # ... or as the speaker's verdict on it ("Lovely, that's done.", "It's all done now")
    r"\b(?:that|it|this)(?:'s|\u2019s|\s+is|\s+has\s+been)\s+(?:all\s+)?done\b|"
    r"\b(?:successfully|all set|good to go|all done|done and dusted|went through|gone through|put through|"
    r"taken care of|all good|"
    r"squared away|sorted|put you (?:down|in)|pencil+ed (?:you )?in|locked in)\b|"
    r"\b(?:" + DENIED_TROUBLE_CLAIM + ")|" + PRESENT_DONE + "|"
    + FOREIGN_SURE + "|" + LISTED, re.IGNORECASE)
# Courtesies that carry a negation's words but negate nothing ("No problem, that's cancelled").
COURTESY = re.compile(r"\b(?:no problem|not a problem|no worries)\b", re.IGNORECASE)
# A sentence with any of these reports no success: negations, apologies, failures, questions'
# and hedges' words, the future and conditions.
# The same in French, German, Spanish, Italian and Dutch: negations, apologies, failures,
# conditions, the future and modal verbs, hedges ("n'a pas pu", "leider nicht", "lo siento",
# "purtroppo non", "helaas niet", "wird ... sobald").
FOREIGN_NOT_A_CLAIM = (
    r"\b(?:pas|jamais|aucune?|rien|impossible|malheureusement|désolée?|échoué|erreur|quand|lorsque|sera|"
    r"seront|serez|pourr\w*|devr\w*|peut-être|nicht|kein\w*|nie|niemals|leider|entschuldigung|fehlgeschlagen|"
    r"fehler|wenn|falls|sobald|wird|werden|würde|könnte|sollte|vielleicht|nunca|nada|ningun\w*|lamentablemente|"
    r"lo siento|desafortunadamente|fall[oó]\w*|cuando|será|serán|podr\w*|deber\w*|quizás?|tal vez|non(?!-)|"
    r"nessun\w*|purtroppo|spiacente|mi dispiace|fallit\w*|errore|qualora|sarà|saranno|potr\w*|dovr\w*|forse|"
    r"niet|geen|nooit|helaas|mislukt|fout|zodra|zal|zullen|zou|wordt|misschien)\b|\bn['’]|[¿]|"
    # French and Spanish "si" is "if" only before what it puts a condition on ("si vous voulez",
    # "si quiere", "s'il"): an Italian "si" ("si trova") and a "sí"/"sì" (yes) condition nothing
    r"\bs['’]il|\bsi\s+(?:vous|tu|nous|on|il|elle|ils|elles|le|la|les|l['’]|votre|vos|ce|cela|ça|usted|"
    r"ustedes|el|los|las|su|sus|no|hay|quiere|quieres|desea|necesita|prefiere|puede|es|está)\b")
NOT_A_CLAIM = re.compile(
    r"\b(?:not|no|never|nothing|unable|cannot|can't|couldn't|didn't|wasn't|isn't|won't|hasn't|"
    r"haven't|failed|fail|fails|failure|unfortunately|sorry|apologi[sz]e|unsuccessful|error|"
    # "may" the month beside a day's number ("sat 9 may", "May 9") hedges nothing
    r"problem|issue|if|once|when|whether|will|would|should|could|shall|(?<!\d\s)may(?!\s+\d)|might|let me|"
    r"i'll|we'll|going to|about to|to be|try|trying|attempt|attempting|please|pending|yet|"
    # a texter's negations, without the apostrophe ("it isnt locked", "cant") or in slang
    r"isnt|wasnt|arent|werent|dont|doesnt|didnt|cant|couldnt|wont|wouldnt|hasnt|havent|aint|nope|nah)\b|n't\b|"
    + FOREIGN_NOT_A_CLAIM, re.IGNORECASE)
# A tool's answer that reports its own failure in words (its first sentence).
FAILED_TEXT = re.compile(
    r"\b(?:error|failed|failure|not available|unavailable|declined|rejected|denied|invalid|"
    r"could not|couldn't|cannot|can't|unable|not found|no such|refused|not allowed|forbidden|"
    r"insufficient|expired|sold out|fully booked|already (?:taken|booked|reserved|in use|occupied)|"
    # the input refused as unreadable ("31 size '297x420' not readable")
    r"not (?:readable|recogni[sz]ed|understood|parsable|parseable)|unreadable|unrecogni[sz]ed|unparsable|unparseable|"
    # a status board's slang for a thing that did not come off ("bounced", "fell through", "no-go")
    r"bounced|fell through|no-go(?![\w-])|"
    # French, German, Spanish, Italian, Dutch
    r"échec|échoué|impossible|refusée?s?|rejetée?s?|indisponible|erreur|n'a pas pu|fehlgeschlagen|"
    r"abgelehnt|nicht möglich|nicht verfügbar|ausgebucht|fehler|ungültig|verweigert|rechazad[oa]s?|"
    r"denegad[oa]s?|no disponible|no se pudo|fallid[oa]s?|agotad[oa]s?|rifiutat[oaie]|negat[oai]|"
    r"non disponibile|non riuscit[oaie]|impossibile|esaurit[oaie]|errore|mislukt|geweigerd|afgewezen|"
    r"niet beschikbaar|niet gelukt|volgeboekt|ongeldig|"
    # nothing of the thing left: "no slots left", "kein Platz frei", "plus de place", "no hay
    # plazas", "nessun posto libero", "geen plek meer"
    r"no (?:\w+ )?(?:left|free|remaining|available)|kein\w* (?:\w+ )?(?:frei|verfügbar|mehr)|plus de places?|"
    r"no (?:hay|quedan) \w+|nessun\w* (?:\w+ )?(?:liber[oaie]|disponibil[ei])|geen \w+ (?:vrij|meer|beschikbaar))\b",
    re.IGNORECASE)
# A cross mark opening a line ("❌ **Wall slot** — ...", "✖ Van"): a status board's item that did
# not come off, whatever its words say. With a waiting or warning mark (`UNSETTLED_MARK`), the
# marks that say an item is not done.
_CROSSES = "\u274c\u274e\u2716\u2717\u2718\u2715\u26d4\U0001f6ab"
CROSSED = re.compile(rf"^\W*?[{_CROSSES}]")
UNSETTLED_MARK = re.compile(rf"^\W*?[{_CROSSES}\u23f3\u231b\u26a0\u2753\u2757]")
# A tool's bare answer that the thing is not to be had ("Slot taken.", "Platz belegt", "Complet",
# "Agotado", "Vol"): a word that is a refusal only when it is nearly all the answer says ("Payment
# taken for Thursday" is take_payment's success, "paiement complet" a full payment). Read in a
# first sentence of at most BARE_WORDS words, and never when it is the tool's own verb done.
BARE_REFUSAL = re.compile(
    r"\b(?:taken|full|occupied|gone|closed|belegt|besetzt|voll|geschlossen|complet|complète|occupée?|fermée?|"
    r"lleno|llena|ocupad[oa]|cerrad[oa]|pien[oa]|occupat[oa]|chius[oa]|bezet|vol|dicht|gesloten)\b",
    re.IGNORECASE)
BARE_WORDS = 4
FAILED_STATES = {"failed", "failure", "error", "declined", "rejected", "denied", "unavailable",
                 "not_available", "not available", "invalid", "refused", "forbidden", "conflict",
                 "already_taken", "fully_booked", "sold_out", "aborted", "timed_out", "timeout",
                 # French, German, Spanish, Italian, Dutch
                 "échec", "refusé", "rejeté", "fehlgeschlagen", "abgelehnt", "rechazado", "fallido",
                 "denegado", "fallito", "rifiutato", "mislukt", "geweigerd", "afgewezen"}
# A framework's words around an exception it turned into the tool's answer (LangGraph's "Please
# fix your mistakes", PydanticAI's retry prompt, the Agents SDK's and CrewAI's error text),
# wherever they stand in the answer.
FRAMEWORK_ERROR = re.compile(r"\b(?:please fix your mistakes|fix the errors and try again|an error occurred "
                             r"while running the tool|error executing tool)\b", re.IGNORECASE)
# Words that say the sentence concerns an inability or an apology (a give-up after an error).
GIVE_UP = re.compile(
    r"\b(?:sorry|apologi[sz]e|apologies|unfortunately|unable|cannot|can't|couldn't|could not|did not go "
    r"through|didn't go through|not possible|technical (?:problem|issue|difficult)|try again later|"
    r"failed)\b", re.IGNORECASE)
STOPWORDS = {"the", "a", "an", "to", "of", "for", "and", "or", "with", "on", "in", "by", "from",
             "tool", "get", "do", "run", "new", "my", "your", "info", "data", "api", "func"}


def sentences(text: str) -> list[str]:
    """The text cut into sentences (at . ! ? and line breaks, and after a closing quote or bracket
    that follows one: `"Reserved." Sorry ...`), stripped, none empty."""
    parts = re.split(r"(?<=[.!?])\s+|(?<=[.!?][\"'”’»)\]])\s+|\n+", text or "")
    return [p.strip() for p in parts if p.strip()]


def is_question(sentence: str) -> bool:
    return sentence.rstrip().endswith("?")


# A closing offer of more help, the sign-off of a desk's reply: "Is there anything else I can help
# with today?", "Anything more I can do for you?", "Can I help with something else?", "Any other
# questions?", "How else can I help?". It asks for nothing the task lacks.
OFFERS_MORE = re.compile(
    r"\b(?:(?:anything|something)\s+(?:else|more|further)|any\s+(?:other|more|further)\s+"
    r"(?:questions?|queries|help|requests?)|(?:how|what)\s+else)\b", re.IGNORECASE)


def offers_more(sentence: str) -> bool:
    """Is the sentence a closing offer of more help (`OFFERS_MORE`), asked as a question?"""
    return is_question(sentence) and OFFERS_MORE.search(sentence) is not None


# A question offering the speaker's next step or asking after the user's satisfaction: "Want me to
# email the receipt too?", "Shall I add a reminder?", "Would you like me to text you the code?",
# "Should I also cancel the old one?", "Does that help?", "Sound good?". After work reported done
# it offers more; before it ("Shall I book it?") it asks consent for the work itself.
OFFERS_STEP = re.compile(
    r"^\W*(?:(?:do\s+you\s+|would\s+you\s+)?(?:want|like)\s+(?:me|us)\s+to|shall\s+(?:i|we)|should\s+(?:i|we)|can\s+(?:i|we)\s+(?:also|help)|may\s+i\s+(?:also|help)|"
    r"(?:does|did|is)\s+(?:that|this|everything)\s+(?:help|work|sound|look)|(?:sounds?|looks?)\s+good|happy\s+with\s+that)\b",
    re.IGNORECASE)
# The step offered is the one just discussed, asked leave for ("Shall I go ahead?", "Should I
# book it?", "Want me to confirm that?"), unless the question says it is more ("... it too?"), or
# a choice put to the user ("Shall I book the 10:00 or the 11:00?"): both wait for an answer.
CONSENT = re.compile(r"\b(?:go\s+ahead|proceed|continue|or|\w+\s+(?:it|that|this|them|one)\s*\?)", re.IGNORECASE)
MORE = re.compile(r"\b(?:too|also|as\s+well|additionally|another)\b", re.IGNORECASE)
# Where a closing question joins the statement before it in one sentence ("All set — shall I add
# a reminder?", "Done, want me to email it too?").
_CLAUSE = re.compile(r"\s*(?:[\u2014\u2013;,]|\s-\s)\s*")


def closing_offers(said: list[str], heard: Iterable[str] = ()) -> list[str]:
    """The sentences of a reply without the questions that close it asking for nothing the task
    lacks: an offer of more help (`offers_more`: "Anything else I can help with?"), a question
    holding a phrase in `heard` (one a stop condition listens for, lower case), and, once the
    reply has said its work done (`claims_done`, in a sentence before or a clause before the
    question's own: "All set — shall I add a reminder?"), an offer of a further step or a
    courtesy (`OFFERS_STEP`: "Want me to email the receipt too?", "Does that help?") that is not
    leave asked for the step just discussed (`CONSENT`: "Shall I go ahead and book it?"), when
    no part of the work is said undone beside it (`says_undone`). The sentence left last decides
    whether the reply still asks."""
    said = list(said)
    while said and is_question(said[-1]):
        last = said[-1]
        # the offer opens the sentence or one of its clauses; what stands before it is said
        start = next((k for k in (0, *(m.end() for m in _CLAUSE.finditer(last))) if OFFERS_STEP.match(last[k:])), None)
        head = [c for c in _CLAUSE.split(last[:start]) if c.strip()] if start else []
        asked = last[start:] if start is not None else ""
        before = said[:-1] + head
        # a step offered after a part said done and another said not ("The frame is booked in.
        # The paint could not be matched. Want me to try the other supplier?") offers the undone
        # part's next step: the work is not finished, and the question waits for the user
        if not (offers_more(last) or any(h in last.lower() for h in heard)
                or asked and (MORE.search(asked) or not CONSENT.search(asked))
                and any(claims_done(s) for s in before) and not any(says_undone(s) for s in before)):
            break
        said = said[:-1] + head
    return said


def says_undone(sentence: str) -> bool:
    """Does a sentence of a reply say a part of the work was not done, not to be had or not found
    ("The paint could not be matched.", "No van is free on Monday.", "❌ Wall slot"), rather
    than done or asked about: a failure's words, a mark of an item not done, or a negation
    ("No blue paint is left in stock."), a courtesy's aside ("No problem."). An apology alone
    ("Sorry for the wait!") is a courtesy too."""
    if is_question(sentence):
        return False
    return says_failed(sentence) or bool(UNSETTLED_MARK.match(sentence) or NEGATION.search(COURTESY.sub(" ", sentence)))


def says_failed(sentence: str) -> bool:
    """Does a sentence say in a failure's words that the thing was not done or not found ("could
    not be processed", "No kennel was found")? The narrow reading `says_undone` widens."""
    return bool(FAILED_TEXT.search(sentence) or NONE_FOUND.search(sentence))


# A negation of what a sentence states ("not", "no", "never", "wasn't").
NEGATION = re.compile(r"\b(?:not|no|never|none|nothing|nowhere)\b|n['\u2019]t\b", re.IGNORECASE)


# What a sentence says of the tool's result ("report the result of T", "T's answer", "what T
# returns"): it presupposes a call, made when another sentence asks for it, and is no duty itself.
# The tool may be quoted (`T`, 'T') and its saying in any tense ("share what `T` said").
RESULT_OF = (r"\b(?:results?|outputs?|answers?|repl(?:y|ies)|responses?|findings)\s+(?:of|from|"
             r"(?:returned|given)\s+by)\s+[`'\"‘“]?{tool}|{tool}[`'\"’”]?(?:'s|’s)\s+(?:results?|outputs?|answers?|"
             r"repl(?:y|ies)|responses?|findings)\b|\bwhat(?:ever)?\s+(?:[`'\"‘“]?\w+[`'\"’”]?\s+(?:or|and)\s+)?"
             r"[`'\"‘“]?{tool}[`'\"’”]?(?:\s+(?:or|and)\s+[`'\"‘“]?\w+[`'\"’”]?)?\s+(?:returns?|returned|says?|said|"
             r"gives?|gave|found|finds|answers?|answered|repl(?:y|ies|ied)|reports?|reported|tells?|told|"
             r"(?:comes?|came|sends?|sent)\s+back(?:\s+with)?)\b")


# A farewell closing a reply ("Enjoy your stay!", "Bye for now", "Have a lovely evening").
FAREWELL = re.compile(r"\b(?:good\s?bye|bye(?:\s+for\s+now)?|farewell|take care|enjoy|have an? (?:\w+\s+)?(?:day|"
                      r"evening|night|weekend|trip|stay|time)|see you|safe travels|all the best)\b", re.IGNORECASE)


# Thanks, the answer to thanks, and the invitation to come back that close a chat ("Thank you!",
# "You're very welcome!", "My pleasure.", "Feel free to reach out anytime."): words about the
# exchange, none about the task. With `FAREWELL` and `offers_more`, what `only_courtesy` reads.
GRATITUDE = re.compile(
    r"\b(?:thanks|thank\s+you|many\s+thanks|cheers|you(?:['\u2019]re|\s+are)\s+(?:(?:very|most|so)\s+)?welcome|"
    r"my\s+pleasure|(?:glad|happy)\s+(?:to\s+(?:help|assist)|I\s+could\s+help)|(?:I\s+)?appreciate\s+(?:it|that|your\s+help)|"
    r"(?:feel\s+free|(?:don['\u2019]t|do\s+not)\s+hesitate)\s+to\s+(?:ask|reach\s+out|come\s+back|contact|get\s+in\s+touch))\b",
    re.IGNORECASE)
# A bare acknowledgement, the whole sentence ("Will do.", "You too!", "Likewise."): no answer.
ACKNOWLEDGED = re.compile(r"^\W*(?:will\s+do|you\s+too|likewise|same\s+to\s+you)\W*$", re.IGNORECASE)


def only_courtesy(text: str) -> bool:
    """Is a message nothing but the courtesies that close a chat, every sentence thanks, an answer
    to thanks, a farewell or an offer of more help ("Thank you!", "You're very welcome! Have a
    wonderful day!")? One sentence of anything else ("Thanks! The total is 42.") says something
    of the task, and so does a sentence with a number in it ("Thank you, 42 it is."): the message
    is no mere courtesy."""
    said = sentences(text)
    return bool(said) and all(not re.search(r"\d", s) and (GRATITUDE.search(s) or FAREWELL.search(s)
                                                            or ACKNOWLEDGED.match(s) or offers_more(s))
                              for s in said)


# A list of questions, one particular a line ("1. Which day is the flight?"), whatever follows it.
NUMBERED_QUESTION = re.compile(r"^\s*(?:\d+[.)]|[-*\u2022])\s+.+\?\s*$", re.MULTILINE)


# A line that labels what is still wanting from the user ("Missing: date, party size", "Still
# needed: arrival day", "To proceed I need:" over a list): the label, then what it lists. "I need"
# may take what is wanting as its object, counted or pointed at by closed-class words (numerals,
# determiners) before the colon: "I need 2 thing(s):", "we need the following details:".
WANTING_LABEL = re.compile(r"^[\W_]*(?:(?:still\s+)?(?:missing|needed|required|outstanding|wanted)(?:\s+(?:details?|"
                           r"fields?|information|info|values?))?|(?:details?|fields?|information|info)\s+(?:missing|needed|"
                           r"required)|(?:please\s+)?(?:provide|send|confirm)|(?:to\s+\w+(?:\s+\w+)?,?\s+)?(?:i|we)\s+"
                           r"(?:still\s+)?need(?:\s+(?:\d+|a|an|the|these|those|some|few|following|more|other|two|three|four|"
                           r"five|six)\b){0,3}(?:\s+[a-z]+(?:\(s\))?)?)\s*:\s*(.*)$", re.IGNORECASE | re.MULTILINE)
LIST_ITEM = re.compile(r"^\s*(?:\d+[.)]|[-*\u2022])\s+(.+)$")
# A table column of what is wanting: its header says so ("| Field | Needed |").
WANTING_HEADER = re.compile(r"^(?:still\s+)?(?:needed|missing|required|outstanding|to\s+(?:provide|confirm)|"
                            r"needed\s+from\s+you)$", re.IGNORECASE)


# What says nothing is wanting ("Missing: none", "Required: n/a").
NOTHING = frozenset({"none", "nothing", "n/a", "na", "nil", "-", "no", "nope"})


def _names_only(items: list[str]) -> bool:
    """Do the items name things (a field, a detail: six words at most, no figure), not report
    outcomes ("Missing: 2 crates from the delivery") or that nothing is wanting ("Missing:
    none")?"""
    return bool(items) and all(0 < len(i.split()) <= 6 and not re.search(r"\d", i)
                               and i.lower() not in NOTHING for i in items)


def lists_missing(text: str) -> bool:
    """Does a reply ask for missing values in a structured form: a line labelled with what is
    wanting that lists names ("Missing: date, party size", "Needed:" over a bulleted list of
    fields), or a table whose header marks a column as needed ("| Field | Needed |")?"""
    lines = (text or "").splitlines()
    for k, line in enumerate(lines):
        if m := WANTING_LABEL.match(line):
            rest = m.group(1).strip().rstrip(".")
            if rest:
                items = [i.strip(" *`_") for i in re.split(r",|;|/|\band\b|\bor\b", rest) if i.strip(" *`_")]
            else:  # the label over a list, one name a line
                items = []
                for nxt in lines[k + 1:]:
                    if not (item := LIST_ITEM.match(nxt)):
                        break
                    items.append(item.group(1).strip(" *`_.").split(":")[0])
            if _names_only(items):
                return True
        if k and re.fullmatch(r"\s*\|?(?:\s*:?-{3,}:?\s*\|)+\s*:?-*:?\s*", line) and "|" in lines[k - 1]:
            if any(WANTING_HEADER.match(c.strip(" *`_")) for c in lines[k - 1].split("|")):
                return True
    return False


# A stop word a team's termination condition listens for, written after the reply's last sentence
# ("Could you tell me the date? TERMINATE"): a signal to the framework, not words to the user.
STOP_TOKEN = re.compile(r"\s+[A-Z][A-Z_]{3,}\W*$")


def asks_back(text: str) -> bool:
    """Does a reply ask the user for what the agent lacks: it ends on a question that is not a
    closing offer (`closing_offers`: "Booked: ref K-4. Anything else?" and "Done. Want me to email
    the receipt too?" have finished; "Which row would you like? Anything else?" still asks; a stop
    word after it aside, `STOP_TOKEN`), lists its questions one particular a line (a reasoning
    model's "To get this moving I need:\n1. Which day ...?"), or lists the missing values in a
    structured form (`lists_missing`)? A structured reply (a typed output: `{"active": false,
    "message": "Pode indicar-me o código?"}`) asks back when one of its text fields does: the
    question mark, not the language, says it asks. So does a reply written as `key: value` lines
    whose one field asks, wherever it stands (`reply_texts`)."""
    texts = reply_texts(text)
    if texts != [text]:
        return any(asks_back(t) for t in texts)
    said = closing_offers(sentences(STOP_TOKEN.sub("", text.rstrip())))
    return bool(said) and is_question(said[-1]) or bool(NUMBERED_QUESTION.search(text)) or lists_missing(text)


def leaf_values(data: object) -> list[object]:
    """The leaf values of a structured text (nested objects and lists walked), in the order
    written: what it says, its keys being its shape."""
    out, stack = [], [data]
    while stack:
        v = stack.pop()
        if isinstance(v, dict):
            stack.extend(reversed(list(v.values())))
        elif isinstance(v, (list, tuple)):
            stack.extend(reversed(v))
        else:
            out.append(v)
    return out


def reply_texts(text: str) -> list[str]:
    """What a reply says in words: the one reading of a typed or structured answer's text, for
    every oracle that reads what an agent told (a question asked, an offer made). A structured
    reply (JSON, a printed dict or model: a typed output) says its text values, nested objects
    and lists walked in order (`{"booked": false, "questions": ["Which day suits you?"]}`), its
    keys and flags being its shape, and nothing when it holds no text; a reply written as
    `key: value` fields (`reply_fields`: "note: Which day suits you?\nstatus: pending") says its
    values; prose says itself, whole."""
    data = structured(text.strip())
    if isinstance(data, (dict, list)):
        return [v for v in leaf_values(data) if isinstance(v, str) and v.strip()]
    fields = reply_fields(text)
    return [v for _, v in fields if isinstance(v, str) and v.strip()] if fields else [text]


# One `key: value` field of a reply written as fields ("status: done", "- result: locked in"): a
# key of at most three words, then a value; a comma or a semicolon before the next key, or a new
# line, ends it ("status: held at bond, code: E_ABV_FORMAT"). A time's colon ("10:00") is no key's.
_REPLY_FIELD = re.compile(r"\s*(?:[-*\u2022]\s*)?([A-Za-z_][\w'-]*(?:[ .][A-Za-z_][\w'-]*){0,2})\s*[:=]\s+(\S.*?)\s*")
_NEXT_FIELD = re.compile(r"\n+|[,;]\s*(?=[A-Za-z_][\w'-]*(?:[ .][A-Za-z_][\w'-]*){0,2}\s*[:=]\s)")


def reply_fields(text: str) -> list[tuple[str, Any]] | None:
    """An agent's reply as the fields it is written in, or None when it is prose: a JSON object
    or a printed dict (its top level, and the fields of the objects in it), or `key: value`
    lines or pairs, every part of the reply one. A terse, structured agent states an outcome as
    a field ("result": "locked in", "ok": true, "status: done"), not as a sentence."""
    data = structured(text.strip()) if text.strip()[:1] in "{" else None
    if isinstance(data, dict):
        return [(k, v) for k, v in nested_fields(data) if not isinstance(v, (dict, list))]
    parts = [p for p in _NEXT_FIELD.split(text.strip()) if p.strip()]
    found = [m for p in parts if (m := _REPLY_FIELD.fullmatch(p)) and len(sentences(m.group(2))) == 1]
    # a value of sentences is prose under a label ("Update: your pitch is booked. Sorry for the
    # wait."), and one label alone is a sentence's unless it names an outcome ("status: done") or
    # its value is a flag's ("paid: true", "booked: no")
    if not parts or len(found) < len(parts) or len(found) == 1 and (
            found[0].group(1).lower() not in STATE_KEYS and found[0].group(1).lower() not in OUTCOME_KEYS
            and found[0].group(2).strip(" .!").lower() not in FLAG_WORDS):
        return None
    return [(m.group(1), m.group(2)) for m in found]


FLAG_WORDS = {"true", "false", "yes", "no"}  # a field's value that is a flag, written out


def nested_fields(data: Any, depth: int = 0) -> list[tuple[str, Any]]:
    """(key, value) of every field of a structured answer, nested ones too."""
    if depth > 4:
        return []
    if isinstance(data, dict):
        return [(str(k), v) for k, v in data.items()] + [f for v in data.values() for f in nested_fields(v, depth + 1)]
    if isinstance(data, list):
        return [f for v in data for f in nested_fields(v, depth + 1)]
    return []


# The closed-class words (articles, pronouns, prepositions, auxiliaries, question words) of the
# major European languages. A class closed by grammar does not grow with the idioms a model
# writes: which language's function words a text uses most is a property of the text, where a
# list of "English-only" words is not (Dutch writes "is" and "we", German "will", Italian "i").
FUNCTION_WORDS = {
    "en": frozenset("the a an you your which what could would should please will is are was does do did can how "
                    "when where who have has there this that with for it i we my our need and of to at on in be "
                    "me us they them".split()),
    "de": frozenset("der die das den dem des ein eine einen einem ich sie wir ihr mir mich uns ist sind war "
                    "haben hat können könnten kann will wollen möchte bitte wie wann wo wer was welche welcher "
                    "für mit und von zu am im auf nicht es".split()),
    "fr": frozenset("le la les un une des du de je vous nous il elle est sont était avez avons pouvez "
                    "pourriez voudrais merci comment quand où qui que quel quelle pour avec et au aux dans "
                    "sur ne pas ce cette mon ma votre vos".split()),
    "es": frozenset("el la los las un una unos de del yo usted ustedes nosotros es son está están era "
                    "puede podría quiero quisiera gracias cómo cuándo dónde quién qué cuál para con y al en "
                    "por no me mi su sus somos".split()),
    "it": frozenset("il lo la i gli le un una di del della io lei noi voi è sono era può potrebbe vorrei "
                    "grazie come quando dove chi che quale per con e al nel non mi mio suo siamo".split()),
    "pt": frozenset("o a os as um uma de do da dos das eu você nós é são está estão era pode poderia "
                    "quero gostaria obrigado obrigada como quando onde quem que qual para com e ao no na "
                    "não me meu minha seu sua somos".split()),
    "nl": frozenset("de het een ik u jij wij we jullie is zijn was kan kunt kunnen wil willen graag "
                    "bedankt hoe wanneer waar wie wat welke voor met en van aan in op niet mijn uw ons".split()),
}


def language_of(text: str) -> str | None:
    """The major European language whose function words (`FUNCTION_WORDS`) the text uses most,
    or None when none does, or two do alike: "Wat is uw postcode?" is Dutch whatever English
    also writes "is", "Can I book for Friday?" English whatever Italian also writes "i"."""
    said = [w.lower() for w in re.findall(r"[^\W\d_]+(?:'[^\W\d_]+)?", text or "")]
    counts = {lang: sum(w in fw for w in said) for lang, fw in FUNCTION_WORDS.items()}
    best = max(counts.values())
    leaders = [lang for lang, n in counts.items() if n == best]
    return leaders[0] if best and len(leaders) == 1 else None


def in_english(text: str) -> bool:
    """Is the text English (`language_of`): the rules that read English words judge it; one in
    another language, or one that shows none (a customer's "Pode indicar-me o valor?", "Könnten
    Sie mir die Nummer nennen?"), is read from the run's values."""
    return language_of(text) == "en"


# Month names of the major European languages (English, Spanish, French, German, Italian,
# Portuguese, Dutch), cut to the letters that tell them apart, with their number: a date written
# in words ("le 14 juin", "am 14. August", "18 de abril", "March 12th") is the date a tool
# documents as "2026-01-31", whatever the language.
MONTHS = {
    1: r"jan(?:uary|uar|vier|eiro)?|ene(?:ro)?|genn(?:aio)?|jän(?:ner)?|januari",
    2: r"feb(?:ruary|ruar|rero|braio|ruari)?|févr?(?:ier)?|fev(?:ereiro)?",
    3: r"mar(?:ch|zo|s|ço|ço)?|mär(?:z)?|maart",
    4: r"apr(?:il|ile)?|abr(?:il)?|avr(?:il)?",
    5: r"may|mai|mayo|mag(?:gio)?|maio|mei",
    6: r"jun(?:e|i|io|ho)?|juin|giu(?:gno)?",
    7: r"jul(?:y|i|io|ho)?|juil(?:let)?|lug(?:lio)?",
    8: r"aug(?:ust|ustus)?|ago(?:sto)?|août|aout",
    9: r"sep(?:t|tember|tiembre|tembre|tembro)?|set(?:tembre|embro)?",
    10: r"oct(?:ober|ubre|obre)?|okt(?:ober)?|ott(?:obre)?|out(?:ubro)?",
    11: r"nov(?:ember|iembre|embre|embro)?",
    12: r"dec(?:ember|embre)?|dic(?:iembre|embre)?|déc(?:embre)?|dez(?:ember|embro)?",
}
_MONTH = "|".join(f"(?P<m{n}>{names})" for n, names in MONTHS.items())
DATE_IN_WORDS = re.compile(
    rf"\b(?P<day>[0-3]?\d)(?:st|nd|rd|th|er|º|ª)?\.?\s+(?:de\s+|of\s+)?(?:{_MONTH})\b\.?|"
    rf"\b(?:{_MONTH.replace('(?P<m', '(?P<n')})\.?\s+(?P<day2>[0-3]?\d)(?:st|nd|rd|th)?\b", re.IGNORECASE)


def dates_in_words(text: str) -> list[tuple[int, int]]:
    """The dates a text writes with a month's name, in any of `MONTHS`' languages: (month, day)."""
    out = []
    for m in DATE_IN_WORDS.finditer(text or ""):
        month = next(int(k[1:]) for k, v in m.groupdict().items() if v and k[0] in "mn" and k[1:].isdigit())
        day = int(m.group("day") or m.group("day2"))
        if 1 <= day <= 31:
            out.append((month, day))
    return out


def date_renderings(month: int, day: int, year: int = 2026) -> list[str]:
    """A date's usual numeric spellings (ISO, day first, month first, with dots), to test a tool's
    documented date form against: a date in words fills a parameter documented "2026-01-31"."""
    return [f"{year}-{month:02d}-{day:02d}", f"{day:02d}/{month:02d}/{year}", f"{month:02d}/{day:02d}/{year}",
            f"{day:02d}.{month:02d}.{year}", f"{year}{month:02d}{day:02d}"]


def claims_done(sentence: str) -> bool:
    """Does the sentence state, plainly and in the past, that something was done? Negated,
    hedged, conditional, future and asking sentences claim nothing."""
    if not plain(sentence):
        return False
    return any(p.search(sentence) for p in _DONE.values()) or bool(GENERIC_DONE.search(sentence))


# A sentence that presents content to come, not an outcome: it ends with a colon and what it
# presents follows it ("Here is the revised code:" before a code block), or what it presents is
# the speaker's own writing ("Here's the updated script using Firefox", "Here is the link again:
# [...]"). It promises content; "Here is your refund: five euros back" still hands an outcome over.
PRESENTS = re.compile(
    r"^\W*(?:here(?:'s|\s+is|\s+are)|below\s+(?:is|are))\b(?:[^:]*:\s*$|[^:]*?\b(?:code|script|snippet|"
    r"function|program|command|query|link|url|plan|steps?|draft|version|summary|outline|example|table)s?\b)",
    re.IGNORECASE)


# A hedge of the speaker's certainty about an outcome already settled: "that should be all
# sorted", "it should have gone through", "it seems to have been booked", "it appears to be
# reserved". The user still hears the outcome: the hedge says how sure the speaker is that it
# happened, not that it is still to happen ("looks like it went through", "I think you're all
# set" carry no word of `NOT_A_CLAIM` and read as claims already). A hedge of what is to come is no
# outcome told: "should be able to", "should be ready by Friday", "should be confirmed shortly",
# "should be booked in advance" (`TO_COME`); a hedge beside any other word of `NOT_A_CLAIM` (a
# negation, a condition) leaves that word to decide, and "might", "may", "could" stay hedges.
SETTLED_HEDGE = re.compile(r"\bshould(?=\s+(?:now\s+|all\s+)?(?:be|have)\b)|"
                           r"\b(?:seems|appears)\s+to(?=\s+(?:have|be)\b)", re.IGNORECASE)
TO_COME = re.compile(r"\b(?:able|ready|by|shortly|soon|later|(?<!for\s)(?:tomorrow|tonight|next)|within|in\s+advance|"
                     r"beforehand|ahead|in\s+(?:a|an|\d+|a\s+few)\s+(?:minutes?|hours?|days?|weeks?))\b", re.IGNORECASE)


def unhedged(sentence: str) -> str:
    """The sentence with a hedge of a settled outcome (`SETTLED_HEDGE`) left out, when it hedges
    nothing to come (`TO_COME`); else the sentence as it is."""
    if not SETTLED_HEDGE.search(sentence) or TO_COME.search(sentence):
        return sentence
    return SETTLED_HEDGE.sub(" ", sentence)


def plain(sentence: str) -> bool:
    """A sentence that states, not asks, hedges, negates or promises (courtesies aside); one
    that presents content to come (`PRESENTS`) promises it. A hedge of an outcome already
    settled ("that should be all sorted", `unhedged`) still states it."""
    sentence = unhedged(sentence)
    return not is_question(sentence) and not PRESENTS.search(sentence) and \
        not NOT_A_CLAIM.search(TROUBLE_DENIED.sub(" ", COURTESY.sub("", sentence)))


def reassures_beside_failure(clause: str, sentence: str) -> bool:
    """Is the clause a denial of trouble (`DENIED_TROUBLE_CLAIM`) in a sentence that tells a
    failure or an apology ("No problems with your card, but the booking was declined")? Then it
    reassures the user beside the failure it tells; it claims nothing done."""
    return bool(re.search(r"\b(?:" + DENIED_TROUBLE_CLAIM + ")", clause, re.IGNORECASE)) \
        and bool(FAILED_TEXT.search(sentence) or GIVE_UP.search(sentence))


def says_done_by_verb(sentence: str, tool: str) -> bool:
    """Does a plain sentence say the tool's own verb done, whatever the verb (close_ticket:
    "the ticket is closed", lodge_claim: "we've lodged it")?"""
    return plain(sentence) and any(re.search(rf"\b{re.escape(p)}\b", sentence, re.IGNORECASE)
                                   for p in participles(tool))


def words(text: str) -> list[str]:
    """Lower-case word tokens; snake_case and camelCase split, accents dropped (réservation is
    one word, reservation, not two)."""
    return list(_words(text or ""))  # a list of its own: a caller may change it


# The detectors split the same names and descriptions (the spec's agents and tools) again for
# every trace, thousands of times per judging: a third of a worker's judging went to it.
@functools.lru_cache(maxsize=4096)
def _words(text: str) -> tuple[str, ...]:
    text = re.sub(r"([a-z])([A-Z])", r"\1 \2", text)
    if not text.isascii():
        text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return tuple(w for w in re.split(r"[^A-Za-z0-9]+", text.lower()) if w)


# The English Snowball (Porter2) stemmer of the Snowball project: the oracles' one stemmer, so that
# "triangle" and "triangles", "booking" and "booked", "cancellation" and "cancel" meet wherever
# two texts' words are compared. Its stemmer objects keep state between calls: one per thread.
_SNOWBALL = threading.local()


@functools.lru_cache(maxsize=16384)  # every execution's requests go through it, word by word
def stem(word: str) -> str:
    """A lower-case word's Snowball stem: its inflections (plural, past, -ing) and its common
    derivational endings (-ation, -al, -ment in long words) off."""
    stemmer = getattr(_SNOWBALL, "stemmer", None)
    if stemmer is None:
        stemmer = _SNOWBALL.stemmer = snowballstemmer.stemmer("english")
    return stemmer.stemWord(word)


# English function words of four letters or more: they say nothing of what a request needs, and
# one shared with a tool's description ("a letter about my return", "forms about a topic") must
# not make that tool a candidate and so hide the one the request's content words do name.
_LONG_FUNCTION_WORDS = {"about", "above", "after", "again", "also", "before", "below", "been", "could",
                        "does", "each", "from", "have", "here", "into", "just", "like", "more", "most",
                        "much", "only", "other", "over", "please", "should", "some", "such", "than",
                        "that", "their", "them", "then", "there", "these", "they", "this", "those",
                        "under", "very", "what", "when", "where", "which", "while", "will", "with",
                        "would"}


def content_stems(text: str) -> set[str]:
    """A text's content words as stems (`stem`), a reversing or repeating prefix (un-, re-) off
    first, so that "locked" and "unlock", "logins" and "login", "triangle" and "triangles" meet.
    Function words (`_LONG_FUNCTION_WORDS`, `STOPWORDS`) and bare numbers are no content words.
    The one reader of what a request, a description or a summary is about, where words are
    compared as sets (routing, a summary's kept requirements)."""
    return {stem(re.sub(r"^(?:un|re)(?=\w{4})", "", w)) for w in words(text)
            if w not in STOPWORDS and w not in _LONG_FUNCTION_WORDS and len(w) >= 4 and not w.isdigit()}


# Endings that derive a noun from a verb and that Snowball keeps on a short word (payment,
# enrolment on a short stem) or leaves after its own cut (registr-ation -> registr, regist-er).
_DERIVED = ("ment", "ion", "ation", "ition", "al", "ance", "ence", "age", "ure")


def same_root(a: str, b: str) -> bool:
    """Are two words forms of one root: their stems equal, one stem the other with a derivational
    ending (`_DERIVED`, or a letter or two on a stem of four: registr/regist, notifi/notif), or
    the two differing in the Latin alternation of a verb and its -sion noun (extend/extension,
    convert/conversion, submit/submission)?"""
    a, b = stem(a), stem(b)
    if a == b:
        return True
    short, long = sorted((a, b), key=len)
    if long.startswith(short):
        rest = long[len(short):]
        return len(short) >= 4 and len(rest) <= 2 or len(short) >= 3 and rest in _DERIVED
    for x, y in ((a, b), (b, a)):
        verb = re.fullmatch(r"(\w{4,}?)[dt]", x)
        noun = re.fullmatch(r"(\w{4,}?)s{1,2}", y)
        if verb and noun and verb.group(1) == noun.group(1):
            return True
    return False


@functools.lru_cache(maxsize=8192)  # every execution's requests go through it, word by word
def _stem_of(word: str) -> str | None:
    """The action (`ACTIONS`) a word names: one of the action's words with a short ending
    ("bookings", "reservierung"), or any derived form of one's root (`same_root`: "cancellation",
    "reimbursement", "modification")."""
    for name, (stems, _) in ACTIONS.items():
        if any(word == s or word.startswith(s) and len(word) - len(s) <= 3 for s in stems):
            return name
    if len(word) < 4 or not word.isalpha():
        return None
    for name, (stems, _) in ACTIONS.items():
        if any(same_root(word, s) for s in stems):
            return name
    return None


def tool_actions(tool: str, spec: WorkflowSpec | None) -> set[str]:
    """The actions a tool performs: from its name's words, and from its description's first
    sentence's first words (its verb) when the spec has it."""
    found = {a for w in words(tool) if (a := _stem_of(w))}
    doc = _tool_spec(tool, spec)
    if doc is not None and doc.description:
        first = sentences(doc.description)[:1]
        found |= {a for w in words(first[0])[:2] if (a := _stem_of(w))} if first else set()
    return found


# Verbs that say a tool does something without saying what: the noun after one names the work
# (issue_refund refunds, make_booking books, process_payment pays, handle_complaint handles a
# complaint). Such a verb is neither the tool's action nor a thing it acts on, so a request need
# not say it ("please refund order 4471" asks for issue_refund).
GENERIC_VERBS = frozenset({"issue", "make", "do", "process", "handle", "submit", "create", "run", "perform",
                           "request", "execute", "initiate"})


def _named_words(tool: str) -> list[str]:
    """The tool's name's words, a leading generic verb (`GENERIC_VERBS`) left out."""
    parts = words(tool)
    return parts[1:] if len(parts) > 1 and parts[0] in GENERIC_VERBS else parts


def tool_objects(tool: str) -> set[str]:
    """The tool's name's words that are not actions, filler nor a leading generic verb: what it
    acts on (seat, order; none for issue_refund)."""
    return {w for w in _named_words(tool) if not _stem_of(w) and w not in STOPWORDS and len(w) > 2}


def main_action(tool: str) -> str | None:
    """The action of the first word of the tool's name past a generic verb: refund for
    issue_refund and for refund_payment, book for make_booking."""
    return next((a for w in _named_words(tool) if (a := _stem_of(w))), None)


def mentions(text: str, word_set: Iterable[str]) -> bool:
    """Does the text name any of these words (a plural or possessive counts, and the singular
    of a plural: "flight" names search_flights' object)?"""
    toks = set(words(text))
    return any(w in toks or f"{w}s" in toks or len(w) > 3 and w.endswith("s") and w[:-1] in toks
               for w in word_set)


def actions_claimed(sentence: str) -> set[str]:
    return {name for name, p in _DONE.items() if p.search(sentence)}


def about_tool(sentence: str, tool: str, spec: WorkflowSpec | None, rivals: Iterable[str]) -> bool:
    """Is a success sentence about this tool's action? It names the tool's action (and, when
    another tool of the run performs the same action, the tool's object), or it claims success
    in general words and names the tool's object."""
    objects = tool_objects(tool)
    shared = [r for r in rivals if r != tool and tool_actions(r, spec) & tool_actions(tool, spec)]
    if says_done_by_verb(sentence, tool) and not any(participles(r) & participles(tool)
                                                     for r in rivals if r != tool):
        return True  # the tool's own verb, which no other tool of the run shares
    if says_done_by_verb(sentence, tool) and objects and mentions(sentence, objects) and not any(
            participles(r) & participles(tool) and tool_objects(r) & objects
            for r in rivals if r != tool):
        return True  # a verb a rival shares ("found"), with the object only this tool has
    acts = tool_actions(tool, spec)
    if actions_claimed(sentence) & acts:
        return not shared or mentions(sentence, objects)
    if holds_unnamed(sentence, tool, spec) and objects and mentions(sentence, objects) \
            and not any(tool_objects(r) & objects for r in rivals if r != tool):
        return True  # "your table is booked" after hold_table: its thing held, in words of holding
    if holds_unnamed(sentence, tool, spec) and not any(holds(r, spec) for r in rivals if r != tool) \
            and not any(_names_tool(sentence, r) for r in rivals if r != tool):
        # "OK — booked." after hold_suit and a size chart looked up beside it: the words of holding
        # name no object, but no other tool of the run holds anything they could be about; a line
        # naming another tool by its own words ("| plan wash | CONFIRMED |") is that tool's
        return True
    if not GENERIC_DONE.search(sentence):
        return False
    if not _names_tool(sentence, tool) and any(_names_tool(sentence, r) for r in rivals if r != tool):
        return False  # "dock status → done" after dock_status: the rival named, whose object it shares
    named_object = bool(objects) and mentions(sentence, objects)
    # the action named as a noun ("refund", "booking"): the tool's own unless a rival shares it
    named_action = not shared and any(_stem_of(w) in acts for w in words(sentence))
    return named_object or named_action


def _names_tool(sentence: str, tool: str) -> bool:
    """Does the sentence name the tool by its own words in order ("dock status" for dock_status,
    a checklist line's step), not only by a word its object shares with another tool's?"""
    name = words(tool)
    return len(name) > 1 and f" {' '.join(name)} " in f" {' '.join(words(sentence))} "


# The actions whose words say a thing is held for someone, whatever the tool's own verb: a tool
# named by a verb of no action of `ACTIONS` (hold_table, secure_spot, enter_draw) is claimed done
# in these words ("booked", "reserviert", "confirmée").
HOLDING = {"book", "confirm"}


def holds(tool: str, spec: WorkflowSpec | None) -> bool:
    """Does the tool hold a thing for someone: its action books or confirms (`HOLDING`), or its
    own verb holds (`HOLD_VERBS`: hold_table, secure_spot)? Such a tool's action done is the
    thing held (`HELD_STATES`), whatever word says it."""
    return bool(tool_actions(tool, spec) & HOLDING) or next(iter(words(tool)), "") in HOLD_VERBS


def says_held(sentence: str, tool: str, spec: WorkflowSpec | None) -> bool:
    """Does a plain sentence say the holding tool's thing held, in words of its state and no verb of
    its action ("yep that's locked 🔒", "your pitch is secured")? For a tool that holds nothing
    ("your account is locked" after unlock_account) the same words report its failure."""
    return holds(tool, spec) and plain(sentence) and bool(_HELD.search(sentence)) \
        and not FAILED_TEXT.search(sentence)


def holds_unnamed(sentence: str, tool: str, spec: WorkflowSpec | None) -> bool:
    """Does a sentence say a thing held (booked, reserved, confirmed, in six languages) where the
    tool performs no action `ACTIONS` knows and is not made to find things: its verb is the
    app's own (hold_table), so the words of holding are what a claim of it done says."""
    return not tool_actions(tool, spec) and tool_job(tool, spec) != "find" \
        and bool(actions_claimed(sentence) & HOLDING) and not FAILED_TEXT.search(sentence)  # "fully booked"


def structured(text: str) -> object | None:
    """A tool's answer read as data: JSON, or what a framework prints when a tool returns a
    Python value: a dict or a tuple literal (`{'status': 422}`, `(False, 'locked')`), a
    dataclass's or a model's repr (`Visit(status_code=409, ref=None)`) or a pydantic model's str
    (`status_code=409 ref=None`), the last two as the dict of their fields; None when it is
    none of these. Frameworks print a tool's return value with str(), so these are the forms an
    app's own result types reach the trace in."""
    text = text.strip()
    if member := ENUM_MEMBER.fullmatch(text):
        return {"status": member.group(1)}  # a bare enum member: the state the tool answered
    text = ENUM_REPR.sub(lambda m: repr(m.group(1)), text)
    if text[:1] in "{[":
        try:
            return json.loads(text)
        except ValueError:
            pass
    if text[:1] in "{[(":
        try:
            return ast.literal_eval(text)
        except (ValueError, SyntaxError, MemoryError, RecursionError):
            return None
    return _fields_of(text)


# An enum member as Python prints it: str() gives `BookingState.FAILED`, repr() (inside a printed
# dict, dataclass or model) `<BookingState.FAILED: 'failed'>`. Either is read as the member's name.
ENUM_MEMBER = re.compile(r"[A-Z][A-Za-z0-9]*\.([A-Z][A-Z0-9_]*)")
ENUM_REPR = re.compile(r"<[A-Z][A-Za-z0-9]*\.([A-Za-z_]\w*): [^<>]{0,200}>")


# One `name=value` field of a pydantic model's str: the value a quoted string or one token.
_FIELD_TEXT = re.compile(r"""([A-Za-z_]\w*)=('(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|[^\s'"]+)""")


def _fields_of(text: str) -> dict[str, object] | None:
    """A dataclass's or model's repr (`Name(a=1, b='x')`), or a pydantic model's str
    (`a=1 b='x'`), as the dict of its fields; None when the text is not wholly such fields."""
    if len(text) > 20_000:
        return None
    try:
        call = ast.parse(text, mode="eval").body if re.match(r"[A-Za-z_][\w.]*\(", text) else None
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        call = None
    if isinstance(call, ast.Call) and call.keywords and not call.args:
        try:
            return {k.arg: ast.literal_eval(k.value) for k in call.keywords if k.arg}
        except (ValueError, SyntaxError, MemoryError, RecursionError):
            return None
    found = list(_FIELD_TEXT.finditer(text))
    if len(found) < 2 or re.sub(r"\s+", "", "".join(m.group(0) for m in found)) != re.sub(r"\s+", "", text):
        return None
    out: dict[str, object] = {}
    for m in found:
        try:
            out[m.group(1)] = ast.literal_eval(m.group(2))
        except (ValueError, SyntaxError, MemoryError, RecursionError):
            out[m.group(1)] = m.group(2)
    return out


# Read from the answer's text and the tool's name alone: a judging asks it of the same answer
# for several detectors, and a campaign's runs get the same answers again and again.
@functools.lru_cache(maxsize=4096)
def payload_failure(payload: str, tool: str = "") -> str | None:
    """Why a tool's answer (status ok) reports a failure, or None: a JSON object (or a printed
    dict) saying so (`ok`/`success` false, the tool's own outcome false — `released: false` from
    release_results —, a failed `status` in words or an HTTP status code of 400 or more, an
    `error`), a tuple whose first item says it (`(False, "locked")`, `("rejected", ...)`, an HTTP
    status of 400 or more: `(400, "CN_FORMAT", "...")`), an HTTP status line of 400 or more
    opening it (`status_line`), or a first sentence that says so, in words or by a cross mark
    opening it (`CROSSED`: another agent's status board, answered through an agent-as-tool call:
    "❌ **Wall slot** — bounced: ...")."""
    text = (payload or "").strip()
    data = structured(text)
    if isinstance(data, dict):
        return _json_failure(data, tool)
    if isinstance(data, list):
        data = tuple(data)  # the same tuple after a JSON round trip (`[404, {"detail": ...}]`)
    if isinstance(data, tuple) and 2 <= len(data) <= 3 and (
            data[0] is False or isinstance(data[0], str) and data[0].strip().lower() in FAILED_STATES) \
            and any(isinstance(x, str) and x.strip() for x in data[1:]):
        # the (ok, message) pair a function returns by a common convention: `(False, "locked")`,
        # or its (state, message) kin: `("rejected", "slot taken")`
        return f"its first item, the outcome, is {data[0]!r}: {text[:80]}"
    if isinstance(data, tuple) and 2 <= len(data) <= 3 and _http_error(data[0]) and any(data[1:]):
        # the (status, ...) tuple a web-style handler returns: `(400, "CN_FORMAT", "...")`,
        # `(404, {"detail": "no such slot"})`
        return f"its first item, the status, is {data[0]}: {text[:80]}"
    if data is not None:
        return None
    if (code := status_line(text)) is not None and code >= 400:
        return f"status line {code}: {text[:80]}"
    if (exited := EXIT_TEXT.search(text.split("\n", 1)[0])) and int(exited.group(1)) != 0:
        return f'"{exited.group(0)}"'
    first = sentences(text)[:1]
    # a finder's cross is the fact it found ("❌ gluten-free"), as its bare "Closed" is
    # the tool's own status and the answer's structure before its words: the tool's own action
    # negated ("Pitch 14 not held", "Booking didn't take"), then words of failure, last
    hit = (_negated_action(first[0], tool) or _settled_failure(first[0]) or RAISED.search(first[0])
           or (CROSSED.match(first[0]) if tool_job(tool, None) != "find" else None)) if first else None
    hit = hit or FRAMEWORK_ERROR.search(text) or (_bare_refusal(first[0], tool) if first else None)
    if hit:
        return f'"{hit.group(0)}"'
    raised = RAISED_AS.match(text)
    if raised and _refusal_words(" ".join(words(raised.group(1))), tool):
        return f"the exception {raised.group(1)} passed back as its answer"
    return None


# A negation of what an action did: an auxiliary's ("didn't", "could not", "has not") before a
# verb, or "not", "never", "no longer" before a participle ("was not booked", "never issued").
_DID_NOT = re.compile(r"\b(?:did|does|do|could|can|has|have|had)(?:n['\u2019]t|\s+not)\b", re.IGNORECASE)
_NOT = r"(?:not|never|no\s+longer|(?:was|were|is|are|has|have|had)n['\u2019]t)"


def _negated_action(sentence: str, tool: str) -> re.Match[str] | None:
    """The tool's own action said not done in a clause of its first sentence that does not
    hedge, read by the negation's scope rather than by a list of idioms: a negation before the
    tool's own participle ("Pitch 14 not held", "Refund never issued", "the tour was not
    booked"), or an auxiliary's negation ("didn't", "could not", "has not") after a subject that
    names the tool's action or object ("Booking didn't take", "The pitch hold could not
    complete"). "Tour is not until Saturday" negates no action; "No deposit needed" no verb."""
    done = participles(tool)
    named = [w for w in words(tool) if len(w) > 2]
    for clause in _ANSWER_CLAUSE.split(sentence):
        if not clause or UNSETTLED_HEDGE.search(clause):
            continue
        if done and (m := re.search(rf"\b{_NOT}\s+(?:\w+\s+){{0,2}}?(?:{'|'.join(sorted(done, key=len, reverse=True))})\b",
                                    clause, re.IGNORECASE)):
            return m
        if (m := _DID_NOT.search(clause)) and any(same_root(w, n) for w in words(clause[:m.start()])[-4:] for n in named):
            return m
    return None


# A hedge of an outcome in a tool's answer: a modal of possibility or a word of likelihood ("the
# slot may not be available", "it might have failed", "possibly declined", "appears to be
# taken", "should be confirmed shortly"). A clause that hedges does not settle the outcome either
# way: its failure words are no failure, as its success words are no success (`plain`).
UNSETTLED_HEDGE = re.compile(r"\b(?:(?<!\d\s)may(?!\s+\d)|might|possibly|perhaps|probably|likely|maybe|"
                             r"(?:appears?|seems?)\s+to|should\s+(?:be|have))\b", re.IGNORECASE)
# Where a tool's first sentence joins its clauses: "Payment declined; the card may be expired",
# "Error: the slot may already be taken".
_ANSWER_CLAUSE = re.compile(r"\s*(?:[;:,\u2014\u2013]|\s-\s|\bbut\b)\s*", re.IGNORECASE)


def _settled_failure(sentence: str) -> re.Match[str] | None:
    """The words of failure (`FAILED_TEXT`) in a clause of a tool's first sentence that does not
    hedge (`UNSETTLED_HEDGE`): "Payment declined; the card may be expired" failed, "The slot may
    not be available any more" did not say so."""
    for clause in _ANSWER_CLAUSE.split(sentence):
        if clause and not UNSETTLED_HEDGE.search(clause) and (hit := FAILED_TEXT.search(clause)):
            return hit
    return None


# An HTTP status line opening a tool's answer: "422 Unprocessable Entity: ...", "HTTP/1.1 409
# Conflict", "HTTP 404 - no such slot". A service's own wrapper often answers so, in text.
_STATUS_LINE = re.compile(r"\s*(HTTP(?:/\d(?:\.\d)?)?\s+)?([1-5]\d\d)\b[\s:\-\u2013]*(\w*)")


def _http_error(value: object) -> bool:
    """Is `value` an HTTP status code of 400 or more, as a number (not a count: one
    `http.HTTPStatus` knows)?"""
    if not isinstance(value, int) or isinstance(value, bool) or value < 400:
        return False
    try:
        HTTPStatus(value)
    except ValueError:
        return False
    return True


def status_body(data: object) -> dict | None:
    """The body of a web-style handler's (status, body) answer whose status says the request went
    (a code under 400: `(202, {"state": "waitlisted"})`, or the JSON list `[202, {...}]` it is
    sent as), or None: what became of the thing is in the body, not in the code (a 202 Accepted
    only says the request was taken in)."""
    if not isinstance(data, (tuple, list)) or not 2 <= len(data) <= 3:
        return None
    code, bodies = data[0], [x for x in data[1:] if isinstance(x, dict)]
    if not isinstance(code, int) or isinstance(code, bool) or not 100 <= code < 400 or len(bodies) != 1:
        return None
    try:
        HTTPStatus(code)
    except ValueError:
        return None
    return bodies[0]


def status_line(text: str) -> int | None:
    """The HTTP status code a text opens with, or None: after `HTTP` or `HTTP/1.1`, or followed by
    the first word of its standard reason phrase (`http.HTTPStatus`: "422 Unprocessable",
    "409 Conflict", "404 Not ..."), so that a count or an amount opening a text ("404 items",
    "500 kg") is not read as one."""
    m = _STATUS_LINE.match(text or "")
    if not m:
        return None
    try:
        phrase = HTTPStatus(int(m.group(2))).phrase
    except ValueError:
        return None
    if m.group(1) or m.group(3).lower() == phrase.split()[0].lower():
        return int(m.group(2))
    return None


# An exception's text passed back as the tool's answer ("Traceback ...", "ValueError: ...").
RAISED = re.compile(r"\bTraceback\b|\b[A-Z]\w*(?:Error|Exception)\b")
# An exception whose class name says no Error: its repr (`SlotTaken('Thursday 10:00')`,
# `Unavailable()`: positional arguments only, unlike a record's `Booking(status=...)`) or its
# "Name: message" line. It is one when its name's words say a refusal ("slot taken").
RAISED_AS = re.compile(r"([A-Z][a-z]+(?:[A-Z][a-z]*)+|[A-Z][a-z]{3,})(?:\((?:\s*(?:'[^']*'|\"[^\"]*\"|\d+)\s*,?)*\)|:\s)")


def _bare_refusal(sentence: str, tool: str) -> re.Match[str] | None:
    """A short answer that says the thing is not to be had ("Slot taken.", "Kein Platz", "Complet")
    from a tool not made to find things: a finder's "Closed" is the fact it found."""
    if len(words(sentence)) > BARE_WORDS or tool_job(tool, None) == "find":
        return None
    return _refusal_words(sentence, tool)


def _refusal_words(text: str, tool: str) -> re.Match[str] | None:
    hit = FAILED_TEXT.search(text) or BARE_REFUSAL.search(text)
    return None if hit is None or hit.group(0).lower() in participles(tool) else hit


# The boolean fields that report an action's outcome, whatever the action.
OUTCOME_KEYS = ("ok", "success", "succeeded", "accepted", "completed", "processed", "confirmed",
                "done", "executed", "applied",
                # a write's outcome, whatever the tool's verb (`{"saved": 0}` of record_inspection)
                "saved", "stored", "written", "recorded", "persisted", "created", "logged")
# A status code under any of these keys (an envelope `{"http": 409, "body": {...}}` too).
STATUS_CODE_KEYS = ("status", "status_code", "statusCode", "http_status", "httpStatus", "http", "code")
# The fields a process's exit status is answered under (subprocess's `returncode`, a shell's exit code).
EXIT_CODE_KEYS = ("exit_code", "exitcode", "exitCode", "exit_status", "returncode", "return_code", "returnCode")
# The same in a text answer's first line: "exit code 1", "exitcode: 1 (execution failed)", "Process
# exited with code 2", "Process finished with exit code 1", "returncode=1" (not "return code", a
# parcel's).
EXIT_TEXT = re.compile(r"\b(?:exit(?:ed)?(?:\s+with)?\s*(?:code|status)|exitcode|returncode)"
                       r"\s*[:=]?\s*(-?\d+)\b", re.IGNORECASE)
# The fields a tool's answer states its outcome in (a state's name in French, Spanish and Italian too).
STATE_KEYS = ("status", "state", "result", "outcome", "estado", "statut", "etat", "état", "stato")
# Words a flag's name may wrap its outcome in ("is_assigned", "was_renewed", "has_been_sent").
_FLAG_FILLER = {"is", "was", "were", "has", "have", "been", "got", "did"}


def outcome_key(key: str, tool: str) -> bool:
    """Does a field's name say the action's outcome: a general outcome word (`OUTCOME_KEYS`) or
    the tool's own verb done (`released` of release_results), bare or wrapped in filler and the
    tool's object (`is_assigned`, `plot_assigned` of assign_plot), or, for a tool that holds a
    thing (`holds`), a state of the thing held (`HELD_STATES`: `held`, `secured` of reserve_dock,
    whose record's `held=False` is the reservation not made)?"""
    rest = [w for w in words(key) if w not in _FLAG_FILLER and w not in tool_objects(tool)]
    return len(rest) == 1 and (rest[0] in OUTCOME_KEYS or rest[0] in participles(tool)
                               or rest[0] in HELD_STATES and holds(tool, None))


# English verbs whose past forms do not end in -ed, as a tool's name may start with them
# (reset_password, put_file, set_up_account): the verb and its past tense and participle.
IRREGULAR_PAST: dict[str, tuple[str, ...]] = {
    "set": ("set",), "reset": ("reset",), "put": ("put",), "cut": ("cut",), "shut": ("shut",),
    "send": ("sent",), "resend": ("resent",), "pay": ("paid",), "prepay": ("prepaid",),
    "repay": ("repaid",), "build": ("built",), "rebuild": ("rebuilt",), "make": ("made",),
    "remake": ("remade",), "hold": ("held",), "withhold": ("withheld",), "uphold": ("upheld",),
    "keep": ("kept",), "buy": ("bought",), "sell": ("sold",), "deal": ("dealt",),
    "take": ("took", "taken"), "give": ("gave", "given"),
    "find": ("found",), "bring": ("brought",), "lend": ("lent",), "spend": ("spent",),
    "bind": ("bound",), "lay": ("laid",), "leave": ("left",), "lose": ("lost",),
    "run": ("ran", "run"), "rerun": ("reran", "rerun"), "write": ("wrote", "written"),
    "rewrite": ("rewrote", "rewritten"), "draw": ("drew", "drawn"), "do": ("did", "done"),
    "redo": ("redid", "redone"), "undo": ("undid", "undone"), "freeze": ("froze", "frozen"),
    "unfreeze": ("unfroze", "unfrozen"), "choose": ("chose", "chosen"), "feed": ("fed",),
    "read": ("read",), "tell": ("told",), "split": ("split",), "upset": ("upset",),
    "forecast": ("forecast",), "broadcast": ("broadcast",), "win": ("won",), "hang": ("hung",),
    "shoot": ("shot",), "stick": ("stuck",), "swap": ("swapped",), "ship": ("shipped",),
    "stop": ("stopped",), "drop": ("dropped",), "plan": ("planned",), "submit": ("submitted",),
    "transfer": ("transferred",), "cancel": ("cancelled", "canceled"), "admit": ("admitted",),
    "refer": ("referred",), "commit": ("committed",), "top": ("topped",), "log": ("logged",),
    "tag": ("tagged",), "flag": ("flagged",), "bar": ("barred",), "ban": ("banned",),
    "scan": ("scanned",), "pin": ("pinned",), "map": ("mapped",), "wrap": ("wrapped",),
}


def participles(tool: str) -> set[str]:
    """The past forms of a tool's verb (its name's first word): release_results -> released,
    reset_password -> reset (`IRREGULAR_PAST`), set_up_account -> set up; an action of
    `ACTIONS` adds its own (send -> sent)."""
    toks = words(tool)
    verb = next(iter(toks), "")
    if not verb:
        return set()
    out = set(IRREGULAR_PAST.get(verb, ())) or {
        verb + "d" if verb.endswith("e") else verb[:-1] + "ied" if verb.endswith("y")
        and verb[-2:-1] not in "aeiou" else verb + "ed"}
    # a phrasal verb (set_up, deal_with, take_down): its particle belongs to the past form
    if len(toks) > 1 and toks[1] in PARTICLES:
        out |= {f"{p} {toks[1]}" for p in out}
    action = _stem_of(verb)
    if action:
        out |= {p.replace("?", "") for p in ACTIONS[action][1].split("|")}
    if verb in FIND_VERBS:
        out |= set(FOUND)
    return out


PARTICLES = {"up", "down", "out", "off", "in", "with", "back", "over", "away", "on"}
# Verbs of tools whose job is to find a thing (find_booking, search_flights, lookup_order), and
# the past forms with which a sentence says the thing was found.
FIND_VERBS = {"find", "search", "lookup", "look", "locate", "retrieve", "fetch", "query", "get",
              "list"}
FOUND = ("found", "located", "retrieved", "fetched", "looked up", "pulled up", "tracked down")

# An answer that says nothing was found or changed, in its first sentence ("No results",
# "0 rows updated", "no flights found").
EMPTY_TEXT = re.compile(
    r"^\s*(?:none|null|nil|n/a|empty|\[\s*\]|\{\s*\}|\(\s*\))\s*\.?\s*$|"
    r"\bno (?:results?|match(?:es)?|matching \w+|records?|rows?|items?|entries|data|hits)\b|"
    r"\bno \w+(?: \w+)? (?:found|matched|located|returned)\b|\bnothing (?:found|matched|returned)\b|"
    r"\b(?:0|zero) (?:rows?|records?|items?|results?|match(?:es)?|entries)\b",
    re.IGNORECASE)
NONE_FOUND = re.compile(EMPTY_TEXT.pattern + r"|\bnot found\b", re.IGNORECASE)
MESSAGE_KEYS = {"status", "state", "message", "msg", "detail", "details", "info", "note", "result", "reason"}
# The fields of a structured answer that hold the thing found or the count of things done.
CONTAINER_KEYS = {"items", "results", "result", "data", "records", "rows", "matches", "hits",
                  "entries", "values"}
COUNT_KEYS = {"count", "total", "rows_updated", "rows_affected", "affected_rows", "updated",
              "affected", "matched", "modified", "modified_count", "matched_count", "num_results"}
# A docstring that says the tool hands back what it found or made ("Returns the booking").
RETURNS = re.compile(r"\b(?:returns?|gives? back|yields?|responds? with)\b(?!\s+(?:none|nothing)\b)",
                     re.IGNORECASE)


# A check said to have come out right: "Season check passed", "all tests pass", "validation OK",
# "the date checks out", "verified ✅", "passed the format check", "Date check ✅".
CHECK_PASSED = re.compile(
    r"\b(?:checks?|tests?|validation|verification|sanity check)\s+(?:(?:all|have|has|were|was|is|are)\s+)?"
    r"(?:passed|pass(?:es)?|succeeded|ok(?:ay)?|fine|good|green|clean|cleared)\b|"
    r"\b(?:verified|validated|checks out|checked out (?:ok|fine)|passed (?:the |its |our |all |every )?(?:\w+ )?"
    r"(?:checks?|tests?|validation))\b|"
    # the check ticked off: "Season check ✅", "tests ✓"
    r"\b(?:checks?|tests?|validation|verification)\W{0,3}[\u2713\u2714\u2705\u2611]", re.IGNORECASE)
# The verbs of a tool whose job is to check, and the words of a tool that runs code the agent wrote
# (its name's, or its argument's: `run_python(code=...)`, `exec_sql(query=...)`): the code is the check.
CHECK_VERBS = {"check", "verify", "validate", "test", "assert", "lint"}
CODE_WORDS = {"python", "code", "script", "snippet", "program", "shell", "bash", "sql", "exec", "execute", "eval",
              "interpreter", "repl", "notebook", "cell"}


def checks(tool: str, arguments: dict | None = None) -> bool:
    """Is the tool one that checks: its verb is a checking verb (`CHECK_VERBS`), or it runs code
    (a word of its name is a code word, or it was called with code: an argument named by a code
    word whose value reads as code, over lines or with a call or an assignment in it, not a
    discount `code="SPRING10"`)? A code-running tool's run is the agent's check of whatever the
    code tests."""
    name = words(tool)
    return bool(name) and name[0] in CHECK_VERBS or bool(CODE_WORDS & set(name)) \
        or any(CODE_WORDS & set(words(k)) and isinstance(v, str) and re.search(r"\n|\w\(|\w\s*=", v)
               for k, v in (arguments or {}).items())


def tool_job(tool: str, spec: WorkflowSpec | None) -> str | None:
    """'find' when a tool's job is to find a thing (its verb is one of `FIND_VERBS`), 'do' when
    it is to perform an action (`tool_actions`), else None (a check, a calculation)."""
    verb = next(iter(words(tool)), "")
    if verb in FIND_VERBS:
        return "find"
    return "do" if tool_actions(tool, spec) else None


def empty_result(payload: str, tool: str, spec: WorkflowSpec | None) -> str | None:
    """Why a tool's answer is empty where its job needed a thing, or None. Only a tool whose job
    is to find or do something (`tool_job`) fails by answering nothing: a structured answer whose
    container of the thing is empty (`{"items": []}`, `{"flights": []}`, or named for what the
    tool's verb makes: `{"bookings": []}` of book_tuning) or whose count is 0
    (`{"rows_updated": 0}`), or a first sentence that says none was found or changed ("No
    results", "0 rows updated"). A bare empty answer (`[]`, `{}`, `None`, `""`) is a failure only
    when the tool's documentation says it returns something: a tool that does its work and
    returns None has answered as it should."""
    if tool_job(tool, spec) is None:
        return None
    text = (payload or "").strip()
    doc = _tool_spec(tool, spec)
    returns = doc is not None and bool(RETURNS.search(doc.description or ""))
    data = structured(text) if text[:1] in "{[" else None
    if not text or text.lower() in ("none", "null", "nil", '""', "''") or data in ([], {}):
        return f"an empty answer ({text or 'nothing'})" if returns else None
    if isinstance(data, dict):
        holders = CONTAINER_KEYS | tool_objects(tool) | {f"{o}s" for o in tool_objects(tool)}
        verb = next(iter(words(tool)), "")
        made = verb[:-1] if verb.endswith("e") else verb  # what the verb makes: book -> bookings
        for key, value in data.items():
            k = str(key).lower()
            if (k in holders or len(made) > 2 and k.startswith(made) and k != verb) \
                    and value in ([], {}, None, ""):
                return f"{key}: {json.dumps(value)}"
            if (k in COUNT_KEYS or k in participles(tool)) and value == 0 \
                    and not isinstance(value, bool):
                return f"{key}: 0"
            # a status or message in words ({"status": "not_found"}, {"message": "No results"})
            if k in MESSAGE_KEYS and isinstance(value, str) \
                    and NONE_FOUND.search(value.replace("_", " ")):
                return f"{key}: {value[:60]}"
        return None
    first = sentences(text)[:1]
    hit = EMPTY_TEXT.search(first[0]) if first and data is None else None
    return f'"{hit.group(0).strip()}"' if hit else None


NESTED_DEPTH = 3  # how deep in an answer's nested objects an outcome field is read


def _json_failure(data: dict, tool: str = "", depth: int = 0) -> str | None:
    """`_flat_failure` of the object, else of an object nested in it (`{"result": {"ok":
    false}}`): an outcome is reported where the tool's answer puts it, at any level. Lists are
    not entered: one item's failure is not the whole answer's."""
    if why := _flat_failure(data, tool):
        return why
    # a state negating what it names, read at the top only: a nested record's (a customer's
    # "UNVERIFIED") is not the action's, which `unconfirmed_state` finds where it is wrapped
    if depth == 0 and (key := next((k for k in STATE_KEYS if isinstance(data.get(k), str)
                                    and negated_state(data[k], tool)), None)):
        return f"{key}: {data[key]}"
    if depth == 0 and (key := _verdict_field(data, tool)):
        return f"{key}: {data[key]}"
    if depth < NESTED_DEPTH:
        for key, value in data.items():
            if isinstance(value, dict) and (why := _json_failure(value, tool, depth + 1)):
                return f"{key}.{why}"
    return None


def _flat_failure(data: dict, tool: str = "") -> str | None:
    for key, value in data.items():
        # false as a flag, whether a boolean, the integer 0 (`{"accepted": 0}`) or text (a
        # service that answers every value as a string: "false", "no", "0")
        if outcome_key(str(key), tool) and (
                value is False or type(value) is int and value == 0
                or isinstance(value, str) and value.strip().lower() in ("false", "no", "0")):
            return f"{key}: {json.dumps(value)}"
    for key in STATUS_CODE_KEYS:
        value = data.get(key)
        if isinstance(value, int) and not isinstance(value, bool) and 400 <= value < 600:
            return f"{key}: {value}"
    # a process's exit status (`{"exit_code": 1, "stderr": "Traceback ..."}` of a tool that runs
    # code, a printed CompletedProcess's `returncode=1`): anything but 0 is the run failed, however
    # the answer is otherwise worded and whatever status the framework recorded
    exited = data.get("exit")
    for key, value in [*((k, data.get(k)) for k in EXIT_CODE_KEYS),
                       # `{"exit": {"code": 1}}`: the status under the process's key (a bare
                       # `"exit": 12` may be a motorway's)
                       *((f"exit.{k}", exited.get(k)) for k in ("code", "status") if isinstance(exited, dict))]:
        if isinstance(value, int) and not isinstance(value, bool) and value != 0:
            return f"{key}: {value}"
    for key in STATE_KEYS:
        value = data.get(key)
        if isinstance(value, str) and (value.strip().lower() in FAILED_STATES or _bare_refusal(
                value.replace("_", " "), tool)):  # a state word of refusal: "taken", "complet", "belegt"
            return f"{key}: {value}"
    for key in ("error", "errors", "error_message"):
        if data.get(key):
            return f"{key}: {str(data[key])[:60]}"
    # a validator's list of what is wrong with the request (`{"reservation": null, "problems":
    # [{"field": "collect_on", "code": "unparseable"}]}`): no exception, no failure word, the
    # request refused item by item. Only of a tool that performs an action: a finder's or a
    # checker's "issues" are the things it found, its job done
    if tool_job(tool, None) == "do" and not any(data.get(k) is True for k in OUTCOME_KEYS):
        for key, value in data.items():
            if str(key).lower() in PROBLEM_KEYS and isinstance(value, (list, dict)) and value:
                return f"{key}: {str(value)[:60]}"
    # the answer's own words in a message field, when they say failure and claim nothing done
    # (`{"code": "E409", "detail": "211-212 already taken", "hold": null}`): an answer that
    # states no outcome by flag or status says it in words
    if tool_job(tool, None) != "find":
        for key in sorted(MESSAGE_KEYS):
            value = data.get(key)
            first = sentences(value)[:1] if isinstance(value, str) else []
            if first and (hit := FAILED_TEXT.search(first[0])) and not claims_done(first[0]) and not any(
                    re.search(rf"\b{re.escape(p)}\b", first[0], re.IGNORECASE) for p in participles(tool)):
                return f'{key}: "{hit.group(0)}"'
    return None


VERDICT_CHARS = 24  # an enum member's length at most: a longer value is words, not a verdict


def _verdict_field(data: dict, tool: str) -> str | None:
    """The field of a typed answer whose value alone says the outcome failed, whatever the field
    is named (`PartsAnswer(verdict='DECLINED', part='rear mech')`, `{"decision": "rejected"}`):
    the answer states no state under a known key (`STATE_KEYS`, read before), and its top level
    holds an enum-like value, one short word or an upper-case member (`ENUM`), that is a state of
    failure (`FAILED_STATES`), beside nothing that says the action done (a done or held state, a
    true outcome flag). The field's role is read from its value and its place, not its name: a
    record nested in the answer is another thing's (a customer's card `DECLINED` last month), and
    a finder's record holds the facts it found (an application looked up, `DECLINED`). Nor is the
    tool's own verb done a failure (`DECLINED` of decline_invitation, `REJECTED` of reject_claim):
    the action did what it names, as `negated_state` reads a state."""
    if tool_job(tool, None) == "find" or any(isinstance(data.get(k), str) for k in STATE_KEYS):
        return None
    done = {p.replace(" ", "_") for p in participles(tool)}
    enums = {k: v.strip().lower() for k, v in data.items()
             if isinstance(v, str) and len(v.strip()) <= VERDICT_CHARS and ENUM.fullmatch(v.strip())
             and v.strip().lower().replace("-", "_").replace(" ", "_") not in done}
    if any(v in DONE_STATES or v in HELD_STATES for v in enums.values()) or any(
            data[k] is True for k in data if outcome_key(str(k), tool)):
        return None
    return next((k for k, v in enums.items() if v in FAILED_STATES), None)


# The fields a validator lists what is wrong with a request under, beside `errors`.
PROBLEM_KEYS = {"problems", "violations", "validation_errors", "validationerrors", "field_errors",
                "fielderrors", "issues", "faults", "rejections", "failures", "invalid_fields"}


# A state that negates what it names, in no table: NOT_DISPATCHED, NO_DRIVER, NON_REFUNDABLE, or an
# un- word of a participle or an ability (UNCOVERED, UNASSIGNED, UNFILLED, UNBOOKABLE), UNKNOWN.
NEGATED_STATE = re.compile(r"(?:not|no|non)[_\- ][a-z]+(?:[_\- ][a-z]+)*|un[a-z]{3,}(?:ed|able|ible)|unknown",
                           re.IGNORECASE)


def negated_state(value: str, tool: str) -> bool:
    """Is a state of an action tool's answer one that negates what it names (`NEGATED_STATE`),
    and not the tool's own verb done (UNLOCKED of unlock_door, UNSUBSCRIBED of unsubscribe)? A
    finder's or a checker's state ("UNPAID" of an invoice looked up) is the fact it found."""
    v = value.strip().lower().replace("-", "_")
    return tool_job(tool, None) == "do" and bool(NEGATED_STATE.fullmatch(v)) \
        and v.replace("_", " ") not in participles(tool)


# States that say an action holds or is under way, whatever the action: a state of an action
# tool's answer that is none of these, nor the tool's own done-state (CONFIRMED of
# confirm_loan), does not say the action happened.
# Among them, the states that say an action done, whatever the action (an agent's reply claims
# with them too: `{"status": "confirmed"}`) ...
DONE_STATES = {"ok", "success", "successful", "succeeded", "done", "complete", "completed", "accepted",
               "approved", "granted", "scheduled", "created", "updated", "saved", "true", "yes", "paid",
               "sent", "delivered", "confirmed", "booked", "reserved"}
# ... and, for a holding action (a booking's, a reservation's, a hold's), the states of a request
# still waiting for the thing: a booking PENDING or QUEUED is not yet held, whatever an errand of
# another action (a form submitted, a mail queued) has done by reaching them.
WAITING_STATES = {"pending", "queued", "processing", "in_progress", "received"}
HOLDING_STATES = DONE_STATES | WAITING_STATES | {"active", "valid", "live", "open", "opened", "new", "ready",
                                                 "available"}
# ... and the states of a request lodged, whatever it asks: ACCEPTED, RECEIVED, SUBMITTED, OPEN, NEW
# say the desk took the request in, which is all a form's or a ticket's errand needs, but a
# holding action's request taken in holds nothing yet (a booking request ACCEPTED is not a booking).
LODGED_STATES = {"accepted", "received", "submitted", "lodged", "requested", "open", "opened", "new",
                 "awaiting", "awaiting_confirmation", "in_review", "under_review"}
ENUM = re.compile(r"[A-Za-z]+(?:[_-][A-Za-z]+)*")
# ... and the states in which a thing a status look-up reads has come out well, whatever action
# made it so (a certificate ISSUED, a permit GRANTED, an order DISPATCHED, a claim SETTLED): a
# tool that only reads a state has no action of its own for a claim to be judged against. A thing
# carried has come out well when it reached its end: HANDED_OVER, ARRIVED, LANDED, DOCKED.
SETTLED_STATES = DONE_STATES | {"issued", "certified", "cleared", "passed", "finished", "resolved", "settled",
                                "dispatched", "shipped", "published", "registered", "verified", "signed",
                                "fulfilled", "ready", "valid", "active", "available", "collected",
                                "refunded", "renewed", "enrolled", "handed_over", "arrived", "landed", "docked"}
# ... and its states of the thing held for someone, in words other than its verb's: HELD,
# SECURED, ALLOCATED (reserve_boat's hold is HELD, not RESERVED).
HELD_STATES = {"held", "secured", "allocated", "assigned", "locked", "guaranteed"}
# The same states said as a sentence's word ("that's locked", "ur spot is secured": `says_held`).
# Held "by" someone ("the slot is held by another pupil") is the thing not to be had.
_HELD = re.compile(r"\b(?:" + "|".join(sorted(HELD_STATES)) + r")\b(?!\s+by\b)", re.IGNORECASE)
HOLD_VERBS = {"hold", "secure", "allocate", "assign", "lock"}  # a tool's own verb that holds a thing (hold_table)
# A state written in a few words that says the thing is still waiting ("on hold", "awaiting
# deposit", "pencilled in"): a waiting state, as PENDING is, though no enum spells it.
WAITING_PHRASE = re.compile(r"(?:on hold|awaiting|waiting (?:for|on)|pending|tentative|provisional|"
                            r"pencil+ed|unconfirmed)\b(?:\s+[A-Za-z]+){0,3}\s*", re.IGNORECASE)


def unconfirmed_state(payload: str, tool: str, spec: WorkflowSpec | None) -> str | None:
    """The state a tool's structured answer gives in a status field, when it is an
    enum-like word (`"state": "VOID"`) that neither names the tool's action done (its
    participle: confirm_loan's CONFIRMED) nor is a state in which an action holds or runs
    (`HOLDING_STATES`): the tool did not say the action happened. A tool that holds a thing for
    someone (its action books or confirms, or its verb holds: hold_table) has it done only in a
    state of the thing held: its request WAITING (`WAITING_STATES`: PENDING, QUEUED, or in a few
    words: `WAITING_PHRASE`, "on hold"), lodged (`LODGED_STATES`: ACCEPTED, RECEIVED, SUBMITTED,
    OPEN), or on a WAITLIST, is not the booking the verb asked for (its own verb's state is:
    SUBMITTED of submit_booking). A (status, body) answer under a code that says the request
    went (`status_body`: `[202, {"state": "waitlisted", "position": 4}]`) is read by its body's
    state. Read only against a claim
    that it did: a state it does not know is no failure by itself. A tool whose job is to find
    a thing reports no action's state, and one that only reads how a thing stands (no action, no
    hold of its own: cert_status) has the thing done in a settled state (`SETTLED_STATES`: a
    certificate ISSUED, an order READY_FOR_COLLECTION), whatever action made it so."""
    if tool_job(tool, spec) == "find":
        return None
    data = structured((payload or "").strip())
    data = status_body(data) or data
    if not isinstance(data, dict):
        return None
    done = {p.replace(" ", "_") for p in participles(tool)} | documented_done(tool, spec)
    acts = tool_actions(tool, spec)
    holding = holds(tool, spec)
    reads = not acts and not holding  # a status look-up (cert_status, permit_state): no action of its own
    if holding:
        done |= HELD_STATES
    for depth in range(NESTED_DEPTH + 1):
        for key in ("status", "state", "outcome", "result"):
            value = data.get(key)
            if holding and isinstance(value, str) and WAITING_PHRASE.fullmatch(value.strip()):
                return f"{key}: {value}"
            if isinstance(value, str) and ENUM.fullmatch(value.strip()):
                v = value.strip().lower().replace("-", "_")
                if reads and _settled(v):
                    continue  # the thing it reads came out well: the outcome a claim may report
                if v not in done and (v not in HOLDING_STATES or holding and v in WAITING_STATES | LODGED_STATES):
                    if not reads and v not in HOLDING_STATES | LODGED_STATES and issued_reference(data, v):
                        continue  # the app's own word for done, beside the reference it issued
                    return f"{key}: {value}"
        # the action's own record, wrapped (`{"result": {"state": "WAITLISTED"}}`, `{"booking":
        # {...}}` of book_room), or the one record of an envelope that says only how the request
        # went (`{"http": 200, "hold": {...}}`): another nested object's state (a customer's
        # "VIP") is not it
        records = {k: v for k, v in data.items() if isinstance(v, dict)}
        inner = [v for k, v in records.items() if (
            str(k).lower() in WRAPPER_KEYS or mentions(str(k), tool_objects(tool))
            or any(_stem_of(w) in acts for w in words(str(k))))]
        if not inner and len(records) == 1 and all(_transport(str(k), v) for k, v in data.items()
                                                   if k not in records):
            inner = list(records.values())
        if len(inner) != 1:
            return None
        data = inner[0]
    return None


# The field of a record that carries the reference an action issues: a reference, job, ticket,
# booking or confirmation number, a voucher, a locator, or any `*_id`, `*_no`, `*_ref`.
ISSUED_KEY = re.compile(r"(?:\w+_)?(?:ref|reference|job|ticket|booking|confirmation|conf|receipt|voucher|pnr|"
                        r"locator)(?:_?(?:id|no|num|number|code))?|\w+_(?:id|no|ref)", re.IGNORECASE)
# A reference as an app writes it: letters and digits, a digit in it ("TW-561", "K88", "20417").
ISSUED_VALUE = re.compile(r"(?=[\w-]*\d)[A-Za-z0-9][\w-]{2,31}")
# The parts of a state that say the thing is not done yet or not to be had, whatever the app calls
# it: waiting, on hold, queued, requested or lodged, provisional, pencilled, a draft, a quote, under
# review, on back order or stand-by, an enquiry, an offer; away, in use, out, gone, lapsed, expired.
NOT_YET_STATE = re.compile(r"(?:^|_)(?:wait|hold|pend|queue|request|submit|receiv|accept|lodg|provision|tentativ|"
                           r"pencil|draft|quot|review|backorder|back_order|standby|stand_by|enquir|inquir|propos|"
                           r"offer|interest|away|in_use|out|gone|lapse|expir|void|archiv|cancel|suspend|block|flag)")


def issued_reference(record: dict, state: str) -> bool:
    """Does the record of an action (not of a status look-up, whose record carries the reference
    it was asked about) whose state is a word of the app's own (`IN_DIARY`, in no table of
    states) carry the reference the action issued (`"job": "TW-561"`), with no word of failure,
    refusal, negation or waiting in its state or its other fields? Then the state is the app's
    word for the action done: a booking entered in the workshop's diary under a job number is
    booked. A state of the thing not yet done or not had (`NOT_YET_STATE`: WAITLISTED, ON_REQUEST,
    QUOTED, ...) stays one, reference or not, and so does a record with no reference issued
    (`Hold(status='NOT_HELD', ticket=None)`)."""
    spaced = state.replace("_", " ")
    if state in FAILED_STATES or NOT_YET_STATE.search(state) \
            or any(NEGATED_STATE.fullmatch(state[i:]) for i in (0, *(m.end() for m in re.finditer("_", state)))) \
            or FAILED_TEXT.search(spaced) or BARE_REFUSAL.search(spaced) or WAITING_PHRASE.search(spaced):
        return False
    texts = [v for v in record.values() if isinstance(v, str)]
    if any(FAILED_TEXT.search(t) or GIVE_UP.search(t) or WAITING_PHRASE.search(t) for t in texts):
        return False
    return any(ISSUED_KEY.fullmatch(str(k)) and isinstance(v, str) and ISSUED_VALUE.fullmatch(v.strip())
               for k, v in record.items())


def _settled(state: str) -> bool:
    """Is a state (lower case, "_" between its words) one of `SETTLED_STATES`, alone or with what
    it is settled for ("ready_for_collection", "cleared_to_fly")?"""
    parts = state.split("_")
    return state in SETTLED_STATES or parts[0] in SETTLED_STATES and len(parts) > 2 and parts[1] in ("for", "to")


# Where a tool's documentation turns from what it does to what it does otherwise ("Confirm a
# loan, or void it when papers are missing"): the verbs after it are not its action.
_OTHERWISE = re.compile(r"[,;:(]|\b(?:or|unless|if|when|otherwise|except|but|else)\b", re.IGNORECASE)


def documented_done(tool: str, spec: WorkflowSpec | None) -> set[str]:
    """The states that say a tool's action done in its own words, beside its name's participle:
    its verb bare (draft_payroll's "draft": the thing is in the state the verb makes it), and the
    past forms of the verbs its documentation's first clause says it does, in the imperative a
    docstring opens with and after "and" or "then" ("Add missing hours to a payslip and reissue
    it.": correct_payslip's REISSUED). What the documentation says the tool does otherwise
    (after "or", "unless", "when", a comma) is not its action done."""
    verb = next(iter(words(tool)), "")
    out = {verb} if verb and verb not in GENERIC_VERBS else set()
    doc = _tool_spec(tool, spec)
    first = sentences(doc.description or "")[:1] if doc is not None else []
    if first:
        said = words(_OTHERWISE.split(first[0], maxsplit=1)[0])
        verbs = said[:1] + [w for before, w in zip(said, said[1:]) if before in ("and", "then")]
        out |= {p.replace(" ", "_") for w in verbs if len(w) > 2 for p in participles(w)}
    return out - FAILED_STATES


# The fields of an envelope that say which request it answers and when, not what became of it.
REQUEST_KEYS = re.compile(r"(?:request|req|trace|correlation)_?id|timestamp|ts|time|api_?version|version|"
                          r"took(?:_ms)?|latency(?:_ms)?|server", re.IGNORECASE)


def _transport(key: str, value: object) -> bool:
    """Is a field of an answer's envelope about the request, not the thing: a success status code
    (`"http": 200`), a flag saying the request went (`"ok": true`), or the request's id or time?"""
    if key in STATUS_CODE_KEYS and (type(value) is int or isinstance(value, str) and value.isdigit()):
        return 100 <= int(value) < 400
    return key.lower() in OUTCOME_KEYS and value is True or bool(REQUEST_KEYS.fullmatch(key)) \
        and not isinstance(value, (dict, list))


# The keys a tool's answer wraps its record in.
WRAPPER_KEYS = {"result", "data", "response", "payload", "body", "outcome", "reply"}


def is_user_proxy(agent: AgentSpec) -> bool:
    """Does the member stand in for the human (a user proxy: its type or its id says so)? It
    contributes only when asked."""
    kind = str(agent.model_settings.get("type") or "")
    return "proxy" in kind.lower() or "proxy" in agent.id.lower()


def _tool_spec(tool: str, spec: WorkflowSpec | None) -> ToolSpec | None:
    if spec is None:
        return None
    return spec.find_tool(tool)


# Agent names that are also everyday words of a task or an instruction ("the user wants...",
# "ask the assistant"): a text using them need not mean the agent, so they name nobody.
GENERIC_NAMES = {"user", "assistant", "admin", "human", "system", "agent", "manager", "executor",
                 "proxy", "user proxy", "team", "model"}


def agent_names(spec: WorkflowSpec, agent: str) -> list[str]:
    """How a text names an agent: its id, its display name, either with spaces for
    underscores, and its role word without an `agent` suffix (`researcher_agent` ->
    `researcher`), longest first; names that are everyday words (`user`, `assistant`) left out."""
    a = spec.agent(agent)
    return list(_names_of(a.id, a.name))


# The names, their pattern and its compiled form depend on an agent's id and display name
# alone, and the detectors ask for them thousands of times per campaign (a tenth of masfuzz's
# own CPU per execution at 16 workers went to rebuilding them): made once per agent.
@functools.lru_cache(maxsize=1024)
def _names_of(agent_id: str, name: str | None) -> tuple[str, ...]:
    names = {agent_id, name or agent_id}
    for n in list(names):
        spaced = re.sub(r"[_\-]+", " ", n).strip()
        names.add(spaced)
        bare = re.sub(r"\s+agent$", "", spaced, flags=re.IGNORECASE).strip()
        if bare and bare.lower() not in STOPWORDS and len(bare) > 2:
            names.add(bare)
    return tuple(sorted((n for n in names if n and n.lower() not in GENERIC_NAMES), key=len, reverse=True))


@functools.lru_cache(maxsize=1024)
def _pattern_of(agent_id: str, name: str | None) -> str:
    alts = "|".join(re.escape(n) for n in _names_of(agent_id, name)) or "(?!)"  # none: no match
    return rf"(?:the\s+)?(?:{alts})"


@functools.lru_cache(maxsize=1024)
def _named_by(agent_id: str, name: str | None) -> re.Pattern[str]:
    return re.compile(rf"\b{_pattern_of(agent_id, name)}\b", re.IGNORECASE)


def name_pattern(spec: WorkflowSpec, agent: str) -> str:
    """A regex alternation of the agent's names, optionally after `the`."""
    a = spec.agent(agent)
    return _pattern_of(a.id, a.name)


# A count before a name ("2 beds", "three tickets", "a few more parcels"): the word is a thing
# counted, not the agent that bears it as its name.
_COUNTED = re.compile(r"\b(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|"
                      r"several|many|few|extra|more)\s+$", re.IGNORECASE)


def names_agent(text: str, spec: WorkflowSpec, agent: str) -> bool:
    """Does the text name the agent: one of its names (`agent_names`) as a word, not after a
    count (`_COUNTED`: "2 beds" counts beds, whatever agent is called `beds`)?"""
    text = text or ""
    a = spec.agent(agent)
    return any(not _COUNTED.search(text[:m.start()]) for m in _named_by(a.id, a.name).finditer(text))


QUOTED_WORDS = 4  # this many words of a description in a row: the text describes its subject


def quotes(text: str, source: str) -> bool:
    """Does the text repeat QUOTED_WORDS words of the source in a row?"""
    quoted, said = words(source), f" {' '.join(words(text))} "
    return any(f" {' '.join(quoted[i:i + QUOTED_WORDS])} " in said for i in range(len(quoted) - QUOTED_WORDS + 1))


def addresses_agent(text: str, spec: WorkflowSpec, agent: str) -> bool:
    """Does a request ask for this agent itself: name it, or describe it in its description's
    own words ("as the one who tracks a parcel and answers delivery questions")?"""
    if all(a.id != agent for a in spec.agents):
        return False  # not a member the spec knows: nothing to read it by
    return names_agent(text, spec, agent) or quotes(text, spec.agent(agent).description)


def names_in_tool_words(text: str, spec: WorkflowSpec, agent: str) -> bool:
    """Does the text name the agent in a request it words as a tool's description that names it
    ("Please pass a request about a booking to the bookings desk.", a tester's request for
    ask_bookings)? It asks for that tool, which reaches the agent, not for the agent. The words
    repeated must be more than the name and its article: "pass it to the bookings desk" names it."""
    a = spec.agent(agent)
    name = _named_by(a.id, a.name)
    return any(name.search(t.description or "") and any(
        quotes(said, part) for said in name.split(text) for part in name.split(t.description or ""))
        for t in spec.tools)


def owners(spec: WorkflowSpec, tool: str) -> list[str]:
    return [a for a, t in spec.permissions.allow if t == tool]


def tools_of(spec: WorkflowSpec, agent: str) -> list[str]:
    return [t for a, t in spec.permissions.allow if a == agent]


def asks_for(text: str, tool: str, spec: WorkflowSpec | None) -> bool:
    """Does a request ask for what this tool does? It names the tool's action (a word of the
    action's family: "move" my seat for update_seat) and every object of the tool's name. A
    tool whose name is its actions alone, past a generic verb (issue_refund, make_booking,
    refund_payment), is asked for by a request whose first action word is the name's first
    action ("I'd like a refund for my booking": issue_refund, not make_booking): with no object
    to tell the tools apart, what the request asks for first is what it asks for."""
    toks = words(text)
    acts = [a for w in toks if (a := _stem_of(w))]
    objects = tool_objects(tool)
    if not objects:
        first = next(iter(asked_actions(text)), acts[0] if acts else None)
        return first is not None and first == main_action(tool)
    if set(acts) & tool_actions(tool, spec):
        return all(mentions(text, [o]) or _names_a_kind_of(text, tool, spec, o) for o in objects)
    # a verb of the app's own (extend_hire, renew_permit, enrol_pupil): asked for in any form of
    # its root ("an extension of my hire", "the renewal of my permit"), with the rest of the name
    verb = own_verb(tool, spec)
    return verb is not None and any(same_root(verb, w) for w in toks) \
        and all(mentions(text, [o]) for o in objects - {verb})


def _names_a_kind_of(text: str, tool: str, spec: WorkflowSpec | None, obj: str) -> bool:
    """Does the text name the tool's object by one of its kinds: a value of the closed list
    (`enum`) of the tool's parameter named for that object, word for word ("the mainsail" for
    book_sail_repair, whose `sail` takes mainsail, jib or genoa)? The schema says the value is
    one of that object. Values of fewer than three letters say nothing (any text holds "no")."""
    t = _tool_spec(tool, spec)
    props = ((t.parameters if t is not None else None) or {}).get("properties") or {}
    return any(obj in words(param) and isinstance(v, str) and len(re.sub(r"[^A-Za-z]", "", v)) >= 3
               and all(mentions(text, [w]) for w in words(v))
               for param, schema in props.items() for v in (schema or {}).get("enum") or ())


# The frames in which a request asks for something (the closed class of English request forms:
# a modal question to the listener, "please", a wish of the speaker's): the words after one say
# what is asked; the words before it often tell what happened ("I was charged twice ... Can you
# refund the duplicate?", where "charged" is the story and "refund" the ask).
_ASKING = re.compile(r"\b(?:(?:can|could|would|will)\s+(?:you|u)|please|pls|"
                     r"i(?:'d|\s+would)?\s+(?:like|want|need|wish)|i'm\s+(?:asking|hoping|looking)|"
                     r"help\s+me|i\s+am\s+(?:asking|hoping|looking))\b", re.IGNORECASE)


def asked_actions(text: str) -> list[str]:
    """The actions (`ACTIONS`) a request asks for in so many words: those in the part of each
    sentence after an asking frame (`_ASKING`), in order; [] when no sentence asks in such a
    frame (then the request's first action word is the best reading of what it asks)."""
    found: list[str] = []
    for sentence in sentences(text):
        ask = _ASKING.search(sentence)
        if ask is not None:
            found += [a for w in words(sentence[ask.end():]) if (a := _stem_of(w))]
    return found


def own_verb(tool: str, spec: WorkflowSpec | None) -> str | None:
    """The verb of a tool whose action `ACTIONS` does not know (extend_hire, renew_permit,
    transfer_funds): its name's first word past a generic verb, when an object follows it and
    the tool's description opens with a form of the same word ("Extend a hire by some days.",
    "Renews ..."): a name's first word is its verb only when its description says so, since
    flight_status opens with a noun."""
    named = _named_words(tool)
    doc = _tool_spec(tool, spec)
    if len(named) < 2 or _stem_of(named[0]) or named[0] in FIND_VERBS or doc is None:
        return None
    first = sentences(doc.description or "")[:1]
    return named[0] if first and any(same_root(named[0], w) for w in words(first[0])[:2]) else None


# The answer a ReAct-style reply gives as such: what follows its last "Final Answer:" label
# (LangChain's ReAct parser hands the user that part alone). The "Thought:" and "Observation:"
# lines before it are the model's working: a tool's answer quoted there is what the model read,
# not what it told the user, and an instruction re-read there is no claim.
FINAL_ANSWER = re.compile(r"^\W{0,3}final\s+answer\s*:", re.IGNORECASE | re.MULTILINE)


# A reply that opens with a recap of the story so far ("Recap: you asked ...; the first book_x try
# bounced (...); desk_b said ...", "To recap - ...", "So far: ...") and then gives its new part
# under a label ("Now: ...", "Next:", "Update:", "This time:"), or in the paragraph after the
# recap's: the recap repeats earlier answers, failures included, and earlier claims and other
# agents' words; what the agent tells now is the part after it.
RECAP_OPENS = re.compile(r"^\W{0,3}(?:(?:a\s+)?(?:quick\s+|short\s+|brief\s+)?recap|to\s+recap|so\s+far|"
                         r"(?:the\s+)?(?:story|summary)\s+so\s+far|where\s+(?:we|things)\s+(?:are|stand)|"
                         r"catch(?:ing)?[\s-]up|previously)\s*(?:[:\u2013\u2014]|\s-\s|,)", re.IGNORECASE)
NEW_PART = re.compile(r"(?:^|(?<=[.;!?\n)\]\"\u201d'])|(?<=\s))\W{0,3}(?:now|next|update|new|latest|this\s+time|today|"
                      r"right\s+now|as\s+of\s+now|where\s+(?:we|things)\s+stand\s+now)\s*:", re.IGNORECASE)


def _after_recap(text: str) -> str:
    """The new part of a reply that opens with a recap (`RECAP_OPENS`): after the first
    new-part label (`NEW_PART`), else after the recap's paragraph when another follows it; a
    reply that is all recap, or opens with none, is whole."""
    if (opening := RECAP_OPENS.match(text)) is None:
        return text
    if (mark := NEW_PART.search(text, opening.end())) and text[mark.end():].strip():
        return text[mark.end():].strip()
    recap, _, rest = text.partition("\n\n")
    return rest.strip() or text


def answer_given(text: str) -> str:
    """The part of a reply told as its answer: after its last "Final Answer:" label when it has
    one with something after it, else the whole reply; and of that, the new part after a recap
    of the story so far (`_after_recap`)."""
    marks = list(FINAL_ANSWER.finditer(text or ""))
    given = text[marks[-1].end():].strip() if marks else ""
    return _after_recap(given or text or "")


# -- what an agent's message states -------------------------------------------------------------

# a number that stands as one: not the digits of an identifier (a hash, "4d51c4bf", a file id)
_NUMBER = re.compile(r"(?<![\w.])-?\d[\d,]*(?:\.\d+)?(?![A-Za-z_]*\d)")
# a list's or a heading's item number at the start of a line ("1. Load the file", "2) ...",
# "### 3. FACTS TO DERIVE"): states nothing
_ENUMERATOR = re.compile(r"^(\s*(?:[-*#]+\s*)?)\d{1,2}[.)](?=\s)", re.MULTILINE)
_CODE = re.compile(r"```.*?```", re.DOTALL)  # code an agent wrote: not a fact it states
# a warning the Python runtime printed into the log while the agent ran ("/site-packages/x.py:216:
# UserWarning: Resolved model mismatch: gpt-4o-2024-08-06 != ...", then the source line it
# quotes, indented): the process's, not the agent's words, and its numbers are no values
_RUNTIME = re.compile(r"^\S*\.py:\d+: \w*Warning: .*(?:\n[ \t]+\S.*)?$", re.MULTILINE)
# the page a web surfer reports after its own words (Magentic-One's: the page's metadata, the
# text read off its screenshot): the page's content, not the surfer's statement, so a number in
# it is no value the surfer put forward (an assistant that then computes it states it first)
REPORTED_PAGE = re.compile(r"(?:The following metadata was extracted from the webpage|Automatic OCR of the page "
                           r"screenshot has detected the following text|The following text is visible in the "
                           r"viewport):.*", re.DOTALL)  # the last: AgentChat's MultimodalWebSurfer


def own_words(text: str) -> str:
    """What an agent's message states: not the code it wrote, the runtime's warnings, nor the
    page it reports (`REPORTED_PAGE`)."""
    return REPORTED_PAGE.sub(" ", _RUNTIME.sub(" ", _CODE.sub(" ", text)))


def numbers_in(text: str) -> list[float]:
    """The numbers a text gives as numbers, in order: not an identifier's digits (`4d51c4bf`),
    nor a list's item numbers ("1. Load the file"). For prose, whose numbers stand apart; a
    value known to be an amount, its currency code glued on ("EUR20.00"), is read by
    `semantic._amount_figures`, which keeps the digits a word holds."""
    out = []
    for n in _NUMBER.findall(_ENUMERATOR.sub(r"\1", text)):
        try:
            out.append(float(n.replace(",", "")))
        except ValueError:
            continue
    return out
