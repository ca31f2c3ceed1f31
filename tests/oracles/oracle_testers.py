"""Scripted tester models for FLARE's Failure Agent and Judge Agent.

They answer from what a real model is sent: who is asking (`request.agent`), the specification's
clause ids, the rendered event log, the findings to verify and the judge's earlier verdicts. So a
test fails when the prompt loses what the answer depends on.
"""

from __future__ import annotations

import ast
import json
import re

from masfuzz.errors import ModelCallFailed
from masfuzz.llm.types import ChatRequest

END = re.compile(r"ending the workflow|TERMINATE", re.I)
# a Python string literal as `EventLog.render` writes an excerpt: 'text' or "text"
LITERAL = r"(?:first|middle|last) \[\d+\] ('(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\")"
NOT_SAID = "The director said TERMINATE and the team stopped at once."


# --- reading the request ---------------------------------------------------------------------------

def section(request: ChatRequest, title: str) -> str:
    """The text of one `## title` section of the prompt ('' if absent)."""
    text = request.messages[-1].content or ""
    m = re.search(rf"^## {re.escape(title)}.*?\n(.*?)(?=^## |\Z)", text, re.M | re.S)
    return m.group(1) if m else ""


def clause(request: ChatRequest, prefix: str, *words: str) -> str:
    """The id of the first clause starting with `prefix` whose line has all `words`."""
    for cid, line in re.findall(r"^\[([^\]]+)\] (.*)$", section(request, "Specification"), re.M):
        if cid.startswith(prefix) and all(w in line for w in words):
            return cid
    return ""


def utterances(request: ChatRequest) -> list[tuple[str, str]]:
    """(agent, sentence) for every utterance excerpt in the log."""
    out = []
    for agent, rest in re.findall(r"^  (\w+): (first \[.*)$", section(request, "Execution log"), re.M):
        for literal in re.findall(LITERAL, rest):
            out.append((agent, ast.literal_eval(literal)))
    return out


def dead_loop(request: ChatRequest) -> bool:
    return "dead loop: yes" in section(request, "Execution log")


def announcement(request: ChatRequest) -> tuple[str, str] | None:
    """The last (agent, sentence) that announces the end, if the run nonetheless went on."""
    said = [(a, s) for a, s in utterances(request) if END.search(s)]
    return said[-1] if said and dead_loop(request) else None


def findings(request: ChatRequest) -> list[tuple[int, dict]]:
    """The numbered findings to verify, as the judge prompt lists them."""
    out = []
    for n, line in re.findall(r"^\[(\d+)\] (category=.*)$", section(request, "Findings to verify"), re.M):
        fields = {k: re.search(rf"\b{k}=([^,]+)", line).group(1)
                  for k in ("category", "clause", "root_cause")}
        quote = re.search(r'quote=("(?:[^"\\]|\\.)*")', line)
        fields["quote"] = json.loads(quote.group(1)) if quote else ""
        out.append((int(n), fields))
    return out


def judged_incorrect(request: ChatRequest) -> list[str]:
    """The clauses of the previous findings the judge called INCORRECT."""
    verdicts = section(request, "The judge's verdicts on your previous findings")
    return re.findall(r"^\[\d+\] INCORRECT:.*?clause=([^,]+),", verdicts, re.M)


def answer(violations: list[dict]) -> str:
    return json.dumps({"step1_distinction": "compared the log with the clauses",
                       "step2_verification": "checked each against its clause",
                       "violations": violations})


def verdicts(items: list[tuple[int, str, str]]) -> str:
    return json.dumps({"step1_distinction": "located each quoted segment",
                       "step2_verification": "checked it against the cited clause",
                       "verdicts": [{"finding": n, "verdict": v, "reason": r} for n, v, r in items],
                       "omissions": ""})


# --- failure agents --------------------------------------------------------------------------------

def termination_violation(request: ChatRequest, quote: str | None = None, reason: str = "",
                          elements: list[str] | None = None) -> list[dict]:
    """The director bug, as the log shows it: the end was announced, the run went on."""
    said = announcement(request)
    if said is None:
        return []
    agent, sentence = said
    return [{"category": "system_termination", "clause": clause(request, "term::", "termination"),
             "root_cause": "Termination Condition Violation", "elements": elements or [agent],
             "quote": quote or sentence,
             "reason": reason or f"{agent} announced the end but the run went on to its bound"}]


def repeated_script(request: ChatRequest) -> list[dict]:
    """The script writer writing a second take after the video was done (quoted from the log's
    tool arguments, where the second take appears)."""
    take = re.search(r"'text': '(Script \(take 2\)[^.]*)", section(request, "Execution log"))
    writer = clause(request, "task::script_writer::", "answer")
    if not take or not writer:
        return []
    return [{"category": "agent_task_execution", "clause": writer,
             "root_cause": "Repetitive Execution of Completed Tasks", "elements": ["script_writer"],
             "quote": take.group(1), "reason": "the script was rewritten after the video was rendered"}]


def reporter(request: ChatRequest) -> str:
    """One real violation and one quoting a sentence nobody said."""
    if request.agent == "judge-agent":
        return fair_judge(request)
    invented = {"category": "agent_relationship", "clause": clause(request, "rel::"),
                "root_cause": "Violation of Relationships-based Speaking Order",
                "elements": ["director", "voice_actor"], "quote": NOT_SAID,
                "reason": "the director closed before the voice actor spoke"}
    return answer(termination_violation(request) + [invented])


def three_ways(request: ChatRequest) -> str:
    """The same violation worded three ways: three quotes, three reasons, elements reordered."""
    if request.agent == "judge-agent":
        return fair_judge(request)
    said = announcement(request)
    if said is None:
        return answer([])
    agent = said[0]
    first = next(s for a, s in utterances(request) if a == agent)
    path = re.search(r"= ok: (\S+video-\S+\.json)", section(request, "Execution log")).group(1)
    wordings = [(None, "the workflow was never closed", [agent, "render_video"]),
                (first, "the video was done yet the team kept going", ["render_video", agent]),
                (path, "after the final render the conversation continued", [agent, "render_video", agent])]
    return answer([v for q, why, els in wordings for v in termination_violation(request, q, why, els)])


def withdrawing(request: ChatRequest) -> str:
    """Reports the termination violation and a repeated script; withdraws what the judge called
    INCORRECT."""
    if request.agent == "judge-agent":
        return doubting_judge(request)
    wrong = judged_incorrect(request)
    found = termination_violation(request) + repeated_script(request)
    return answer([f for f in found if f["clause"] not in wrong])


def stubborn(request: ChatRequest) -> str:
    """Reports the same two findings whatever the judge said."""
    if request.agent == "judge-agent":
        return doubting_judge(request)
    return answer(termination_violation(request) + repeated_script(request))


def malformed_once(request: ChatRequest) -> str:
    """Prose on the first try; the retry (sampled, temperature raised) answers properly."""
    if request.agent == "judge-agent":
        return fair_judge(request)
    if not request.temperature:
        return "The director announced the end of the workflow, so there is a violation."
    return answer(termination_violation(request))


def always_malformed(request: ChatRequest) -> str:
    if request.agent == "judge-agent":
        return fair_judge(request)
    return json.dumps({"violations": "the director never closed the workflow"})


def failing_judge(request: ChatRequest) -> str:
    if request.agent == "judge-agent":
        raise ModelCallFailed("tester/judge: no reply within 30s")
    return answer(termination_violation(request))


# --- judges ----------------------------------------------------------------------------------------

def fair_judge(request: ChatRequest) -> str:
    """CORRECT when the quote is in the log it was sent and the clause in its specification."""
    log, spec = section(request, "Execution log"), section(request, "Specification")
    out = []
    for n, f in findings(request):
        ok = f["quote"].lower() in log.lower() and f"[{f['clause']}]" in spec
        out.append((n, "CORRECT" if ok else "INCORRECT", "the quoted segment shows it" if ok
                    else "the quote is not in the log"))
    return verdicts(out)


def doubting_judge(request: ChatRequest) -> str:
    """Revising a script is allowed in free-form dialogue: a repetition finding is INCORRECT."""
    out = []
    for n, f in findings(request):
        if f["root_cause"].startswith("Repetitive"):
            out.append((n, "INCORRECT", "a second take is an allowed revision, not a repeated task"))
        else:
            out.append((n, "CORRECT", "the end was announced and the run went on"))
    return verdicts(out)


def proposal_judge(request: ChatRequest) -> str:
    """Judges the detectors' proposals from the log it is sent: a finding is CORRECT when its
    quote is in the log, except a lost-fact finding whose quote itself names an identifier (the
    agent that asks "confirm the booking ABC123?" had the fact: nothing was lost)."""
    log = section(request, "Execution log")
    out = []
    for n, f in findings(request):
        if f["quote"].lower() not in log.lower():
            out.append((n, "INCORRECT", "the quote is not in the log"))
        elif f["root_cause"].startswith("Information Loss") and re.search(r"\b[A-Z]{2,}-?\d+\b|\b[A-Z0-9]{6}\b",
                                                                           f["quote"]):
            out.append((n, "INCORRECT", "the agent names the value it asks about: it received it"))
        else:
            out.append((n, "CORRECT", "the log shows it"))
    return verdicts(out)


def campaign_tester(request: ChatRequest):
    """A `fuzz` or `run` campaign's tester whose judge agent is `proposal_judge`: the failure
    agent reports nothing (so every verdict is on a detector's proposal) and every other request
    (the structural phase's realizer) gets the generic template tester's answer."""
    from masfuzz.generate.generic_tester import policy as template

    if request.agent == "judge-agent":
        return proposal_judge(request)
    if request.agent == "failure-agent":
        return json.dumps({"violations": []})
    return template(request)
