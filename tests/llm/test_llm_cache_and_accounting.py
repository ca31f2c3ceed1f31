import asyncio

from masfuzz.llm import ChatMessage, ChatRequest, Ledger, ResponseCache, get_client

from llmkit import user


def test_cached_repeat_is_identical_takes_no_model_time_and_counts_as_hit(tmp_path, seat_policy):
    cache = ResponseCache(tmp_path / "c.sqlite")
    ledger = Ledger()
    client = get_client(seat_policy, cache=cache, ledger=ledger)
    req = user("ABCDEF to 14C")
    first = asyncio.run(client.complete(req))
    again = asyncio.run(client.complete(req))
    assert not first.cached and again.cached
    assert again.latency == 0.0
    assert (again.text, again.tool_calls, again.usage) == (first.text, first.tool_calls, first.usage)
    assert cache.hits() == 1 and len(cache) == 1
    sut = ledger.by_role["sut"]
    assert (sut.calls, sut.cache_hits) == (2, 1)
    assert sut.tokens_in == first.usage.tokens_in  # the hit spent nothing


def test_cache_survives_reopening_and_separates_agents(tmp_path, seat_policy):
    path = tmp_path / "c.sqlite"
    req = user("ABCDEF to 14C")
    asyncio.run(get_client(seat_policy, cache=ResponseCache(path)).complete(req))
    cache = ResponseCache(path)
    client = get_client(seat_policy, cache=cache)
    assert asyncio.run(client.complete(req)).cached
    other = req.model_copy(update={"agent": "Seat Booking Agent"})
    assert not asyncio.run(client.complete(other)).cached


def test_accounting_per_role_and_agent(seat_policy):
    ledger = Ledger()
    tester = get_client(seat_policy, role="tester", ledger=ledger)
    sut = get_client(seat_policy, ledger=ledger)
    msgs = (ChatMessage(role="user", content="ABCDEF to 14C"),)

    async def go():
        await tester.complete(ChatRequest(messages=msgs))
        await sut.complete(ChatRequest(messages=msgs, agent="Seat Booking Agent"))
        await sut.complete(ChatRequest(messages=msgs, agent="Seat Booking Agent"))

    asyncio.run(go())
    assert ledger.by_role["tester"].calls == 1
    assert ledger.by_role["sut"].calls == 2
    assert ledger.by_agent[("sut", "Seat Booking Agent")].calls == 2
    assert ledger.total().cost == 0.0  # scripted models are free
    assert ledger.total().tokens_out > 0


def test_editing_a_policy_file_invalidates_its_cached_answers(tmp_path):
    policy = tmp_path / "p.py"
    policy.write_text("def policy(request):\n    return 'old'\n")
    cache = ResponseCache(tmp_path / "c.sqlite")
    req = ChatRequest(messages=(ChatMessage(role="user", content="hi"),))
    assert asyncio.run(get_client(f"scripted/{policy}:policy", cache=cache).complete(req)).text == "old"
    policy.write_text("def policy(request):\n    return 'new'\n")
    import sys

    sys.modules.pop(next(m for m in sys.modules if m.startswith("masfuzz_target_") and m.endswith("_p")), None)
    reply = asyncio.run(get_client(f"scripted/{policy}:policy", cache=cache).complete(req))
    assert (reply.text, reply.cached) == ("new", False)


def test_the_apps_cost_is_known_only_for_free_models_never_a_made_up_zero():
    from types import SimpleNamespace

    from masfuzz.campaign.session import usage_rows as _usage
    from masfuzz.llm.accounting import Ledger
    from masfuzz.trace import Trace, Usage

    def campaign(*models):
        traces = [Trace(usage=Usage(model_calls=2, tokens_in=50, tokens_out=9),
                        meta={"agent_settings": {f"agent{i}": {"model": m, "calls": 2}}})
                  for i, m in enumerate(models)]
        return SimpleNamespace(recorder=SimpleNamespace(
            traces_this_invocation=lambda: [(None, t) for t in traces]))

    tester = SimpleNamespace(ledger=Ledger(), model_string="scripted/x.py:p")
    rows = {(r["role"], r["agent"]): r for r in _usage([], tester, campaign(
        "local/smollm2-135m", "openai-compatible/my-model@http://127.0.0.1:9/v1"))}
    assert rows[("sut", "agent0")]["cost"] == 0.0  # embedded: free, so known
    assert rows[("sut", "agent1")]["cost"] is None  # no price known: unknown, not $0
    assert rows[("sut", "-")]["cost"] is None and rows[("sut", "-")]["tokens_in"] == 100
    rows = {(r["role"], r["agent"]): r for r in _usage([], tester, campaign("local/smollm2-135m"))}
    assert rows[("sut", "-")]["cost"] == 0.0
