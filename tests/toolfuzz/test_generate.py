from masfuzz.toolfuzz.generate import arguments_strategy, draw, draw_mixture
from masfuzz.toolfuzz.priors import SyntaxPrior

SCHEMA = {"type": "object", "properties": {"query": {"type": "string"}, "limit": {"type": "integer"}},
          "required": ["query"]}


def test_same_seed_draws_the_same_arguments():
    strat = arguments_strategy(SCHEMA, {})
    assert draw(strat, 30, seed=5) == draw(strat, 30, seed=5)
    assert draw(strat, 30, seed=5) != draw(strat, 30, seed=6)


def test_a_seed_draws_the_same_arguments_whatever_modules_the_process_imported(tmp_path, monkeypatch):
    """Hypothesis mixes the literals of the local modules imported so far into its draws: a
    module of the app's imported between two draws must not change what a seed draws."""
    import importlib
    import sys

    strat = arguments_strategy(SCHEMA, {})
    before = draw(strat, 200, seed=5)
    (tmp_path / "desk_words.py").write_text(
        "WORDS = " + repr([f"desk{i}word" for i in range(60)]) + "\nNUMBERS = " + repr(list(range(9000, 9060))) + "\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "desk_words", raising=False)
    importlib.import_module("desk_words")
    try:
        assert draw(strat, 200, seed=5) == before
    finally:
        sys.modules.pop("desk_words", None)


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
