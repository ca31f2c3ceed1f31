"""Argument generation: Hypothesis strategies from the tool's JSON schema, steered by priors.

Every property gets `hypothesis-jsonschema`'s strategy for its schema; string properties also
get semantic generators (words, places, addresses, dates, paths, sentences: the kind of text an
agent writes, §4.1 "semantic prior") and generators built from the learned `SyntaxPrior`
(the prefix, separators, JSON keys, date formats, length bounds the code looks for). Drawing is
seeded through Hypothesis's own `@seed`, so a run is reproduced by its seed.
"""

from __future__ import annotations

import copy
import json
import string
from typing import Any

from hypothesis import HealthCheck, Phase, given, seed as hseed, settings, strategies as st
from hypothesis_jsonschema import from_schema

from masfuzz.toolfuzz.priors import Priors, SyntaxPrior

_WORDS = ["coffee", "shop", "library", "office", "park", "museum", "supermarket", "station",
          "cancer", "RNA", "protein", "therapy", "river", "bridge", "school", "report", "notes",
          "budget", "draft", "assignment", "photo", "family", "server", "python", "data"]
_PLACES = ["San Francisco", "Zurich", "Sofia", "Paris", "Lyon", "SF", "ZH CH", "New York",
           "São Paulo", "Zürich HB", "München", "Kraków", "東京"]
_ADDRESS = st.builds(
    lambda a, b, c, d: f"PSC {a}, Box {b} APO AE {c} Unit {d} Box {b + 7} DPO AE {c + 11}",
    st.integers(1000, 9999), st.integers(1000, 9999), st.integers(10000, 99999), st.integers(1000, 9999))
_DATE_FORMATS = ["%Y-%m-%d", "%Y/%m/%d", "%d.%m.%Y", "%B %d, %Y", "%Y", "%m/%d/%Y"]


def semantic_strings() -> st.SearchStrategy[str]:
    """Text an agent plausibly sends: words, phrases, places, addresses, dates, paths, urls."""
    word = st.sampled_from(_WORDS)
    phrase = st.lists(st.one_of(word, st.sampled_from(_PLACES)), min_size=1, max_size=6).map(" ".join)
    sentence = st.lists(phrase, min_size=4, max_size=14).map(" ".join)  # often over 100 chars
    date = st.builds(lambda d, f: d.strftime(f), st.dates(), st.sampled_from(_DATE_FORMATS))
    path = st.lists(st.sampled_from(["docs", "notes.txt", "..", "data", "a b", "report.pdf", "~"]),
                    min_size=1, max_size=4).map("/".join)
    return st.one_of(
        word, phrase, sentence, st.sampled_from(_PLACES), _ADDRESS, date, path,
        st.integers(-10**6, 10**6).map(str), st.floats(allow_nan=False, allow_infinity=False).map(str),
        st.from_regex(r"https?://[a-z]{3,8}\.(com|org)/[a-z]{0,6}", fullmatch=True),
        st.from_regex(r"[a-z]{2,8}@[a-z]{2,6}\.com", fullmatch=True),
        st.just(""), st.text(string.printable, max_size=30),
    )


def prior_strings(prior: SyntaxPrior) -> list[st.SearchStrategy[str]]:
    """Strategies that satisfy (or nearly satisfy) what the code was seen to expect."""
    sem = semantic_strings()
    out: list[st.SearchStrategy[str]] = []
    prefixes = sorted(prior.prefixes)
    if prefixes:
        out.append(st.builds(lambda p, s: p + s, st.sampled_from(prefixes), sem))
    seps = sorted(s for s in prior.separators if s)
    if seps:
        out.append(st.builds(lambda sep, parts: sep.join(parts), st.sampled_from(seps),
                             st.lists(sem, min_size=1, max_size=4)))
        if prefixes:
            out.append(st.builds(lambda p, sep, parts: p + sep.join(parts), st.sampled_from(prefixes),
                                 st.sampled_from(seps), st.lists(sem, min_size=1, max_size=3)))
    if prior.tokens:
        out.append(st.builds(lambda a, t, b: f"{a}{t}{b}", sem, st.sampled_from(sorted(prior.tokens)), sem))
    if prior.constants:
        out.append(st.sampled_from(sorted(prior.constants)))
    if prior.json_keys:
        keys = sorted(prior.json_keys)
        value = st.one_of(sem, st.integers(-100, 100), st.booleans(), st.none())
        out.append(st.dictionaries(st.sampled_from(keys), value, max_size=len(keys)).map(json.dumps))
    if "int" in prior.casts:
        out.append(st.integers(-10**9, 10**9).map(str))
    if "float" in prior.casts:
        out.append(st.floats(allow_nan=True, allow_infinity=True).map(str))
    for pattern in sorted(prior.regexes)[:8]:
        try:
            out.append(st.from_regex(pattern))
        except Exception:  # a pattern Hypothesis cannot generate from
            continue
    for fmt in sorted(prior.date_formats):
        out.append(st.builds(lambda d, f=fmt: d.strftime(f), st.dates()))
    for bound in sorted(prior.length_bounds):
        if 0 < bound < 100_000:
            head = prefixes[0] if prefixes else ""
            out.append(st.sampled_from([bound - 1, bound, bound + 1]).flatmap(
                lambda n, head=head: sem.map(lambda s, n=n: _fit(head + s, n))))
    return out


def _fit(text: str, n: int) -> str:
    """`text` repeated or cut to exactly n characters (n >= 0)."""
    if n <= 0:
        return ""
    base = text or "x"
    return ((base + " ") * (n // (len(base) + 1) + 1))[:n]


def string_strategy(prop: dict[str, Any], prior: SyntaxPrior | None) -> st.SearchStrategy[str]:
    branches: list[st.SearchStrategy[str]] = [_schema_strategy(prop), semantic_strings()]
    if prior is not None and not prior.empty():
        branches += prior_strings(prior)
    if "enum" in prop:
        branches.append(st.sampled_from([v for v in prop["enum"] if isinstance(v, str)] or [""]))
    return st.one_of(*branches).map(_cut)


def _cut(s: str) -> str:
    return s if len(s) < 20_000 else s[:20_000]


def _schema_strategy(prop: dict[str, Any]) -> st.SearchStrategy[Any]:
    try:
        return from_schema(prop)
    except Exception:  # hypothesis-jsonschema rejects some real-world schemas; fall back
        return st.text(max_size=40)


def _is_string(prop: dict[str, Any]) -> bool:
    t = prop.get("type")
    if t == "string" or (isinstance(t, list) and "string" in t):
        return True
    return any(isinstance(b, dict) and b.get("type") == "string" for b in prop.get("anyOf", []))


def arguments_strategy(schema: dict[str, Any], priors: Priors) -> st.SearchStrategy[dict[str, Any]]:
    """Dictionaries of arguments: required properties always present, optional ones sometimes."""
    resolved = _resolve(schema)
    props: dict[str, Any] = resolved.get("properties") or {}
    if not props:
        return _schema_strategy(resolved if resolved.get("type") else {"type": "object"}).filter(
            lambda v: isinstance(v, dict))
    required = set(resolved.get("required") or [])
    fields = {}
    for name, prop in props.items():
        prop = prop if isinstance(prop, dict) else {}
        fields[name] = string_strategy(prop, priors.get(name)) if _is_string(prop) else _schema_strategy(prop)
    return st.fixed_dictionaries(
        {k: v for k, v in fields.items() if k in required},
        optional={k: v for k, v in fields.items() if k not in required},
    )


def _resolve(schema: dict[str, Any]) -> dict[str, Any]:
    try:
        from hypothesis_jsonschema._resolve import resolve_all_refs

        return resolve_all_refs(copy.deepcopy(schema))
    except Exception:
        return schema


def draw(strategy: st.SearchStrategy[Any], n: int, seed: int) -> list[Any]:
    """Up to n examples from the strategy, the same ones for the same seed."""
    found: list[Any] = []

    @settings(max_examples=n, database=None, phases=[Phase.generate], deadline=None,
              suppress_health_check=list(HealthCheck), report_multiple_bugs=False)
    @given(strategy)
    def collect(example: Any) -> None:
        found.append(example)

    hseed(seed)(collect)()
    return found[:n]
