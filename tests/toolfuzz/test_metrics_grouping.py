import pytest

from masfuzz.toolfuzz.grouping import error_key, normalise_message
from masfuzz.toolfuzz.metrics import chao1, fdr, tc_per_ue
from masfuzz.toolfuzz.sandbox import CallOutcome


def test_chao1_bias_corrected_with_interval():
    c = chao1([1, 1, 1, 2, 5])  # S=5, f1=3, f2=1, n=10
    assert c.observed == 5
    assert c.estimate == pytest.approx(5 + 0.9 * 3 * 2 / (2 * 2))
    assert 5 < c.lower < c.estimate < c.upper


def test_chao1_no_singletons_is_the_observed_count():
    c = chao1([4, 6, 9])
    assert (c.estimate, c.lower) == (3, 3)
    assert c.upper >= 3
    assert chao1([]).estimate == 0


def test_tc_ue_and_fdr():
    assert tc_per_ue(200, 2) == 100 and tc_per_ue(50, 0) is None
    assert fdr(1, 3) == 0.25 and fdr(0, 0) is None


def test_messages_are_normalised_over_fuzzed_values():
    a = normalise_message("invalid literal for int() with base 10: 'abc'")
    b = normalise_message("invalid literal for int() with base 10: 'xyzzy'")
    assert a == b
    m1 = normalise_message("no such file or directory: notes.txt", arguments={"p": "notes.txt"})
    m2 = normalise_message("no such file or directory: data", arguments={"p": "data"})
    assert m1 == m2
    # a value is masked only as a whole word: "data" does not eat "database"
    assert "database" in normalise_message("not found in database", arguments={"p": "data"})


def test_key_includes_the_innermost_frame_of_the_tools_own_code(tmp_path):
    own = str(tmp_path / "tool.py")
    frames_a = [("/lib/x.py", 3, "f"), (own, 10, "run"), ("/usr/lib/python3/json.py", 5, "loads")]
    frames_b = [(own, 20, "run")]
    ka = error_key(CallOutcome("error", error_type="ValueError", message="bad", frames=frames_a), own)
    kb = error_key(CallOutcome("error", error_type="ValueError", message="bad", frames=frames_b), own)
    assert ka.frame == "tool.py:run:10" and kb.frame == "tool.py:run:20"
    assert ka != kb


def test_a_failure_the_sandbox_or_masfuzz_caused_is_not_the_tools():
    import os

    from masfuzz.origin import MASFUZZ_ROOT as _MASFUZZ_DIR
    from masfuzz.toolfuzz.grouping import attribution
    from masfuzz.toolfuzz.sandbox import CallOutcome

    ours = os.path.join(_MASFUZZ_DIR, "toolfuzz", "tools.py")
    tool = "/somewhere/app.py"
    assert attribution(CallOutcome("error", error_type="OSError",
                                   message="[Errno 30] Read-only file system: 'x'"))[0] == "harness"
    assert attribution(CallOutcome("error", error_type="MemoryError"))[0] == "settings"
    # raised before the tool's code ran (its arguments did not bind): masfuzz's
    assert attribution(CallOutcome("error", error_type="TypeError", message="unexpected keyword",
                                   frames=[(ours, 1, "invoke")]))[0] == "harness"
    # raised in the tool, even through a masfuzz taint object's method below it: the tool's
    assert attribution(CallOutcome("error", error_type="IndexError", message="string index out of range",
                                   frames=[(ours, 1, "invoke"), (tool, 3, "shout"),
                                           (os.path.join(_MASFUZZ_DIR, "toolfuzz", "priors.py"), 9, "__getitem__")]
                                   )) == ("sut", None)


def test_a_value_repeated_in_a_list_is_printed_once_when_messages_are_masked():
    """`[tower] * 1000` (the boundary part's) holds one tower: masking a message over its
    printed forms walks each object once, not a thousand towers of 200 levels each."""
    from masfuzz.toolfuzz.generate import tower
    from masfuzz.toolfuzz.grouping import _structures

    deep = tower({}, 200)
    found = _structures({"items": [deep] * 1000})
    assert len(found) <= 1 + 200 and sum(1 for v in found if v is deep) == 1
    assert normalise_message(f"bad items: {[deep] * 3}", arguments={"items": [deep] * 3}).startswith("bad items: <arg>")
