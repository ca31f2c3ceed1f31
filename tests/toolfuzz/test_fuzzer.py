from masfuzz.toolfuzz.fuzzer import fuzz_tool


def test_map_search_fuzzer_alone_finds_prefix_and_length_errors_within_200_calls(map_tool):
    result = fuzz_tool(map_tool, calls=200, seed=11)
    keys = {(k.error_type, k.frame.rsplit(":", 1)[0]) for k in result.unique}
    assert ("IndexError", "map_search.py:open_street_map_search") in keys  # missing `query: `
    assert ("AssertionError", "map_search.py:open_street_map_search") in keys  # >= 100 characters
    by_type = {k.error_type: u for k, u in result.unique.items()}
    assert len(by_type["AssertionError"].arguments["query"]) >= 100
    assert "query: " not in by_type["IndexError"].arguments["query"]
    assert result.calls == 200


def test_fuzzing_is_reproducible_from_the_seed(pubmed_tool):
    a = fuzz_tool(pubmed_tool, calls=60, seed=4)
    b = fuzz_tool(pubmed_tool, calls=60, seed=4)
    assert {k: u.arguments for k, u in a.unique.items()} == {k: u.arguments for k, u in b.unique.items()}
    assert [u.count for u in a.unique.values()] == [u.count for u in b.unique.values()]


def test_learned_date_syntax_reaches_the_strptime_error(pubmed_tool):
    result = fuzz_tool(pubmed_tool, calls=100, seed=1)
    assert any("does not match format" in k.message for k in result.unique)


def test_control_tool_has_no_runtime_errors(control_tool):
    result = fuzz_tool(control_tool, calls=150, seed=2)
    assert result.unique == {}
    assert result.ok == 150
