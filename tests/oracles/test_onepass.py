"""A detector others read runs once per judging pass (`masfuzz.oracles.onepass`), and each
trace of a pass gets its own findings."""

from masfuzz.oracles.onepass import judging, once_per_pass
from masfuzz.trace import AgentTurn, Trace


def _trace(agent: str) -> Trace:
    return Trace(scenario_id=f"sc-{agent}", system_id="s", framework="f", events=[AgentTurn(agent=agent)])


def test_a_detector_runs_once_per_trace_within_a_pass_and_as_called_outside_one() -> None:
    seen: list[str] = []

    @once_per_pass
    def speakers(trace, spec):
        seen.append(trace.scenario_id)
        return [e.agent for e in trace.events]

    one, two = _trace("one"), _trace("two")
    with judging():
        assert speakers(one, None) == ["one"]
        speakers(one, None).append("changed by a caller")  # each caller's own list
        assert speakers(one, None) == ["one"]
        with judging():  # a pass opened inside a pass is the same pass
            assert speakers(one, None) == ["one"]
        assert speakers(two, None) == ["two"]
    assert seen == ["sc-one", "sc-two"]
    speakers(one, None)
    speakers(one, None)
    assert seen == ["sc-one", "sc-two", "sc-one", "sc-one"]


def test_copies_made_and_dropped_within_a_pass_get_their_own_findings() -> None:
    # a dropped copy's identity could be given to the next one: the pass keeps each copy alive
    @once_per_pass
    def speakers(trace, spec):
        return [e.agent for e in trace.events]

    base = _trace("start")
    with judging():
        for n in range(50):
            assert speakers(base.model_copy(update={"events": [AgentTurn(agent=str(n))]}), None) == [str(n)]
