"""What the model-driven half of `masfuzz tools` spent, per tool: the tester's and the agent's
model calls, tokens, time and cost, in the report and in the run store, under scripted models
and through a real OpenAI-compatible endpoint on loopback (`masfuzz serve`'s server)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import threading
from pathlib import Path

from masfuzz.cli import main
from masfuzz.llm import get_client
from masfuzz.llm.accounting import Usage
from masfuzz.report.tools import model_use_lines, tools_text
from masfuzz.serve.server import ModelServer
from masfuzz.store.db import RunStore

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "tools"
POLICIES = EXAMPLES / "policies.py"
MAP_TOOL = f"{EXAMPLES}/map_search.py:open_street_map_search"
LINE = re.compile(r"^(?:\s*|total )model use, (tester|agent) (\S+): (\d+) call\(s\).*?, (\d+) tokens in, (\d+) out, "
                  r"([\d.]+) s, (cost \$[\d.]+|cost unknown)", re.M)


def _stored(store: str) -> dict[tuple[str, str], dict]:
    with RunStore(store) as db:
        return {(r["role"], r["agent"]): r for r in db.usage(db.latest_run())}


def test_per_tool_model_use_is_reported_and_agrees_with_the_store(capsys, tmp_path):
    store = str(tmp_path / "runs.db")
    code = main(["tools", MAP_TOOL, "--calls", "40", "--seed", "5", "--store", store, "--no-cache",
                 "--model", f"scripted/{POLICIES}:tester", "--sut-model", f"scripted/{POLICIES}:agent",
                 "--correctness", "--fix-docs"])
    out = capsys.readouterr().out
    assert code == 0
    shown = {m.group(1): m for m in LINE.finditer(out.split("\ntotal:")[0])}
    assert set(shown) == {"tester", "agent"}, out
    rows = _stored(store)
    assert set(rows) == {("tester", "open_street_map_search"), ("sut", "open_street_map_search")}
    for who, role in (("tester", "tester"), ("agent", "sut")):
        m, row = shown[who], rows[(role, "open_street_map_search")]
        assert m.group(2) == row["model"] == f"scripted/{POLICIES}:{who}"
        assert int(m.group(3)) == row["calls"] > 0  # sanity checks, requests, agent runs, oracle...
        assert (int(m.group(4)), int(m.group(5))) == (row["tokens_in"], row["tokens_out"])
        assert float(m.group(6)) == round(row["seconds"], 1)
        assert m.group(7) == "cost $0.0000" and row["cost"] == 0  # a scripted model is free
    assert "s fuzzing," in out and "in the model stages" in out
    # the totals add the tools up
    total = {m.group(1): m for m in LINE.finditer(out.split("\ntotal:")[1])}
    assert {w: int(m.group(3)) for w, m in total.items()} == {w: int(m.group(3)) for w, m in shown.items()}


@contextlib.contextmanager
def _endpoint(model: str):
    """An OpenAI-compatible endpoint on loopback answering with `model`, in a thread of its own
    (its loop ends by asyncio.run, which cancels the connections still open)."""
    client = get_client(model, role="sut")
    ready, box = threading.Event(), {}

    async def serve() -> None:
        box["stop"] = asyncio.Event()
        box["loop"] = asyncio.get_running_loop()
        async with ModelServer(client) as server:
            box["server"] = server
            ready.set()
            await box["stop"].wait()

    thread = threading.Thread(target=asyncio.run, args=(serve(),), daemon=True)
    thread.start()
    assert ready.wait(30)
    try:
        yield box["server"], client
    finally:
        box["loop"].call_soon_threadsafe(box["stop"].set)
        thread.join(10)


def test_an_endpoints_calls_are_counted_and_its_cost_is_unknown_not_zero(capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("OPENAI_COMPATIBLE_API_KEY", "loopback-test-key")
    store = str(tmp_path / "runs.db")
    with _endpoint(f"scripted/{POLICIES}:agent") as (server, served):
        code = main(["tools", MAP_TOOL, "--calls", "40", "--seed", "5", "--store", store, "--no-cache",
                     "--model", f"scripted/{POLICIES}:tester",
                     "--sut-model", f"openai-compatible/agent@{server.url}", "--format", "json"])
    assert code == 0
    data = json.loads(capsys.readouterr().out)
    (tool,) = data["tools"]
    agent, tester = tool["models"]["agent"], tool["models"]["tester"]
    # every call the endpoint answered is counted, with the tokens it reported
    spent = served.ledger.total()
    assert agent["calls"] == spent.calls > 0
    assert (agent["tokens_in"], agent["tokens_out"]) == (spent.tokens_in, spent.tokens_out)
    assert agent["cost"] is None and tester["cost"] == 0  # no price for an endpoint's model
    assert data["totals"]["models"]["agent"]["cost"] is None
    rows = _stored(store)
    assert rows[("sut", tool["tool"])]["cost"] is None and rows[("sut", tool["tool"])]["calls"] == agent["calls"]
    text = tools_text(data)
    assert f"model use, agent openai-compatible/agent@{server.url}: {agent['calls']} call(s)" in text
    assert "cost unknown" in text and "$0.0000" in text


def test_each_tools_tab_holds_its_own_calls_on_shared_clients():
    from masfuzz.llm.accounting import Ledger, tab
    from masfuzz.llm.types import ChatMessage, ChatRequest

    ledger = Ledger()
    client = get_client(f"scripted/{POLICIES}:agent", ledger=ledger)

    async def tool_work(n: int):
        with tab() as spent:
            for i in range(n):
                await client.complete(ChatRequest(messages=(ChatMessage(role="user", content=f"hi {i}"),)))
                await asyncio.sleep(0)  # let the other tool's calls in between
            return spent

    async def both():
        return await asyncio.gather(tool_work(2), tool_work(5))

    two, five = asyncio.run(both())
    assert (two.of_role("sut").calls, five.of_role("sut").calls) == (2, 5)
    assert ledger.of_role("sut").calls == 7  # the client's own ledger has them all
    assert two.of_role("sut").tokens_in + five.of_role("sut").tokens_in == ledger.of_role("sut").tokens_in
    (line,) = model_use_lines({"agent": {"model": "m", "calls": 2, "cache_hits": 0, "errors": 1,
                                         "tokens_in": 5, "tokens_out": 6, "seconds": 0.25, "cost": None}})
    assert line == "model use, agent m: 2 call(s), 1 failed, 5 tokens in, 6 out, 0.2 s, cost unknown (no price known for the model)"
