"""A scripted tester for `judge --chat --model`: the failure agent compares what the agents
said with the expected final answer its prompt carries (none given: nothing to compare, nothing
reported); the judge confirms a finding whose quote is in the log and states a number other
than the expected one. Both read only what a real model is sent, so a prompt that loses the
expected answer or the log makes the test fail."""

from __future__ import annotations

import re

import ast

from tests.oracles.oracle_testers import answer, clause, findings, section, verdicts

NUMBER = re.compile(r"\b\d+\b")
# an excerpt as `EventLog.render` writes it: its event, then the text as a Python literal
EXCERPT = r"(?:first|middle|last) \[(\d+)\] ('(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\")"


def said_in_order(request) -> list[tuple[int, str, str]]:
    """(event, agent, sentence) of every utterance excerpt in the log, earliest first."""
    out = []
    for agent, rest in re.findall(r"^  (\w+): (first \[.*)$", section(request, "Execution log"), re.M):
        for event, literal in re.findall(EXCERPT, rest):
            out.append((int(event), agent, ast.literal_eval(literal)))
    return sorted(out)


def _expected(request) -> str:
    return section(request, "Expected final answer").strip()


def policy(request):
    expected = _expected(request)
    if request.agent == "judge-agent":
        log = section(request, "Execution log").lower()
        return verdicts([(n, "CORRECT", "the quote states another number than the expected answer")
                         if f["quote"].lower() in log and expected and
                         set(NUMBER.findall(f["quote"])) - {expected} else
                         (n, "INCORRECT", "no wrong number in the log") for n, f in findings(request)])
    if not expected:
        return answer([])
    out = []
    for _, agent, sentence in said_in_order(request):
        if set(NUMBER.findall(sentence)) - {expected}:
            out.append({"category": "agent_task_execution",
                        "clause": clause(request, f"task::{agent}::", "answer"),
                        "root_cause": "Prompt and Instruction Deviation", "elements": [agent],
                        "quote": sentence, "reason": f"{agent} states a number that is not {expected}"})
            break  # the first agent that said a wrong number
    return answer(out)
