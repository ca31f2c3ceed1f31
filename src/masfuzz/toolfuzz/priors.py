"""Syntax priors: what a tool expects of its string arguments, learned from its code and read
from its documentation.

ToolFuzz (§4.1) notes that most tools carry strong syntax priors (a `query: ` prefix, a JSON
object with given keys, a date format) that random strings never meet. Two sources feed one
`SyntaxPrior` per argument:

- static: the AST of the tool's function (`split`/`partition`/`startswith` constants,
  `json.loads` result subscripts, `int`/`float` casts, `re` patterns, `len` bounds, `strptime`
  formats, comparisons against literal constants);
- dynamic: *taint objects* — `TaintStr`, a str subclass that records what the code does with it
  while a call runs. Recording is scoped by a context variable, so concurrent calls in threads
  never mix their observations, and the few global hooks (`json.loads`, `re.*`, strptime) do
  nothing outside a tainted call.
"""

from __future__ import annotations

import ast
import contextvars
import inspect
import json
import re
import textwrap
import threading
from dataclasses import dataclass, field
from typing import Any, Callable


@dataclass
class SyntaxPrior:
    prefixes: set[str] = field(default_factory=set)
    separators: set[str] = field(default_factory=set)
    tokens: set[str] = field(default_factory=set)  # substrings tested with `in` / find
    constants: set[str] = field(default_factory=set)  # values compared with ==
    json_keys: set[str] = field(default_factory=set)
    casts: set[str] = field(default_factory=set)  # int, float
    regexes: set[str] = field(default_factory=set)
    date_formats: set[str] = field(default_factory=set)
    length_bounds: set[int] = field(default_factory=set)

    def merge(self, other: "SyntaxPrior") -> None:
        for name in self.__dataclass_fields__:
            getattr(self, name).update(getattr(other, name))

    def empty(self) -> bool:
        return not any(getattr(self, n) for n in self.__dataclass_fields__)

    def to_dict(self) -> dict[str, list[Any]]:
        return {n: sorted(getattr(self, n), key=str) for n in self.__dataclass_fields__ if getattr(self, n)}


Priors = dict[str, SyntaxPrior]  # argument name -> prior


# --- static analysis ---------------------------------------------------------------------

_STR_METHODS = {
    "split": "separators", "rsplit": "separators", "partition": "separators",
    "rpartition": "separators", "startswith": "prefixes", "removeprefix": "prefixes",
    "endswith": "tokens", "find": "tokens", "index": "tokens", "count": "tokens",
    "replace": "tokens",
}


def static_priors(fn: Callable[..., Any] | None, arg_names: list[str]) -> Priors:
    """Priors read from the function's source. Names derived from an argument (`q =
    query.strip()`, `data = json.loads(payload)`) are followed within the function."""
    priors = {a: SyntaxPrior() for a in arg_names}
    if fn is None:
        return priors
    try:
        src = textwrap.dedent(inspect.getsource(inspect.unwrap(fn)))
        tree = ast.parse(src)
    except (OSError, TypeError, SyntaxError, IndentationError):
        return priors
    origin: dict[str, str] = {a: a for a in arg_names}  # variable -> argument it derives from
    json_vars: dict[str, str] = {}  # variable holding json.loads(argument) -> argument
    # Two passes so an alias defined after its first textual use in a loop is still known.
    for _ in range(2):
        for node in ast.walk(tree):
            if isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                src_arg = _derives_from(node.value, origin)
                for t in targets:
                    for name in _names(t):
                        if src_arg is None:
                            continue
                        if _is_call_to(node.value, "loads"):
                            json_vars[name] = src_arg
                        else:
                            origin.setdefault(name, src_arg)
    patterns = {k: v.pattern for k, v in getattr(inspect.unwrap(fn), "__globals__", {}).items()
                if isinstance(v, re.Pattern) and isinstance(v.pattern, str)}
    for node in ast.walk(tree):
        _visit(node, origin, json_vars, priors)
        # PATTERN.search(arg) with PATTERN a compiled regular expression of the tool's module
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and isinstance(node.func.value, ast.Name) and node.func.value.id in patterns
                and node.args):
            arg = _derives_from(node.args[0], origin)
            if arg:
                priors[arg].regexes.add(patterns[node.func.value.id])
    return priors


def _visit(node: ast.AST, origin: dict[str, str], json_vars: dict[str, str], priors: Priors) -> None:
    if isinstance(node, ast.Call):
        func = node.func
        if isinstance(func, ast.Attribute):
            arg = _derives_from(func.value, origin)
            slot = _STR_METHODS.get(func.attr)
            if arg and slot:
                for c in _str_consts(node.args[:1]):
                    getattr(priors[arg], slot).add(c)
            # re.match(pattern, arg) / datetime.strptime(arg, fmt)
            if func.attr in ("match", "fullmatch", "search", "findall", "split", "sub") and len(node.args) >= 2:
                target = _derives_from(node.args[-1] if func.attr != "sub" else node.args[2] if len(node.args) > 2 else node.args[-1], origin)
                pats = _str_consts(node.args[:1])
                if target and pats and _is_name(func.value, "re"):
                    priors[target].regexes.update(pats)
            if func.attr == "strptime" and len(node.args) >= 2:
                target = _derives_from(node.args[0], origin)
                if target:
                    priors[target].date_formats.update(_str_consts(node.args[1:2]))
            if func.attr == "get" and isinstance(func.value, ast.Name) and func.value.id in json_vars:
                priors[json_vars[func.value.id]].json_keys.update(_str_consts(node.args[:1]))
        if isinstance(func, ast.Name) and func.id in ("int", "float") and node.args:
            arg = _derives_from(node.args[0], origin)
            if arg:
                priors[arg].casts.add(func.id)
        if _is_call_to(node, "fromisoformat") and node.args:
            arg = _derives_from(node.args[0], origin)
            if arg:
                priors[arg].date_formats.add("%Y-%m-%d")
    elif isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id in json_vars:
        priors[json_vars[node.value.id]].json_keys.update(_str_consts([node.slice]))
    elif isinstance(node, ast.Compare):
        _visit_compare(node, origin, priors)


def _visit_compare(node: ast.Compare, origin: dict[str, str], priors: Priors) -> None:
    left, ops, rights = node.left, node.ops, node.comparators
    # len(arg) < 100, 100 > len(arg)
    for a, b in ((left, rights[0]), (rights[0], left)):
        if isinstance(a, ast.Call) and _is_name(a.func, "len") and a.args:
            arg = _derives_from(a.args[0], origin)
            if arg and isinstance(b, ast.Constant) and isinstance(b.value, int):
                priors[arg].length_bounds.add(b.value)
    arg = _derives_from(left, origin)
    for op, right in zip(ops, rights):
        if arg and isinstance(op, (ast.Eq, ast.NotEq)):
            priors[arg].constants.update(_str_consts([right]))
        if arg and isinstance(op, (ast.In, ast.NotIn)) and isinstance(right, (ast.List, ast.Tuple, ast.Set)):
            priors[arg].constants.update(_str_consts(right.elts))
        rarg = _derives_from(right, origin)
        if rarg and isinstance(op, (ast.In, ast.NotIn)):
            priors[rarg].tokens.update(_str_consts([left]))


def _derives_from(node: ast.AST, origin: dict[str, str]) -> str | None:
    """The argument an expression is built from: a name, a method call, subscript or call on
    it (`arg.strip()`, `arg[0]`, `json.loads(arg)`, `PATTERN.search(arg).group(1)`)."""
    if isinstance(node, ast.Name):
        return origin.get(node.id)
    if isinstance(node, (ast.Attribute, ast.Subscript)):
        return _derives_from(node.value, origin)
    if isinstance(node, ast.Call):
        if isinstance(node.func, ast.Attribute) and not _is_module_ref(node.func.value):
            found = _derives_from(node.func.value, origin)
            if found:
                return found
        for a in node.args:
            found = _derives_from(a, origin)
            if found:
                return found
    if isinstance(node, ast.BinOp):
        return _derives_from(node.left, origin) or _derives_from(node.right, origin)
    return None


def _is_module_ref(node: ast.AST) -> bool:
    return isinstance(node, ast.Name) and node.id in ("json", "re", "datetime", "time", "os", "ast")


def _is_call_to(node: ast.AST, attr: str) -> bool:
    return isinstance(node, ast.Call) and (
        (isinstance(node.func, ast.Attribute) and node.func.attr == attr)
        or (isinstance(node.func, ast.Name) and node.func.id == attr)
    )


def _is_name(node: ast.AST, name: str) -> bool:
    return isinstance(node, ast.Name) and node.id == name


def _names(target: ast.AST) -> list[str]:
    if isinstance(target, ast.Name):
        return [target.id]
    if isinstance(target, (ast.Tuple, ast.List)):
        return [n for e in target.elts for n in _names(e)]
    return []


def _str_consts(nodes: list[ast.AST]) -> set[str]:
    out = set()
    for n in nodes:
        if isinstance(n, ast.Constant) and isinstance(n.value, str) and n.value:
            out.add(n.value)
        elif isinstance(n, (ast.Tuple, ast.List)):
            out |= _str_consts(n.elts)
    return out


# --- the documentation ---------------------------------------------------------------------

_QUOTED = re.compile(r"\"([^\"\n]{1,120})\"|(?<!\w)'([^'\n]{1,120})'(?!\w)")
# A date or time format written for people: YYYY-MM-DD, DD/MM/YYYY, MM/DD/YY, HH:MM
_FORMAT = re.compile(r"\b(?:YYYY|YY|MM|DD)(?:[-/. ](?:YYYY|YY|MM|DD)){1,2}(?:[ T]HH:MM(?::SS)?)?\b|\bHH:MM(?::SS)?\b")
_NUMBER = re.compile(r"(?<![\w.,])-?\d+(?:\.\d+)?(?![\w.,]?\w)")
_ONE_OF = re.compile(r"\bone of ([\w.+-]{1,20}(?:\s*(?:,|\bor\b|\band\b)\s*[\w.+-]{1,20})+)")
_FORMAT_CODES = {"YYYY": "%Y", "YY": "%y", "DD": "%d", "HH": "%H", "SS": "%S"}


def doc_priors(description: str, schema: dict[str, Any]) -> Priors:
    """Priors read from the documentation of each argument: its schema description, and the
    line of the tool's description that names it (`day: the day, e.g. "June 4"`) with the lines
    continuing it. Quoted examples and listed values ("one of DE, FR, IT") become constants,
    and so do the numbers a number's own lines name ("0 to 50; 0 puts them all on one page");
    formats such as DD/MM/YYYY, date formats
    (a format the description states for no argument in particular, "Dates may be written as
    DD/MM/YYYY", is that of every argument that states none of its own; all of it documents a
    tool's only argument)."""
    props = schema.get("properties") or {}
    paragraphs = {arg: arg_paragraph(description or "", arg) for arg in props}
    general = description or ""
    for text in paragraphs.values():
        general = general.replace(text, " ") if text else general
    everyone = stated_formats(general)
    priors: Priors = {}
    for arg, prop in props.items():
        prop = prop if isinstance(prop, dict) else {}
        own = f"{prop.get('description') or ''} {paragraphs[arg]}"
        text = own
        if len(props) == 1:  # the whole description documents the tool's one argument
            text += " " + general
        prior = SyntaxPrior()
        if prop.get("type") in ("integer", "number"):  # the numbers it names: "0 to 50; 0 means all"
            prior.constants.update(_NUMBER.findall(re.sub(r"(?<=\d),(?=\d{3})", "", paragraphs[arg])))
        if prop.get("type", "string") == "string":  # JSON text given whole is one value of it
            structures = json_examples(text)
            prior.constants.update(structures)
            for example in structures:  # not its inner strings: "a" of ["a", "b"] is no value of it
                text = text.replace(example, " ")
        prior.constants.update(a or b for a, b in _QUOTED.findall(text))
        if prop.get("type", "string") == "string":  # the values it lists: "one of DE, FR or IT"
            for listed in _ONE_OF.findall(text):
                prior.constants.update(v.rstrip(".") for v in re.split(r"\s*(?:,|\bor\b|\band\b)\s*", listed))
        # an argument's own format is the more specific: a format stated for no argument in
        # particular fills in only for one that states none (the summary's "prints it
        # DD/MM/YYYY" may be the answer's format, not an input's)
        prior.date_formats.update(stated_formats(own) or stated_formats(text))
        if prop.get("type", "string") == "string" and not prior.date_formats:
            prior.date_formats.update(everyone)
        priors[arg] = prior
    return priors


_OPENS = re.compile(r"[{\[]")


def json_examples(text: str) -> list[str]:
    """The JSON objects and arrays written in documentation (`e.g. {"db": {"hosts": ["a"]}}`),
    as written: each bracket that opens a span `json.loads` reads whole."""
    found: list[str] = []
    decoder = json.JSONDecoder()
    at = 0
    while (m := _OPENS.search(text, at)) is not None:
        try:
            value, end = decoder.raw_decode(text, m.start())
        except ValueError:
            at = m.start() + 1
            continue
        if isinstance(value, (dict, list)) and value:
            found.append(text[m.start():end])
        at = end
    return found


@dataclass(frozen=True)
class Range:
    """The values a number's documentation says it takes: "1 to 1000", "between 8 and 17", "more
    than 0 and at most 30", "from 0 up" (None: no bound on that side)."""
    low: float | None = None
    high: float | None = None
    low_open: bool = False  # "more than 0": 0 itself is not taken
    high_open: bool = False

    def holds(self, value: float) -> bool:
        if self.low is not None and (value < self.low or (self.low_open and value == self.low)):
            return False
        return not (self.high is not None and (value > self.high or (self.high_open and value == self.high)))


_NUM = r"(-?\d+(?:\.\d+)?)"
# (pattern, sets low, sets high, open low, open high): ranges as documentation writes them
_RANGES = [
    (re.compile(rf"(?:between\s+){_NUM}\s+and\s+{_NUM}\b"), True, True, False, False),
    (re.compile(rf"(?:from\s+)?{_NUM}\s*(?:to|through|-|–)\s*{_NUM}\b"), True, True, False, False),
    (re.compile(rf"\b(?:at least|from|no less than|minimum(?: of)?)\s+{_NUM}\b"), True, False, False, False),
    (re.compile(rf"{_NUM}\s+(?:or more|and up|or above|or higher|upwards)\b"), True, False, False, False),
    (re.compile(rf"\b(?:more than|greater than|above)\s+{_NUM}\b"), True, False, True, False),
    (re.compile(rf"\b(?:at most|up to|no more than|maximum(?: of)?)\s+{_NUM}\b"), False, True, False, False),
    (re.compile(rf"{_NUM}\s+(?:or less|or fewer|or below|or lower)\b"), False, True, False, False),
    (re.compile(rf"\b(?:less than|fewer than|below)\s+{_NUM}\b"), False, True, False, True),
]
# A clause that says what is refused ("a count outside 1 to 1000 raises ValueError", "more than 30
# is an error") names the range it refuses: only the other clauses say what is taken.
_REFUSING = re.compile(r"\b(?:raise[sd]?|error|reject(?:s|ed)?|refuse[sd]?|invalid|outside|not)\b", re.I)


def _clauses(text: str) -> list[str]:
    """Sentences and their parts: at ";", brackets and a full stop (not a decimal point)."""
    return re.split(r"[;()]|\.(?:\s|$)", text)


def doc_range(text: str) -> Range | None:
    """The range of values a number's documentation (its lines) says it takes, None when it
    names none. Thousands commas are read as such ("1 to 100,000")."""
    low = high = None
    low_open = high_open = False
    plain = re.sub(r"(?<=\d),(?=\d{3}\b)", "", " ".join(text.split()))
    for clause in _clauses(plain):
        if _REFUSING.search(clause):
            continue
        for pattern, sets_low, sets_high, open_low, open_high in _RANGES:
            for m in pattern.finditer(clause):
                values = [float(v) for v in m.groups()]
                if sets_low and low is None:
                    low, low_open = values[0], open_low
                if sets_high and high is None:
                    high, high_open = values[-1], open_high
    if low is None and high is None:
        return None
    return Range(low, high, low_open, high_open)


def refused_examples(text: str) -> set[str]:
    """The values documentation quotes in a clause saying what is refused ('text such as "n/a"
    raises ValueError'): examples of what the tool does not take."""
    return {a or b for clause in _clauses(" ".join(text.split()))
            if _REFUSING.search(clause) for a, b in _QUOTED.findall(clause)}


def doc_ranges(description: str, schema: dict[str, Any]) -> dict[str, Range]:
    """The documented range of each number argument (`doc_range` of its lines)."""
    out = {}
    for arg, prop in (schema.get("properties") or {}).items():
        prop = prop if isinstance(prop, dict) else {}
        if prop.get("type") in ("integer", "number"):
            found = doc_range(f"{prop.get('description') or ''}. {arg_paragraph(description or '', arg)}")
            if found is not None:
                out[arg] = found
    return out


def arg_paragraph(description: str, arg: str) -> str:
    """The lines of `description` documenting `arg`: from `arg:` (or `arg (type):`) to the next
    such line or a blank one."""
    out: list[str] = []
    for line in description.splitlines():
        named = re.match(r"\s*[*-]?\s*`?(\w+)`?\s*(?:\([^)]*\))?\s*:", line)
        if named:
            if out:
                break
            if named.group(1) == arg:
                out.append(line)
        elif out:
            if not line.strip():
                break
            out.append(line)
    return "\n".join(out)


def stated_formats(text: str) -> dict[str, str]:
    """The date and time formats text states for people (`DD/MM/YYYY`, `YYYY-MM-DD HH:MM`), as
    strftime formats, each with the spelling it was stated in."""
    return {_strftime(m.group()): m.group() for m in _FORMAT.finditer(" ".join(text.split()))}


def _strftime(spec: str) -> str:
    date, _, time = spec.partition("HH:MM")
    fmt = re.sub(r"YYYY|YY|DD|MM", lambda m: _FORMAT_CODES.get(m.group(), "%m"), date)
    return fmt + ("%H:%M" + time.replace(":SS", ":%S") if "HH:MM" in spec else "")


# --- dynamic tainting ----------------------------------------------------------------------


class TaintRecorder:
    """Observations of one tainted call, by argument name. Thread-safe."""

    def __init__(self) -> None:
        self.priors: Priors = {}
        self._lock = threading.Lock()

    def note(self, arg: str, slot: str, value: Any) -> None:
        if not isinstance(value, (str, int)) or value == "":
            return
        with self._lock:
            getattr(self.priors.setdefault(arg, SyntaxPrior()), slot).add(
                str(value) if slot != "length_bounds" else value)


_ACTIVE: contextvars.ContextVar[TaintRecorder | None] = contextvars.ContextVar("masfuzz_taint", default=None)


class TaintStr(str):
    """A string that tells its recorder what the code does with it. Operations that return
    strings return tainted strings, so the taint survives `strip()`, `lower()`, `split()`."""

    __slots__ = ("_arg", "_rec")

    def __new__(cls, value: str, arg: str, rec: TaintRecorder) -> "TaintStr":
        obj = super().__new__(cls, value)
        obj._arg, obj._rec = arg, rec
        return obj

    def _t(self, value: str) -> "TaintStr":
        return TaintStr(value, self._arg, self._rec)

    def _note(self, slot: str, value: Any) -> None:
        self._rec.note(self._arg, slot, value)

    def split(self, sep: Any = None, maxsplit: int = -1) -> list[str]:  # type: ignore[override]
        self._note("separators", sep)
        return [self._t(p) for p in str.split(self, sep, maxsplit)]

    def rsplit(self, sep: Any = None, maxsplit: int = -1) -> list[str]:  # type: ignore[override]
        self._note("separators", sep)
        return [self._t(p) for p in str.rsplit(self, sep, maxsplit)]

    def partition(self, sep: str) -> tuple[str, str, str]:  # type: ignore[override]
        self._note("separators", sep)
        return tuple(self._t(p) for p in str.partition(self, sep))  # type: ignore[return-value]

    def rpartition(self, sep: str) -> tuple[str, str, str]:  # type: ignore[override]
        self._note("separators", sep)
        return tuple(self._t(p) for p in str.rpartition(self, sep))  # type: ignore[return-value]

    def startswith(self, prefix: Any, *a: Any) -> bool:  # type: ignore[override]
        for p in prefix if isinstance(prefix, tuple) else (prefix,):
            self._note("prefixes", p)
        return str.startswith(self, prefix, *a)

    def endswith(self, suffix: Any, *a: Any) -> bool:  # type: ignore[override]
        for p in suffix if isinstance(suffix, tuple) else (suffix,):
            self._note("tokens", p)
        return str.endswith(self, suffix, *a)

    def removeprefix(self, prefix: str) -> str:  # type: ignore[override]
        self._note("prefixes", prefix)
        return self._t(str.removeprefix(self, prefix))

    def find(self, sub: str, *a: Any) -> int:  # type: ignore[override]
        self._note("tokens", sub)
        return str.find(self, sub, *a)

    def index(self, sub: str, *a: Any) -> int:  # type: ignore[override]
        self._note("tokens", sub)
        return str.index(self, sub, *a)

    def __contains__(self, sub: object) -> bool:
        self._note("tokens", sub)
        return str.__contains__(self, sub)  # type: ignore[operator]

    # Comparisons with plain literals reveal expected values (enums, keywords); comparisons
    # between two tainted strings (dict look-ups of the input itself) reveal nothing.
    def __eq__(self, other: object) -> bool:
        if type(other) is str:
            self._note("constants", other)
        return str.__eq__(self, other)

    def __ne__(self, other: object) -> bool:
        if type(other) is str:
            self._note("constants", other)
        return str.__ne__(self, other)

    __hash__ = str.__hash__

    def __int__(self) -> int:
        self._note("casts", "int")
        return int(str(self))

    def __float__(self) -> float:
        self._note("casts", "float")
        return float(str(self))

    def __getitem__(self, key: Any) -> str:  # type: ignore[override]
        return self._t(str.__getitem__(self, key))


def _passthrough(name: str) -> Callable[..., Any]:
    def method(self: TaintStr, *a: Any, **kw: Any) -> Any:
        return self._t(getattr(str, name)(self, *a, **kw))
    method.__name__ = name
    return method


for _m in ("strip", "lstrip", "rstrip", "lower", "upper", "casefold", "title", "capitalize",
           "replace", "expandtabs", "zfill"):
    setattr(TaintStr, _m, _passthrough(_m))


class TaintDict(dict):
    """What `json.loads` of a tainted string returns during a tainted call: records keys read."""

    def __init__(self, data: dict, arg: str, rec: TaintRecorder) -> None:
        super().__init__(data)
        self._arg, self._rec = arg, rec

    def __getitem__(self, key: Any) -> Any:
        self._rec.note(self._arg, "json_keys", key)
        return super().__getitem__(key)

    def get(self, key: Any, default: Any = None) -> Any:
        self._rec.note(self._arg, "json_keys", key)
        return super().get(key, default)

    def __contains__(self, key: object) -> bool:
        self._rec.note(self._arg, "json_keys", key)
        return super().__contains__(key)


def _taint_value(value: Any, arg: str, rec: TaintRecorder) -> Any:
    if isinstance(value, str):
        return TaintStr(value, arg, rec)
    if isinstance(value, dict):
        return TaintDict({k: _taint_value(v, arg, rec) for k, v in value.items()}, arg, rec)
    if isinstance(value, list):
        return [_taint_value(v, arg, rec) for v in value]
    return value


_HOOKS_LOCK = threading.Lock()
_HOOKED = False


def _install_hooks() -> None:
    """Wrap json.loads, re's module functions and strptime once per process. Each wrapper
    looks at the context variable and is a plain pass-through outside a tainted call."""
    global _HOOKED
    with _HOOKS_LOCK:
        if _HOOKED:
            return
        _HOOKED = True
        real_loads = json.loads

        def loads(s: Any, *a: Any, **kw: Any) -> Any:
            if isinstance(s, TaintStr) and _ACTIVE.get() is s._rec:
                # Parse a plain copy (json's own BOM check is not the tool's prior), then taint
                # what comes out: keys read and string values used count for this argument.
                return _taint_value(real_loads(str(s), *a, **kw), s._arg, s._rec)
            return real_loads(s, *a, **kw)

        json.loads = loads
        for fname in ("match", "fullmatch", "search", "findall", "finditer", "split"):
            real = getattr(re, fname)

            def hooked(pattern: Any, string: Any, *a: Any, _real: Any = real, **kw: Any) -> Any:
                if isinstance(string, TaintStr) and _ACTIVE.get() is string._rec:
                    string._note("regexes", getattr(pattern, "pattern", pattern))
                return _real(pattern, string, *a, **kw)

            setattr(re, fname, hooked)
        import _strptime

        for fname in ("_strptime_datetime", "_strptime_time"):
            real = getattr(_strptime, fname, None)
            if real is None:
                continue

            def hooked_strptime(*a: Any, _real: Any = real, **kw: Any) -> Any:
                data, fmt = (a[-2], a[-1]) if len(a) >= 2 else (None, None)
                if isinstance(data, TaintStr) and _ACTIVE.get() is data._rec:
                    data._note("date_formats", fmt)
                return _real(*a, **kw)

            setattr(_strptime, fname, hooked_strptime)


def call_tainted(call: Callable[[dict[str, Any]], Any],
                 arguments: dict[str, Any]) -> tuple[Any, BaseException | None, Priors]:
    """`call(arguments)` with every string argument tainted; (result, exception or None, priors)."""
    _install_hooks()
    rec = TaintRecorder()
    tainted = {k: TaintStr(v, k, rec) if isinstance(v, str) else v for k, v in arguments.items()}
    token = _ACTIVE.set(rec)
    try:
        return call(tainted), None, rec.priors
    except Exception as exc:
        return None, exc, rec.priors
    finally:
        _ACTIVE.reset(token)
