"""Argument generation: a mixture of parts, each drawn in its share of the calls.

- schema: plain `hypothesis-jsonschema` on the tool's whole argument schema (full Unicode, NUL
  and control characters included), the baseline every other part must add to;
- semantic: the kind of text an agent writes (words, places, addresses, dates, paths, sentences,
  §4.1 "semantic prior") and what the learned `SyntaxPrior` says the code expects (prefix,
  separators, JSON keys, date formats, length bounds);
- boundary: edge values of each property's own type: empty, blank, NUL, very long strings, path
  components over 255 bytes, `..`, absolute paths, separators; 0, -1, huge numbers, inf, NaN;
  integers past the 64-bit limits and past what a float holds (2**1024), the largest and
  smallest floats; numbers past their limits as text (1e309, 4,301 digits) and expressions whose
  value is (2**100000, 9**9**9); nesting towers, as values ([[[...]]], 200 levels) and as JSON
  text (2000);
- nested: deep structures: lists of objects with keys missing, extra or of the wrong type,
  lists of lists, JSON text of nested values.
The fuzzer steers the shares (`draw_mixture(weights=...)`) towards the parts whose calls reach
new code of the tool's own or new errors (`fuzzer.Steering`). Drawing is seeded through
Hypothesis's own `@seed`, so a run is reproduced by its seed.
"""

from __future__ import annotations

import contextlib
import copy
import datetime
import json
import math
import re
import string
from collections.abc import Iterator
from typing import Any

from hypothesis import HealthCheck, Phase, given, seed as hseed, settings, strategies as st
from hypothesis_jsonschema import from_schema

from masfuzz.toolfuzz.priors import Priors, Range, SyntaxPrior

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
    """Text an agent plausibly sends: words, phrases, places, addresses, dates, paths, urls,
    numbers and arithmetic (some past their limits)."""
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
        huge_numbers_text(),  # what an agent asks a calculator: 2**100000, 9**9**9, 1e308*10
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
    if prior.casts:  # a number as people and documents write it, not only as Python prints one
        out.append(written_numbers())
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


# How text carries a number where a person or a document wrote it (a receipt, a prescription, a
# form): a currency sign or code, thousands separators, decimals where a count looks whole, a unit
# or percent after it. A parser cast straight with int() or float() refuses each of them.
_NUMBER_HEADS = ["", "", "$", "€", "£", "USD ", "-", "+"]
_NUMBER_TAILS = ["", "", " EUR", "%", " kg", " mg", " ", "/month"]
WRITTEN_NUMBERS = ["2.5", "1,250.00", "$1,250.00", "19.99 EUR"]  # one of each form: sent first


def written_numbers() -> st.SearchStrategy[str]:
    """Numbers written as people write them: "$1,250.00", "2.5", "19.99 EUR", "12%"."""
    def write(head: str, whole: int, cents: int | None, grouped: bool, tail: str) -> str:
        digits = f"{whole:,}" if grouped else str(whole)
        return f"{head}{digits}{'' if cents is None else f'.{cents:02d}'}{tail}"
    return st.builds(write, st.sampled_from(_NUMBER_HEADS), st.integers(0, 10**7),
                     st.one_of(st.none(), st.integers(0, 99)), st.booleans(), st.sampled_from(_NUMBER_TAILS))


def _fit(text: str, n: int) -> str:
    """`text` repeated or cut to exactly n characters (n >= 0)."""
    if n <= 0:
        return ""
    base = text or "x"
    return ((base + " ") * (n // (len(base) + 1) + 1))[:n]


def string_strategy(prop: dict[str, Any], prior: SyntaxPrior | None) -> st.SearchStrategy[str]:
    """The "semantic" part's strings: what an agent writes, and what the learned prior expects."""
    branches: list[st.SearchStrategy[str]] = [semantic_strings()]
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


def _types(prop: dict[str, Any]) -> set[str]:
    """The JSON types a property may take (its `type`, and those of its anyOf/oneOf branches)."""
    t = prop.get("type")
    found = set(t) if isinstance(t, list) else {t} if isinstance(t, str) else set()
    for key in ("anyOf", "oneOf"):
        for b in prop.get(key, []) or []:
            if isinstance(b, dict):
                found |= _types(b)
    return found


def _is_string(prop: dict[str, Any]) -> bool:
    return "string" in _types(prop)


# --- boundary values -----------------------------------------------------------------------

_LONG_NAME = "a" * 300  # one path component over the 255-byte limit of most file systems
# Boundary strings by value class. A class is drawn as often as any other however many examples
# it lists: drawn by example, NUL (3 of 60 strings) came up in 5% of the draws, and a NUL byte
# is what every OS string API refuses (paths, argv, environment, a shell's command line).
_TOWER = 2000  # levels of a nesting tower given as text
_TOWER_TEXT = "[" * _TOWER + "]" * _TOWER
_TOWER_OBJECT_TEXT = '{"a": ' * _TOWER + "1" + "}" * _TOWER
# levels of a tower given as a value: deep for a tool's own recursion, yet within what masfuzz's
# JSON (its reports, the MCP protocol) encodes (CPython's encoders stop near 1000)
_TOWER_VALUE = 200
BOUNDARY_CLASSES: dict[str, list[str]] = {
    "blank": ["", " ", "  \t\n", "\n", "\r\n"],
    "nul": ["\x00", "a\x00b", "notes\x00.txt", "\x00" * 3],
    "control": ["\x1b[0m", "\u202e", "\x7f", "\x0c", "\x08", "\u0085", "\ufeff"],
    "long": [_LONG_NAME, "é" * 150, _LONG_NAME + ".txt", "dir/" + _LONG_NAME, "x" * 5000],
    "path": [".", "..", "../..", "../" * 8 + "etc/passwd", "/", "/etc/passwd", "/tmp",
             "/nonexistent/a/b", "~", "~/x", "//", "\\", "C:\\Windows", "a/b/c", "a//b", "./a",
             "dir/"],
    "syntax": ["-", "--help", "*", "?", "%s%n", "{}", "[]", "{", "]", "\"", "'", "`", "$(x)", ";",
               "|", "(", ")", "' OR 1=1 --"],
    # keywords, and nesting towers as JSON text (a recursive parser's limit: json.loads fails past
    # ~1000 levels)
    "literal": ["null", "None", "SELECT", "select * from", "def", "import", _TOWER_TEXT,
                _TOWER_OBJECT_TEXT],
    # numbers past their limits written as text: past 64 bits, past a float (1e309 parses to
    # inf), inf and NaN by name, past the 4,300 digits Python turns an int into text or back
    # (int(s), str(n) raise), and expressions whose value is past them: a calculator that
    # evaluates 2**100000 cannot print it, and 9**9**9 (370 million digits) runs for hours
    "number": ["0", "-1", str(2**64), "1" + "0" * 400, "1e309", "-1e309", "1e-400", "inf", "-inf",
               "NaN", "Infinity", "1" * 4301, "-" + "9" * 5000, "9**9**9", "9^9^9", "2**100000",
               "10**4301", "factorial(10000)", "1e308*10", "(-8)**(1/3)"],
}
BOUNDARY_STRINGS = [s for examples in BOUNDARY_CLASSES.values() for s in examples]
_SEPARATORS = ["/", "\\", "..", ":", ",", ";", " ", "\x00", "\n"]
# One character at its edge inside ordinary text: a tool that checks only the start or the
# whole of a value still passes it on.
_EDGE_CHARS = ["\x00", "\x00", "\x1b", "\u202e", "\r", "\n", "\t", "'", '"', "\\", "/", ";", "|",
               "`", "$", "%"]


def _insert(text: str, char: str, at: int) -> str:
    at = at % (len(text) + 1)
    return text[:at] + char + text[at:]


def boundary_strings(prior: SyntaxPrior | None = None) -> st.SearchStrategy[str]:
    """Strings at the edges: a value of each class (blank, NUL, other control characters, very
    long and path components over 255 bytes, paths with `..` and absolute ones, syntax, literals),
    alone, joined by separators, and after the prefixes the code was seen to expect; runs of
    one character; and ordinary text with one edge character inside."""
    fixed = st.one_of(*(st.sampled_from(v) for v in BOUNDARY_CLASSES.values()))
    joined = st.builds(lambda sep, parts: sep.join(parts), st.sampled_from(_SEPARATORS),
                       st.lists(fixed, min_size=2, max_size=4))
    long_runs = st.builds(lambda c, n: c * n, st.sampled_from(["a", "/", ".", "\x00", "é", " ", "a/"]),
                          st.sampled_from([254, 255, 256, 1024, 4097]))
    inside = st.builds(_insert, st.one_of(semantic_strings(), st.text(max_size=20)),
                       st.sampled_from(_EDGE_CHARS), st.integers(0, 2**16))
    branches = [fixed, fixed, joined, long_runs, inside]
    prefixes = sorted(prior.prefixes) if prior is not None else []
    if prefixes:
        branches.append(st.builds(lambda p, b: p + b, st.sampled_from(prefixes), fixed))
    return st.one_of(*branches)


def huge_numbers_text() -> st.SearchStrategy[str]:
    """Numbers and arithmetic past a limit, as text: the "number" class, and powers and
    products whose value is past a float (1.5**14287, 1e308*10), past 4,300 digits (2**14287,
    10**4300*10) or past what can be computed in a call's time (9**9**9)."""
    power = st.builds(lambda b, op, e: f"{b}{op}{e}", st.sampled_from(["2", "9", "10", "-7", "1.5"]),
                      st.sampled_from(["**", "^"]),
                      st.sampled_from(["14287", "100000", "1000000", "9**9", "(9**9)"]))
    scaled = st.builds(lambda a, b: f"{a}*{b}", st.sampled_from(["1e308", "1.7976931348623157e308", "10**4300"]),
                       st.sampled_from(["10", "1e10", "2", "10**4300"]))
    return st.one_of(st.sampled_from(BOUNDARY_CLASSES["number"]), power, scaled)


def _bounds(prop: dict[str, Any]) -> list[float]:
    out: list[float] = []
    for key, step in (("minimum", 0), ("maximum", 0), ("exclusiveMinimum", 1), ("exclusiveMaximum", -1)):
        v = prop.get(key)
        if isinstance(v, (int, float)) and not isinstance(v, bool):
            out += [v, v + step, v - 1, v + 1]
    return out


# Integers at their edges by class, each class drawn as often as any other (as the strings').
# An int past 4,300 digits is not among them: no JSON encoder or decoder of Python's takes one
# (an agent's framework could not parse it), so it is given as text ("number" above); these
# stay under it yet make a result past it (1800! has 5,000 digits; 2**14287 has 4,301).
INT_CLASSES: dict[str, list[int]] = {
    "small": [0, -1, 1, 2, 255, 256],
    "bits": [-2**31, 2**31 - 1, 2**31, -2**63, 2**63 - 1, 2**63, 2**64, -2**64 - 1, 10**18],
    "past_float": [2**1024, -2**1024, 10**309, -10**309, 10**4000],  # math.sqrt, float() overflow
    "digits": [1800, 4301, 14287, 10**4, 10**5, 10**100, -10**100],  # results past 4,300 digits
}


def boundary_numbers(prop: dict[str, Any], integer: bool) -> st.SearchStrategy[Any]:
    """Numbers at their edges: 0, -1, 1, the schema's bounds and one past them, 32- and 64-bit
    limits, past what a float holds, sizes whose results pass 4,300 digits; for floats also
    -0.0, the tiniest, the largest, inf and NaN."""
    bounds = [int(b) for b in _bounds(prop) if float(b).is_integer()]
    if integer:
        return st.one_of(*(st.sampled_from(v) for v in INT_CLASSES.values()),
                         *([st.sampled_from(bounds)] if bounds else []))
    floats = [0.0, -0.0, -1.0, 1.0, 0.5, 1e-300, 5e-324, 2.2250738585072014e-308, 1e308, -1e308,
              1.7976931348623157e308, float("inf"), float("-inf"), float("nan"), 2.0**53 + 1] + [float(b) for b in _bounds(prop)]
    return st.sampled_from(floats + [float(i) for i in INT_CLASSES["small"] + INT_CLASSES["bits"][:2]])


def _items_schema(prop: dict[str, Any]) -> dict[str, Any]:
    items = prop.get("items")
    return items if isinstance(items, dict) else {}


def boundary_value(prop: dict[str, Any], prior: SyntaxPrior | None) -> st.SearchStrategy[Any]:
    """A boundary value of the property's own type (types are kept: a framework's argument
    validation would otherwise reject the call before the tool runs)."""
    types = _types(prop)
    branches: list[st.SearchStrategy[Any]] = []
    if "string" in types:
        branches.append(boundary_strings(prior))
    if "integer" in types:
        branches.append(boundary_numbers(prop, integer=True))
    if "number" in types:
        branches.append(boundary_numbers(prop, integer=False))
    if "array" in types:
        item = _items_schema(prop)
        inner = boundary_value(item, None) if _types(item) else st.sampled_from(BOUNDARY_STRINGS)
        branches.append(st.one_of(st.just([]), st.lists(inner, min_size=1, max_size=3),
                                  inner.map(lambda v: [v] * 1000), st.just(tower([], _TOWER_VALUE))))
    if "object" in types:
        branches.append(st.one_of(st.just({}), st.just(tower({}, _TOWER_VALUE))))
    if "null" in types:
        branches.append(st.none())
    if not branches:
        return _schema_strategy(prop)
    return st.one_of(*branches)


def tower(empty: list[Any] | dict[str, Any], depth: int) -> Any:
    """A nesting tower: [[[...]]] or {"a": {"a": ...}}, `depth` levels."""
    value: Any = empty
    for _ in range(depth - 1):
        value = [value] if isinstance(empty, list) else {"a": value}
    return value


# --- nested structures ---------------------------------------------------------------------

_JSON_LEAF = st.one_of(st.none(), st.booleans(), st.integers(-2**63, 2**63), st.floats(allow_nan=False),
                       st.sampled_from([*BOUNDARY_CLASSES["blank"], *BOUNDARY_CLASSES["nul"],
                                        *BOUNDARY_CLASSES["control"]]), st.text(max_size=12))


def json_values(keys: list[str] | None = None) -> st.SearchStrategy[Any]:
    """Nested JSON values: lists of objects, objects of lists, several levels deep, with the
    keys the code was seen to read mixed with others."""
    key = st.one_of(st.sampled_from(keys), st.text(max_size=8)) if keys else st.text(max_size=8)
    return st.recursive(_JSON_LEAF, lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(key, inner, max_size=4)), max_leaves=12)


def nested_objects(item: dict[str, Any]) -> st.SearchStrategy[dict[str, Any]]:
    """Objects shaped like the schema's item, bent: a key missing, an extra key, a value of the
    wrong type or a nested list of objects where a plain value was expected."""
    props = item.get("properties") if isinstance(item.get("properties"), dict) else {}
    names = sorted(props) or ["id", "name", "value", "children"]
    values = json_values(names)
    return st.dictionaries(st.sampled_from(names + ["extra"]), values, max_size=len(names) + 1)


def nested_value(prop: dict[str, Any], prior: SyntaxPrior | None) -> st.SearchStrategy[Any]:
    """Deep structures for the property: for an array, lists of (bent) objects and lists of
    lists; for an object, nested objects; for a string, JSON text of nested values (the keys
    the code reads included)."""
    types = _types(prop)
    branches: list[st.SearchStrategy[Any]] = []
    keys = sorted(prior.json_keys) if prior is not None and prior.json_keys else None
    if "array" in types:
        item = _items_schema(prop)
        item_types = _types(item)
        if not item_types or "object" in item_types:
            branches.append(st.lists(nested_objects(item), min_size=1, max_size=5))
        if not item_types or "array" in item_types:
            branches.append(st.lists(st.lists(json_values(keys), max_size=3), min_size=1, max_size=3))
        if item_types - {"object", "array"}:
            branches.append(st.lists(_schema_strategy(item), min_size=2, max_size=30))
    if "object" in types:
        branches.append(nested_objects(prop) if prop.get("properties") else
                        st.dictionaries(st.text(max_size=8), json_values(keys), max_size=5))
    if "string" in types:
        branches.append(json_values(keys).map(lambda v: json.dumps(v, ensure_ascii=False)))
        if keys:
            branches.append(st.dictionaries(st.sampled_from(keys), json_values(keys), min_size=1,
                                            max_size=len(keys)).map(json.dumps))
    if not branches:
        return _schema_strategy(prop)
    return st.one_of(*branches)


# --- the mixture ---------------------------------------------------------------------------

# The parts arguments are drawn from, and each part's default share. "schema" is plain
# hypothesis-jsonschema on the whole argument schema (full Unicode, NUL and control characters
# included); "semantic" is what an agent writes plus what the learned priors expect; "boundary"
# and "nested" are edge values and deep structures of each property's own type.
PARTS = ("schema", "semantic", "boundary", "nested")
DEFAULT_WEIGHTS = {"schema": 4.0, "semantic": 3.0, "boundary": 3.0, "nested": 2.0}


def documented_number(prop: dict[str, Any], bounds: Range) -> st.SearchStrategy[Any]:
    """A number inside the range its documentation gives ("1 to 1000"), as an agent that read
    it writes one: a call that gets past the tool's own range check reaches the code after it."""
    low = bounds.low if bounds.low is not None else (bounds.high - 1000 if bounds.high is not None else 0)
    high = bounds.high if bounds.high is not None else low + 10**6
    if prop.get("type") == "integer":
        lo, hi = math.ceil(low) + bounds.low_open, math.floor(high) - bounds.high_open
        return st.integers(int(lo), int(hi)) if lo <= hi else _schema_strategy(prop)
    return st.floats(low, high, exclude_min=bounds.low_open, exclude_max=bounds.high_open)


def _fields(schema: dict[str, Any], priors: Priors, part: str,
            ranges: dict[str, Range] | None = None) -> st.SearchStrategy[dict[str, Any]]:
    resolved = _resolve(schema)
    props: dict[str, Any] = resolved.get("properties") or {}
    if not props:
        return _schema_strategy(resolved if resolved.get("type") else {"type": "object"}).filter(
            lambda v: isinstance(v, dict))
    if part == "schema":  # exactly plain hypothesis-jsonschema, extra keys included
        return _schema_strategy(resolved).filter(lambda v: isinstance(v, dict))
    required = set(resolved.get("required") or [])
    fields = {}
    for name, prop in props.items():
        prop = prop if isinstance(prop, dict) else {}
        prior = priors.get(name)
        if part == "boundary":
            fields[name] = boundary_value(prop, prior)
        elif part == "nested":
            fields[name] = nested_value(prop, prior)
        elif _is_string(prop):
            fields[name] = string_strategy(prop, prior)
        elif ranges and name in ranges and prop.get("type") in ("integer", "number"):
            fields[name] = st.one_of(documented_number(prop, ranges[name]), _schema_strategy(prop))
        else:
            fields[name] = _schema_strategy(prop)
        if part != "semantic" and len(props) > 1:
            # one property at its edge, the others ordinary, is often what breaks (with one
            # property, an ordinary value would only repeat the schema part)
            fields[name] = st.one_of(fields[name], fields[name], _schema_strategy(prop))
    return st.fixed_dictionaries(
        {k: v for k, v in fields.items() if k in required},
        optional={k: v for k, v in fields.items() if k not in required},
    )


def allocate(weights: dict[str, float], n: int) -> dict[str, int]:
    """How many of n calls each part gets, in proportion to its weight (largest remainder;
    every part with a positive weight gets at least one call when n allows)."""
    live = {p: w for p, w in weights.items() if w > 0 and p in PARTS} or dict(DEFAULT_WEIGHTS)
    total = sum(live.values())
    exact = {p: n * w / total for p, w in live.items()}
    counts = {p: int(v) for p, v in exact.items()}
    if n >= len(live):
        for p in live:
            counts[p] = max(1, counts[p])
    for p in sorted(live, key=lambda p: (counts[p] - exact[p], PARTS.index(p))):
        if sum(counts.values()) >= n:
            break
        counts[p] += 1
    while sum(counts.values()) > n:  # the minimum of one each overshot: take from the largest
        counts[max(counts, key=lambda p: (counts[p], -PARTS.index(p)))] -= 1
    return counts


def draw_mixture(schema: dict[str, Any], priors: Priors, n: int, seed: int,
                 weights: dict[str, float] | None = None, *, skip_simplest: bool = False,
                 ranges: dict[str, Range] | None = None) -> list[tuple[str, dict[str, Any]]]:
    """n (part, arguments) pairs: each part drawn on its own (seeded) for its share of n, then
    interleaved so every part is spread over the batch.

    Hypothesis starts every draw with the strategy's simplest example, whatever the seed: a
    fuzzer drawing batch after batch passes `skip_simplest` after its first batch, or every
    batch would spend one call per part on the same arguments again."""
    counts = allocate(weights or DEFAULT_WEIGHTS, n)
    drawn: dict[str, list[dict[str, Any]]] = {}
    for i, part in enumerate(PARTS):
        if counts.get(part, 0) > 0:
            strategy = _fields(schema, priors, part, ranges)
            if not skip_simplest:
                drawn[part] = draw(strategy, counts[part], seed * 31 + i)
                continue
            simplest = draw(strategy, 1, 0)
            drawn[part] = [a for a in draw(strategy, counts[part] + 1, seed * 31 + i)
                           if a not in simplest][:counts[part]]
    out: list[tuple[str, dict[str, Any]]] = []
    for k in range(max((len(v) for v in drawn.values()), default=0)):
        for part in PARTS:
            if k < len(drawn.get(part, [])):
                out.append((part, drawn[part][k]))
    return out


# How large a number with no documented or declared upper bound is sent in a call at the top of
# every argument's range (`top_corners`): large, as a user asking for "a million years" is
_MAGNITUDES = (10**3, 10**6, 10**9)


def top_corners(schema: dict[str, Any], ranges: dict[str, Range],
                base: dict[str, Any]) -> list[dict[str, Any]]:
    """Calls with every number argument at the top of what it takes at once: its documented or
    declared maximum, or, with none, a large number (one call per `_MAGNITUDES`). What overflows
    or runs away only when several arguments are large together (`(1 + rate) ** years`,
    `rows * columns`) is met there, where varying one argument at a time, the others ordinary,
    rarely meets it. Only for tools with two number arguments or more."""
    props = _resolve(schema).get("properties") or {}
    numbers = {n: p for n, p in props.items() if isinstance(p, dict) and p.get("type") in ("integer", "number")}
    if len(numbers) < 2:
        return []
    calls = []
    for size in _MAGNITUDES:
        call = dict(base)
        for name, prop in numbers.items():
            top = _top(prop, ranges.get(name))
            low = ranges[name].low if name in ranges and ranges[name].low is not None else size
            value = top if top is not None else max(size, low, prop.get("minimum", size))
            call[name] = int(value) if prop["type"] == "integer" else float(value)
        if call not in calls:
            calls.append(call)
    return calls


def _top(prop: dict[str, Any], documented: Range | None) -> float | None:
    """The largest value a number argument takes: the least of its documented and declared
    maxima (one below an exclusive one), None when neither bounds it."""
    tops = []
    if documented is not None and documented.high is not None:
        tops.append(documented.high - 1 if documented.high_open else documented.high)
    for key, step in (("maximum", 0), ("exclusiveMaximum", 1)):
        if isinstance(prop.get(key), (int, float)) and not isinstance(prop.get(key), bool):
            tops.append(prop[key] - step)
    return min(tops) if tops else None


# The moment a documented date format is written out at (`documented_calls`): a day past the
# 12th, so a day-first and a month-first reading differ, and a time that is not midnight.
DOCUMENTED_DAY = datetime.datetime(2024, 3, 25, 14, 30, 15)


def documented_calls(schema: dict[str, Any], documented: Priors, base: dict[str, Any],
                     ranges: dict[str, Range] | None = None, code: Priors | None = None) -> list[dict[str, Any]]:
    """Calls sending each value the documentation quotes for an argument (`priors.doc_priors`),
    the other arguments as in `base`: what an agent copies from the documentation first, so a
    tool refusing its own documented example is found whatever the budget. A list of strings
    gets the argument's quoted values together (`tracks: like ["3:07", "4:45"]`); a number,
    each number its documentation names (`page_size: 0 to 50; 0 puts them all on one page`);
    a string, a date in each format its documentation states (`YYYY-MM-DD HH:MM`), prose or
    example; every argument's documented value at once (a tool that breaks only on two
    documented values together, a time without an offset minus one with it, is met in that
    call, where one documented value beside a drawn one is refused for the drawn one); every
    number at the top of its documented range at once (`top_corners`); and, for a string the
    tool's code casts to a number (`code`: the priors read from its source), a number in each
    form people write one (`WRITTEN_NUMBERS`)."""
    props = _resolve(schema).get("properties") or {}
    calls = []
    together: dict[str, Any] = {}  # each argument's first documented value
    for name, prior in documented.items():
        prop = props.get(name) if isinstance(props.get(name), dict) else {}
        items = prop.get("items")
        values = sorted(prior.constants)
        mine: list[dict[str, Any]] = []
        if _is_string(prop):
            dated = [DOCUMENTED_DAY.strftime(f) for f in sorted(prior.date_formats)]
            mine = [{**base, name: v} for v in values + [d for d in dated if d not in values]]
        elif prop.get("type") in ("integer", "number"):
            mine = [{**base, name: int(float(v)) if prop["type"] == "integer" else float(v)}
                    for v in values if re.fullmatch(r"-?\d+(?:\.\d+)?", v)]
        elif "array" in _types(prop) and isinstance(items, dict) and _is_string(items) and values:
            mine = [{**base, name: values}]
        calls += mine
        if mine:
            together[name] = mine[0][name]
    if len(together) > 1:
        calls.insert(0, {**base, **together})
    for name, prior in (code or {}).items():
        if prior.casts and _is_string(props.get(name) if isinstance(props.get(name), dict) else {}):
            calls += [{**base, **together, name: v} for v in WRITTEN_NUMBERS]
    calls += top_corners(schema, ranges or {}, base)
    return [c for i, c in enumerate(calls) if c not in calls[:i]]


def mixture_strategy(schema: dict[str, Any], priors: Priors,
                     weights: dict[str, float] | None = None) -> st.SearchStrategy[tuple[str, dict[str, Any]]]:
    """(part, arguments) as one strategy, the part chosen by its weight (`draw_mixture` is
    what the fuzzer uses: drawing the parts apart keeps each one diverse)."""
    parts = {p: _fields(schema, priors, p) for p in PARTS}
    slots = [p for p, c in allocate(weights or DEFAULT_WEIGHTS, 24).items() for _ in range(c)]
    return st.sampled_from(slots).flatmap(lambda p: parts[p].map(lambda a, p=p: (p, a)))


def arguments_strategy(schema: dict[str, Any], priors: Priors,
                       weights: dict[str, float] | None = None) -> st.SearchStrategy[dict[str, Any]]:
    """Dictionaries of arguments from the mixture: required properties always present,
    optional ones sometimes."""
    return mixture_strategy(schema, priors, weights).map(lambda pa: pa[1])


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

    with _seed_alone():
        hseed(seed)(collect)()
    return found[:n]


@contextlib.contextmanager
def _seed_alone() -> Iterator[None]:
    """Hypothesis (6.1xx) mixes into what it draws the literals of the "local" modules the
    process has imported by then (its constants pool: masfuzz's own source, the app's), so one
    seed drew other arguments once a campaign had imported other modules: the tools phase of
    `masfuzz run` with --workers 1, then 4, in one process (the test of the workers) found one
    more `update_seat` error in one of them under load (words drawn from masfuzz's source:
    "prime" against "prenot", "os.spawn" against "os.mkdir"). With that pool empty while it
    draws, the arguments are the seed's alone. The pool is Hypothesis's internal: when it is
    not where it was, nothing is changed."""
    try:
        from hypothesis.internal.conjecture import providers

        empty, cache = providers.Constants(), providers.CONSTANTS_CACHE.cache
        local = providers._get_local_constants
    except (ImportError, AttributeError):
        yield
        return
    cache.clear()  # the allowed constants, computed with the local ones
    providers._get_local_constants = lambda: empty
    try:
        yield
    finally:
        providers._get_local_constants = local
        cache.clear()
