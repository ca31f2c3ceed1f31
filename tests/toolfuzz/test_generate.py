from masfuzz.toolfuzz.generate import arguments_strategy, draw, draw_mixture
from masfuzz.toolfuzz.priors import SyntaxPrior

SCHEMA = {"type": "object", "properties": {"query": {"type": "string"}, "limit": {"type": "integer"}},
          "required": ["query"]}


def test_same_seed_draws_the_same_arguments():
    strat = arguments_strategy(SCHEMA, {})
    assert draw(strat, 30, seed=5) == draw(strat, 30, seed=5)
    assert draw(strat, 30, seed=5) != draw(strat, 30, seed=6)


def test_drawn_arguments_follow_the_schema():
    closed = dict(SCHEMA, additionalProperties=False)  # an open schema allows other keys
    for args in draw(arguments_strategy(closed, {}), 60, seed=1):
        assert isinstance(args["query"], str)
        assert set(args) <= {"query", "limit"}
        assert "limit" not in args or isinstance(args["limit"], int)


def test_priors_steer_generation_toward_the_expected_syntax():
    prior = SyntaxPrior(prefixes={"query: "}, json_keys=set(), length_bounds={100})
    drawn = [a["query"] for _, a in draw_mixture(SCHEMA, {"query": prior}, 150, seed=2)]
    assert any(q.startswith("query: ") for q in drawn)
    assert any(len(q) in (99, 100, 101) for q in drawn)
    assert any(not q.startswith("query: ") for q in drawn)  # still explores outside the prior
