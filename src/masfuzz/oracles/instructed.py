"""Oracles that read the team's own instructions: who must act, in what order, and who can serve
a request — for bugs whose runs end normally.

FLARE's specification (§3.2.1) derives the speaking order from the team's configured order, so a
team whose configured order is itself wrong (the writer speaks before the researcher it must
write from) conforms to it. These oracles take the relations from what the agents' OWN
instructions and descriptions say ("based on the researcher's findings", "wait for the
reviewer"), from what the task names, and from which agent holds the tools a request needs
(`WorkflowSpec` permissions, tool names and descriptions), and judge the trace against them:

- participation: a run that concluded by itself without a member whose work the task needs;
- instructed order: an agent taking the floor before an agent its instructions depend on;
- routing: a request handed to an agent whose tools cannot serve it while a sibling's can.

Each names the blamed agent, the decisive event and the events that show it, and stays silent
where its reading is not sure (`wording.py`).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from masfuzz.oracles.failure import Failure, dedupe
from masfuzz.oracles.onepass import once_per_pass
from masfuzz.oracles.specified import model_chose_speaker, model_misroute, model_passed_over
from masfuzz.oracles.wording import (
    COURTESY, FIND_VERBS, GENERIC_VERBS, GIVE_UP, IRREGULAR_PAST, STOP_TOKEN, STOPWORDS, addresses_agent, in_english, agent_names, answer_given, asks_for,
    claims_done, closing_offers, is_question, lists_missing, mentions, name_pattern, names_agent, names_in_tool_words,
    nested_fields, owners, participles, payload_failure, same_root, sentences, stem, structured, tool_job, tool_objects, tools_of, words,
)
from masfuzz.spec.model import ENTERED_BY, ROUTE_LABELS, SELECTOR_PROMPT, AgentSpec, ToolSpec, WorkflowSpec
from masfuzz.trace import (
    CONCLUDED_REASONS, SYSTEM_PROMPTS, AgentTurn, DelegationEvent, Message, RestrictedAttempt, TerminationEvent,
    ToolCall, ToolResult, Trace, running_tool, said_by_user, user_text, users_words,
)

SPEAKING_ORDER = "Violation of Relationships-based Speaking Order"
MISROUTED = "Misrouted Request"

# The irregular past participles ("done", "run", "drawn"): what a member "has done" is its work
# product as what it "has checked" is ("by the dye test condition_d has done").
_IRREGULAR = "|".join(sorted({p for ps in IRREGULAR_PAST.values() for p in ps}))
# How an agent's text says it works from another agent's output, `{X}` that agent's names.
_DEPENDS = (
    r"\bbased\s+on\s+{X}(?:'s)?\b",
    r"\bafter\s+{X}\b",
    r"\bonce\s+{X}\s+(?:has|have|is|are)\b",
    # the other conjunctions of time with the other agent's work done, in the perfect ("when the
    # valuer has replied", "as soon as kit_k has packed"): a "when X is ..." is a condition. The
    # participle is a regular one or a listed irregular (`IRREGULAR_PAST`: sent, left, built): a
    # word merely ending in t or d is no participle ("when X has that", "has most of the facts")
    r"\b(?:when|as\s+soon\s+as)\s+{X}\s+(?:has|have)\s+(?:(?:already|just)\s+)?"
    r"(?:[a-z]{2,}(?:ed|en)|" + _IRREGULAR + r")\b",
    r"\bwait(?:s|ing)?\s+(?:for|until)\s+{X}\b",
    r"\b(?:use|using|from|build\s+on|building\s+on|review|revise|edit|check|summari[sz]e|read|"
    r"take|refine|verify|improve)\s+{X}'s\b",
    r"\b{X}'s\s+(?:findings|research|draft|output|notes|results|plan|design|review|feedback|code|"
    r"script|outline|analysis|report|data|answer|work|facts|sources|summary|figures|numbers|estimate|"
    r"survey|assessment|verdict|recommendation|decision|quote|list|check)\b",
    r"\b(?:provided|produced|written|prepared|gathered|found|given|researched|drafted|supplied|"
    r"collected)\s+by\s+{X}\b",
    # what the other agent says or finds, as the object of this one's work ("take what iris
    # reports and ...", "price the repair from whatever the surveyor finds")
    r"\bwhat(?:ever)?\s+{X}\s+(?:reports|finds|says|gathers|produces|returns|sends|writes|"
    r"gives|provides|decides|concludes|recommends|hands\s+over|comes\s+up\s+with)\b",
    # what the other agent has done, any verb, as the object of this one's work ("bill whatever
    # the seat desk has put aside", "ship what packing has boxed", "the rooms X has held")
    r"\bwhat(?:ever)?\s+{X}\s+(?:has|have|had)\s+(?:(?:already|just|now|since|so\s+far)\s+)?"
    r"(?!(?:not|no|never|nothing)\b)[a-z]{2,}\b",
    r"\bthe\s+(?!(?:user|customer|client|request|task|question|person|people)s?\b)\w+(?:\s+\w+)?\s+{X}\s+"
    r"(?:has|have|had)\s+(?:(?:already|just|now)\s+)?(?!(?:not|no|never|nothing|to)\b)(?:[a-z]{2,}(?:ed|en|t|d)|" + _IRREGULAR + r")\b",
    # ... or the things it has done named bare, after a preposition ("books lanes for archers
    # coach_r has signed off", "ships to customers billing has cleared")
    r"\b(?:for|to|of|on|with|from)\s+(?!(?:the|a|an|what|whatever|which|whom?|user|customer|client|request|"
    r"task|question|person|people)s?\b)\w+\s+{X}\s+(?:has|have|had)\s+(?:(?:already|just|now)\s+)?"
    r"(?!(?:not|no|never|nothing|to)\b)(?:[a-z]{2,}(?:ed|en|t|d)|" + _IRREGULAR + r")\b",
    # a product named with the other agent as its maker, in a relative clause ("the figure
    # pricing_k works out is what you present", "the notes the surveyor takes") ...
    r"\bthe\s+(?!(?:user|customer|client|request|task|question|person|people)s?\b)\w+(?:\s+\w+)?\s+{X}\s+"
    r"(?!(?:is|was|has|does)\b)\w{2,}s\b",
    # ... or in the past, its work done ("at the rate of the sitter hx_pair found", "the room
    # the planner chose", "the slot the desk picked")
    r"\bthe\s+(?!(?:user|customer|client|request|task|question|person|people)s?\b)\w+(?:\s+\w+)?\s+{X}\s+"
    r"(?:(?:already|just)\s+)?(?:[a-z]{2,}ed|" + "|".join(sorted({p for ps in IRREGULAR_PAST.values() for p in ps})) + r")\b",
)
# "skip" negates as a verb ("skip the deposit check"); after a determiner it is a noun, the
# builder's container ("for any skip booking", "the skip"), and negates nothing.
NEGATED = re.compile(r"\b(?:not|never|no|without|instead\s+of|except|"
                     r"(?<!\ba\s)(?<!\ban\s)(?<!\bany\s)(?<!\bthe\s)(?<!\byour\s)(?<!\bour\s)(?<!\bmy\s)"
                     r"(?<!\bone\s)(?<!\beach\s)(?<!\bevery\s)skip)\b|n't\b", re.IGNORECASE)
# Who a request comes from or is about: a relative clause of theirs ("the date the caller gave")
# names no member's product.
_PEOPLE = {"user", "users", "customer", "customers", "client", "clients", "caller", "guest", "guests",
           "patient", "patients", "practice", "member", "members", "person", "people", "visitor",
           "buyer", "sender", "owner", "applicant", "passenger", "tenant"}
# A product's determiner: an article or possessive, or a possessor of any name ("the workshop's
# inspection notes", "Anna's figures"; a possessor that names an agent is read as that agent).
_DET = r"(?:(?:(?:the|your|our|their|its)\s+)?\w+(?:'s|s')|the|your|our|their|its)"
# How an agent's text says it works from a product no agent is named for ("after the numbers
# are in", "once the data has been gathered", "when the draft is ready", "wait for the
# estimate"): the product's words (one or two, the last its noun).
_AFTER_PRODUCT = (
    r"\b(?:after|once|when|until|as\s+soon\s+as)\s+" + _DET + r"\s+(?P<p>\w+(?:\s+\w+)?)\s+"
    # what the product is for ("the survey notes for a site"): not part of its name
    r"(?:(?:for|of|on)\s+(?:a|an|the|this|that|each|every|its|their)\s+\w+\s+)?"
    r"(?:(?:is|are|has\s+been|have\s+been|was|were)\s+(?:in|ready|done|available|complete|completed|"
    r"finished|gathered|collected|written|drafted|prepared|compiled|produced|delivered|back|"
    r"submitted|finali[sz]ed|calculated|computed|researched|crunched|assembled|(?P<v>\w+ed))|"
    r"exists?|(?:is|are)\s+there|(?:has|have)\s+arrived|arrives?)\b",
    r"\bwait(?:s|ing)?\s+(?:for|until)\s+" + _DET + r"\s+(?P<p>\w+(?:\s+\w+)?)\b",
    r"\bbased\s+on\s+" + _DET + r"\s+(?P<p>\w+(?:\s+\w+)?)\b",
    # the product as what bounds or carries this agent's work ("the sum is what the funding
    # figures allow", "it rests on the survey results", "the price comes from the estimate")
    r"\bwhat(?:ever)?\s+" + _DET + r"\s+(?P<p>\w+(?:\s+\w+)?)\s+(?:allows?|permits?|says?|shows?|"
    r"gives?|sets?|states?|reports?|finds?)\b",
    r"\b(?:rests?|relies|rely|depends?|hinges?)\s+on\s+" + _DET + r"\s+(?P<p>\w+(?:\s+\w+)?)\b",
    r"\bcomes?\s+from\s+" + _DET + r"\s+(?P<p>\w+(?:\s+\w+)?)\b",
    # the product this agent works from, named by the state another's work left it in, a reduced
    # relative clause ("from the rows found ready to pick", "using the parts approved by stores",
    # "with the slots cleared."): the participle says what was done to it, and by whom is read
    # off the other agents (`_producer`)
    r"\b(?:from|using|with|among|off)\s+" + _DET + r"\s+(?P<p>\w+(?:\s+\w+)?)\s+(?:already\s+)?"
    r"(?P<v>[a-z]{3,}ed|" + "|".join(sorted({p for ps in IRREGULAR_PAST.values() for p in ps})) + r")"
    r"(?=\s+(?:ready|fit|fine|free|safe|clear|good|suitable|available|eligible|by|as)\b|\s*(?:[.;:!?]|$))",
    # the product named with its maker's past work in a relative clause, the maker by a role of
    # its own that is no agent's name ("milled in the shade the shade desk recorded", "the
    # figure the pricing bench settled on"); a person of the request making it ("the date the
    # caller gave") names no member
    r"\bthe\s+(?P<p>\w+)\s+the\s+(?!(?:" + "|".join(sorted(_PEOPLE)) + r")\b)\w+(?:\s+\w+)?\s+"
    r"(?:(?:already|just)\s+)?(?:[a-z]{3,}ed|" + "|".join(sorted({p for ps in IRREGULAR_PAST.values() for p in ps}))
    + r")\b",
    # the thing worked from, named as a part of another step's product, the possessor that step
    # ("price it from the survey's measurements", "using the inspection's findings"): the
    # possessor is the product, its maker the one agent holding a tool named by it (site_survey);
    # a person's possession ("from the customer's message") is the request, no member's work
    r"\b(?:from|using|off)\s+(?:the|your|our|their|its)\s+(?!(?:" + "|".join(sorted(_PEOPLE)) + r")\b)"
    r"(?P<p>\w+)(?:'s|s')\s+\w+",
)
# A product named with its making in a relative clause, the maker named by its role ("the sight
# size the bench measures is what you cut to"): the maker's verb.
_MADE_BY = re.compile(r"\bthe\s+\w+(?:\s+\w+)?\s+(?:the|our|your|their)\s+\w+\s+(?P<v>[a-z]{3,})s\b"
                      r"(?:\s+(?:out|up))?\s+(?:is|are|becomes?|sets?)\b", re.IGNORECASE)
# How an agent's text says it makes a product ("you crunch the numbers", "gather the data",
# "write the first draft"), `{P}` the product's noun.
_PRODUCES = (r"\b(?:produc|prepar|writ|wrote|draft|gather|collect|compil|crunch|comput|calculat|"
             r"fetch|pull|research|creat|build|generat|deliver|provid|supply|supplie|assembl|"
             r"put\s+together|come\s+up\s+with|compos|estimat|forecast|find|source)\w*\b"
             r"[^.!?]*?\b{P}\b")


# The dependencies read from each spec, by identity (the spec is kept so that its id is not
# reused): every trace of a campaign is judged against the same spec, read once.
_READ: dict[int, tuple[WorkflowSpec, list[tuple[str, str, str]]]] = {}
_MAX_READ = 64


def instructed_dependencies(spec: WorkflowSpec) -> list[tuple[str, str, str]]:
    """(before, after, sentence): `after`'s own instructions or description say it works from
    `before`'s output. Sentences that negate, or that name a third agent (whose order they may
    describe instead), are left out."""
    hit = _READ.get(id(spec))
    if hit is None or hit[0] is not spec:
        if len(_READ) >= _MAX_READ:
            _READ.pop(next(iter(_READ)))
        hit = _READ[id(spec)] = (spec, _read_dependencies(spec))
    return hit[1]


def _read_dependencies(spec: WorkflowSpec) -> list[tuple[str, str, str]]:
    ids = [a.id for a in spec.agents]
    out = []
    for a in spec.agents:
        text = "\n".join([a.instructions or "", a.description or "", *_argument_docs(spec, a.id)])
        for s in (c for t in sentences(text) for c in clauses(t)):
            if NEGATED.search(s):
                continue
            named = [x for x in ids if x != a.id and names_agent(s, spec, x)]
            if not named and (x := _producer(spec, a.id, s)) is not None:
                if (x, a.id) not in [(b, f) for b, f, _ in out]:
                    out.append((x, a.id, s))
                continue
            if len(named) != 1:
                continue
            x = named[0]
            pat = name_pattern(spec, x)
            if any(re.search(p.replace("{X}", pat), s, re.IGNORECASE) for p in _DEPENDS):
                if (x, a.id) not in [(b, f) for b, f, _ in out]:
                    out.append((x, a.id, s))
            elif _passes_for(spec, s, x) and (a.id, x) not in [(b, f) for b, f, _ in out]:
                out.append((a.id, x, s))
    return out


def _argument_docs(spec: WorkflowSpec, agent: str) -> list[str]:
    """The documentation of the arguments of an agent's own tools, each a sentence of its own:
    what a tool takes says what its holder works from ("induction_card: The induction card
    coach_r issued" makes coach_r's card a thing the holder needs before it acts)."""
    mine = set(tools_of(spec, agent))
    return [f"{str(v.get('description')).rstrip('. ')}." for t in spec.tools if t.id in mine
            for v in ((t.parameters or {}).get("properties") or {}).values()
            if isinstance(v, dict) and v.get("description")]


# The maker's side of a dependency: it passes a product on for another agent ("Pass on the
# sitter's id and visit rate for fee_desk"), `{X}` that agent's names.
_PASSES_FOR = (r"\b(?:pass(?:es)?|hand(?:s)?|send(?:s)?|forward(?:s)?|give(?:s)?|leave(?:s)?|note(?:s)?)\s+"
               r"(?:on\s+)?(?P<p>(?:(?!\bfor\b)[^.!?])+?)\s+(?:on\s+)?for\s+{X}\b")


def _passes_for(spec: WorkflowSpec, sentence: str, x: str) -> bool:
    """Does an agent's sentence pass a product on for `x` that `x`'s tools take (the sitter's id
    for quote_visits(sitter_id)): `x` works from it, so speaks after its maker. A note left for a
    coordinator ("leave your findings for the manager") names nothing its tools take."""
    m = re.search(_PASSES_FOR.replace("{X}", name_pattern(spec, x)), sentence, re.IGNORECASE)
    if m is None:
        return False
    product = set(words(m.group("p"))) - STOPWORDS
    takes = {w for t in spec.tools if t.id in tools_of(spec, x)
             for param in ((t.parameters or {}).get("properties") or {}) for w in words(param)} - STOPWORDS
    return bool(product & takes)


# An imperative that hands the work to one agent ("Hand off to fitter_j.", "Look it up, then pass
# the job on to the fitter."), opening the sentence or a clause of it, `{X}` that agent's names:
# nothing after the name, so that no scope ("for refunds") or condition follows it.
_HANDS_TO = (r"(?:^|[,;:]\s*)(?:(?:then|next|finally|always|afterwards|after\s+that|and|now)\W+)*"
             r"(?:hand|pass|transfer|delegate|forward|route|escalate|send)\s+(?:(?:it|this|them|the\s+\w+"
             r"(?:\s+\w+)?)\s+)?(?:(?:off|over|on)\s+)?to\s+{X}\W*$")
# Words that make a sentence's instruction hold only sometimes.
CONDITIONAL = re.compile(r"\b(?:if|when|whenever|unless|only|in\s+case|should|where|otherwise|either|"
                         r"depending|whether)\b", re.IGNORECASE)


# A scope opening the sentence, which makes its instruction hold for those requests only ("For new
# bookings or wedding cars, hand over to hire_b."); "for each" or "for every" is no scope.
SCOPED = re.compile(r"^\W*for\s+(?!(?:each|every|all|any)\b)[^,;:.]{1,80}[,;:]", re.IGNORECASE)


_HANDS = re.compile(r"\b(?:hand|pass|transfer|delegate|forward|route|escalate|send)\b", re.IGNORECASE)


def instructed_handoffs(spec: WorkflowSpec) -> list[tuple[str, str, str]]:
    """(agent, target, sentence): `agent`'s own instructions tell it to hand the work to `target`
    unconditionally ("Call job_history. Hand off to fitter_j."): a sentence naming exactly one
    other agent, with no negation or condition, that is only that imperative, and no other
    sentence of them hands anything to another agent (then the plain one is the default of a
    choice: "Hand off to appt_desk when ... Hand off to info_k."). Whatever the request, a run
    in which `agent` acted needs `target`'s work."""
    ids = [a.id for a in spec.agents]
    out = []
    for a in spec.agents:
        said = sentences(a.instructions or "")
        targets = {x for s in said if _HANDS.search(s) for x in ids if x != a.id and names_agent(s, spec, x)}
        if len(targets) != 1:
            continue
        for s in said:
            if NEGATED.search(s) or CONDITIONAL.search(s) or SCOPED.search(s):
                continue
            named = [x for x in ids if x != a.id and names_agent(s, spec, x)]
            if len(named) == 1 and re.search(_HANDS_TO.replace("{X}", name_pattern(spec, named[0])), s,
                                             re.IGNORECASE):
                out.append((a.id, named[0], s))
    return out


# A routing line that hands one kind of request to one agent: "Pass to engrave_e for a tag,
# engraving or plaque.", "Send it to billing for refunds or invoices." (`{X}` the agent's names),
# the kinds listed after "for".
_HANDS_FOR = (r"^\W*(?:hand|pass|transfer|delegate|forward|route|escalate|send)\s+(?:(?:it|this|them)\s+)?"
              r"(?:(?:off|over|on)\s+)?to\s+{X}\s+for\s+(?P<topics>[^.;:!?]+?)\W*$")


def _topic_handoffs(spec: WorkflowSpec) -> list[tuple[str, str, list[str], str]]:
    """(agent, target, kinds, sentence): a line of `agent`'s instructions that hands requests of
    the kinds it lists to `target` ("Pass to engrave_e for a tag, engraving or plaque."), naming
    no other agent and negating nothing. A task asking for one of those kinds needs `target`'s
    work once `agent` has acted, whatever else the task asks for."""
    ids = [a.id for a in spec.agents]
    out = []
    for a in spec.agents:
        for s in sentences(a.instructions or ""):
            named = [x for x in ids if x != a.id and names_agent(s, spec, x)]
            if len(named) != 1 or NEGATED.search(s):
                continue
            m = re.search(_HANDS_FOR.replace("{X}", name_pattern(spec, named[0])), s, re.IGNORECASE)
            if m is None:
                continue
            kinds = [w for w in words(m.group("topics")) if w not in STOPWORDS and w not in NOT_PRODUCTS
                     and len(w) >= 3 and w not in ("any", "all", "each", "every", "anything", "else")]
            if kinds:
                out.append((a.id, named[0], kinds, s))
    return out


# A question that asks for something done or given ("can you book ...?", "could we get ...?",
# "would you mind ...?", "any chance of ...?", "... please?"): a request, unlike a question
# for information ("do we need our own masks?", "is the pizza ok for her?").
REQUEST_QUESTION = re.compile(r"^\W*(?:\w+\W+){0,4}?(?:can|could|would|will|may|might)\s+(?:you|u|we|i|they|someone)\b|"
                              r"\b(?:please|pls|any chance|is it possible|possible to)\b", re.IGNORECASE)


def side_question(sentence: str) -> bool:
    """Is the sentence a question for information (`is_question`, no `REQUEST_QUESTION`): an
    aside beside a task's main ask, which a member may answer or not, but which hands no member
    work to do?"""
    return is_question(sentence) and not REQUEST_QUESTION.search(sentence)


def clauses(sentence: str) -> list[str]:
    """A sentence cut at colons, semicolons, dashes and ", so" / ", but": a negation in one clause ("the
    sum is never yours to choose: it is what the figures allow") does not negate the others."""
    return [c for c in re.split(r"\s*[:;]\s+|\s+[-–—]\s+|,\s+(?=(?:so|but)\b)", sentence) if c.strip()]


# What a sentence may wait for that no agent makes: the people and the run itself.
NOT_PRODUCTS = {"user", "users", "customer", "customers", "task", "conversation", "chat", "run",
                "request", "question", "human", "client", "caller", "meeting", "call", "it", "one"}


# The same product, its making done ("crowns are milled in the shade the shade desk recorded"):
# the product's noun and the maker's verb in the past, ending the clause.
_MADE_BY_PAST = re.compile(r"\bthe\s+(?P<p>\w+)\s+(?:the|our|your|their)\s+\w+(?:\s+\w+)?\s+(?P<v>[a-z]{3,}ed)\b"
                           r"(?=\s*(?:[.,;:!?]|$))", re.IGNORECASE)


def _made_in_the_past(spec: WorkflowSpec, agent: str, sentence: str) -> str | None:
    """The maker of a product named with its making done, its maker by a role ("the shade the
    shade desk recorded"): the one other agent whose own instructions tell it to do that to that
    product ("Record the shade with `read_shade`."), or holding a tool named by the verb."""
    for m in _MADE_BY_PAST.finditer(sentence):
        verb, noun = stem(m.group("v")), stem(m.group("p"))
        makers = {x.id for x in spec.agents if x.id != agent and (
            any(verb in {stem(w) for w in words(t)[:1]} for t in tools_of(spec, x.id))
            or any({verb, noun} <= {stem(w) for w in words(t)} and not NEGATED.search(t)
                   for t in sentences(x.instructions or "")))}
        if len(makers) == 1:
            return makers.pop()
    return None


def _producer(spec: WorkflowSpec, agent: str, sentence: str) -> str | None:
    """The one other agent whose own instructions or description say it makes the product a
    sentence of `agent`'s waits for without naming anyone ("once the data has been gathered":
    the agent told to "gather the market data"); None when the sentence waits for no product,
    when `agent` makes it itself, or when no agent or several do (then the order is not sure).
    When no agent says it makes the product by its noun, the one agent holding a tool named by one
    of the product's words makes it ("the funding figures": the holder of funding_check). A
    product named with its making in a relative clause ("the sight size the bench measures is
    what you cut to") is made by the one other agent holding a tool named by that verb
    (measure_artwork)."""
    verbs = {m.group("v").lower() for m in _MADE_BY.finditer(sentence)} - {"i", "a"}
    holders = {x.id for x in spec.agents if x.id != agent
               for t in tools_of(spec, x.id) for w in words(t)[:1] if w in verbs or f"{w}e" in verbs}
    if len(holders) == 1:
        return holders.pop()
    if maker := _made_in_the_past(spec, agent, sentence):
        return maker
    nouns = {m.group("p").split()[-1].lower() for p in _AFTER_PRODUCT
             for m in re.finditer(p, sentence, re.IGNORECASE)} - NOT_PRODUCTS
    claimed = False  # some agent says it makes a product of that noun
    for noun in nouns:
        stem = noun[:-1] if len(noun) > 3 and noun.endswith("s") and not noun.endswith("ss") else noun
        made = re.compile(_PRODUCES.replace("{P}", rf"{re.escape(stem)}s?"), re.IGNORECASE)
        makers = [x.id for x in spec.agents
                  if any(made.search(t) and not NEGATED.search(t)
                         for t in sentences(f"{x.instructions}\n{x.description}") if t != sentence)]
        if agent not in makers and len(makers) == 1:
            return makers[0]
        claimed = claimed or bool(makers)
    if claimed:
        return None
    # no agent says it makes the product by that noun: the product is named differently by its
    # maker and its user ("the funding figures", "the funding check"); its maker is then the one
    # agent holding a tool named by one of the product's words
    product = {w.lower() for p in _AFTER_PRODUCT for m in re.finditer(p, sentence, re.IGNORECASE)
               for w in m.group("p").split()} - NOT_PRODUCTS - STOPWORDS
    if not product:
        return None
    holders = [x.id for x in spec.agents if any(set(words(t)) & product for t in tools_of(spec, x.id))]
    if holders:
        return holders[0] if len(holders) == 1 and holders[0] != agent else None
    # nor by its words: the participle says what is done to it ("once the van has been weighed
    # in"), and its maker is the one other agent holding a tool named by that verb (weigh_in)
    done = {m.group("v").lower() for m in re.finditer(_AFTER_PRODUCT[0], sentence, re.IGNORECASE)
            if m.group("v")}
    stems = {v[:-2] for v in done} | {v[:-1] for v in done}  # weighed: weigh; priced: price
    holders = [x.id for x in spec.agents if x.id != agent
               and any(words(t)[:1] and words(t)[0] in stems for t in tools_of(spec, x.id))]
    return holders[0] if len(holders) == 1 else None


def with_prompts(spec: WorkflowSpec, trace: Trace) -> WorkflowSpec:
    """The spec, with the instructions the spec lacks taken from what each agent's model was told
    in this run (`Trace.meta[SYSTEM_PROMPTS]`): a LangGraph node builds its own system message in
    code that extraction cannot read. The spec itself when nothing is to fill."""
    told = trace.meta.get(SYSTEM_PROMPTS) or {}
    if not any(told.get(a.id) and not a.instructions for a in spec.agents):
        return spec
    agents = tuple(a.model_copy(update={"instructions": told[a.id]})
                   if told.get(a.id) and not a.instructions else a for a in spec.agents)
    return spec.model_copy(update={"agents": agents})


def _acted(trace: Trace) -> dict[str, int]:
    """Each agent's first event of its own: a turn, a message, a tool call."""
    first: dict[str, int] = {}
    for i, e in enumerate(trace.events):
        agent = e.agent if isinstance(e, (AgentTurn, ToolCall, RestrictedAttempt)) else \
            e.agent if isinstance(e, Message) and e.role == "assistant" else None
        if agent:
            first.setdefault(agent, i)
    return first


@once_per_pass  # `handover_facts` asks for it too
def instructed_order(trace: Trace, spec: WorkflowSpec | None) -> list[Failure]:
    """Kind 4 — an agent takes the floor (its first turn, message or tool call) before an agent
    its own instructions or description say it depends on ("based on the researcher's
    findings", "after the researcher has ...", "use the planner's draft", "wait for the
    reviewer", or a product only that agent makes: "once the data has been gathered",
    `_producer`) has acted, and that agent acts only later; or a tool of the agent refused a
    call for want of the step one other agent's tool takes ("no triage outcome on file",
    `_refused_for_want_of`), that agent acting only after it. Works for every pattern, a fixed
    (round-robin) order included: the order is judged against the instructions, not against
    itself.

    Category agent_relationship, root cause Violation of Relationships-based Speaking Order.
    Blamed: the agent that spoke too early; step: its first turn; evidence: that turn and the
    depended-on agent's first act.

    Instructions the spec lacks are read from what the agent's model was told in the run
    (`with_prompts`). Cannot see: dependencies stated in words outside its patterns, in a third agent's
    instructions ("the writer speaks after the researcher", in the manager's), or only in the
    task; an agent that speaks early but only to wait. A depended-on agent that never acts is
    participation's (kind 3) when the run concluded, the bound detector's when it did not."""
    if spec is None:
        return []
    spec = with_prompts(spec, trace)
    first = _acted(trace)
    calls = _calls_as_tool(trace, spec)
    out, pairs = [], set()
    for before, after, said in instructed_dependencies(spec):
        if after not in first or before not in first or first[before] < first[after]:
            continue
        at = first[after]
        if (after, before) in calls and (at := _first_said(trace, after, first[before])) is None:
            continue  # it called the member it waits for, and spoke only after its answer
        pairs.add((before, after))
        out.append(Failure(
            category="agent_relationship", root_cause=SPEAKING_ORDER, detector="instructed_order",
            evidence=(at, first[before]), scenario_id=trace.scenario_id,
            elements=(before, after), agent=after, step=at, clause="rel::order",
            description=f"{after} took the floor at event {at} before {before} acted "
            f"(event {first[before]}), though its instructions say it depends on {before}: "
            f"\"{said[:120]}\""))
    for before, after, ri in _refused_for_want_of(trace, spec, first):
        if (before, after) in pairs:
            continue
        pairs.add((before, after))
        out.append(Failure(
            category="agent_relationship", root_cause=SPEAKING_ORDER, detector="instructed_order",
            evidence=(first[after], ri, first[before]), scenario_id=trace.scenario_id,
            elements=(before, after), agent=after, step=first[after], clause="rel::order",
            description=f"{after} took the floor at event {first[after]} before {before} acted "
            f"(event {first[before]}), and {after}'s {trace.events[ri].tool} refused for want of the "
            f"step {before}'s tools take: \"{' '.join(trace.events[ri].payload.split())[:120]}\""))
    for before, after, q, ri in _asked_before_made(trace, spec, first):
        if (before, after) in pairs:
            continue
        pairs.add((before, after))
        out.append(Failure(
            category="agent_relationship", root_cause=SPEAKING_ORDER, detector="instructed_order",
            evidence=(first[after], q, ri), scenario_id=trace.scenario_id,
            elements=(before, after), agent=after, step=first[after], clause="rel::order",
            description=f"{after} took the floor at event {first[after]} before {before} acted "
            f"(event {first[before]}) and asked for what {before} makes (\"{answer_given(trace.events[q].content).strip()[:80]}\", "
            f"event {q}): the value it needed came from {before}'s {trace.events[ri].tool} (event {ri})"))
    return dedupe(out)


def _calls_as_tool(trace: Trace, spec: WorkflowSpec) -> set[tuple[str, str]]:
    """(caller, member): the members an agent calls as a tool and has answer back to it (the
    Agents SDK's `as_tool`, ADK's `AgentTool`), by the spec's delegations or the run's. The caller
    must act first to call: its taking the floor is how it gets the member's work, so a line of
    it that waits for that member ("Once the till has answered, tell the customer") is broken
    only by what it says before the member acts."""
    return {d.edge for d in spec.delegations if d.trigger == "as_tool"} | {
        (e.from_, e.to) for e in trace.events if isinstance(e, DelegationEvent) and e.trigger == "as_tool"}


def _first_said(trace: Trace, agent: str, before: int) -> int | None:
    """The first message `agent` wrote before event `before` (its words, not its turn or its
    calls), or None."""
    return next((i for i, e in enumerate(trace.events[:before]) if isinstance(e, Message)
                 and e.role == "assistant" and e.agent == agent and e.content.strip()), None)


# The words that say which of a thing's fields an argument is, in any spelling (permit_no,
# "Permit number?"): the thing's own words name what is asked for.
_FIELD_WORDS = {"no", "nr", "num", "number", "id", "ref", "reference", "code"}


def _asked_before_made(trace: Trace, spec: WorkflowSpec, first: dict[str, int]) -> list[tuple[str, str, int, int]]:
    """(before, after, question, made): `after` took the floor before `before` acted, asked
    there for an argument of a tool of its own by the argument's name ("Induction card?" for
    book_lane(induction_card)), and the value it later passed for that argument was first said
    in the answer of `before`'s tool (the card sign_off issued), not by the user. The run itself
    shows the dependency, whatever the instructions say: `after` spoke without the thing it
    needed from `before`. A question put while handing the work to `before` is that hand-over,
    no early turn."""
    out = []
    told = user_text(trace)
    for ci, c in enumerate(trace.events):
        if not isinstance(c, ToolCall) or c.agent not in first:
            continue
        for name, value in (c.arguments or {}).items():
            value = str(value).strip()
            if len(value) < 4 or value in told:
                continue
            made = next((i for i, r in enumerate(trace.events[:ci]) if isinstance(r, ToolResult)
                         and value in r.payload), None)
            before = trace.events[made].agent if made is not None else None
            if before is None or before == c.agent or first.get(before, ci) <= first[c.agent]:
                continue
            q = _early_ask(trace, c.agent, before, first, name)
            if q is not None:
                out.append((before, c.agent, q, made))
    return out + _asked_then_made(trace, spec, first, told) + _asked_then_keyed(trace, spec, first, told)


def _early_ask(trace: Trace, agent: str, before: str, first: dict[str, int], param: str) -> int | None:
    """The message of `agent`'s, between its first act and `before`'s, that asks for `param` by
    its name (the words that only say which field it is, no, number, id, code, may differ:
    "Permit number?" asks for permit_no), in a ReAct reply its Final Answer; None when there is
    none, or when `agent` handed the work to `before` meanwhile (the question is that hand-over)."""
    wanted = set(words(param)) - STOPWORDS
    wanted = wanted - _FIELD_WORDS or wanted
    if not wanted or any(isinstance(d, DelegationEvent) and d.from_ == agent and d.to == before
                         and d.trigger in ROUTING_TRIGGERS for d in trace.events[first[agent]:first[before]]):
        return None
    return next((i for i in range(first[agent], first[before]) if isinstance(m := trace.events[i], Message)
                 and m.role == "assistant" and m.agent == agent and (any(
                     is_question(x) and wanted <= {w for y in words(x) for w in (y, y.rstrip("s"))}
                     for x in sentences(answer_given(m.content))) or _lists_wanted(answer_given(m.content), wanted))),
                None)


def _lists_wanted(text: str, wanted: set[str]) -> bool:
    """Does a reply ask for these words as a form asks: a structured list of what is missing
    (`lists_missing`: "missing:" over a bulleted list, a YAML block's key) that names them, with
    the closing question ("Can you send these?") pointing at the list rather than naming them?"""
    if not lists_missing(text) or not any(is_question(x) for x in sentences(text)):
        return False
    listed = {w for line in text.splitlines() if not is_question(line)
              for y in words(line) for w in (y, y.rstrip("s"))}
    return wanted <= listed


def _asked_then_made(trace: Trace, spec: WorkflowSpec, first: dict[str, int],
                     told: str) -> list[tuple[str, str, int, int]]:
    """(before, after, question, made) for an early speaker that never got to act: `after` took
    the floor before `before` acted and asked there for a required argument of a tool of its
    own by the argument's name ("Could you tell me the engineer?" for book_studio(engineer)),
    then `before`'s tool answered, later, a value of the very form that argument's documentation
    gives (ENG-07 of `e.g. "ENG-01"`), one the user never said. What `after` lacked was made by
    `before`, after `after` had spoken: the order put it first, whether or not the run went
    on to use the value."""
    # semantic reads routing: imported late
    from masfuzz.oracles.semantic import _example_word, _telling, documented_formats, fact_values

    out = []
    for after, start in first.items():
        for tool in tools_of(spec, after):
            t = next((x for x in spec.tools if x.id == tool), None)
            required = ((t.parameters if t is not None else None) or {}).get("required") or []
            for param, forms in documented_formats(spec, tool).items():
                if param not in required:
                    continue
                for ri, r in enumerate(trace.events):
                    if not isinstance(r, ToolResult) or r.fault or r.status != "ok" or r.agent in (None, after) \
                            or first.get(r.agent, -1) <= start or tool in tools_of(spec, r.agent):
                        continue
                    values = [m.group(0) for _, regex in forms
                              for m in re.finditer(rf"(?<![\w-])(?:{regex})(?![\w-])", r.payload)]
                    # a loose form (a word, then digits: `like "bus 31"`) that everyday words fit
                    # by chance ("after the first 7 days") is that value only when the answer's
                    # words are a fact by their shape, the form fits nothing else, or they carry
                    # the example's own word, as `handover_facts` reads a question by name
                    values = [v for v in values if v in fact_values(r.payload)
                              or any(_telling(rx) for _, rx in forms) or _example_word(v, forms)]
                    if not [v for v in values if v not in told]:
                        continue
                    q = _early_ask(trace, after, r.agent, first, param)
                    if q is None:
                        q = _early_question(trace, spec, after, r.agent, first, param)
                    if q is not None:
                        out.append((r.agent, after, q, ri))
                        break
    return out


# A JSON schema type and the Python values a structured answer carries of it.
_SCHEMA_TYPES = {"integer": (int,), "number": (int, float), "string": (str,)}


def _asked_then_keyed(trace: Trace, spec: WorkflowSpec, first: dict[str, int],
                      told: str) -> list[tuple[str, str, int, int]]:
    """(before, after, question, made) for an early speaker whose argument has no documented
    form: `after` took the floor before `before` acted and asked there for a required argument
    of a tool of its own by the argument's name ("I need: 1. width cm" for
    quote(width_cm)), then `before`'s tool answered, later, a structured answer with a field of
    that very name (`{"width_cm": 240}`) holding a value of the argument's schema type that the
    user never said. The tools' data flow is the dependency: one agent's tool takes what
    another's returns under the same key, and the order put the taker first."""
    out = []
    for after, start in first.items():
        for tool in tools_of(spec, after):
            t = next((x for x in spec.tools if x.id == tool), None)
            schema = (t.parameters if t is not None else None) or {}
            for param in schema.get("required") or []:
                kinds = _SCHEMA_TYPES.get(((schema.get("properties") or {}).get(param) or {}).get("type"))
                if kinds is None:  # a flag or an object: a field of that name says too little
                    continue
                for ri, r in enumerate(trace.events):
                    if not isinstance(r, ToolResult) or r.fault or r.status != "ok" or r.agent in (None, after) \
                            or first.get(r.agent, -1) <= start or tool in tools_of(spec, r.agent):
                        continue
                    values = [v for k, v in nested_fields(structured(r.payload.strip()))
                              if k.lower() == param.lower() and isinstance(v, kinds) and not isinstance(v, bool)
                              and str(v).strip() and str(v).strip() not in told]
                    if values and (q := _early_ask(trace, after, r.agent, first, param)) is not None:
                        out.append((r.agent, after, q, ri))
                        break
    return out


def _early_question(trace: Trace, spec: WorkflowSpec, agent: str, before: str, first: dict[str, int],
                    param: str) -> int | None:
    """The question, in another language than English, whose words the rules do not read
    (`in_english`: "Könnten Sie mir bitte die Nummer nennen?"), that
    `agent` put between its first act and `before`'s without calling a tool, when `param` is the
    one documented-form parameter of its tools that nothing said in the run before it fills
    (`unfilled_parameters`: the user's date in words fills a date's): the question can only be
    for that one. None otherwise, or when `agent` handed the work to `before` meanwhile."""
    from masfuzz.oracles.semantic import unfilled_parameters  # semantic reads routing: imported late

    if any(isinstance(d, DelegationEvent) and d.from_ == agent and d.to == before
           and d.trigger in ROUTING_TRIGGERS for d in trace.events[first[agent]:first[before]]):
        return None
    for i in range(first[agent], first[before]):
        e = trace.events[i]
        if isinstance(e, ToolCall) and e.agent == agent:
            return None
        if isinstance(e, Message) and e.role == "assistant" and e.agent == agent \
                and any(is_question(x) and not in_english(x) for x in sentences(answer_given(e.content))):
            known = " ".join(m.content for m in trace.events[:i] if isinstance(m, Message))
            unfilled = unfilled_parameters(spec, agent, known)
            return i if [p for p, _, _ in unfilled] == [param] else None
    return None


# Words that say a step is missing or not yet taken, near the step's name in a tool's refusal
# ("no triage outcome on file", "not yet been valued", "a valuation is required before ...").
_WANTING = {"no", "not", "without", "missing", "awaiting", "pending", "require", "requires", "required", "need",
            "needs", "needed", "yet", "first", "outstanding", "absent"}
_NEAR = 5  # words between a step's name and the word saying it is wanting


def _step_words(tool: str) -> set[str]:
    """The words that name the step a tool takes: its verb (its name's first word), the verb's
    past forms and the nouns made from it (value_property: valued, valuation; assess_case:
    assessment; triage_referral: triage). None for a verb that says no step (`GENERIC_VERBS`:
    process, create) or one of finding ("not found" is about a thing, not a step)."""
    verb = next(iter(words(tool)), "")
    if len(verb) < 3 or verb in GENERIC_VERBS or verb in FIND_VERBS:
        return set()
    root = verb[:-1] if verb.endswith("e") else verb
    return {verb, f"{verb}s", *participles(tool), *(root + end for end in ("ation", "ion", "ment", "al"))}


def _refused_for_want_of(trace: Trace, spec: WorkflowSpec, first: dict[str, int]) -> list[tuple[str, str, int]]:
    """(before, after, refusal): a tool of `after` failed, its answer saying the step a tool of
    one other agent, `before`, takes is wanting ("no triage outcome on file for this referral"
    while triage_referral is `before`'s), and `before` first acts only after that refusal and
    after `after` took the floor. The app's own tool says which step comes first, whatever the
    agents' instructions say of it; the step's name is read in the tool's words, the values of
    the call quoted back left out. A refused call carrying its documentation's own example value
    (`_example_sent`) looked up a placeholder: an unknown record, no step wanting."""
    calls = {e.call_id: e for e in trace.events if isinstance(e, ToolCall) and e.call_id}
    # a probe's refusal is masfuzz's stub speaking ("Refused: ... not available to this agent"),
    # not the app's tool saying which step comes first
    probed = {e.call_id for e in trace.events if isinstance(e, RestrictedAttempt) and e.call_id}
    out = []
    for ri, r in enumerate(trace.events):
        if not isinstance(r, ToolResult) or r.fault or r.agent not in first or r.call_id in probed:
            continue
        if r.status == "ok" and not payload_failure(r.payload, r.tool):
            continue
        own = r.payload.replace("n't", " not")
        call = calls.get(r.call_id) if r.call_id else None
        if call is not None and _example_sent(spec, call):
            continue  # the documentation's own example looked up: an unknown record, no step wanting
        for value in sorted((str(v) for v in (call.arguments.values() if call else ()) if len(str(v)) > 2),
                            key=len, reverse=True):
            own = own.replace(value, " ")
        said = words(own)
        wanting = [k for k, w in enumerate(said) if w in _WANTING]
        mine = set(tools_of(spec, r.agent))

        def near(names: set[str]) -> bool:
            return any(w in names and any(abs(k - j) <= _NEAR for j in wanting) for k, w in enumerate(said))

        makers = {x.id for x in spec.agents if x.id != r.agent for t in tools_of(spec, x.id)
                  if t not in mine and near(_step_words(t))}
        if not makers and call is not None:
            makers = _product_makers(trace, spec, r.agent, call, ri, near)
        if len(makers) != 1:
            continue
        before = makers.pop()
        if first.get(before, -1) > ri and first[r.agent] < first[before]:
            out.append((before, r.agent, ri))
    return out


def _example_sent(spec: WorkflowSpec, call: ToolCall) -> bool:
    """Did the call carry, for some parameter, the very example its tool's documentation gives
    (`job: The job number, e.g. "CF-1000"` called with "CF-1000")? That is a placeholder a model
    or a tester filled in, no case's record: a refusal of it ("no plans for this job", a 404)
    says the record is unknown, not that another member's step is wanting."""
    from masfuzz.oracles.semantic import example_forms  # semantic reads routing: imported late

    t = next((x for x in spec.tools if x.id == call.tool), None)
    props = ((t.parameters if t is not None else None) or {}).get("properties") or {}
    return any(str(value).strip() in {f for forms in example_forms(str((props.get(name) or {}).get("description") or ""))
                                      for f in forms}
               for name, value in (call.arguments or {}).items() if str(value).strip())


def _product_words(tool: str, mine: set[str]) -> set[str]:
    """The words that name what a tool makes: its name's words after a verb of making
    (assign_berth: berth; allocate_plot_number: plot, number), none of them a word of the
    refused agent's own tools' names (`mine`: a shared object, "booking" in cancel_booking and
    create_booking, is no one else's product). None for a tool that makes nothing: a verb of
    finding or a generic one (`_step_words` empty)."""
    return set(words(tool)[1:]) - mine if _step_words(tool) else set()


def _product_makers(trace: Trace, spec: WorkflowSpec, agent: str, call: ToolCall, ri: int,
                    near: Callable[[set[str]], bool]) -> set[str]:
    """The other agents whose tool makes the thing the refusal says is wanting ("no berth on
    file" while assign_berth is another's), read in its product words (`_product_words`), and
    that made it later for the same case: a call of that tool after the refusal carrying a
    value the refused call carried (the same vessel, the same order number). A thing named
    in a refusal is often merely absent (a wrong number), so the later making of it for that
    very case is what shows the order was wrong."""
    mine = {w for t in tools_of(spec, agent) for w in words(t)}
    values = {str(v) for v in call.arguments.values() if len(str(v)) > 2}
    out = set()
    for x in spec.agents:
        if x.id == agent:
            continue
        for t in tools_of(spec, x.id):
            if t in tools_of(spec, agent) or not near(_product_words(t, mine)):
                continue
            if any(isinstance(e, ToolCall) and e.agent == x.id and e.tool == t
                   and values & {str(v) for v in e.arguments.values()} for e in trace.events[ri + 1:]):
                out.add(x.id)
    return out


# -- participation ------------------------------------------------------------------------------

def _ender(trace: Trace, end_i: int) -> tuple[str | None, int, str]:
    """Who ended the run, where, and its last words: the last assistant message's author (a
    stop word is said in it), else the last speaker at the end."""
    for i in range(end_i - 1, -1, -1):
        e = trace.events[i]
        if isinstance(e, Message) and e.role == "assistant" and e.agent and e.content.strip():
            return e.agent, i, e.content
        if isinstance(e, AgentTurn):
            break
    order = trace.speaker_order
    end = trace.events[end_i]
    return (order[-1] if order else None), end_i, getattr(end, "final_output", "") or ""


def _needed(trace: Trace, spec: WorkflowSpec, acted: dict[str, int],
            ender: str | None = None) -> dict[str, tuple[str, str | None]]:
    """The members whose work the task needs, with why and, when the need is a tool, which:
    named by the task, depended on by an agent that acted, the only holder of a tool the task
    asks for (by its action and object, by carrying its arguments alone, or by carrying its
    arguments and speaking of what its description says), or a member the ender's code router
    could send the run on to, whose tool alone takes a value the task gave (`_routed_on_to`)."""
    task = user_text(trace)
    out: dict[str, tuple[str, str | None]] = {}
    # A route the app's code takes (a graph's edges, a chat sequence) is not the request's to
    # choose: a member the task names but the code did not lead to was not this input's path.
    handovers = [d.trigger for d in trace.of_type(DelegationEvent)]
    coded = bool(handovers) and spec.system.pattern != "selector" \
        and all(t in CODED_TRIGGERS for t in handovers)
    for a in spec.agents:
        # a member named in a tool's documentation the task repeats (a tester's request for a
        # delegating tool) is that tool's route: the tool is asked for, not the member
        named = [s for s in sentences(task) if not coded and not NEGATED.search(s)
                 and names_agent(s, spec, a.id) and not names_in_tool_words(s, spec, a.id)]
        if named:
            out[a.id] = (f"the task names it (\"{named[0][:80]}\")", None)
    for before, after, said in instructed_dependencies(spec):
        if after in acted:
            out.setdefault(before, (f"{after} works from it (\"{said[:80]}\")", None))
    handed_by = {d.from_ for d in trace.of_type(DelegationEvent)}
    for agent, target, said in instructed_handoffs(spec):
        if agent in acted and agent not in handed_by:  # a hand-over it made served the instruction
            out.setdefault(target, (f"{agent}'s instructions hand the work to it, whatever the request "
                                    f"(\"{said[:80]}\")", None))
    scoped = _topic_handoffs(spec)
    for agent, target, topics, said in scoped:
        # a router that handed the request to another member served its main ask there: a topic
        # only a side question of the task touches ("do we need our own masks?") asks for no work,
        # nor does one a sentence shares with the line of the member it was handed to ("book a
        # guided tour" served by the tours desk asks nothing of the shop's "books")
        chosen = {d.to for d in trace.of_type(DelegationEvent) if d.from_ == agent}
        served = [t for a, to, ts, _ in scoped if a == agent and to in chosen and to != target for t in ts]
        asks = [s for s in sentences(task) if not (agent in handed_by and side_question(s))
                and not (served and mentions(s, served))]
        if agent in acted and (asked := [t for t in topics if mentions(" ".join(asks), [t])]):
            out.setdefault(target, (f"{agent}'s instructions hand a request for {asked[0]} to it, and the task "
                                    f"asks for one (\"{said[:80]}\")", None))
    end = trace.termination
    if (order := stated_order(spec)) and end is not None and _stop_condition(end, spec):
        # a fixed (round-robin) order gives every member a turn, and an order of work a speaker
        # selector's prompt states gives each member it lists one: each is there to contribute,
        # so a stop condition that fired before a member's first turn cut it out (unless the
        # task did)
        excused = {a.id for a in spec.agents for s in sentences(task)
                   if NEGATED.search(s) and names_agent(s, spec, a.id)}
        which = "fixed speaking order" if spec.system.pattern == "fixed_order" else \
            "order of work, as its speaker selector's prompt or allowed transitions state it,"
        for a in spec.agents:
            if a.id in order and a.id not in acted and a.id not in excused and not _proxy(a):
                out.setdefault(a.id, (f"the team's {which} gives it a turn, and the run ended "
                                      "before its first", None))
    called = {c.tool for c in trace.of_type(ToolCall)}
    for t in spec.tools:
        holders = owners(spec, t.id)
        if len(holders) == 1 and t.id not in called and asks_for(task, t.id, spec):
            out.setdefault(holders[0], (f"it alone holds {t.id}, which the task asks for", t.id))
    # the one tool the task carries every required argument for, in its documented form (an
    # employee id shaped like "EMP-0001"): the task brought what that tool needs to act on
    from masfuzz.oracles.semantic import carries_arguments  # semantic reads routing: imported late

    servable = [t.id for t in spec.tools if carries_arguments(task, spec, t.id)]
    if (ask := _described_by_ask(task, spec)) and set(ask) <= called:
        servable = []  # its ask ("send over whatever fits") was served: values say why, not what
    if len(servable) == 1 and servable[0] not in called and len(holders := owners(spec, servable[0])) == 1 \
            and _speaks_of(task, spec, servable[0]):
        out.setdefault(holders[0], (f"it alone holds {servable[0]}, and the task carries every argument "
                                    "it requires in the form its documentation gives", servable[0]))
    # several tools may be servable when the task asks for several things at once (a lesson and
    # its rental kit, both on one day): each one whose description the task also speaks of, in
    # DESCRIBED content words of its first sentence, is asked for by both its arguments and its words;
    # words that also describe a tool the run called speak of the work that was done (a generated
    # "log damage found on a car during a booking" served by report_damage asks nothing of
    # remote_unlock, "for the member whose booking is running now")
    for tid in _carried_and_described(task, spec, servable, called):
        if len(holders := owners(spec, tid)) == 1:
            out.setdefault(holders[0], (f"it alone holds {tid}: the task carries every argument it requires "
                                        "in the form its documentation gives, and speaks of what its description "
                                        "says", tid))
    if ender is not None:
        for member, (why, tool) in _routed_on_to(trace, spec, ender, acted, task).items():
            out.setdefault(member, (why, tool))
        for member, why in _cut_at_tool_answer(trace, spec, ender, task).items():
            out.setdefault(member, (why, None))
        for member, why in _cut_at_reply(trace, spec, ender, acted, task).items():
            out.setdefault(member, (why, None))
    return out


def _cut_at_tool_answer(trace: Trace, spec: WorkflowSpec, ender: str, task: str) -> dict[str, str]:
    """The members the ender's instructions or the app's code hand work to next, when the run
    ended on one of the ender's tool answers before its model read it, no agent speaking after
    it: the final output is that answer's payload as the tool returned it (the framework stopped
    on the tool: an Agents SDK `tool_use_behavior="stop_on_first_tool"`, a tool that returns
    directly), or the output is empty and a stop condition read the answer itself (`_stopped_on`:
    an AG2 manager's `is_termination_msg` matching the proxy's message that carries the tool's
    result). The agent never got the turn its instructions go on in, so the one member its lines
    name as the next step (hand-over sentences naming it and no other member it can reach, none
    negated or conditional) was cut out, when the request asks for that member's work: it
    carries every argument of one of the member's tools (`semantic.carries_arguments`) or
    speaks of one (`_speaks_of`). Failing such a line, the one member the app's code routes to
    after the ender (a speaker-selection function, a chat sequence: the `CODED_TRIGGERS`
    delegations out of it, user proxies left out), when the request asks for one of that
    member's tools: the code would have given it the floor. A request its tool's answer served
    (a look-up, where the line hands on another kind of matter) lost nothing; a member the lines
    name that holds no tool is read as asked for. An app that means to answer with the tool's
    result has no such line, and a stop condition keyed to the tool itself (its detail naming
    it) ends where the app meant."""
    from masfuzz.oracles.semantic import carries_arguments  # semantic reads routing: imported late

    end = trace.termination
    final = (end.final_output or "").strip() if end is not None else ""
    last = next((e for e in reversed(trace.events) if isinstance(e, (Message, ToolResult))
                 and (isinstance(e, ToolResult) or (e.role == "assistant" and e.agent))), None)
    if end is None or not isinstance(last, ToolResult) or last.agent != ender or last.status != "ok" \
            or not (final and str(last.payload).strip() == final or not final and _stopped_on(end, last)):
        return {}

    def asked(member: str) -> bool:
        return any(carries_arguments(task, spec, t) or _speaks_of(task, spec, t) for t in tools_of(spec, member))

    reach = {d.to for d in spec.delegations if d.from_ == ender}
    lines = [(s, m) for s in sentences(next((a.instructions or "" for a in spec.agents if a.id == ender), ""))
             if _HANDS.search(s) for m in reach if names_agent(s, spec, m)]
    if not lines:
        # no line of the ender's goes on: the app's own code routes on, to one member alone
        if (member := _coded_next(spec, ender)) is None or not asked(member):
            return {}
        return {member: f"the run ended on {ender}'s {last.tool} answer, read by a stop condition before "
                        f"{ender}'s model read it, and the app's code routes the work on from {ender} to it"}
    # the one onward step, said without a condition ("when the customer wants a fitting") or a
    # negation: a choice between members, or a hand-over only sometimes, the model was to make
    if len({m for _, m in lines}) != 1 or any(NEGATED.search(s) or CONDITIONAL.search(s) for s, _ in lines):
        return {}
    s, member = lines[0]
    if tools_of(spec, member) and not asked(member):
        return {}
    return {member: f"the run ended on {ender}'s {last.tool} answer, passed out as the final output before "
                    f"{ender}'s model read it, and {ender}'s instructions go on to hand work to it (\"{s[:80]}\")"}


def _coded_next(spec: WorkflowSpec, ender: str) -> str | None:
    """The one member the app's own code routes to after the ender (a speaker-selection
    function, a chat sequence: the `CODED_TRIGGERS` delegations out of it, user proxies left
    out), or None when the code leaves a choice or routes nowhere."""
    proxies = {a.id for a in spec.agents if _proxy(a)}
    coded = {d.to for d in spec.delegations if d.from_ == ender and d.trigger in CODED_TRIGGERS} - proxies - {ender}
    return next(iter(coded)) if len(coded) == 1 else None


def _cut_at_reply(trace: Trace, spec: WorkflowSpec, ender: str, acted: dict[str, int], task: str) -> dict[str, str]:
    """The member a stop condition that reads what was said (a stop word, an AG2 manager's
    `is_termination_msg`: reason `text_mention`, its detail naming no tool) cut out by firing on
    the ender's own reply, the run's last act: the app's code hands the floor on from the ender
    to that member alone (`_coded_next`), which never acted, and the request asks for its work
    (it carries every argument of one of its tools, `semantic.carries_arguments`, or speaks of
    one, `_speaks_of`). The ender's instructions hand nothing on themselves (their lines, not
    the code, would say what comes next): the next turn was the code's to give, and the stop
    test, meant for the end of the work, heard the first member's sign-off instead."""
    from masfuzz.oracles.semantic import carries_arguments  # semantic reads routing: imported late

    end = trace.termination
    if end is None or end.reason != "text_mention" or any(
            re.search(rf"(?<![\w-]){re.escape(t.id)}(?![\w-])", end.detail or "") for t in spec.tools):
        return {}
    last = next((e for e in reversed(trace.events) if isinstance(e, (ToolCall, ToolResult))
                 or isinstance(e, Message) and e.role == "assistant" and e.agent), None)
    if not isinstance(last, Message) or last.agent != ender:
        return {}
    reach = {d.to for d in spec.delegations if d.from_ == ender}
    told = next((a.instructions or "" for a in spec.agents if a.id == ender), "")
    if any(_HANDS.search(s) and names_agent(s, spec, m) for s in sentences(told) for m in reach):
        return {}
    member = _coded_next(spec, ender)
    if member is None or member in acted or not any(
            carries_arguments(task, spec, t) or _speaks_of(task, spec, t) for t in tools_of(spec, member)):
        return {}
    return {member: f"a stop condition ({end.detail[:80]}) fired on {ender}'s own reply, and the app's code "
                    f"hands the floor on from {ender} to it alone, whose tool the request asks for"}


def _stopped_on(end: TerminationEvent, answer: ToolResult) -> bool:
    """Did a stop condition that reads what was said (a stop word, an `is_termination_msg`) end
    the run on this tool answer, with no output of its own? One keyed to the tool itself (its
    detail names the tool: AgentChat's `FunctionCallTermination`) ends where the app meant."""
    return end.reason == "text_mention" and re.search(
        rf"(?<![\w-]){re.escape(answer.tool)}(?![\w-])", end.detail or "") is None


def _routed_on_to(trace: Trace, spec: WorkflowSpec, ender: str, acted: dict[str, int],
                  task: str) -> dict[str, tuple[str, str | None]]:
    """The members a code router ended the run before: the function on the ender's conditional
    edge (a LangGraph router, `F -> member` and `ender -> END when F`) could send the run on to
    the member, and chose the end (its stop test fired: a done mark, a word in the ender's
    summary of its own part), while the task gave a value that only the member's tools take: a
    fact by its shape (`fact_values`: a postcode, a reference, an amount) of the form a required
    parameter of one of its tools documents ("LS6 3BJ" of `postcode: like "LS6 2AB"`), a form no
    tool of a member that acted documents, and no call of the run took. The user gave it for that
    member's work, and the router's code, not a model, ended before it: the ender's instructions
    name no other member (a supervisor told whom to pass to writes the label its router reads,
    and an END it chose is its choice)."""
    from masfuzz.oracles.semantic import documented_formats, fact_values  # semantic reads routing: imported late

    routers = {c.split(" when ", 1)[1].split(" -> ", 1)[0].strip() for c in spec.termination.conditions
               if c.startswith(f"{ender} -> END when ")}
    if not routers or ender not in {a.id for a in spec.agents}:
        return {}
    sent = " ".join(str(v) for c in trace.of_type(ToolCall) for v in c.arguments.values())
    values = [v for v in sorted(fact_values(task)) if v not in sent]
    # an ender whose instructions name the members it may pass to chooses the route (a supervisor
    # writing the label its router reads): its end is its choice, not the code's stop test
    told = spec.agent(ender).instructions or ""
    if not values or any(names_agent(told, spec, a.id) for a in spec.agents if a.id != ender):
        return {}
    theirs = {r for a in acted for t in tools_of(spec, a) for fs in documented_formats(spec, t).values() for _, r in fs}
    out: dict[str, tuple[str, str | None]] = {}
    for d in spec.delegations:
        if d.from_ != ender or d.to in acted or d.trigger != "graph_edge" \
                or d.condition.split(" -> ", 1)[0].strip() not in routers:
            continue
        for tool in tools_of(spec, d.to):
            t = next((x for x in spec.tools if x.id == tool), None)
            required = ((t.parameters if t is not None else None) or {}).get("required") or []
            for param, forms in documented_formats(spec, tool).items():
                regexes = [r for _, r in forms]
                if param not in required or set(regexes) & theirs:
                    continue
                if given := [v for v in values if all(re.fullmatch(r, v) for r in regexes)]:
                    out.setdefault(d.to, (f"{ender}'s router ({d.condition.split(' -> ', 1)[0].strip()}) could send the "
                                          f"run on to it, and the task gave {given[0]}, which only its {tool} takes "
                                          f"({param}, {forms[0][0]})", tool))
    return out


# What may stand between two members of an order of work: commas, "then", "and", "to", "followed
# by", "next", an arrow, a short aside in brackets ("script_writer (the script), then voice_actor").
_ORDER_GAP = re.compile(r"(?:\s|[,;:]|\band\b|\bthen\b|\bto\b|\bfollowed\s+by\b|\bnext\b|\bafter\s+that\b|"
                        r"->|=>|\u2192|>|\([^()]{0,40}\))*", re.IGNORECASE)
# Words that make a list of members an order: "then", "followed by", an arrow, "order", "first".
_ORDER_CUE = re.compile(r"\bthen\b|\bfollowed\s+by\b|->|=>|\u2192|\border\b|\bsequence\b|\bfirst\b",
                        re.IGNORECASE)


def stated_order(spec: WorkflowSpec) -> list[str]:
    """The members the team's order gives a turn, in that order: every member of a fixed
    (round-robin) order; in a team whose speaker selector reads a prompt of the app's
    (`SELECTOR_PROMPT` in the spec's notes), the members named, one after another, in a sentence
    of it that states an order of work ("The order of work is script_writer, then voice_actor,
    then director."), not negated; the longest such list where several sentences give one.
    Empty when neither says one. Failing a prompt's order, the allowed speaker transitions
    (`_forced_path`) state one when they leave each member a single next speaker."""
    if spec.system.pattern == "fixed_order":
        return [a.id for a in spec.agents]
    if spec.system.pattern != "selector":
        return []
    prompts = [n.removeprefix(SELECTOR_PROMPT) for n in spec.notes if n.startswith(SELECTOR_PROMPT)]
    longest: list[str] = []
    for sentence in (s for p in prompts for s in sentences(p)):
        if NEGATED.search(sentence) or not _ORDER_CUE.search(sentence):
            continue
        found = sorted((m.start(), m.end(), a.id) for a in spec.agents
                       for m in re.finditer(rf"(?<![\w-])(?:{name_pattern(spec, a.id)})(?![\w-])", sentence,
                                            re.IGNORECASE))
        chain: list[tuple[int, int, str]] = []
        for hit in found:
            if chain and hit[0] < chain[-1][1]:
                continue  # a shorter name inside one already read
            if chain and not _ORDER_GAP.fullmatch(sentence[chain[-1][1]:hit[0]]):
                if len({a for _, _, a in chain}) >= 2:
                    break
                chain = []
            chain.append(hit)
        members = list(dict.fromkeys(a for _, _, a in chain))
        if len(members) >= 2 and len(members) > len(longest):
            longest = members  # the fullest statement of the order, where several sentences give one
    return longest or _forced_path(spec)


def _forced_path(spec: WorkflowSpec) -> list[str]:
    """The order a speaker selector's allowed transitions force (AG2's
    `allowed_or_disallowed_speaker_transitions`: a -> b -> c): from the entry agent, each
    member's only allowed next speaker, until one repeats, when every member with transitions
    has exactly one. Whatever the selector's model reads, and in whatever language the request
    is, the graph leaves it no choice: the path is the team's order of work. Three members at
    least: two that may only alternate state no more than a reply and its answer."""
    succ: dict[str, set[str]] = {}
    for d in spec.delegations:
        if d.trigger == "selector" and d.from_ != d.to:
            succ.setdefault(d.from_, set()).add(d.to)
    if not succ or any(len(to) != 1 for to in succ.values()):
        return []
    path, at = [], spec.system.entry_agent
    while at in succ and at not in path:
        path.append(at)
        at = next(iter(succ[at]))
    if at is not None and at not in path and at in {a.id for a in spec.agents}:
        path.append(at)
    return path if len(path) >= 3 else []


def _stop_condition(end: TerminationEvent, spec: WorkflowSpec) -> bool:
    """Did a stop condition of the team end the run: a stop word, or a rule keyed to who spoke
    or what was called (AgentChat's `TextMessageTermination("quill")`, `FunctionCallTermination`:
    its stop message names the member or the tool)? A run that ran out of work ends `completed`
    too, naming nobody."""
    named = [a.id for a in spec.agents] + [t.id for t in spec.tools]
    return end.reason == "text_mention" or end.reason == "completed" and any(
        re.search(rf"(?<![\w-]){re.escape(n)}(?![\w-])", end.detail) for n in named)


def _stops_on_speaker(end: TerminationEvent, spec: WorkflowSpec, ender: str) -> bool:
    """Did a rule keyed to who spoke (`TextMessageTermination("quill")`: the stop message names
    the member) end a fixed order on the ender's message? It fires on that member's every
    message, a question to the user included, and fires again when the team resumes with the
    answer: a closing question is not the team waiting for the user, and the members after the
    ender in the order never get a turn."""
    return spec.system.pattern == "fixed_order" and end.reason == "completed" \
        and re.search(rf"(?<![\w-]){re.escape(ender)}(?![\w-])", end.detail) is not None


def _waits_for_user(text: str, end: TerminationEvent, spec: WorkflowSpec, trace: Trace) -> bool:
    """Does the run's last message wait for the user: it ends on a question of its own (not one
    copied from the user's words, `_copied_from_user`), or lists the values it lacks
    (`lists_missing`)? A closing question that asks for nothing the task lacks is set aside
    (`closing_offers`), and the sentence before it decides: an offer of more help ("Is there
    anything else I can help with today?"), of a further step once the work is said done ("Done.
    Want me to email the receipt too?"), and a question holding the phrase a stop word
    condition heard (`TextMentionTermination("anything else I can help with")`, the detail
    quoting it): the team made that question its closing line, so saying it ends the work rather
    than asking. "Booked under LPT-6101. Anything else?" has finished; "Which row would you
    like? Anything else?" still waits.

    A list of what is wanting on a line that names a team member (not one standing in for the
    user, `_proxy`) is a note to that colleague, not a list of values the user lacks: a
    hand-over note's "Still needed: fitter_f to take it from here" lists the work it passes on,
    and the team that ended on it waits for that member, not for the user (`_to_user`)."""
    heard = [q.lower() for q in re.findall(r"'([^']{2,})'|\"([^\"]{2,})\"", end.detail or "") for q in q if q
             and q not in {a.id for a in spec.agents}] if end.reason == "text_mention" else []
    said = closing_offers(sentences(STOP_TOKEN.sub("", text.rstrip())), heard)  # "Which day? TERMINATE" still asks
    return bool(said) and is_question(said[-1]) and not _copied_from_user(said[-1], trace) \
        or lists_missing(_to_user(text, spec))


def _to_user(text: str, spec: WorkflowSpec) -> str:
    """The lines of a message left once those that name a team member and ask nothing are set
    aside (`_waits_for_user`): a line addressed to, or assigning work to, a colleague ("HANDOVER
    -> fitter_f", "Still needed: fitter_f to take it from here") asks nothing of the user; one
    that asks ("fitter_f needs your day: which suits?") is kept. Members standing in for the user
    (`_proxy`) are not colleagues: "Still needed: user_proxy to confirm" asks the user."""
    members = [a.id for a in spec.agents if not _proxy(a)]
    return "\n".join(line for line in text.splitlines()
                     if is_question(line) or not any(names_agent(line, spec, m) for m in members))


def _outside_routes(trace: Trace, spec: WorkflowSpec, member: str, acted: dict[str, int]) -> str:
    """Why a needed member that never acted was out of this input's reach, or "": every line of
    the instructions that routes work to it is scoped to kinds of request (`_topic_handoffs`:
    "Hand over to hire_desk for any skip booking or delivery"), the task asks for none of them,
    and the agents holding those lines acted and handed nothing on. The app routes this request
    nowhere: the router that kept it followed its instructions, and the input (a tester's
    request for a tool's own step: "which days the lorry covers a postcode district") asked for
    work the app offers no route to. No other instruction hands the member work unconditionally."""
    scoped = [(agent, topics) for agent, target, topics, _ in _topic_handoffs(spec) if target == member]
    if not scoped or any(target == member for _, target, _ in instructed_handoffs(spec)):
        return ""
    task = user_text(trace)
    handed_by = {d.from_ for d in trace.of_type(DelegationEvent)}
    if any(agent not in acted or agent in handed_by or mentions(task, topics) for agent, topics in scoped):
        return ""
    agent, topics = scoped[0]
    return (f"{agent}'s instructions route work to {member} only for {', '.join(topics)}, and the input asks "
            "for none of them: it asked for work the app offers no route to, and the early end follows the "
            "app's instructions")


def _proxy(agent: AgentSpec) -> bool:
    """A member that stands in for the human (a user proxy) contributes only when asked."""
    kind = str(agent.model_settings.get("type") or "")
    return "proxy" in kind.lower() or "proxy" in agent.id.lower()


# A request that tells the agent it reaches to keep the work, not pass it on ("You handle this
# yourself, as the one who ...: do it yourself, without passing me on", as a restricted-tool probe
# writes): the run ending with that agent is what the user asked for.
KEEP_IT = re.compile(r"\b(?:handle|do)\s+(?:this|it)\s+yourself\b|\bwithout\s+(?:passing|handing|"
                     r"transferring|sending)\s+(?:me|it|this)\s+on\b|\b(?:don't|do\s+not)\s+(?:pass|hand|"
                     r"transfer|send)\s+(?:me|it|this)\s+on\b", re.IGNORECASE)


def participation(trace: Trace, spec: WorkflowSpec | None) -> list[Failure]:
    """Kind 3 — a run that concluded by itself (completed, a stop word, a hand-back to the user)
    before a member whose work the task needs acted at all: a member the task names (unless
    every hand-over of the run was the app's code's, a graph's edges: the request cannot choose
    that route), one an
    agent that acted depends on by its instructions or hands the work to unconditionally
    (`instructed_handoffs`), the only holder of a tool the task asks
    for (its action and its object: "move me to seat 14C" asks for update_seat), or, when a stop
    condition ended a fixed (round-robin) order normally (a stop word, a text message), a member whose first turn had not come (user proxies
    and members the task excuses left out). A member the
    run handed the task to is `premature_termination`'s (detectors.py), and a run that ends with
    a question or a list of the values it lacks (`lists_missing`) waits for the user: both are
    left out, unless a rule keyed to who spoke ended a fixed order on that question
    (`_stops_on_speaker`); so is a member whose tool another agent reached for with a restricted
    call (that call is the fault), and a run whose user told the ender itself, by its name or its
    description's words, to keep the work (`KEEP_IT`: a restricted-tool probe's "do it yourself,
    without passing me on"): the end is what was asked.

    Category system_termination, root cause Premature Termination. Blamed: the agent that ended
    the run (said the stop word, gave the final answer); step: its last message (or the end).

    Cannot see: work a member does outside the trace, a need the task states in other words, or
    a member whose work a correct run may skip for this task (it reports only the needs above)."""
    end = trace.termination
    if spec is None or end is None or end.reason not in CONCLUDED_REASONS:
        return []
    spec = with_prompts(spec, trace)
    end_i = max(i for i, e in enumerate(trace.events) if isinstance(e, TerminationEvent))
    acted = _acted(trace)
    ender, step, last = _ender(trace, end_i)
    if ender is None or (_waits_for_user(last, end, spec, trace) and not _stops_on_speaker(end, spec, ender)):
        return []
    if KEEP_IT.search(user_text(trace)) and addresses_agent(user_text(trace), spec, ender):
        return []  # the user asked the ender itself to keep the work (a restricted-tool probe): it did
    handed = {e.to for e in trace.of_type(DelegationEvent)}
    # a holder of a tool a misrouted request needed: the routing is the defect, reported there
    routed_away = {h for f in misrouted_request(trace, spec) for t in f.elements[2:]
                   for h in owners(spec, t)}
    # the other choices of an app's router that entered the run at a member that acted (a graph's
    # conditional edge out of START, an AG2 speaker-selection function reading the request): the
    # code chose one of them; a request one of the others had to serve is a misroute, above
    routers = {_entry_router(spec, a) for a in acted} - {None}
    passed = {a.id for a in spec.agents if a.id not in acted and _entry_router(spec, a.id) in routers}
    # the members whose tool another agent reached for though it may not (a restricted call, a
    # probe's refusal): that agent took the member's work, the restricted call is the fault, and
    # the member's absence is what it caused (one fault, one failure)
    forbidden = {(e.agent, e.tool) for e in trace.events if isinstance(e, (RestrictedAttempt, ToolCall))}
    usurped = {m for m in (a.id for a in spec.agents)
               if any(t in tools_of(spec, m) and a != m and t not in tools_of(spec, a) for a, t in forbidden)}
    out = []
    for member, (why, tool) in _needed(trace, spec, acted, ender).items():
        if member in acted or member in handed or member == ender or member in routed_away or member in passed \
                or member in usurped:
            continue
        if tool is not None and (wrong := _routed_elsewhere(trace, tool, spec, end_i)):
            # the request went to an agent that cannot serve it, past the one holding the tool it
            # needs: the routing is the fault, and the early end is what it caused (one fault,
            # one failure)
            out.append(wrong.model_copy(update={
                "evidence": tuple(sorted({*wrong.evidence, end_i})),
                "description": f"{wrong.description}; the run then ended ({end.reason}, event {end_i}) "
                f"before {member} acted at all, though its work is needed: {why}"}))
            continue
        cutter, at = _cut_by(trace, spec, member, acted, end_i) or (ender, step)
        because = model_passed_over(trace, spec, member, ender) or (
            "" if why.startswith("the task names it") else _outside_routes(trace, spec, member, acted))
        out.append(Failure(
            category="system_termination", root_cause="Premature Termination",
            detector="participation", evidence=tuple(sorted({at, step, end_i})),
            scenario_id=trace.scenario_id, elements=(cutter, member), agent=cutter, step=at,
            clause="term::bound", **({"attribution": "harness", "because": because} if because else {}),
            description=f"{cutter} ended the {'run' if cutter == ender else 'round'} "
            f"({end.reason}, event {at}) before {member} acted at all, though its work is needed: {why}"))
    return dedupe(out)


def _copied_from_user(sentence: str, trace: Trace) -> bool:
    """Is the sentence only the user's own words said again (notes that copy the request out, "...
    Do you do tea afterwards?")? A question so copied is the user's, put to the team, and waits
    for nobody."""
    return " ".join(sentence.split()).lower() in " ".join(user_text(trace).split()).lower()


def _routed_elsewhere(trace: Trace, tool: str, spec: WorkflowSpec, end_i: int) -> Failure | None:
    """The misroute behind a needed member's absence: an agent's own routing (a handoff, a
    delegating tool, an agent run as a tool) after the user's last message gave the request to an
    agent that cannot serve it, while the one holder of `tool`, which the task asks for by any of
    participation's readings, was a sibling that router could reach (`_routed_past`)."""
    last = max((i for i, _ in users_words(trace, end_i)), default=-1)
    request = trace.events[last].content if last >= 0 else ""
    for d in range(last + 1, end_i):
        e = trace.events[d]
        if isinstance(e, DelegationEvent) and e.trigger in ROUTING_TRIGGERS \
                and (wrong := _routed_past(trace, spec, d, e, [tool], request)):
            return wrong
    return None


def _cut_by(trace: Trace, spec: WorkflowSpec, member: str, acted: dict[str, int],
            end_i: int) -> tuple[str, int] | None:
    """In a fixed order (or an order of work the selector's prompt states, `stated_order`), the
    agent after whose turn `member`'s should have come, and its last act: the nearest member
    before it in the order that acted. Its act ended the round (a stop word, an escalation out of
    a loop) though another agent may speak last. None outside such an order or when no earlier
    member acted."""
    ids = stated_order(spec)
    if member not in ids:
        return None
    before = next((x for x in reversed(ids[:ids.index(member)]) if x in acted), None)
    if before is None:
        return None
    last = max(i for i, e in enumerate(trace.events[:end_i])
               if getattr(e, "agent", None) == before and isinstance(e, (AgentTurn, Message, ToolCall)))
    return before, last


# -- routing ------------------------------------------------------------------------------------

ROUTING_TRIGGERS = ("handoff", "delegate", "as_tool")  # an agent's own routing decision
CODED_TRIGGERS = ("graph_edge", "sequence")  # the app's code routes, whatever the request says


@once_per_pass  # `handover_facts`, `participation` and `flare.tool_omission` ask for it too
def misrouted_request(trace: Trace, spec: WorkflowSpec | None) -> list[Failure]:
    """Kind 5 — an agent routed the user's request (its latest message before the hand-over)
    to an agent none of whose tools can serve it, while a sibling the router could reach holds
    a tool that can (the request names the tool's action and object: "move me to seat 14C" and
    update_seat), and no fitting tool is called, nor a holder of one reached, before the user
    speaks again or the run ends: the receiving agent answered, refused or apologised without
    it.

    Category agent_relationship, root cause Misrouted Request (not the receiving agent's tool
    omission: it had no fitting tool). Blamed: the router; step: the hand-over. A deterministic
    heuristic (detector `misrouted_request`). A team's speaker selector (pattern `selector`)
    routes too: its first choice after the user's message is judged the same way, blamed on no
    agent (the selector chose from the members' descriptions: the team's wiring). So does a router
    of the app's code: a graph's conditional edge out of START, an AG2 speaker-selection function
    that reads the request, an Agents SDK app's function picking the agent to run (`ENTERED_BY`,
    `_misentered`, blamed on no agent), or a conditional edge out of a node that chooses between
    two agents or more (an LLM classifier whose label a function reads: blamed on that node,
    unless the node said the label its instructions give for the request and the function sent it
    elsewhere: its table maps it wrong, or it does not know the label, `_wired_label`).

    Silent when the request asks for the agent it was given to (names it, or describes it in
    its description's words: "you, the one who tracks parcels, refund this yourself", as a
    restricted-tool probe writes): the route is the one the user asked for.

    A request naming neither may still fit a tool by the words of its description's first
    sentence (`_servable_by_description`). A delegating tool whose description fits the request
    but whose code runs an agent that knows nothing of it is a misroute too (`_miswired`), and so
    is one that runs the agent a sibling tool names (`_crossed_route`, blamed on no agent).

    Cannot see: a request that names the needed work in words other than the tool's action and
    object and its description's, tools whose names and descriptions do not say what they do,
    or a router whose instructions make this route right."""
    if spec is None:
        return []
    said, fitting, out = "", [], []
    described = False  # no tool fits the request: the members' own words may tell (`_described_members`)
    selecting = spec.system.pattern == "selector"
    # a team no speaker selector chooses for (an AG2 group pattern: every speaker change an
    # agent's hand-off) starts at its initial agent: the app's entry, no selector's pick
    # (a team with no delegation recorded at all leaves every choice to its selector)
    initial = spec.system.entry_agent if spec.delegations and not any(
        d.trigger == "selector" for d in spec.delegations) else None
    entering = False  # the first agent after the user's message is still to come
    picks: list[tuple[int, str, str]] = []  # the app's router's picks for this request
    for d, e in enumerate(trace.events):
        if said_by_user(e):
            out += _mispicked(trace, spec, picks, fitting, said)
            picks = []
            said = e.content
            fitting = _through_routes(spec, [t.id for t in spec.tools if asks_for(said, t.id, spec)]
                                      or _servable_by_object(said, spec) or _described_and_carried(said, spec)
                                      or _servable_by_arguments(said, spec) or _servable_by_activity(said, spec)
                                      or _servable_by_values(said, spec))
            described = not fitting
            selecting = spec.system.pattern == "selector"
            entering = True
            continue
        reached = e.to if isinstance(e, DelegationEvent) else e.agent if isinstance(e, AgentTurn) else None
        if entering and reached is not None:
            entering = False
            router = _entry_router(spec, reached)
            if router is not None:  # the app's router chose the agent the run enters at
                picks.append((d, reached, router))
                continue
        if isinstance(e, DelegationEvent) and e.trigger in CODED_TRIGGERS and said \
                and (router := _entry_router(spec, e.to)) is not None \
                and (not picks or router == picks[0][2]) \
                and not (e.trigger == "graph_edge" and _chooses(spec, e.from_)):  # a node's choice: below
            picks.append((d, e.to, router))  # the router passed the turn on (or first chose here)
            continue
        if selecting and isinstance(e, AgentTurn) and (fitting or described):
            selecting = False  # the selector's choice for this request: its first turn
            if e.agent != initial:
                out += _misselected(trace, spec, d, e.agent, fitting, said, described)
        if isinstance(e, DelegationEvent) and e.trigger in ROUTING_TRIGGERS:
            # a route that reached another agent than it says it goes to, the one a sibling route
            # names (`_crossed_route`), is the wiring's whatever the router chose; else the router
            # passed the fitting agent by (`_routed_past`), or its route reached an agent knowing
            # nothing of the request (`_miswired`)
            wrong = _routed_past(trace, spec, d, e, fitting, said, described)
            out += _crossed_route(trace, spec, d, e) or ([wrong] if wrong else _miswired(
                trace, spec, d, e, said, fitting))
        elif isinstance(e, DelegationEvent) and e.trigger == "graph_edge" and _chooses(spec, e.from_):
            # a graph node whose output a router function reads (an LLM classifier, a supervisor
            # node): the route out of it is its choice, unless the function could not read it
            # the node named the member it passed the request to, and the edge chose another: the
            # wiring's, whatever the request fits (both members' tools, or only the named one's)
            if named := _past_the_named(trace, spec, d, e):
                out += named
            elif wrong := _routed_past(trace, spec, d, e, fitting, said, described):
                out.append(_wired_label(trace, spec, d, e, wrong, said))
    return dedupe(out + _mispicked(trace, spec, picks, fitting, said, described))


def _through_routes(spec: WorkflowSpec, fitting: list[str]) -> list[str]:
    """The tools that serve a request, a delegating tool that fits it replaced by the tools of
    the agent it runs (`_runs`): "Pass the customer's enquiry to the French polishing bench"
    fits a request for French polishing as well as the bench's `book_polish` does, but calling
    it serves nothing itself, it routes. Left as the router's own, it would make the router a
    holder of a fitting tool, and every hand-over past the bench it names a next step. A
    delegating tool whose agent holds no tools stays (nothing else stands for its work)."""
    out: list[str] = []
    for tool in fitting:
        inner = _runs(spec, tool)
        for t in (tools_of(spec, inner) if inner is not None else []) or [tool]:
            out += [t] if t not in out else []
    return out


def _runs(spec: WorkflowSpec, tool: str) -> str | None:
    """The agent a delegating tool runs: a holder of the tool hands work to that agent as a tool
    (an `as_tool` delegation: an Agents SDK `as_tool`, ADK's `AgentTool`, a PydanticAI tool that
    runs another agent), bound to the tool (the delegation's condition names it), or the tool
    says it goes there (`_route_target`: its name, its description). None for a tool that does
    work of its own."""
    holders = owners(spec, tool)
    routes = [x for x in spec.delegations if x.trigger == "as_tool" and x.from_ in holders]
    bound = next((x.to for x in routes if re.search(rf"(?<!\w){re.escape(tool)}(?!\w)", x.condition or "")), None)
    target = _route_target(spec, tool) if bound is None else None
    return bound or next((x.to for x in routes if target is not None and _names_target(target, spec, x.to)), None)


def _mispicked(trace: Trace, spec: WorkflowSpec, picks: list[tuple[int, str, str]],
               fitting: list[str], request: str, described: bool = False) -> list[Failure]:
    """Judge the app's router's choice for one request (`_misentered`) among its picks: the agent
    it entered at and those it passed the turn on to (an AG2 speaker-selection function gives the
    request to a greeter first, then to a tutor): the first pick that holds tools, the worker it
    chose for the request, whatever message the code read to choose it; a greeter that only
    passes the turn on is no destination. The first pick when none holds tools."""
    if not picks:
        return []
    d, chosen, router = next((p for p in picks if tools_of(spec, p[1])), picks[0])
    if _served_before(trace, d, fitting):
        return []
    return [_named_pick(trace, spec, d, chosen, router, request, f)
            for f in _misentered(trace, spec, d, chosen, router, fitting, request, described)]


def _named_pick(trace: Trace, spec: WorkflowSpec, d: int, chosen: str, router: str, request: str,
                wrong: Failure) -> Failure:
    """The router's misroute blamed on the agent that chose it by name: the app's function gave
    the turn to the member the message just before it names ("I am passing this to seats_k",
    an AG2 speaker-selection function reading the colleague a front desk names), so the choice
    was that agent's words, not the code's. Its own instructions, when a line of theirs sends a
    request like this one to the member chosen, are the evidence against it (quoted). A message
    naming no member, or several (a welcome listing the desks), leaves the route the code's."""
    said = next(((i, x) for i in range(d - 1, -1, -1) if isinstance(x := trace.events[i], Message)
                 and x.role == "assistant" and x.agent and x.agent != chosen and x.content.strip()), None)
    if said is None:
        return wrong
    i, msg = said
    named = [a.id for a in spec.agents if a.id != msg.agent and names_agent(answer_given(msg.content), spec, a.id)]
    if named != [chosen] or all(a.id != msg.agent for a in spec.agents):
        return wrong
    told = spec.agent(msg.agent).instructions or ""
    line = _line_for(told, request, spec, chosen)
    why = f" as its instructions say: \"{line[:120]}\"" if line else ""
    return wrong.model_copy(update={
        "agent": msg.agent, "step": i, "elements": (msg.agent, *wrong.elements[1:]), "evidence": (i, *wrong.evidence),
        "description": f"{msg.agent} named {chosen} for the request (event {i}){why}, and the app's router "
        f"{router} gave {chosen} the turn it named; " + wrong.description})


def _line_for(instructions: str, request: str, spec: WorkflowSpec, member: str) -> str | None:
    """The line of a router agent's instructions that sends a request like this one to `member`:
    it names the member, and its condition is met by the request."""
    from masfuzz.oracles.flare import condition_of, met_in  # flare reads the detectors: imported late

    for sentence in sentences(instructions):
        if names_agent(sentence, spec, member) and (condition := condition_of(sentence)) \
                and met_in(condition.group(1), [request]):
            return sentence
    return None


def _wired_label(trace: Trace, spec: WorkflowSpec, d: int, e: DelegationEvent, wrong: Failure,
                 request: str) -> Failure:
    """The misroute out of a classifier node, blamed on the wiring when the node said the right
    label and the router function reading it sent it to the wrong agent: the label is the one
    its own instructions give for this request (the first quoted label whose condition the
    request meets: 'Say "ENTRY" when the request mentions exam, grade or entry'), so its table
    maps the right label to the wrong agent; or the label is one its instructions quote
    ("ENTRY") that the function does not know (none of `ROUTE_LABELS`: its table's keys, the
    strings its code compares with), so it fell through to its default. Either way the node did
    what it was told. So is a label the function knows when the instructions give no condition
    this request meets: no evidence is against the node, and blame needs some. Else (a label its
    instructions give for another request, their default line for a request a rule of theirs
    covers, or none they quote) the node's choice, unchanged; when they give a label for this
    request and the node said none they quote (prose, a summary of its own), the model in use did
    not follow them: the finding is the model's (attribution `harness`)."""
    known = {str(x).strip().lower() for x in spec.agent(e.from_).model_settings.get(ROUTE_LABELS) or ()}
    said = next((x.content for x in reversed(trace.events[:d]) if isinstance(x, Message)
                 and x.role == "assistant" and x.agent == e.from_), "")
    label = said.strip().strip(".!\"'`*").strip()
    told = spec.agent(e.from_).instructions or ""
    quoted = {q.strip().lower() for q in re.findall(r"[\"“]([^\"”]{1,40})[\"”]", told)}
    if not label or any(label.lower() == a.id.lower() for a in spec.agents):
        return wrong
    router = next((x.condition.split(" -> ")[0] for x in spec.delegations
                   if x.from_ == e.from_ and x.to == e.to and x.condition), "router")
    given = _label_for(told, request)
    unknown = bool(known) and label.lower() not in known
    if given is None and known and not unknown:
        # a label the router knows, from instructions that give no condition this request meets
        # (none readable): nothing says the node should have said another, so nothing is
        # against it; the route its label took is the wiring's
        return wrong.model_copy(update={
            "agent": None, "elements": (f"router {router}", *wrong.elements[1:]),
            "description": f"{e.from_} labelled the request \"{label}\", a label the router {router} knows "
            f"and maps to {e.to}; its instructions give no condition this request meets, so nothing "
            "shows the label wrong: the route is the wiring's; " + wrong.description})
    # the label its instructions give for this request when they tell it; else any they quote
    if not (label.lower() == given.lower() if given is not None else unknown and label.lower() in quoted):
        if given is not None and not any(re.search(rf"(?<![\w-]){re.escape(q)}(?![\w-])", said, re.IGNORECASE)
                                         for q in quoted):
            # its instructions give a label for this request and it said none they quote (prose,
            # a summary): the code reading it got no label at all, by the model's lapse
            return wrong.model_copy(update={"attribution": "harness", "because": (
                f"{e.from_}'s instructions give the label \"{given}\" for this request, and its reply "
                f"(\"{' '.join(said.split())[:60]}\") says no label they give: the model in use did not "
                "follow the app's instructions, on which the app's router reads its label")})
        return wrong
    why = f"the router {router} knows no such label ({', '.join(sorted(known))}) and fell through to {e.to}" \
        if unknown else f"the router {router} maps it to {e.to}"
    return wrong.model_copy(update={
        "agent": None, "elements": (f"router {router}", *wrong.elements[1:]),
        "description": f"{e.from_} labelled the request \"{label}\", the label its instructions give, but "
        f"{why}; " + wrong.description})


def _past_the_named(trace: Trace, spec: WorkflowSpec, d: int, e: DelegationEvent) -> list[Failure]:
    """A chosen route out of a graph node (`_chooses`: an edge condition, a router function reading
    its message) that reached another member than the one the node's message names: the node's
    last message since the user's ("This request has been passed to repay_r: ...") names exactly
    one member, one its edges can reach, the hand-over at `d` gave the turn to another, and the
    named one is not reached before the user speaks again. The node chose, in words its router
    reads; the code behind the edges sent the request elsewhere (a condition still looking for a
    member's old name, a fall-through edge taken for everything it does not match). No agent chose
    the wrong member: blamed on the wiring (no agent), `step` the hand-over; `elements` the router,
    the member reached and the named member's tools (what the request needed, as elsewhere).

    The request's fit is not read: where it fits both members' tools ("ticket" is the object of
    both a delay claim and a ticket change), the words of the node are the only choice there is.
    A member named only in a negated clause ("not one for fines_x") is not the one the node
    chose. Cannot see: a node that names no member (a label: `_wired_label`), or several; and it
    takes a member named in passing, not as the one handed to ("fines_x cleared the fine last
    week"), for the node's choice."""
    reachable = {x.to for x in spec.delegations if x.from_ == e.from_ and x.trigger == "graph_edge"}
    said = None
    for i in range(d - 1, -1, -1):
        x = trace.events[i]
        if said_by_user(x):
            break
        if isinstance(x, Message) and x.role == "assistant" and x.agent == e.from_ and x.content.strip():
            said = (i, x.content)
            break
    if said is None:
        return []
    i, text = said
    # a member named in a negated clause ("This is not one for fines_x", "No need for fines_x")
    # is the one the node did not choose; a courtesy's "no problem" negates nothing
    chosen = [c for s in sentences(answer_given(text)) for c in clauses(s) if not NEGATED.search(COURTESY.sub(" ", c))]
    named = [a.id for a in spec.agents if a.id != e.from_ and any(names_agent(c, spec, a.id) for c in chosen)]
    if len(named) != 1 or named[0] == e.to or named[0] not in reachable:
        return []
    target = named[0]
    for x in trace.events[d + 1:]:
        if said_by_user(x):
            break
        if isinstance(x, AgentTurn) and x.agent == target or isinstance(x, DelegationEvent) and x.to == target:
            return []  # the named member had the request after all (a fan-out, a later edge)
    router = next((x.condition.split(" -> ")[0] for x in spec.delegations
                   if x.from_ == e.from_ and x.to == e.to and x.condition), "router")
    return [Failure(
        category="agent_relationship", root_cause=MISROUTED, detector="misrouted_request",
        evidence=(i, d), scenario_id=trace.scenario_id, elements=(f"router {router}", e.to, *(tools_of(spec, target) or [target])),
        agent=None, step=d, subject=e.to,
        description=f"{e.from_} passed the request to {target} by name (event {i}), but the graph's "
        f"route out of it ({router}) gave it to {e.to} (event {d}), and {target} never had it: "
        "the edge's code sends the request elsewhere than the node said")]


def _label_for(instructions: str, request: str) -> str | None:
    """The label a classifier's instructions give for a request: the first label quoted in a
    sentence whose condition the request meets ('Say "ROOM" when the request mentions practice,
    room or rooms'); None when no condition is met (a default line is no reading of the request)."""
    from masfuzz.oracles.flare import condition_of, met_in  # flare reads the detectors: imported late

    for sentence in sentences(instructions):
        labels = re.findall(r"[\"“]([^\"”]{1,40})[\"”]", sentence)
        if labels and (condition := condition_of(sentence)) and met_in(condition.group(1), [request]):
            return labels[0].strip()
    return None


def _entry_router(spec: WorkflowSpec, agent: str) -> str | None:
    """The router function of the app's code that may enter the run at this agent
    (`ENTERED_BY`, a LangGraph conditional edge out of START), if any."""
    return next((str(a.model_settings.get(ENTERED_BY) or "") or None for a in spec.agents if a.id == agent), None)


def _chooses(spec: WorkflowSpec, node: str) -> bool:
    """Does a graph node's edge out go to one of two agents or more (a conditional edge): the
    route out of it is chosen, not fixed."""
    return len({x.to for x in spec.delegations if x.from_ == node and x.trigger == "graph_edge"}) > 1


def _served_before(trace: Trace, d: int, fitting: list[str]) -> bool:
    """Was a fitting tool called since the user's last message, before event `d`: the request's
    need was met before this route was taken."""
    return _since_request(trace, d, lambda x: isinstance(x, ToolCall) and x.tool in fitting)


def _since_request(trace: Trace, d: int, found: Callable[[object], bool]) -> bool:
    """Is an event `found` since the user's last message, before event `d`?"""
    for x in reversed(trace.events[:d]):
        if said_by_user(x):
            return False
        if found(x):
            return True
    return False


def _misentered(trace: Trace, spec: WorkflowSpec, d: int, chosen: str, router: str,
                fitting: list[str], request: str, described: bool = False) -> list[Failure]:
    """The app's router function (a graph's conditional edge out of START: a keyword list, a
    classifier's label read by code) entered the run for the user's request at `chosen`, none of
    whose tools can serve it, while another agent the same router may enter at holds one that
    can, and the request was answered without it. No agent chose: the router is the app's code,
    so the finding blames no agent (elements: the router, the agent reached, the fitting tools)."""
    choices = {a.id for a in spec.agents if a.model_settings.get(ENTERED_BY) == router}
    described = _described_members(request, spec, choices) if described and not fitting else []
    described = [] if _reached_before(trace, d, described) else described
    if not (fitting or described) or set(tools_of(spec, chosen)) & set(fitting) or chosen in described \
            or addresses_agent(request, spec, chosen):
        return []
    holders = sorted(_fitting_members(spec, fitting, described) & choices - {chosen})
    if not holders or _told_to_pass_on(spec, chosen, request, holders):
        return []
    said = _answered_without(trace, d, chosen, fitting, holders)
    if said is None:
        return []
    return [Failure(
        category="agent_relationship", root_cause=MISROUTED, detector="misrouted_request",
        evidence=(d, said), scenario_id=trace.scenario_id,
        elements=(f"router {router}", chosen, *(fitting or holders)), agent=None, step=d, subject=chosen,
        description=f"the app's router {router} sent the request to {chosen} (event {d}), whose "
        f"{_cannot(spec, chosen, fitting)}, while {', '.join(holders)}, which the same router may choose, "
        f"{_can(fitting)}; {chosen} answered without it (event {said})")]


# A line that routes the request on to another agent, in any form of its verb ("Pass the message
# to xch_2 when ...", 'Say "I'm passing you to the office" when ...', "Put them through to ..."):
# a front desk's hand-on. Routing, not writing: what an agent is told to put in what it writes is
# semantic's `_TOLD_TO_WRITE`.
_ROUTES_ON = re.compile(r"\b(?:hand(?:s|ing|ed)?|pass(?:es|ing|ed)?|transfer(?:s|ring|red)?|delegat\w*|forward\w*|"
                        r"rout(?:e|es|ing|ed)|escalat\w*|send(?:s|ing)?|sent|refer(?:s|ring|red)?|put(?:s|ting)?)"
                        r"\s+(?:\w+\s+){0,3}?(?:to|over|on|through)\b", re.IGNORECASE)


def _told_to_pass_on(spec: WorkflowSpec, chosen: str, request: str, holders: list[str]) -> bool:
    """Is `chosen` a front desk the app's router enters at by design, whose own instructions pass
    a request like this one on toward a holder: a line whose condition the request meets passes
    it on, and it names a holder or the app's router may give a holder the turn after `chosen`
    (an AG2 speaker-selection function that reads the desk's words)? Then entering at it is no
    misroute of the router's, as a selector's choice of a member that hands on is none
    (`_hands_on_to`): whether the desk passed the request on is its own routing, judged as such
    (`_routed_past`, `participation`), and a model that ignored the line is no fault of the code."""
    from masfuzz.oracles.flare import condition_of, met_in  # flare reads the detectors: imported late

    onward = {x.to for x in spec.delegations if x.from_ == chosen}
    for sentence in sentences(spec.agent(chosen).instructions or ""):
        if NEGATED.search(sentence) or not _ROUTES_ON.search(sentence):
            continue
        condition = condition_of(sentence)
        if condition is None or not met_in(condition.group(1), [request]):
            continue
        if any(names_agent(sentence, spec, h) or h in onward for h in holders):
            return True
    return False


def _routed_past(trace: Trace, spec: WorkflowSpec, d: int, e: DelegationEvent, fitting: list[str],
                 request: str, described: bool = False) -> Failure | None:
    """The hand-over at `d` gave the request to an agent none of whose tools fit it, while a
    sibling the router could reach holds a fitting one (or, no tool fitting, is the member the
    request speaks of: `_described_members`), and it was answered without it. Not when that
    sibling already took a turn for this request (`_reached_before`): a manager calling its desks
    in turn gave it to the right one first, and the later hand-over is its next step."""
    mine = set(tools_of(spec, e.to))
    reachable = {x.to for x in spec.delegations if x.from_ == e.from_}
    described = _described_members(request, spec, reachable) if described and not fitting else []
    described = [] if _reached_before(trace, d, described) else described
    if not (fitting or described) or mine & set(fitting) or e.to in described \
            or set(tools_of(spec, e.from_)) & set(fitting) \
            or addresses_agent(request, spec, e.to) or _served_before(trace, d, fitting) \
            or fitting and _reached_before(trace, d, sorted(_fitting_members(spec, fitting, []))):
        return None  # a holder of a fitting tool already had its turn: this hand-over is a next step
    siblings = sorted(_fitting_members(spec, fitting, described) & reachable - {e.to})
    if not siblings:
        return None
    said = _answered_without(trace, d, e.to, fitting, siblings)
    if said is None:
        return None
    because = model_misroute(spec, e.from_, request, e.to, siblings) if e.trigger == "handoff" else ""
    if not because and e.trigger == "handoff" and _misdescribed(spec, request, e.to, siblings):
        # the router chose by the hand-off's description, which describes another agent's work
        return Failure(
            category="agent_relationship", root_cause=MISROUTED, detector="misrouted_request",
            evidence=(d, said), scenario_id=trace.scenario_id,
            elements=(f"the hand-off description of {e.to}", e.to, *fitting), agent=None, step=d, subject=e.to,
            description=f"{e.from_} handed the request to {e.to} (event {d}), whose hand-off description "
            f"(\"{(spec.agent(e.to).description or '')[:80]}\") fits it, but whose tools "
            f"({', '.join(sorted(mine)) or 'none'}) cannot serve it, while {', '.join(siblings)} holds "
            f"{', '.join(fitting)}: the description given to {e.to} is another agent's work (the wiring); "
            f"{e.to} answered without it (event {said})")
    return Failure(
        category="agent_relationship", root_cause=MISROUTED, detector="misrouted_request",
        evidence=(d, said), scenario_id=trace.scenario_id,
        elements=(e.from_, e.to, *(fitting or siblings)), agent=e.from_, step=d, subject=e.to,
        **({"attribution": "harness", "because": because} if because else {}),
        description=f"{e.from_} handed the request to {e.to} (event {d}), whose "
        f"{_cannot(spec, e.to, fitting)}, while {', '.join(siblings)} {_can(fitting)}; "
        f"{e.to} answered without it (event {said})")


def _misdescribed(spec: WorkflowSpec, request: str, chosen: str, siblings: list[str]) -> bool:
    """Does the description a router chose `chosen` by (its hand-off description) fit the request
    by DESCRIBED content words or more that none of `chosen`'s tools speak of, and better than
    every sibling's does? Then the router followed the description, and the description, not the
    choice, is wrong: given to the wrong agent (blurbs zipped onto a reordered list of desks)."""
    def fit(member: str) -> set[str]:
        described = re.sub(rf"\b{name_pattern(spec, member)}\b", " ", spec.agent(member).description or "",
                           flags=re.IGNORECASE)
        return _stems(request) & _stems(described)

    tools = _stems(" ".join(f"{x.id} {x.description or ''}" for x in spec.tools if x.id in tools_of(spec, chosen)))
    mine = fit(chosen)
    return len(mine - tools) >= DESCRIBED and all(len(fit(s)) < len(mine) for s in siblings)


def _servable_by_object(request: str, spec: WorkflowSpec) -> list[str]:
    """The tools a request asks for without naming their action ("my payslip is missing hours,
    can you sort it out?"): it names the thing the tool acts on (its name's words after the verb:
    payslip of correct_payslip), it carries every argument the tool requires in the form its
    documentation gives (`like "PS-0001"`: PS- and digits), and it carries no such set for any
    tool whose thing it does not name. Capability read from the arguments, not the words: a
    request naming an order but lacking the amount a refund needs fits no refund tool."""
    from masfuzz.oracles.semantic import carries_arguments  # semantic reads routing: imported late

    named = [t.id for t in spec.tools if (objects := tool_objects(t.id) - set(words(t.id)[:1]))
             and all(mentions(request, [o]) for o in objects)]
    fitting = [t for t in named if carries_arguments(request, spec, t)]
    others = [t.id for t in spec.tools if t.id not in named and carries_arguments(request, spec, t.id)]
    return fitting if not others else []


# The endings of a noun made from a verb, which names the work itself (tuning, cleaning, repair,
# removal, inspection): a tool named by such a noun does that work.
_VERBAL_NOUN = re.compile(r"\w{3,}(?:ing|ion|ment|al|ance|ence|age|ure|ry)$")


def _servable_by_activity(request: str, spec: WorkflowSpec) -> list[str]:
    """The one tool whose name's object is the work itself, a noun made from a verb (book_tuning,
    arrange_cleaning, schedule_inspection), that a request asks for by that work's own verb or any
    form of its root ("could someone come and tune it?", "can you inspect the boiler?"), which
    neither the tool's action nor its object names word for word. A tool whose job is to find
    (a look-up of a booking) does no work of its own. None when two tools' works are spoken of."""
    said = [w for w in words(request) if w not in STOPWORDS and len(w) >= 3]
    hits = []
    for t in spec.tools:
        objects = tool_objects(t.id) - set(words(t.id)[:1])
        if len(objects) != 1 or tool_job(t.id, spec) == "find":
            continue
        work = next(iter(objects))
        if _VERBAL_NOUN.fullmatch(work) and any(same_root(work, w) for w in said):
            hits.append(t.id)
    return hits if len(hits) == 1 else []


def _servable_by_arguments(request: str, spec: WorkflowSpec) -> list[str]:
    """The one tool a request carries every required argument for, in the form its documentation
    gives (a pupil number shaped like "MS-10000" and an exam like "Piano Grade 1"), though it
    names neither its action nor its object ("put Maisie in for her Piano Grade 3"): what the
    request brought is what that tool acts on, as `participation` reads a needed member. When two
    tools or more could take the same values (a look-up and a booking both take the day), the
    values alone do not tell: those of them whose description's first sentence the request also
    speaks of (`_carried_and_described`: "a group booking ... the woodland scenario" of "Book a
    group onto a session of the woodland game") are asked for, as `participation` reads them."""
    from masfuzz.oracles.semantic import carries_arguments  # semantic reads routing: imported late

    servable = [t.id for t in spec.tools if carries_arguments(request, spec, t.id)]
    if len(servable) == 1:
        return servable if _speaks_of(request, spec, servable[0]) else []
    return _carried_and_described(request, spec, servable)


def _carried_and_described(request: str, spec: WorkflowSpec, servable: list[str],
                           called: set[str] = frozenset()) -> list[str]:
    """Of the tools a request carries every required argument for (`servable`), those not yet
    called whose description's first sentence it speaks of in DESCRIBED content words or more: a
    request asking for several things at once (a lesson and its rental kit, both on one day) asks
    for each by both its arguments and its words. Words that also describe a tool the run called
    (`called`) speak of the work that was done, not of another."""
    asked = _stems(request) - {w for c in called for w in _stems(_first_sentence(spec, c))}
    return [t for t in servable if t not in called and len(asked & _stems(_first_sentence(spec, t))) >= DESCRIBED]


def _servable_by_values(request: str, spec: WorkflowSpec) -> list[str]:
    """The one tool whose documented-form parameters a request's values fill (`form_filled`: a
    date in words, "le 9 août", for `day: e.g. "2026-01-31"`), when no other tool's are, the
    request speaks of its own words (`_speaks_of`: "surf" of "a group surf lesson") and of no
    other tool's. Read last, for a request in another language than the tools' documentation
    ("un cours de surf"): its values and the few words all languages share tell which tool it
    wants, where its words do not."""
    from masfuzz.oracles.semantic import form_filled  # semantic reads routing: imported late

    if in_english(request):
        return []  # an English request is read by its words (the readers before this one)
    filled = [t.id for t in spec.tools if any(ok for _, ok in form_filled(spec, t.id, request).values())]
    if len(filled) != 1 or not _speaks_of(request, spec, filled[0]):
        return []
    asked = _stems(request)
    return [] if any(asked & _own_words(t) for t in spec.tools if t.id != filled[0]) else filled


def _own_words(t: ToolSpec) -> set[str]:
    """A tool's own words as stems: its name, its description, its parameters' names and
    descriptions."""
    props = (t.parameters or {}).get("properties") or {}
    return _stems(" ".join([t.id, t.description or "", *props, *(
        str((v or {}).get("description") or "") for v in props.values())]))


def _speaks_of(request: str, spec: WorkflowSpec, tool: str) -> bool:
    """Does a request speak of this tool's work, not only hold values it could take: does it
    share a content word with the tool's own words (its name, its description, its parameters'
    names and descriptions: "grade" of `enter_candidate`'s "The exam, instrument and grade")
    that no other tool's own words have? The words every tool of the app shares (an
    interpreter pool's "interpreter") say nothing of which one is asked for."""
    mine = next((_own_words(t) for t in spec.tools if t.id == tool), set())
    others = set().union(*(_own_words(t) for t in spec.tools if t.id != tool))
    return bool(_stems(request) & (mine - others))


# Function words of four letters or more: they say nothing of what a request needs, and one
# shared with a tool's description ("a letter about my return", "forms about a topic") must not
# make that tool a candidate and so hide the one the request's content words do name.
_FUNCTION_WORDS = {"about", "above", "after", "again", "also", "before", "below", "been", "could",
                   "does", "each", "from", "have", "here", "into", "just", "like", "more", "most",
                   "much", "only", "other", "over", "please", "should", "some", "such", "than",
                   "that", "their", "them", "then", "there", "these", "they", "this", "those",
                   "under", "very", "what", "when", "where", "which", "while", "will", "with",
                   "would"}


def _stems(text: str) -> set[str]:
    """A text's content words as stems (`wording.stem`), a reversing or repeating prefix (un-,
    re-) off first, so that "locked" and "unlock", "logins" and "login", "triangle" and
    "triangles" meet. Function words are no content words (`_FUNCTION_WORDS`)."""
    return {stem(re.sub(r"^(?:un|re)(?=\w{4})", "", w)) for w in words(text)
            if w not in STOPWORDS and w not in _FUNCTION_WORDS and len(w) >= 4 and not w.isdigit()}


DESCRIBED = 2  # content words a request must share with a tool's description to ask for it


def _first_sentence(spec: WorkflowSpec, tool: str) -> str:
    """A tool's description's first sentence: what it does ("" for a tool the spec lacks)."""
    t = next((x for x in spec.tools if x.id == tool), None)
    return (sentences(t.description or "") or [""])[0] if t else ""


def _servable_by_description(request: str, spec: WorkflowSpec) -> list[str]:
    """The tools a request asks for in words of their descriptions rather than of their names
    ("I'm locked out, my login is ..." and unlock_account, "Unlock a staff account after too many
    failed logins."): the tools whose description's first sentence shares at least DESCRIBED
    content words with the request, when every other tool shares none. Silent when the words
    are spread over several tools: then nothing tells which one the request needs."""
    said = {t.id: _stems(_first_sentence(spec, t.id)) for t in spec.tools}
    # the words every tool's description has (the "book" of book_groom and book_checkup) tell
    # none apart
    asked = _stems(request) - (set.intersection(*said.values()) if len(said) > 1 else set())
    shared = {t: len(asked & s) for t, s in said.items()}
    fitting = [t for t, n in shared.items() if n >= DESCRIBED]
    rest = [n for t, n in shared.items() if t not in fitting]
    if fitting and all(n == 0 for n in rest):
        return fitting
    # one word shared with another tool by chance (the "house kit" asked for, a mixing desk's
    # "house engineer") is no rival to a tool sharing DESCRIBED more whose thing the request names
    # (the "live room" of book_live_room), unless the request carries all that tool needs
    from masfuzz.oracles.semantic import carries_arguments  # semantic reads routing: imported late

    return fitting if len(fitting) == 1 and (objects := tool_objects(fitting[0]) - set(words(fitting[0])[:1])) \
        and all(mentions(request, [o]) for o in objects) \
        and all(n <= 1 and shared[fitting[0]] >= n + DESCRIBED for n in rest) \
        and not any(carries_arguments(request, spec, t) for t, n in shared.items() if n and t not in fitting) else []


# An ask for whatever matches: "send over whatever fits", "anything that suits us", "any flats
# available?", "show us what's available", "what do you have", "what's on offer". It asks for
# things to be found, not for an act done.
_OPEN_ASK = re.compile(
    r"\b(?:whatever|anything|something|any\s+\w+|what(?:'s|\s+is|\s+are)?)\s+(?:\w+\s+){0,3}?"
    r"(?:fits?|suits?|match(?:es)?|available|on\s+offer|in\s+stock|(?:you|we)\s+(?:have|'ve\s+got|offer|could\s+find))\b",
    re.IGNORECASE)


def _described_by_ask(request: str, spec: WorkflowSpec) -> list[str]:
    """The finder a request's own ask wants: its question or plea asks for whatever matches
    (`_OPEN_ASK`: "Could you send over whatever fits?"), so it wants things found, and exactly
    one tool whose job is to find (`wording.tool_job`: search_listings) speaks of the request in
    its description's first sentence ("... homes that fit a client's request": a word met as a
    stem or whole, "fits" and "fit"). The rest of a request says why and for whom, and may speak
    of another tool's work ("we're hoping to purchase a flat", a budget of "€440,000" a mortgage
    quote could take); its ask says what is wanted."""
    if not any((is_question(s) or re.match(r"\s*(?:please|kindly)\b", s, re.IGNORECASE)) and _OPEN_ASK.search(s)
               for s in sentences(request)):
        return []
    asked = _stems(request)
    finders = [t.id for t in spec.tools if tool_job(t.id, spec) == "find"
               and asked & (_stems(first := _first_sentence(spec, t.id)) | set(words(first)))]
    return finders if len(finders) == 1 else []


def _described_and_carried(request: str, spec: WorkflowSpec) -> list[str]:
    """`_servable_by_description`, narrowed when its words fit several tools: to the one the
    request's own ask speaks of (`_described_by_ask`: the rest of a request says why, its ask
    what), else to the one the request carries every required argument for
    (`_servable_by_arguments`: "booking HB-66120, 2 beds ... could someone leave us the door
    code?" shares words with move_booking and leave_key_code, and carries only the latter's
    arguments); the others lack what they need to act on, so the words alone do not make them
    candidates. When no tool's description shares enough words with the request, the ask alone
    may name the one wanted."""
    described = _servable_by_description(request, spec)
    if not described:
        return _described_by_ask(request, spec)
    if len(described) > 1 and (asked := [t for t in _described_by_ask(request, spec) if t in described]):
        return asked
    if len(described) > 1 and (carried := [t for t in _servable_by_arguments(request, spec) if t in described]):
        return carried
    return described


def _miswired(trace: Trace, spec: WorkflowSpec, d: int, e: DelegationEvent, request: str,
              fitting: list[str]) -> list[Failure]:
    """A route that reaches the wrong agent: the router took a route whose own description fits
    the request by words no other route of the router has ("moorings", "unlocking"), and the
    hand-over reached an agent whose instructions, description and tools speak of none of them,
    which answered (calling none of its tools, or only tools that speak of none of them). A route is
    a delegating tool the router called just before (`ask_berths`, "Pass a question about moorings
    ... to the moorings officer"), or a hand-over to that agent whose description names another one
    (a copied `Handoff`: "Pass the member to keys_desk: locked out, ..." with fleet_ops as its
    target). The router chose by what the route says; the code behind it sent the request elsewhere.
    Blamed: the router, whose choice is the routing step."""
    mine = tools_of(spec, e.to)
    if not mine or set(mine) & set(fitting):
        return []
    ids = [a.id for a in spec.agents]
    call = trace.events[d - 1] if d and isinstance(trace.events[d - 1], ToolCall) else None
    tool = next((t for t in spec.tools if call is not None and call.agent == e.from_ and t.id == call.tool
                 and t.id not in mine), None)
    # (what the route is, its description) for every route of the router: its tools, its hand-overs
    routes = [(t.id, (sentences(t.description or "") or [""])[0]) for t in spec.tools
              if t.id in tools_of(spec, e.from_)] + [
              (f"the hand-over to {x.to}", x.condition or "") for x in spec.delegations if x.from_ == e.from_]
    if tool is not None:
        taken = [(tool.id, (sentences(tool.description or "") or [""])[0])]
    else:
        taken = [(f"the hand-over to {x.to}", x.condition) for x in spec.delegations
                 if x.from_ == e.from_ and x.to == e.to and x.condition
                 and any(a != x.to and names_agent(x.condition, spec, a) for a in ids)]
    target = spec.agent(e.to)
    # what the agent is told to do and can do: its instructions but the replies they quote (what
    # it is told to say: "lessons are another team"), its description, its tools
    told = re.sub(r"[\"“][^\"”]*[\"”]", " ", target.instructions or "")
    known = _stems(" ".join([told, target.description or "", *(
        f"{x.id} {x.description or ''}" for x in spec.tools if x.id in mine)]))
    for name, text in taken:
        others = set().union(*(_stems(t) for n, t in routes if t != text))
        fits = _stems(text) - others & _stems(request)
        if not fits or fits & known:
            continue
        said = _answered_without(trace, d, e.to, mine, [])
        if said is None:
            # it called its own tools, which speak of none of the route's words (`known`): its
            # own work done in place of the request's (a lane booked for a lesson move) when its
            # reply then gives up or speaks of the route's subject without saying it was done
            said = _answered_without(trace, d, e.to, [], [])
            reply = trace.events[said].content if said is not None else ""
            if said is None or not (GIVE_UP.search(reply) or _stems(reply) & fits and not any(
                    claims_done(x) for x in sentences(reply))):
                return []
        # the agent the route names, when the spec has it: its tools are what the request needed
        meant = [t for a in ids if a not in (e.to, e.from_) and names_agent(text, spec, a) for t in tools_of(spec, a)]
        return [Failure(
            category="agent_relationship", root_cause=MISROUTED, detector="misrouted_request",
            evidence=(d - 1, d, said) if tool is not None else (d, said), scenario_id=trace.scenario_id,
            elements=(e.from_, e.to, *([tool.id] if tool is not None else meant)), agent=e.from_, step=d,
            subject=e.to,
            description=f"{e.from_} took {name}, whose description (\"{text[:80]}\") fits the request "
            f"({', '.join(sorted(fits))}), but it reached {e.to} (event {d}), whose instructions and tools "
            f"({', '.join(sorted(mine))}) speak of none of it; {e.to} answered with none of it (event {said})")]
    return []


_ARTICLES = {"the", "a", "an", "our", "your", "their"}


def _route_target(spec: WorkflowSpec, tool: str) -> str | None:
    """Where a delegating tool says it passes the request, from whichever the app gives: its name
    and its description alike (`ask_returns`, "Pass ... to the returns desk." -> "returns";
    "hand-ins" is `handins`); else its name's words after its verb, or its description's words
    after "to (the)", when they name an agent of the spec (`ask_spa` -> "spa", "Send the question to
    the kitchen." -> "kitchen"); else the agent the spec binds it to (an `as_tool` delegation whose
    condition names the tool). None when none of these says where it goes."""
    t = next((x for x in spec.tools if x.id == tool), None)
    if t is None:
        return None
    parts = words(tool)
    named = "".join(w for w in parts[1:] if w != "to")
    said = words(t.description or "")
    described = []  # the words after each "to (the)" of the description, one to three of them
    for i, w in enumerate(said):
        rest = said[i + 1:]
        rest = rest[1:] if rest and rest[0] in _ARTICLES else rest
        described += ["".join(rest[:k]) for k in range(1, 4) if w == "to" and len(rest) >= k]
    if len(parts) > 1 and named in described:
        return named
    agents = [a.id for a in spec.agents]
    for target in ([named] if len(parts) > 1 else []) + described:
        if target and any(_names_target(target, spec, a) for a in agents):
            return target
    return next((x.to for x in spec.delegations if x.trigger == "as_tool" and x.to in agents
                 and re.search(rf"(?<!\w){re.escape(tool)}(?!\w)", x.condition or "")), None)


def _is_named(target: str, spec: WorkflowSpec, agent: str) -> bool:
    """Is a route's target (`returns`, `handins`) one of the agent's names, written together?"""
    return any("".join(words(n)) in (target, f"{target}agent") for n in agent_names(spec, agent))


def _names_target(target: str, spec: WorkflowSpec, agent: str) -> bool:
    """Is a route's target (`_route_target`) this agent: its id, or one of its names?"""
    return target == agent or _is_named(target, spec, agent) or names_agent(target, spec, agent)


def _crossed_route(trace: Trace, spec: WorkflowSpec, d: int, e: DelegationEvent) -> list[Failure]:
    """A delegating tool that ran another agent than the one it names: the router called a tool
    that says where it passes the request (`_route_target`: its name and description, either
    one naming an agent, or the agent the spec binds it to: `ask_returns`, "... to the returns
    desk"), and the hand-over inside that call reached an agent it does not name, the one a
    sibling route of the same router names (`ask_storage`, "... to the storage desk"). The router
    chose by the name; the app's code behind the tool runs another agent (tools made in a loop
    whose function reads the loop's variable when it runs, a copied tool left pointing at its
    original). Whatever the request, the route is not the one chosen. No agent chose the wrong
    target: the defect is the tool's wiring, so no agent is blamed; `step` is the hand-over, and
    `elements` name the tool, the agent reached and the sibling."""
    # the router's call still running when the hand-over happened: the delegating tool
    call = running_tool([x for x in trace.events[:d] if not isinstance(x, ToolCall) or x.agent == e.from_])
    if call is None:
        return []
    ci = next(i for i, x in enumerate(trace.events[:d]) if x is call)
    target = _route_target(spec, call.tool)
    if target is None or _names_target(target, spec, e.to):
        return []
    sibling = next((t for t in tools_of(spec, e.from_) if t != call.tool
                    and (r := _route_target(spec, t)) is not None and _names_target(r, spec, e.to)), None)
    if sibling is None:
        return []
    return [Failure(
        category="agent_relationship", root_cause=MISROUTED, detector="misrouted_request",
        evidence=(ci, d), scenario_id=trace.scenario_id, elements=(call.tool, e.to, sibling),
        agent=None, step=d, subject=e.to,
        description=f"{e.from_} called {call.tool} (event {ci}), which passes the request to "
        f"{target}, but the call ran {e.to} (event {d}), the agent "
        f"{sibling} is for: the tool's code runs another agent than the one it names")]


def _misselected(trace: Trace, spec: WorkflowSpec, d: int, chosen: str,
                 fitting: list[str], request: str, described: bool = False) -> list[Failure]:
    """A team's speaker selector gave the user's request (turn `d`) to `chosen`, none of whose
    tools can serve it, while another member holds one that can, and the request was answered
    without it. No agent decided this route: the selector chose from the members' descriptions,
    so the finding blames no agent (the team's wiring)."""
    described = _described_members(request, spec, {a.id for a in spec.agents if not _proxy(a)}) \
        if described and not fitting else []
    if not (fitting or described) or set(tools_of(spec, chosen)) & set(fitting) or chosen in described \
            or addresses_agent(request, spec, chosen):
        return []
    holders = sorted(_fitting_members(spec, fitting, described) - {chosen})
    if not holders or _hands_on_to(spec, chosen, holders):
        return []
    said = _answered_without(trace, d, chosen, fitting, holders)
    if said is None:
        return []
    # the app's candidate or selector function that left one speaker chose, not a model
    because = model_misroute(spec, None, request, chosen, holders) if model_chose_speaker(trace, spec) else ""
    return [Failure(
        category="agent_relationship", root_cause=MISROUTED, detector="misrouted_request",
        evidence=(d, said), scenario_id=trace.scenario_id,
        elements=("speaker selector", chosen, *(fitting or holders)), agent=None, step=d, subject=chosen,
        **({"attribution": "harness", "because": because} if because else {}),
        description=f"the team's speaker selector gave the request to {chosen} (event {d}), "
        f"whose {_cannot(spec, chosen, fitting)}, while {', '.join(holders)} {_can(fitting)}; "
        f"{chosen} answered without it (event {said})")]


def _hands_on_to(spec: WorkflowSpec, chosen: str, holders: list[str]) -> bool:
    """Can `chosen` pass the request on to one of `holders` by its own hand-offs, directly or
    through members it hands to (an AG2 group pattern's triage, the pattern's first speaker, whose
    hand-offs lead through a login agent to the order desk)? Then giving it the request is no
    misroute of the selector's: it is a router of the app's, and whether it passed the request on
    is judged as its routing (`_routed_past`, `participation`). A member whose turn the allowed
    speaker transitions always pass on to a holder (`_forced_path`) hands it on as surely: the
    selector had no choice to get wrong, and a run cut before the holder is `participation`'s."""
    path = _forced_path(spec)
    if chosen in path and set(holders) & set(path[path.index(chosen) + 1:]):
        return True
    seen, todo = {chosen}, [chosen]
    while todo:
        here = todo.pop()
        for x in spec.delegations:
            if x.from_ == here and x.trigger == "handoff" and x.to not in seen:
                if x.to in holders:
                    return True
                seen.add(x.to)
                todo.append(x.to)
    return False


def beside_call(trace: Trace, i: int) -> bool:
    """Is the utterance at `i` the text an agent writes beside its own tool call (a ReAct
    "Thought: ... Action: find_voucher" before the call), not a reply: its next event is that
    agent's call?"""
    nxt = trace.events[i + 1] if i + 1 < len(trace.events) else None
    return isinstance(nxt, (ToolCall, RestrictedAttempt)) and nxt.agent == trace.events[i].agent


def _reached_before(trace: Trace, d: int, members: list[str]) -> bool:
    """Did one of `members` take a turn since the user's last message, before event `d`: a
    router passing the request on in turn (a pipeline, a planner's steps) had already given it
    to the member it needed, and a later hand-over is the next step, not a misroute."""
    return _since_request(trace, d, lambda x: isinstance(x, AgentTurn) and x.agent in members)


def _fitting_members(spec: WorkflowSpec, fitting: list[str], described: list[str]) -> set[str]:
    """The members that can serve a request: the holders of the tools it asks for, else the
    member its words describe (`_described_members`)."""
    return {h for t in fitting for h in owners(spec, t)} if fitting else set(described)


def _cannot(spec: WorkflowSpec, chosen: str, fitting: list[str]) -> str:
    if fitting:
        return f"tools ({', '.join(sorted(tools_of(spec, chosen))) or 'none'}) cannot serve it"
    return "description and instructions speak of none of it"


def _can(fitting: list[str]) -> str:
    if fitting:
        return f"holds {', '.join(fitting)}, which the request asks for"
    return "is the one whose description and instructions speak of what it asks"


def _described_members(request: str, spec: WorkflowSpec, candidates: set[str]) -> list[str]:
    """The member a request needs among the router's `candidates` by what they say of
    themselves, when no tool tells (tool-less markers, tutors, writers): the one candidate whose
    own words (its description and instructions, its name left out) share a content word with
    the request that no other candidate's own words have ("triangles" of "Marks geometry: angles,
    triangles", beside "Marks algebra: equations, factorising"), more of them than any other
    candidate. None on a tie (none such words included), when fewer than two have words to read,
    or when a candidate holds tools: then the tools tell the members apart, and a request no tool
    fits leaves the pick unsure."""
    if any(tools_of(spec, a) for a in candidates):
        return []  # members with tools are told apart by them: a request no tool fits is unsure
    own = {a.id: _stems(re.sub(rf"\b{name_pattern(spec, a.id)}\b", " ", f"{a.description}\n{a.instructions}",
                               flags=re.IGNORECASE)) for a in spec.agents if a.id in candidates}
    if sum(1 for words_ in own.values() if words_) < 2:
        return []
    asked = _stems(request)
    fits = sorted(((len(asked & (mine - set().union(*(w for b, w in own.items() if b != a)))), a)
                   for a, mine in own.items()), reverse=True)
    # the one that speaks of more of the request than any other ("angles", "triangle" of the
    # geometry marker; a router's "answer" is one word)
    return [fits[0][1]] if fits[0][0] > fits[1][0] else []


def _answered_without(trace: Trace, d: int, agent: str, fitting: list[str],
                      siblings: list[str]) -> int | None:
    """After the hand-over at `d` and before the user speaks again: None if a fitting tool is
    called or a holder of one reached, or if `agent` says nothing; else its reply that gives up
    (refuses, apologises), or its first reply (the text beside a call of its own is none:
    `beside_call`)."""
    first = gave_up = None
    for i in range(d + 1, len(trace.events)):
        x = trace.events[i]
        if said_by_user(x):
            break
        if isinstance(x, (ToolCall, RestrictedAttempt)) and x.tool in fitting \
                or isinstance(x, DelegationEvent) and x.to in siblings \
                or isinstance(x, AgentTurn) and x.agent in siblings:
            return None
        if isinstance(x, Message) and x.role == "assistant" and x.agent == agent and x.content.strip() \
                and not beside_call(trace, i):
            first = i if first is None else first
            if gave_up is None and GIVE_UP.search(answer_given(x.content)):  # not a recap's failure
                gave_up = i
    return gave_up if gave_up is not None else first


INSTRUCTED = [participation, instructed_order, misrouted_request]
