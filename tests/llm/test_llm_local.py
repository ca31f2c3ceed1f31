"""The embedded models, for real: few, short, and still run in CI."""

import asyncio
import json
import contextlib
import io
import time

import jsonschema
import pytest

from llmkit import UPDATE_SEAT
from masfuzz.cli import main
from masfuzz.llm import ChatMessage, ChatRequest, Ledger, ResponseCache, ToolDef, get_client

pytest.importorskip("llama_cpp")
pytestmark = pytest.mark.local_model


def obj(**props):
    return {"type": "object", "properties": props, "required": list(props), "additionalProperties": False}


S = {"type": "string"}
FAQ = ToolDef(name="faq_lookup", description="Answer a question about baggage, wifi or food.", parameters=obj(question=S))
CANCEL = ToolDef(name="cancel_booking", description="Cancel a booking.", parameters=obj(confirmation_number=S))
WEATHER = ToolDef(name="get_forecast", description="Weather forecast for a city and a number of days.",
                  parameters=obj(city=S, days={"type": "integer", "minimum": 1, "maximum": 14}))
CONVERT = ToolDef(name="convert_currency", description="Convert an amount between currencies.",
                  parameters=obj(amount={"type": "number"}, to={"type": "string", "enum": ["EUR", "USD", "GBP"]}))
SEARCH = ToolDef(name="search_flights", description="Search flights.",
                 parameters=obj(origin=S, destination=S, nonstop={"type": "boolean"}))

AIRLINE = (UPDATE_SEAT, FAQ, CANCEL)
REQUESTS = [
    ("Change my seat to 14C, confirmation ABC123.", AIRLINE),
    ("What's the baggage allowance?", AIRLINE),
    ("Please cancel booking QWE456", AIRLINE),
    ("Will it rain in Oslo over the next 3 days?", (WEATHER, CONVERT)),
    ("How much is 250 dollars in euros?", (WEATHER, CONVERT)),
    ("Find me a nonstop flight from Lisbon to Berlin.", (SEARCH, WEATHER)),
    ("Is there wifi on board?", AIRLINE),
    ("I want seat 30F instead, my confirmation is ZZZ999", AIRLINE),
    ("Convert 99.5 GBP to USD please", (CONVERT,)),
    ("Any flights from Paris to Rome tomorrow?", (SEARCH, CANCEL)),
]


def run_cli(argv):
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        code = main(argv)
    return code, out.getvalue()


@pytest.mark.parametrize("model", ["local/gemma-3-270m", "local/smollm2-135m"])
def test_models_check_parses_an_update_seat_call(model):
    code, out = run_cli(["models", "check", model, "--no-cache"])
    assert code == 0, out
    assert "reply:    tool call update_seat(confirmation_number=" in out
    assert "new_seat=" in out and "tokens in" in out


def test_gemma_returns_schema_valid_tool_calls_for_10_of_10_requests():
    client = get_client("local/gemma-3-270m")

    async def all_requests():
        replies = []
        for text, tools in REQUESTS:
            req = ChatRequest(
                messages=(ChatMessage(role="system", content="You are a helpful assistant."),
                          ChatMessage(role="user", content=text)),
                tools=tools,
                tool_choice="required",
            )
            replies.append((tools, await client.complete(req)))
        return replies

    valid = 0
    for tools, reply in asyncio.run(all_requests()):
        if reply.finish_reason == "tool_calls" and len(reply.tool_calls) == 1:
            call = reply.tool_calls[0]
            tool = next(t for t in tools if t.name == call.name)  # only offered tools
            jsonschema.validate(call.arguments, tool.parameters)
            assert call.id.startswith("call_")
            valid += 1
    assert valid == 10


def test_cached_repeat_of_a_local_call_is_identical_with_no_model_time(tmp_path):
    ledger = Ledger()
    client = get_client("local/gemma-3-270m", cache=ResponseCache(tmp_path / "c.sqlite"), ledger=ledger)
    req = ChatRequest(messages=(ChatMessage(role="user", content="Move ABC123 to seat 2B"),), tools=(UPDATE_SEAT,))
    first = asyncio.run(client.complete(req))
    start = time.perf_counter()
    again = asyncio.run(client.complete(req))
    assert time.perf_counter() - start < 0.5
    assert first.latency > 0 and again.latency == 0.0 and again.cached
    assert (again.tool_calls, again.text, again.usage) == (first.tool_calls, first.text, first.usage)
    assert ledger.by_role["sut"].cache_hits == 1
    assert client.cache.hits() == 1


@pytest.mark.parametrize("model", ["local/gemma-3-270m", "local/smollm2-135m"])
def test_plain_and_structured_text_replies(model):
    client = get_client(model)
    ask = ChatRequest(messages=(ChatMessage(role="system", content="Answer in one sentence."),
                                ChatMessage(role="user", content="What is the capital of France?")))
    reply = asyncio.run(client.complete(ask))
    # Gemma is a base model: through a chat template it echoed the question back (measured).
    assert reply.finish_reason == "stop" and "Paris" in reply.text
    schema = obj(name=S, age={"type": "integer", "minimum": 0, "maximum": 120})
    shaped = ChatRequest(messages=(ChatMessage(role="user", content="A JSON object with a name and an age."),),
                         response_schema=schema)
    reply = asyncio.run(client.complete(shaped))
    jsonschema.validate(json.loads(reply.text), schema)


def test_a_generation_past_its_deadline_stops_within_a_token():
    from masfuzz.llm.local import Deadline, Stopped, engine

    eng = engine("gemma-3-270m")
    llama = eng.llama
    # greedy counting with no stop string: left alone it writes hundreds of tokens
    with pytest.raises(Stopped):
        eng.complete("Count from one to ten thousand: one, two, three,", schema=None, max_tokens=3000,
                     temperature=0.0, seed=0, deadline=Deadline(1.0), stop=[])
    generated = llama.n_tokens - len(llama.tokenize(b"Count from one to ten thousand: one, two, three,"))
    assert 0 <= generated < 3000
    assert eng.lock.acquire(blocking=False)  # the model is free the moment the call is over
    eng.lock.release()


def test_a_timed_out_call_is_a_failed_call_and_leaves_the_model_free():
    from masfuzz.errors import ModelCallFailed
    from masfuzz.llm.local import engine

    client = get_client("local/gemma-3-270m", timeout=0.05)  # less than reading the prompt takes
    ask = ChatRequest(messages=(ChatMessage(role="user", content="Change my seat to 14C, booking ABC123"),),
                      tools=(UPDATE_SEAT,), max_tokens=64)
    with pytest.raises(ModelCallFailed, match=r"^local/gemma-3-270m: no reply within 0.05 s \(generation stopped\)$"):
        asyncio.run(client.complete(ask))
    eng = engine("gemma-3-270m")
    assert eng.lock.acquire(blocking=False)  # not still generating in its thread
    eng.lock.release()


def test_the_grammar_checked_last_picks_what_the_grammar_first_picks():
    """Greedy decoding under a JSON schema: the chain that asks the grammar only about the
    token the model chose writes what llama-cpp-python's grammar-first chain writes."""
    import llama_cpp

    from masfuzz.llm.local import GrammarLast, engine

    llama = engine("gemma-3-270m").llama
    schema = {"type": "object", "properties": {"seat": {"type": "string", "enum": ["14C", "2A"]}},
              "required": ["seat"], "additionalProperties": False}
    grammar = llama_cpp.LlamaGrammar.from_json_schema(json.dumps(schema), verbose=False)
    prompt = "The passenger wants seat 14C. As JSON:"
    own = llama._init_sampler  # the engine's: the grammar last
    texts, samplers = [], []
    for init in (type(llama)._init_sampler.__get__(llama), own):  # llama-cpp-python's, then the engine's
        def recorded(init=init, **kwargs):
            samplers.append(init(**kwargs))
            return samplers[-1]

        llama._init_sampler = recorded
        try:
            llama.reset()
            out = llama.create_completion(prompt, grammar=grammar, max_tokens=16, temperature=0.0)
        finally:
            llama._init_sampler = own
        texts.append(out["choices"][0]["text"])
    assert not isinstance(samplers[0], GrammarLast) and isinstance(samplers[1], GrammarLast)
    assert json.loads(texts[1]) == {"seat": "14C"}
    assert texts[0] == texts[1]


def test_a_prompt_prefix_left_by_another_caller_is_restored_and_answers_alike():
    """Two callers alternate on the model; the first's second prompt shares its start: that
    start comes back from the state it left, not read again, and greedy decoding writes what a
    model that read the whole prompt writes."""
    from masfuzz.llm.local import Deadline, engine

    eng = engine("gemma-3-270m")
    start = "You route airline customers. Seat changes go to the seat desk, questions to the FAQ desk. " * 3
    agent = f"{start}\nCustomer: I want seat 14C.\nRoute to:"
    again = f"{start}\nCustomer: Is there wifi on board?\nRoute to:"
    options = dict(schema=None, max_tokens=4, temperature=0.0, seed=0, stop=["\n"])

    def ask(prompt, slot):
        return eng.complete(prompt, deadline=Deadline(None), slot=slot, **options)[0]

    ask(agent, "sut:router")
    ask("Write a user's message about a lost bag:", "tester:realizer")  # the context moves on
    restores, reused = eng.prefixes.restores, eng.prefixes.reused
    restored = ask(again, "sut:router")
    assert eng.prefixes.restores == restores + 1
    assert eng.prefixes.reused - reused >= len(eng.llama.tokenize(start.encode())) - 2
    eng.prefixes.clear()
    eng.llama.reset()
    eng.llama._ctx.kv_cache_clear()
    assert ask(again, "sut:router") == restored  # read whole: the same answer


def test_a_stopped_call_stops_reading_its_prompt_within_a_chunk():
    """The deadline is checked before every decode: a call stopped while its long prompt is
    read leaves the rest unread (and the model usable), instead of reading it to the end."""
    from masfuzz.llm.local import N_BATCH, Deadline, Stopped, engine

    class AfterOneChunk(Deadline):
        checks = 0

        def passed(self):
            self.checks += 1
            return self.checks > 1  # the first chunk is read, the second is not

    eng = engine("gemma-3-270m")
    eng.prefixes.clear()
    eng.llama.reset()
    prompt = " ".join(f"Passenger {i} moved to seat {i}C." for i in range(14))
    assert len(eng.llama.tokenize(prompt.encode())) > 2 * N_BATCH
    with pytest.raises(Stopped):
        eng.complete(prompt, schema=None, max_tokens=4, temperature=0.0, seed=0, deadline=AfterOneChunk(None))
    assert eng.llama.n_tokens == N_BATCH
    after = [eng.complete(prompt, schema=None, max_tokens=3, temperature=0.0, seed=0, deadline=Deadline(None),
                          stop=[])[0]]
    eng.prefixes.clear()
    eng.llama.reset()
    eng.llama._ctx.kv_cache_clear()
    after.append(eng.complete(prompt, schema=None, max_tokens=3, temperature=0.0, seed=0, deadline=Deadline(None),
                              stop=[])[0])
    assert after[0] == after[1] and after[0].strip()  # the chunk read before is good to go on from
