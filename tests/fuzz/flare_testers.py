"""Scripted tester models for FLARE's Specification Agent, Space Agent and behaviour mapping.

Each reads what a real model is sent (the prompt's agent lines and notes, the response schema's
enums, the turn shown) and answers from it, so a test fails when the request loses what the
answer depends on.
"""

from __future__ import annotations

import json
import re

from masfuzz.llm.types import ChatRequest


def prompt(request: ChatRequest) -> str:
    """The request's text about the system under test (the worked example cut off)."""
    return (request.messages[-1].content or "").split("Example.", 1)[0]


def agents(request: ChatRequest) -> dict[str, str]:
    """Agent name -> its line (description, instructions, tools) as the prompt gives it."""
    return {m.group(1): m.group(2) for m in re.finditer(r"^- (\w+): (.*Instructions: .*)$", prompt(request), re.M)}


def own_tools(line: str) -> list[str]:
    m = re.search(r"Tools: ([\w, ]+)\.", line)
    return [t.strip() for t in m.group(1).split(",")] if m else []


def tool_lines(request: ChatRequest) -> dict[str, str]:
    return dict(re.findall(r"^- (\w+)\(.*?\): (.*)$", prompt(request), re.M))


def all_tools(request: ChatRequest) -> list[str]:
    return list(tool_lines(request))


# --- Specification Agent ---------------------------------------------------------------------


def reader(request: ChatRequest) -> str:
    """What a careful model derives: stages from the selector's instructions ("the work goes a,
    then b and c, then d"), closers from who is told to end the workflow, one task per tool."""
    lines = agents(request)
    stages = []
    m = re.search(r"The work goes (.+?)\.", prompt(request))
    for part in (m.group(1).split(", then ") if m else []):
        stage = [a for a in lines if re.search(rf"\b{a}\b", part)]
        if stage:
            stages.append(stage)
    deps = [{"before": a, "after": b} for s, t in zip(stages, stages[1:]) for a in s for b in t]
    closers = [a for a, line in lines.items() if "TERMINATE" in line or "ends the workflow" in line]
    returns = {t: m.group(1) for t, line in tool_lines(request).items()
               if (m := re.search(r"returns (the [^.;]+)", line))}
    tasks = [{"agent": a, "description": line.split(" Instructions:")[0], "inputs": [],
              "outputs": [returns[tool]] if tool in returns else [], "tool": tool,
              "responsibility": f"deliver {a}'s part"}
             for a, line in lines.items() for tool in own_tools(line)]
    tasks += [{"agent": a, "description": re.search(r"([^.,]*TERMINATE[^.\"]*)", lines[a]).group(1).strip(),
               "inputs": [], "outputs": ["TERMINATE"], "tool": "", "responsibility": "end the work"}
              for a in closers if "TERMINATE" in lines[a]]
    return json.dumps({"step1_agents": ", ".join(lines), "step2_relations": str(stages),
                       "dependencies": deps, "closers": closers, "tasks": tasks})


def mixed(request: ChatRequest) -> str:
    """Valid clauses mixed with invalid ones: an unknown agent, a cycle, a forbidden tool, an
    unknown tool — built from the names the request offers."""
    names = list(agents(request))
    first, second, last = names[0], names[1], names[-1]
    forbidden = next(t for t in all_tools(request) if t not in own_tools(agents(request)[second]))
    return json.dumps({
        "dependencies": [{"before": first, "after": second},      # valid
                         {"before": second, "after": first},      # closes a cycle
                         {"before": "ghost_agent", "after": last}],  # unknown agent
        "closers": [last, "ghost_agent"],
        "tasks": [{"agent": last, "description": "check the result before ending", "tool": "",
                   "inputs": ["result"], "outputs": ["verdict"], "responsibility": "quality"},
                  {"agent": second, "description": "improvise with another tool", "tool": forbidden},
                  {"agent": first, "description": "teleport the crew", "tool": "teleporter"},
                  {"agent": "ghost_agent", "description": "haunt the studio", "tool": ""}],
    })


def copier(request: ChatRequest) -> str:
    """What a tiny model does: the worked example's answer, under the target's first agent name."""
    text = request.messages[-1].content or ""
    answer = json.loads(re.search(r"the answer is: (\{.*\})$", text, re.M).group(1))
    first = next(iter(agents(request)))
    for item in answer["tasks"]:
        item["agent"], item["tool"] = first, ""
    answer["dependencies"] = [{"before": first, "after": first}]
    return json.dumps(answer)


def garbage(request: ChatRequest) -> str:
    return "I think " + ", ".join(agents(request)) + " work well together."


def wrong_shape(request: ChatRequest) -> str:
    return json.dumps({"dependencies": "script_writer first", "tasks": 3})


# --- Space Agent --------------------------------------------------------------------------------


def splitter(request: ChatRequest) -> str:
    """Splits each task that names a tool into first use and a retry, from the task lines it
    is sent; also proposes a lone behaviour and one for another agent's task (both invalid)."""
    tasks = re.findall(r"^- (task::(\w+)::\S+) \(\w+\): .*\[tool (\w+)\]$", request.messages[-1].content or "", re.M)
    out = []
    for task_id, agent, tool in tasks:
        out += [{"agent": agent, "task": task_id, "behaviour": f"call {tool} for the first time"},
                {"agent": agent, "task": task_id, "behaviour": f"call {tool} again after a failure"}]
    if len(tasks) >= 2:
        (t0, a0, _), (t1, a1, _) = tasks[0], tasks[1]
        out.append({"agent": a0, "task": t1, "behaviour": "do a colleague's work"})
        out.append({"agent": a1, "task": f"task::{a1}::answer", "behaviour": "answer once only"})
    return json.dumps({"behaviours": out})


# --- behaviour mapping ----------------------------------------------------------------------------


def candidates(request: ChatRequest) -> list[str]:
    return request.response_schema["properties"]["behaviours"]["items"]["enum"]


def turn_text(request: ChatRequest) -> str:
    text = request.messages[-1].content or ""
    return text.split("in one turn:", 1)[1].rsplit("Which of the behaviours", 1)[0]


def mapper(deviation: str | None = None):
    """Chooses a tool task when the turn called its tool, the answer task when the agent spoke,
    and objective deviation only when the turn contains `deviation`."""

    def policy(request: ChatRequest) -> str:
        text, chosen = turn_text(request), []
        for line in (request.messages[-1].content or "").splitlines():
            m = re.match(r"- (\S+): .*?(?:\(calls (\w+)\))?$", line)
            if not m or m.group(1) not in candidates(request):
                continue
            behaviour, tool = m.group(1), m.group(2)
            if tool and f"called {tool}(" in text:
                chosen.append(behaviour)
            elif behaviour.endswith("::answer") and "said: " in text:
                chosen.append(behaviour)
            elif behaviour.endswith("::objective_deviation") and deviation and deviation in text:
                chosen.append(behaviour)
        return json.dumps({"behaviours": chosen})

    return policy


def liar(request: ChatRequest) -> str:
    """Claims ids the agent does not have, a detector's anomaly and a tool it never called."""
    agent = candidates(request)[0].split("::")[1]
    tool_tasks = [c for c in candidates(request) if "::use::" in c]
    claims = [f"task::{agent}::dance", "task::nobody::answer",
              f"anomaly::{agent}::loop_after_termination"]
    text = turn_text(request)
    claims += [c for c in tool_tasks if f"called {c.rsplit('::', 1)[1]}(" not in text]
    return json.dumps({"behaviours": claims})
