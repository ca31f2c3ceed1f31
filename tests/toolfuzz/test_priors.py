import json
import threading
from datetime import datetime

from masfuzz.toolfuzz.priors import call_tainted, static_priors


def test_static_priors_read_prefix_split_and_length_bound(map_tool):
    p = static_priors(map_tool.function, ["query"])["query"]
    assert "query: " in p.separators
    assert 100 in p.length_bounds


def test_static_priors_follow_compiled_patterns_and_strptime(pubmed_tool):
    p = static_priors(pubmed_tool.function, ["query"])["query"]
    assert any("Date - Publication" in r for r in p.regexes)
    assert "%Y/%m/%d" in p.date_formats


def tool_with_everything(payload: str, count: str, when: str, mode: str) -> str:
    data = json.loads(payload)
    head, _, tail = data["route"].partition("->")
    n = int(count)
    day = datetime.strptime(when, "%d.%m.%Y")
    if not mode.startswith("fast:") and mode != "slow":
        raise ValueError("bad mode")
    return f"{head}{tail}{n}{day}{data.get('speed')}"


def test_static_priors_json_keys_casts_and_constants():
    pr = static_priors(tool_with_everything, ["payload", "count", "when", "mode"])
    assert {"route", "speed"} <= pr["payload"].json_keys
    assert "int" in pr["count"].casts
    assert "%d.%m.%Y" in pr["when"].date_formats
    assert "fast:" in pr["mode"].prefixes and "slow" in pr["mode"].constants


def test_taint_records_what_the_code_does_with_its_input():
    args = {"payload": '{"route": "a->b", "speed": 3}', "count": "7", "when": "01.02.2020", "mode": "slow"}
    result, exc, pr = call_tainted(lambda kw: tool_with_everything(**kw), args)
    assert exc is None and result.startswith("a")
    assert {"route", "speed"} <= pr["payload"].json_keys
    assert "->" in pr["payload"].separators
    assert "int" in pr["count"].casts
    assert "%d.%m.%Y" in pr["when"].date_formats
    assert "fast:" in pr["mode"].prefixes and "slow" in pr["mode"].constants


def test_taint_is_scoped_per_call_across_threads():
    def tool(text: str) -> bool:
        return text.startswith(text[-3:] + "!")

    found = {}

    def worker(tag: str) -> None:
        for _ in range(200):
            _, _, pr = call_tainted(lambda kw: tool(**kw), {"text": f"xx{tag}"})
            found.setdefault(tag, set()).update(pr["text"].prefixes)

    threads = [threading.Thread(target=worker, args=(t,)) for t in ("aaa", "bbb")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert found == {"aaa": {"aaa!"}, "bbb": {"bbb!"}}


def test_hooks_are_inert_outside_tainted_calls():
    call_tainted(lambda kw: json.loads(kw["s"]), {"s": "{}"})
    assert type(json.loads('{"a": 1}')) is dict
