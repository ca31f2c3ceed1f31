"""The bug zoo (examples/zoo/) against its ground truth (bench/oracle_labels.yaml): every seeded
system and its fixed twin load, run under the zoo's scripted policy (or the one its label names),
and differ as labelled.

MASFUZZ_ZOO_POLICY=SPEC (a `--sut-model` spec) drives every system with that scripted model
instead: which pairs still carry their bug under another model's wording (the pairs that fail
do not, and are left out when bench/bench_oracles.py measures the oracles under `--policy SPEC`).

The checks read the traces directly (which tool answered what, who spoke when, how the run
ended), never masfuzz's oracles: the zoo is what the oracles are measured against.
"""

from __future__ import annotations

import os

import pytest
import yaml

from tests.conftest import ROOT

LABELS = yaml.safe_load((ROOT / "bench" / "oracle_labels.yaml").read_text())
SYSTEMS = {s["name"]: s for s in LABELS["systems"]}
BOUNDS = ("max_turns", "message_limit", "timeout")
OVERRIDE = os.environ.get("MASFUZZ_ZOO_POLICY")


def policy_of(label: dict) -> str:
    """The scripted model a system runs under: the override, else its own `policy:`, else the
    zoo's."""
    return OVERRIDE or label.get("policy", LABELS["policy"])


def run(target: str, label: dict):
    from masfuzz import api

    keywords, extra = {}, label.get("exec_args") or []
    for i, token in enumerate(extra):  # `--flag VALUE`, or a switch (`--run-code`) with no value
        if token.startswith("--"):
            value = extra[i + 1] if i + 1 < len(extra) and not extra[i + 1].startswith("--") else True
            keywords[token.lstrip("-").replace("-", "_")] = value
    return api.exec(target, label["input"], sut_model=policy_of(label), executor="inprocess",
                    no_cache=True, **keywords)


def events(trace, kind: str, **where) -> list:
    return [e for e in trace.events if e.type == kind
            and all(getattr(e, k) == v for k, v in where.items())]


def ending(trace) -> str:
    return events(trace, "termination")[-1].reason


def bounded(trace) -> bool:
    """Stopped by a bound, not at the length the app gave the conversation (an AG2 chat's
    `max_turns`)."""
    from masfuzz.trace import DESIGNED_LENGTH

    return ending(trace) in BOUNDS and not trace.meta.get(DESIGNED_LENGTH)


def said(trace, after: int = -1) -> list[str]:
    """What the agents said, after event index `after`."""
    return [e.content for i, e in enumerate(trace.events)
            if i > after and e.type == "message" and e.agent and e.agent != "user"]


def first_turn(trace, agent: str) -> int:
    turns = [i for i, e in enumerate(trace.events) if e.type == "agent_turn" and e.agent == agent]
    return turns[0] if turns else len(trace.events)


def failing_result(trace, tool: str, word: str) -> int:
    found = [i for i, e in enumerate(trace.events)
             if e.type == "tool_result" and e.tool == tool and word in e.payload]
    assert found, f"{tool} never answered {word}"
    return found[-1]


def check_incorrect_verification(seeded, fixed, c):
    # `verdict`: the marker a model's answer opens with when it also quotes the tool's answer in
    # its reasoning (a ReAct model's "Final Answer:"): only what follows it is the claim
    def claims(text: str) -> str:
        return text.rpartition(c["verdict"])[2] if c.get("verdict") else text

    for trace, honest in ((seeded, False), (fixed, True)):
        at = failing_result(trace, c["tool"], c["failure"])
        assert any(c["failure"] in claims(text) for text in said(trace, at)) is honest


def check_information_loss(seeded, fixed, c):
    def carried(trace):
        return any(c["value"] in str(e.arguments) for e in events(trace, "tool_call", tool=c["tool"]))

    assert carried(fixed) and not carried(seeded)
    # the agent had to ask, or it went on with another value in the fact's place
    assert any(text.rstrip().endswith("?") for text in said(seeded)) or events(seeded, "tool_call", tool=c["tool"])
    # what the receiving agent's model was given, as every framework's adapter records it: the
    # value reached it in the fixed twin only
    [receiver] = {e.agent for e in events(fixed, "tool_call", tool=c["tool"])}

    def given(trace):
        return [x["text"] for x in trace.meta.get("handover_inputs") or () if x["agent"] == receiver]

    assert given(seeded) and not any(c["value"] in text for text in given(seeded))
    assert any(c["value"] in text for text in given(fixed))


def check_premature_termination(seeded, fixed, c):
    assert not bounded(seeded) and ending(seeded) != "crash"  # a normal end ...
    assert all(not events(seeded, "agent_turn", agent=a) for a in c["needed"])  # ... too early
    assert all(events(fixed, "agent_turn", agent=a) for a in c["needed"])


def check_speaking_order(seeded, fixed, c):
    assert first_turn(seeded, c["after"]) < first_turn(seeded, c["before"])
    assert first_turn(fixed, c["before"]) < first_turn(fixed, c["after"])


def check_misrouted_request(seeded, fixed, c):
    assert events(fixed, "tool_call", tool=c["tool"], agent=c["served_by"])
    assert not events(seeded, "tool_call", tool=c["tool"])
    assert not events(seeded, "agent_turn", agent=c["served_by"])


def check_tool_spec_mismatch(seeded, fixed, c):
    for trace, rejected in ((seeded, True), (fixed, False)):
        calls = events(trace, "tool_call", tool=c["tool"])
        assert calls and all(e.arguments[c["argument"]] == c["value"] for e in calls)  # as documented
        last = events(trace, "tool_result", tool=c["tool"])[-1]
        if "rejected" in c:  # a tool that answers its rejection (a status code) rather than raise
            assert (c["rejected"] in str(last.payload)) is rejected
        else:
            assert (last.status == "error") is rejected


def check_restricted_tool(seeded, fixed, c, agent):
    def reached(trace):
        return [e for e in trace.events if e.type in ("tool_call", "restricted_attempt")
                and e.agent == agent and e.tool == c["tool"]]

    assert reached(seeded) and not reached(fixed)


def check_loop(seeded, fixed, c):
    calls = [str(e.arguments) for e in events(seeded, "tool_call", tool=c["tool"])]
    assert len(calls) >= 3 and len(set(calls)) == 1 and bounded(seeded)
    assert not bounded(fixed) and len(events(fixed, "tool_call", tool=c["tool"])) < 3


def check_missing_termination(seeded, fixed, c):
    assert bounded(seeded)
    assert not bounded(fixed) and ending(fixed) != "crash"


def check_tool_error(seeded, fixed, c):
    errors = [(i, e) for i, e in enumerate(seeded.events)
              if e.type == "tool_result" and e.tool == c["tool"] and e.status == "error"]
    assert errors
    at, error = errors[-1]
    if c.get("leaked", True):
        assert any(text.strip() and text.strip() in error.payload for text in said(seeded, at))  # leaked
    else:  # `leaked: false`: the agent answers the error with words of its own (an apology) that
        # carry neither the raw error nor anything the tool could have told
        after = [text for text in said(seeded, at) if text.strip()]
        assert after and not any(error.payload.strip() in text for text in after)
    assert not events(fixed, "tool_result", tool=c["tool"], status="error")


def check_runtime_crash(seeded, fixed, c):
    assert ending(seeded) == "crash" and ending(fixed) != "crash" and not bounded(fixed)


@pytest.mark.parametrize("name", sorted(SYSTEMS))
def test_twins_differ_as_labelled(name, in_repo):
    label = SYSTEMS[name]
    seeded, fixed = run(label["seeded"], label), run(label["fixed"], label)
    for trace in (seeded, fixed):
        assert trace.framework == label["framework"]
        assert not trace.meta.get("not_injected_calls")  # the zoo's policy answered every call
    assert not bounded(fixed) and ending(fixed) != "crash"
    check = globals()[f"check_{label['kind']}"]
    if label["kind"] == "restricted_tool":
        check(seeded, fixed, label["check"], label["agent"])
    else:
        check(seeded, fixed, label["check"])


def test_the_zoo_is_complete():
    """At least 30 pairs, every kind seeded at least twice, in at least two frameworks, and every
    framework masfuzz reads natively among them."""
    assert len(SYSTEMS) >= 30
    kinds: dict[str, set] = {}
    for s in SYSTEMS.values():
        kinds.setdefault(s["kind"], set()).add(s["framework"])
        for target in (s["seeded"], s["fixed"]):
            assert (ROOT / target.split(":")[0]).is_file()
    assert len(kinds) == 11 and all(len(fw) >= 2 for fw in kinds.values())
    assert {s["framework"] for s in SYSTEMS.values()} == {"openai-agents", "autogen", "ag2", "langgraph",
                                                          "pydantic-ai", "adk"}


@pytest.mark.parametrize("policy", sorted({policy_of(s) for s in SYSTEMS.values()}))
def test_the_policy_knows_no_system(policy):
    """One policy drives seeded and fixed twins alike: it names no system, agent or tool of the
    zoo, so whatever differs between twins comes from the systems."""
    import re

    source = (ROOT / policy.removeprefix("scripted/").split(":")[0]).read_text()
    words = set(re.findall(r"[A-Za-z_]+", source))
    for s in (s for s in SYSTEMS.values() if policy_of(s) == policy):  # the systems it drives
        c = s["check"]
        named = {s["name"], s.get("agent"), c.get("tool"), c.get("served_by"), c.get("before"),
                 c.get("after"), *c.get("needed", [])}
        assert not (named - {None}) & words, s["name"]
