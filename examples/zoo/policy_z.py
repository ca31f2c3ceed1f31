"""The scripted model of the zoo's thirty-seventh set, written apart from the others: an analyst
that works by code.

Use it as `--sut-model scripted/examples/zoo/policy_z.py:policy`. It knows no system of the zoo;
it reads each agent's own instructions line by line, in order, and does the first thing not yet
done (the conversation tells it what is done):

- a code line (one naming Python, with `name = expression` or a bare expression in backticks):
  it writes a short Python block that binds the names the expressions use but do not define
  from the conversation (a number said next to the word, an ISO or day-first date for a name
  ending in day/date, a reference like "AB-1234" for one ending in ref/code/id), runs the
  expressions and prints each name it defines as `name = value`. Where a tool that takes code
  is offered (a `code`, `source` or `snippet` parameter) it calls that tool with the block;
  otherwise it writes the block as a fenced message for the chat's executor. It reads the run's
  report: AG2's "exitcode: N", AgentChat's "exited with an error", a tool's exit code, stdout
  and traceback. After a failed run it fixes the block once (day-first dates made ISO, decimal
  commas made points) and runs it again, only where its instructions say to re-run;
- a tool line (an offered tool named in the line): calls it once, its arguments taken from the
  numbers its own code printed, else from the conversation by each parameter's example or type;
  `... until it says WORD` calls it again while its newest answer lacks WORD;
- a hand-over line (`Pass / hand / send ... to NAME`, NAME an agent it can hand over to,
  optionally `... about A, B or C`): hands over, once, when the topic fits;
- an outcome line (`If the run fails ...`, `If TOOL answers / says / returns A or B ...`): when
  the newest report or answer shows it, says the quoted text that follows;
- a closing line (`Say / Reply / Report / Finish with / Sign off with "TEXT"`): says TEXT once,
  `{name}` in it filled from what its code printed or a tool answered.

It follows its lines literally, a wrong one included, and never knows which twin it is in. A
tool that breaks gets the line its instructions give for that, else a plain sentence of its own
with the numbers it has. As a group chat's selector it picks the first listed role that has not
spoken yet, in the order the selector's prompt gives.
"""

from __future__ import annotations

import ast
import json
import re

from masfuzz.llm.scripted import call, handoff, say

TICK = re.compile(r"`([^`]+)`")
QUOTE = re.compile(r"\"([^\"]+)\"|“([^”]+)”")
BULLET = re.compile(r"^\s*(?:[-*•]|\d+[.)])\s*")
FENCE = re.compile(r"```[ \t]*(?:python|py)?[^\n]*\n(.*?)```", re.S)
EXIT = re.compile(r"exit\s*code\W{0,3}(-?\d+)|exitcode:\s*(-?\d+)|\"?(?:exit_code|returncode)\"?\W{1,3}(-?\d+)", re.I)
PRINTED = re.compile(r"^\s*([A-Za-z_]\w*)\s*=\s*(.+?)\s*$", re.M)
ISO = re.compile(r"\b\d{4}-\d{2}-\d{2}\b")
DAYFIRST = re.compile(r"\b(\d{1,2})[/.](\d{1,2})[/.](\d{4})\b")
REF = re.compile(r"\b[A-Z]{1,4}-\d{2,6}\b")
NUMBER = r"(\d+(?:[.,]\d+)?)"
CODE_PARAMS = ("code", "source", "snippet", "script")
SAY = re.compile(r"^\s*(?:say|reply|report|answer|finish with|sign off with|close with|end with|write)\b", re.I)
IF = re.compile(r"^\s*(?:if|when|should)\b", re.I)
HAND = re.compile(r"\b(?:pass|hand|send|route|transfer|forward)\b", re.I)
ABOUT = re.compile(r"\babout\s+(.+?)(?:[.;]|$)", re.I)
UNTIL = re.compile(r"\buntil\b.*?\b(?:says?|shows?|reads?|returns?|answers?)\s+[\"'`]?([\w-]+)", re.I)
RELAY = re.compile(r"^\s*(?:pass on|relay|give back|hand back)\b", re.I)
RERUN = re.compile(r"\b(?:re-?run|run it again|try again)\b", re.I)
FAILED_RUN = re.compile(r"\b(?:run|code|script|check)\b[^\"]*\b(?:fails?|failed|errors?|crash\w*|non-zero|traceback)", re.I)
KNOWN = {"round", "int", "float", "str", "abs", "min", "max", "sum", "len", "print", "date", "datetime",
         "timedelta", "re", "math", "divmod", "sorted", "True", "False", "None", "range"}


# --- reading the request -------------------------------------------------------------------


def prompt_of(request) -> str:
    return "\n".join(m.content or "" for m in request.messages if m.role == "system")


def mine(request) -> list[str]:
    return [m.content or "" for m in request.messages if m.role == "assistant"]


def reports(request) -> list[str]:
    """Every executor's report in the conversation, oldest first: a message or tool answer that
    gives an exit code (or AgentChat's "The script ran"), or a colleague's message right after
    a fenced block (an AgentChat executor answers a clean run with its bare output)."""
    out, before = [], ""
    for m in request.messages:
        if m.role == "system":
            continue
        text = m.content or ""
        if m.role in ("user", "tool") and text and (
                EXIT.search(text) or text.lstrip().startswith("The script ran")
                or (m.role == "user" and FENCE.search(before) and not FENCE.search(text))):
            out.append(text)
        before = text
    return out


def heard(request) -> str:
    """What the others said (the customer, colleagues), reports left out."""
    return "\n".join(m.content or "" for m in request.messages if m.role == "user" and m.content
                     and not EXIT.search(m.content))


def conversation(request) -> str:
    return "\n".join(m.content or "" for m in request.messages if m.role != "system")


def exit_code(report: str) -> int:
    data = leaves(loaded(report))
    for key in ("exit_code", "exitcode", "returncode", "code"):
        if data.get(key, "").lstrip("-").isdigit():
            return int(data[key])
    found = EXIT.search(report)
    if found:
        return int(next(g for g in found.groups() if g is not None))
    return 1 if re.search(r"Traceback|Error:", report) else 0


def plain(report: str) -> str:
    """A report as text: a tool's dict (JSON or a Python repr) gives its output fields."""
    data = loaded(report)
    if isinstance(data, (dict, list, tuple)):
        return "\n".join(leaves(data).values())
    return report


def error_line(report: str) -> str:
    """The last line of a failed run's output (a traceback's exception)."""
    found = [ln.strip() for ln in plain(report).splitlines() if ln.strip()]
    return found[-1] if found else "no output"


def printed(request) -> dict[str, str]:
    """`name = value` lines the runs printed (the newest wins)."""
    out: dict[str, str] = {}
    tool = code_tool(request)
    for report in reports(request) + (answers(request, tool[0]) if tool else []):
        if exit_code(report) != 0:
            continue
        report = plain(report)
        for name, value in PRINTED.findall(re.sub(r"(?:Code output|stdout|Its output was)\W*", "\n", report)):
            out[name] = value.strip().strip("'\"")
    return out


def answers(request, tool: str) -> list[str]:
    names = {c.id: c.name for m in request.messages if m.role == "assistant" for c in m.tool_calls}
    return [m.content or "" for m in request.messages
            if m.role == "tool" and (m.name == tool or names.get(m.tool_call_id or "") == tool)]


def called(request, tool: str) -> int:
    return sum(c.name == tool for m in request.messages if m.role == "assistant" for c in m.tool_calls)


def offered(request) -> dict:
    return {t.name: t for t in request.tools}


def handed(request, agent: str) -> bool:
    """Whether this agent already handed over to `agent` (its own earlier hand-over call)."""
    tools = {t.name for t in request.tools if t.handoff_to == agent or t.name == f"transfer_to_{agent}"}
    tools.add(f"transfer_to_{agent}")
    return any(c.name in tools for m in request.messages if m.role == "assistant" for c in m.tool_calls)


def targets(request) -> dict[str, str]:
    out = {}
    for t in request.tools:
        agent = t.handoff_to or (t.name.removeprefix("transfer_to_") if t.name.startswith("transfer_to_") else None)
        if agent:
            out[agent.lower()] = agent
            out[t.name.removeprefix("transfer_to_").lower()] = agent
    return out


# --- writing code --------------------------------------------------------------------------


def fragments(line: str) -> list[str]:
    out = []
    for piece in TICK.findall(line):
        try:
            ast.parse(piece)
        except SyntaxError:
            continue
        if re.search(r"[=()*/+\-]", piece):
            out.append(piece)
    return out


def free_names(pieces: list[str]) -> list[str]:
    bound, used = set(), []
    for piece in pieces:
        tree = ast.parse(piece)
        for node in ast.walk(tree):
            if isinstance(node, ast.Name):
                if isinstance(node.ctx, ast.Store):
                    bound.add(node.id)
                elif node.id not in bound and node.id not in KNOWN and node.id not in used:
                    used.append(node.id)
            elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
                pass
    return [n for n in used if n not in bound]


def value_for(name: str, text: str, fix: bool):
    low = name.lower()
    if low.endswith(("day", "date")):
        iso = ISO.search(text)
        if iso:
            return iso.group(0)
        day = DAYFIRST.search(text)
        if day:
            d, m, y = day.groups()
            return f"{y}-{int(m):02d}-{int(d):02d}" if fix else day.group(0)
        return None
    if low.endswith(("ref", "code", "id")):
        found = REF.search(text)
        return found.group(0) if found else None
    word = re.escape(low.split("_")[-1][:5])
    for pattern in (NUMBER + r"\s+(?:[\w-]+\s+){0,2}?" + word, word + r"\w*\W{1,4}(?:[£€$])?" + NUMBER,
                    r"(?:[£€$])" + NUMBER + r"[^.]{0,30}?" + word):
        found = re.search(pattern, text, re.I)
        if found:
            raw = found.group(1)
            if "," in raw and fix:
                raw = raw.replace(",", ".")
            if "," in raw:
                return raw
            return float(raw) if "." in raw else int(raw)
    return None


def given(name: str, prompt: str, heard_value):
    """A value the conversation gave, else one the instructions fix by the name itself
    ("with seats_left 60")."""
    if heard_value is not None:
        return heard_value
    found = re.search(rf"\b{re.escape(name)}\b\s*(?:is|of|=|:)?\s*{NUMBER}", prompt.replace("`", ""))
    if found and not re.search(rf"\b{re.escape(name)}\b\s*[-+*/]", prompt):
        raw = found.group(1)
        return float(raw) if "." in raw else int(raw)
    return None


def snippet(line: str, request, fix: bool) -> str:
    pieces = fragments(line)
    text = heard(request)
    head = []
    body = " ".join(pieces)
    if "timedelta" in body:
        head.append("from datetime import date, timedelta")
    elif "date" in body:
        head.append("from datetime import date")
    if "math." in body:
        head.append("import math")
    binds = [f"{n} = {given(n, prompt_of(request), value_for(n, text, fix))!r}" for n in free_names(pieces)]
    lines = head + binds
    shown = []
    for piece in pieces:
        tree = ast.parse(piece)
        if isinstance(tree.body[0], ast.Assign):
            lines.append(piece)
            shown += [t.id for t in tree.body[0].targets if isinstance(t, ast.Name)]
        else:
            lines.append(f"print({piece})")
    lines += [f"print(f\"{n} = {{{n}}}\")" for n in free_names(pieces) + shown]
    return "\n".join(lines)


def code_tool(request):
    for t in request.tools:
        props = (t.parameters or {}).get("properties", {})
        for p in props:
            if p.lower() in CODE_PARAMS:
                return t.name, p
    return None


def run(line: str, request, fix: bool):
    code = snippet(line, request, fix)
    tool = code_tool(request)
    if tool:
        return call(tool[0], **{tool[1]: code})
    opener = "Let me re-run it with the inputs cleaned up:" if fix else "Let me work this out in Python:"
    return say(f"{opener}\n```python\n{code}\n```")


def runs_done(request) -> int:
    tool = code_tool(request)
    if tool:
        return called(request, tool[0])
    return sum(bool(FENCE.search(t)) for t in mine(request))


def last_report(request) -> str | None:
    tool = code_tool(request)
    if tool:
        got = answers(request, tool[0])
        return got[-1] if got else None
    got = reports(request)
    return got[-1] if got else None


# --- filling a tool's arguments ------------------------------------------------------------


def example_of(description: str) -> str | None:
    found = re.search(r"(?:like|e\.g\.|such as|for example)\s*[\"']([^\"']+)[\"']", description or "")
    return found.group(1) if found else None


def shaped(example: str) -> re.Pattern:
    out = ""
    for ch in example:
        out += r"\d" if ch.isdigit() else "[A-Z]" if ch.isupper() else "[a-z]" if ch.islower() else re.escape(ch)
    out = re.sub(r"(\[a-z\])+", "[a-z]+", out)
    return re.compile(r"(?<![\w'])" + out.replace(r"\d\d\d\d", r"\d{4}"))


def of_type(kind: str | None, raw: str):
    """A value found by an example's shape, sent as the schema's type: an integer parameter whose
    example is quoted ("e.g. \"2\"") still takes a number."""
    number = re.search(r"-?\d+(?:[.,]\d+)?", raw) if kind in ("integer", "number") else None
    if number is None:
        return raw
    value = float(number.group(0).replace(",", "."))
    return int(value) if kind == "integer" else value


def argument(name: str, spec: dict, request, computed: dict[str, str]):
    kind = spec.get("type")
    if name in computed:
        raw = computed[name]
        try:
            return int(raw) if kind == "integer" else float(raw) if kind == "number" else raw
        except ValueError:
            return raw
    text = heard(request)
    if spec.get("enum"):
        return next((o for o in spec["enum"] if str(o).lower() in text.lower()), spec["enum"][0])
    example = example_of(spec.get("description", ""))
    if example and example.lower() in text.lower():
        at = text.lower().index(example.lower())
        return of_type(kind, text[at:at + len(example)])
    if example:
        found = [m.group(0) for m in shaped(example).finditer(conversation(request))]
        words = re.findall(r"[a-z]{3,}", example.lower())  # "12 bore": a match that says bore first
        if found:
            return of_type(kind, next((f for f in found if any(w in f.lower() for w in words)), found[0]))
    found = value_for(name, text, fix=False)
    if kind in ("integer", "number") and found is not None:
        try:
            return int(found) if kind == "integer" else float(str(found).replace(",", "."))
        except ValueError:
            pass
    if found is not None and kind == "string":
        return str(found)
    if kind == "integer":
        return 1
    if kind == "number":
        return 0.0
    return " ".join(text.split())[:1500]


def arguments(tool, request) -> dict:
    computed = printed(request)
    props = (tool.parameters or {}).get("properties", {})
    return {n: argument(n, s, request, computed) for n, s in props.items()}


# --- the steps -----------------------------------------------------------------------------


def loaded(content: str):
    """A tool's answer as data (JSON or a Python repr), else the text itself."""
    for load in (json.loads, ast.literal_eval):
        try:
            return load(content)
        except (ValueError, SyntaxError):
            continue
    return content


def leaves(data) -> dict[str, str]:
    """Every named scalar of a nested answer (dicts inside tuples and lists too)."""
    out: dict[str, str] = {}
    if isinstance(data, dict):
        for k, v in data.items():
            if isinstance(v, (dict, list, tuple)):
                out.update(leaves(v))
            else:
                out[str(k)] = str(v)
    elif isinstance(data, (list, tuple)):
        for item in data:
            out.update(leaves(item))
    return out


def fill(text: str, request) -> str:
    values = printed(request)
    report = last_report(request)
    if report is not None and exit_code(report) != 0:
        values["error"] = error_line(report)
    for m in request.messages:
        if m.role == "tool" and m.content:
            values.update(leaves(loaded(m.content)))

    def put(found):
        key = found.group(1)
        if key not in values:
            return found.group(0)
        value = values[key]
        try:
            return f"{float(value):.2f}" if "." in value else value
        except ValueError:
            return value
    return re.sub(r"\{(\w+)\}", put, text)


def quoted(line: str) -> str | None:
    found = QUOTE.search(line)
    return (found.group(1) or found.group(2)) if found else None


def holds(line: str, request, tools: dict) -> bool:
    """Whether an outcome line's condition shows in the newest report or answer."""
    if FAILED_RUN.search(line.split('"')[0]):
        report = last_report(request)
        return report is not None and exit_code(report) != 0
    named = [n for n in tools if re.search(rf"\b{re.escape(n)}\b", line)]
    head = line.split('"')[0]
    words = re.findall(r"\b(?:answers?|says?|returns?|reports?|gives?|shows?)\s+(.+?)(?:,\s*(?:say|reply|tell|explain)\b|$)",
                       head, re.I)
    if not named or not words:
        return False
    got = answers(request, named[0])
    if not got:
        return False
    wanted = [w.strip(" '`") for w in re.split(r"\s+or\s+|,\s*", words[0]) if w.strip(" '`")]
    return any(w.lower() in got[-1].lower() for w in wanted)


def topical(line: str, request) -> bool:
    about = ABOUT.search(line.split('"')[0])
    if not about:
        return True
    stems = {w[:5] for w in re.findall(r"[a-z]{3,}", about.group(1).lower()) if w not in ("with", "from", "and", "the", "any")}
    text = heard(request).lower()
    return any(s in text for s in stems)


def act(request):
    tools = offered(request)
    hands = targets(request)
    said = mine(request)
    for raw in prompt_of(request).splitlines():
        line = BULLET.sub("", raw).strip()
        if not line:
            continue
        head = line.split('"')[0]
        if IF.match(line):
            text = quoted(line)
            if text and holds(line, request, tools):
                text = fill(text, request)
                if text in said:
                    return say("Nothing more from me on this.")
                return say(text)
            continue
        if "python" in head.lower() and fragments(line):
            done = runs_done(request)
            report = last_report(request)
            if done == 0:
                return run(line, request, fix=False)
            if report is None:
                return say("Waiting for the run's output.")
            if exit_code(report) != 0 and done == 1 and RERUN.search(prompt_of(request)):
                return run(line, request, fix=True)
            continue
        names = [n for n in tools if not tools[n].handoff_to and not n.startswith("transfer_to_")
                 and re.search(rf"(?<![\w-]){re.escape(n)}(?![\w-])", head)]
        if RELAY.match(line) and names:
            got = answers(request, names[0])
            if got and got[-1] not in said:
                return say(got[-1])
            continue
        if names and not any(n == (code_tool(request) or ("",))[0] for n in names):
            tool = tools[names[0]]
            got = answers(request, tool.name)
            until = UNTIL.search(head)
            if not called(request, tool.name) or (until and got and until.group(1).lower() not in got[-1].lower()):
                return call(tool.name, **arguments(tool, request))
            continue
        if HAND.search(head):
            who = [hands[w.lower()] for w in re.findall(r"[\w-]+", head) if w.lower() in hands]
            if who and topical(line, request) and not handed(request, who[0]):
                return handoff(who[0])
            continue
        if SAY.match(line):
            text = quoted(line)
            if text:
                text = fill(text, request)
                if text not in said:
                    return say(text)
            continue
    return say(closing(request))


def closing(request) -> str:
    values = printed(request)
    if values:
        shown = ", ".join(f"{k} {v}" for k, v in list(values.items())[:3])
        return f"Figures as computed: {shown}. Nothing further from me."
    return "Nothing further from me."


def select(request):
    """A group chat's selector: the first role of the prompt's order that has not spoken."""
    text = "\n".join(m.content or "" for m in request.messages)
    order = re.search(r"(?:order|sequence)[^:\n]*:\s*([^\n]+)", text, re.I)
    history = text.split("onversation so far", 1)[-1] if "onversation so far" in text else text
    spoke = set(re.findall(r"^(\w+)\s*:", history, re.M))
    roles = re.findall(r"^(\w+)\s*:", text.split("onversation so far")[0], re.M)
    names = [n.strip(" .") for n in re.split(r",|\bthen\b|->", order.group(1))] if order else roles
    names = [n for n in names if n]
    for name in names:
        if name not in spoke:
            return say(name)
    return say(names[-1] if names else "")


def policy(request):
    if request.agent == "selector":
        return select(request)
    return act(request)
