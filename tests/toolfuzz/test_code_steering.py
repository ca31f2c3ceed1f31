"""Issue 16, item 1: the lines and branches of a tool's own code each call runs, measured in the
sandbox, steer which generation part the next calls are drawn from, and are reported."""

import json
import sys
import textwrap
import uuid

import pytest

import masfuzz.toolfuzz.sandbox as sandbox
from masfuzz.cli import main
from masfuzz.loader import load_target
from masfuzz.toolfuzz.fuzzer import Steering, fuzz_tool
from masfuzz.toolfuzz.generate import DEFAULT_WEIGHTS
from masfuzz.toolfuzz.sandbox import Sandbox, isolation_problem
from masfuzz.toolfuzz.tools import wrap_tool

SHOP = '''
import json

from .prices import price_of


def quote(order: str) -> str:
    """The price of an order given as JSON: {"items": [{"name": ..., "qty": ...}]}."""
    try:
        data = json.loads(order)
    except (ValueError, RecursionError):  # a nesting tower deeper than json's recursion limit
        return "not JSON"
    if not isinstance(data, dict):
        return "not an object"
    items = data.get("items")
    if not isinstance(items, list):
        return "no items"
    total = 0.0
    for item in items:
        if isinstance(item, dict):
            qty = item.get("qty", 1)
            total += price_of(str(item.get("name"))) * (qty if isinstance(qty, int) and 0 <= qty < 1000 else 1)
    return f"{total:.2f}"
'''

PRICES = '''
def price_of(name: str) -> float:
    if name.startswith("apple"):
        return 1.5
    if name == "pear":
        return 2.0
    return 0.0
'''


def _package_tool(tmp_path, monkeypatch, prefix, modules, function):
    """A tool defined in a package of its own (`modules`: file name -> source), unloaded after."""
    package = f"{prefix}_{uuid.uuid4().hex[:8]}"
    folder = tmp_path / package
    folder.mkdir()
    (folder / "__init__.py").write_text("")
    for name, source in modules.items():
        (folder / name).write_text(textwrap.dedent(source))
    monkeypatch.syspath_prepend(str(tmp_path))
    yield wrap_tool(load_target(f"{package}.tool:{function}").obj)
    for name in [m for m in sys.modules if m.startswith(package)]:
        del sys.modules[name]


@pytest.fixture
def shop_tool(tmp_path, monkeypatch):
    """A tool in a package of its own, its price list in a second module of the package."""
    yield from _package_tool(tmp_path, monkeypatch, "shop", {"tool.py": SHOP, "prices.py": PRICES},
                             "quote")


def _files(outcome):
    return {rel for rel, _, _ in outcome.reached}


def test_a_call_reports_the_arcs_of_the_tools_own_package_only(shop_tool):
    with Sandbox(shop_tool, isolate=isolation_problem() is None) as box:
        bad = box.call({"order": "{"})
        apple = box.call({"order": json.dumps({"items": [{"name": "apple", "qty": 2}]})})
        pear = box.call({"order": json.dumps({"items": [{"name": "pear"}]})})
    assert (bad.result, apple.result, pear.result) == ("not JSON", "3.00", "2.00")
    # its package's two modules, relative to the package; never json, masfuzz or the framework
    assert _files(bad) == {"tool.py"} and _files(apple) == {"tool.py", "prices.py"}
    lines = lambda o: {(rel, n) for rel, a, b in o.reached for n in (a, b) if n > 0}  # noqa: E731
    assert lines(pear) - lines(apple)  # the pear's branch of the price list, new lines
    assert apple.reached != pear.reached
    again = Sandbox(shop_tool, isolate=isolation_problem() is None)
    with again:
        assert again.call({"order": "{"}).reached == bad.reached  # the same call, the same arcs


def test_new_code_is_credited_and_raises_a_parts_share():
    steer = Steering()
    for _ in range(5):
        steer.credit("schema", False, False)
        steer.credit("nested", False, True)
    weights = steer.weights()
    assert weights["nested"] / DEFAULT_WEIGHTS["nested"] > weights["schema"] / DEFAULT_WEIGHTS["schema"]
    assert steer.to_dict()["nested"] == {"drawn": 5, "novel": 5, "new_code": 5}


def test_fuzzing_is_steered_by_the_code_its_calls_reach_and_reproducible(shop_tool, monkeypatch):
    if isolation_problem() is not None:
        pytest.skip(f"no OS isolation here: {isolation_problem()}")
    first = fuzz_tool(shop_tool, calls=60, seed=3, batch=20)
    second = fuzz_tool(shop_tool, calls=60, seed=3, batch=20)
    assert first.unique == {}  # a correct tool: nothing is novel but the code its calls reach
    assert sum(p["new_code"] for p in first.parts.values()) >= 3
    assert first.lines_reached() >= 10 and {rel for rel, _, _ in first.reached} == {"tool.py", "prices.py"}
    assert (first.parts, first.reached) == (second.parts, second.reached)  # the seed reproduces it
    # without the measurement nothing would steer: no call is credited
    monkeypatch.setattr(sandbox, "_code_meter", lambda tool: None)
    blind = fuzz_tool(shop_tool, calls=20, seed=3, batch=20)
    assert sum(p["new_code"] + p["novel"] for p in blind.parts.values()) == 0 and not blind.reached


def test_lines_reached_are_reported(shop_tool, tmp_path, capsys):
    argv = ["tools", f"{shop_tool.function.__module__}:quote", "--calls", "20", "--seed", "1",
            "--store", str(tmp_path / "r.db")]
    if isolation_problem() is not None:
        argv.append("--unsafe-no-sandbox")
    assert main([*argv, "--format", "json"]) == 0
    (tool,) = json.loads(capsys.readouterr().out)["tools"]
    assert tool["lines_reached"] >= 5 and set(tool["generation"]["schema"]) == {"drawn", "novel", "new_code"}
    assert main(argv) == 0
    assert f"; {tool['lines_reached']} lines of its code reached" in capsys.readouterr().out


LINGER = '''
import threading
import time

from .later import afterwards


def echo(text: str) -> str:
    """Echoes the text; "background" also starts work that goes on after the call returns."""
    if text == "background":
        threading.Thread(target=afterwards).start()
        return "started"
    time.sleep(0.8)  # long enough for work left running by an earlier call to run into it
    return text
'''

LATER = '''
import time


def afterwards():
    time.sleep(0.3)
    total = 0
    for i in range(1000):
        total += i
    time.sleep(1.5)
    return total
'''


@pytest.fixture
def lingering_tool(tmp_path, monkeypatch):
    """A tool whose call can leave a thread running its own code after it returns."""
    yield from _package_tool(tmp_path, monkeypatch, "linger", {"tool.py": LINGER, "later.py": LATER},
                             "echo")


def test_a_thread_left_running_by_a_call_does_not_count_in_the_next(lingering_tool):
    with Sandbox(lingering_tool, isolate=isolation_problem() is None) as box:
        first = box.call({"text": "background"})
        second = box.call({"text": "plain"})
        third = box.call({"text": "plain again"})
    assert (first.result, second.result, third.result) == ("started", "plain", "plain again")
    assert first.leftover_threads == 1 and second.leftover_threads == 0
    # the thread's loop ran during the second call's time; its lines are nobody's call's
    assert _files(second) == {"tool.py"} and second.reached == third.reached
