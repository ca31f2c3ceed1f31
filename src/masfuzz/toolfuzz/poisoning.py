"""Tool poisoning: a tool's documentation that carries instructions to the model.

An agent reads every tool's description and argument descriptions as trusted context, so a
tool (an MCP server's above all, installed from anywhere) can steer the agent through them:
a hidden directive ("<IMPORTANT> ... do not tell the user"), an ask to read files (~/.ssh,
.env, credentials) or to send data (put a file's content into an argument, post it to an
address), or instructions about other tools ("when the send_email tool is used, always ...").
None of that is documentation of what the tool does. This check reads the text an agent sees,
before any call, and reports each such passage quoted, as a finding class of its own
(`kind: poisoning`), for any kind of tool.

The patterns are deliberately about instructions to the model and hidden text, not about
topics: a file tool that says it "reads a file" is documenting itself; one that asks the model
to read ~/.ssh/id_rsa "first" is not.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import asdict, dataclass
from typing import Any

# Characters a reader does not see but a model reads: zero-width, bidirectional controls, the
# Unicode tag block (invisible copies of ASCII).
_INVISIBLE = re.compile("[\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff\U000e0000-\U000e007f]")
_SENSITIVE = (r"(~/|\$HOME|/home/|/root/|\.ssh|id_rsa|id_ed25519|\.env\b|/etc/passwd|/etc/shadow|"
              r"\.aws|\.npmrc|\.netrc|\.git-credentials|credentials|private key|secret|api[ _-]?keys?|"
              r"passwords?|tokens?|mcp\.json|cursor/|claude_desktop_config)")
PATTERNS: list[tuple[str, re.Pattern[str]]] = [
    ("hidden directive", re.compile(
        r"<\s*/?\s*(important|system|instructions?|secret|hidden|admin)\s*>|\[/?INST\]|<!--.*?-->|"
        r"\bignore (all |any )?(the )?(previous|prior|above|earlier|other) (instructions|rules|prompts?)|"
        r"\b(do not|don't|never) (tell|mention|inform|reveal|show|disclose)\b[^.]{0,40}\b(user|anyone|this)|"
        r"\bwithout (telling|informing|asking|notifying) the user|"
        r"\b(the user|they) (must|should) (not|never) (know|see|be told)|"
        r"\b(this|it) is (very |extremely )?(important|critical) (that|to)\b|"
        r"\byou (must|have to|are required to) (first|always|also)\b", re.I | re.S)),
    ("reads files", re.compile(
        r"\b(read|open|cat|load|access|fetch|get|include|attach|look at)s?\b[^.\n]{0,60}" + _SENSITIVE,
        re.I)),
    ("sends data", re.compile(
        r"\b(send|forward|upload|post|transmit|exfiltrate|email|copy)s?\b[^.\n]{0,80}\b(to|at)\s+"
        r"(https?://\S+|\S+@\S+\.\w+)|"
        r"\b(pass|put|place|include|add|append|embed)\b[^.\n]{0,40}\b(content|contents|value|text|data|"
        r"output|result)s?\b[^.\n]{0,40}\b(in|into|as|inside)\b[^.\n]{0,30}\b(parameter|argument|field|"
        r"sidenote|note|metadata)\b", re.I)),
    ("other tools", re.compile(
        r"\b(when|whenever|before|after|instead of)\b[^.\n]{0,30}\b(using|calling|invoking|running|"
        r"you use|you call)\b[^.\n]{0,30}\b(any|every|all|other|another|the \w+) tools?\b|"
        r"\b(all|any|every|other) tools? (must|should|have to)\b", re.I)),
]


@dataclass(frozen=True)
class Poisoning:
    kind: str  # hidden directive | reads files | sends data | other tools | hidden text
    where: str  # "description" or "argument NAME"
    quote: str  # the sentence that carries it, as the model reads it

    def to_dict(self) -> dict[str, str]:
        return asdict(self)


def check(name: str, description: str, schema: dict[str, Any],
          other_tools: list[str] | tuple[str, ...] = ()) -> list[Poisoning]:
    """The poisoned passages of one tool's documentation (description, argument
    descriptions); `other_tools` are the names of the tools beside it, whose mention with an
    instruction is one too."""
    found: list[Poisoning] = []
    texts = [("description", description or "")]
    for arg, prop in (schema.get("properties") or {}).items():
        if isinstance(prop, dict) and isinstance(prop.get("description"), str):
            texts.append((f"argument {arg}", prop["description"]))
    others = [o for o in other_tools if o and o != name]
    mentions = re.compile(r"\b(" + "|".join(map(re.escape, others)) + r")\b") if others else None
    for where, text in texts:
        hidden = _INVISIBLE.findall(text)
        if hidden:
            names = sorted({unicodedata.name(c, f"U+{ord(c):04X}") for c in hidden})
            found.append(Poisoning("hidden text", where, f"{len(hidden)} invisible character(s) "
                                   f"({', '.join(names[:4])}): {_visible(text)[:300]}"))
        seen: set[str] = set()
        for kind, pattern in PATTERNS:
            for match in pattern.finditer(text):
                quote = _sentence(text, match.start(), match.end())
                if (kind, quote) not in seen:
                    seen.add((kind, quote))  # type: ignore[arg-type]
                    found.append(Poisoning(kind, where, quote))
        if mentions is not None:
            for match in mentions.finditer(text):
                quote = _sentence(text, match.start(), match.end())
                if re.search(r"\b(must|always|never|instead|before|after|when|whenever|first|do not|don't)\b",
                             quote, re.I) and ("other tools", quote) not in seen:
                    seen.add(("other tools", quote))  # type: ignore[arg-type]
                    found.append(Poisoning("other tools", where, quote))
    return found


_SENTENCE_END = re.compile(r"[.!?](?=\s|$)|\n")


def _sentence(text: str, start: int, end: int, limit: int = 300) -> str:
    """The sentence (or line) around a match, quoted as the model reads it."""
    ends = [m.end() for m in _SENTENCE_END.finditer(text)]  # a "." inside ~/.ssh ends nothing
    left = max([e for e in ends if e <= start], default=0)
    right = min([e for e in ends if e >= end], default=len(text))
    quote = " ".join(_visible(text[left:right]).split())
    return quote if len(quote) <= limit else quote[:limit - 3] + "..."


def _visible(text: str) -> str:
    """Invisible characters shown as their code points, so the quote shows what is hidden."""
    return _INVISIBLE.sub(lambda m: f"<U+{ord(m.group(0)):04X}>", text)
