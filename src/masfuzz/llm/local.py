"""`local/gemma-3-270m` and `local/smollm2-135m`: llama.cpp in-process, no network, no key.

One `Llama` per model per process, created on first use and guarded by a lock: llama.cpp is not
re-entrant. Generation runs in a worker thread so the event loop stays free for the system under
test. Tool calls and structured output come from `toolprompt` (few-shot prompt + JSON-schema
grammar); invalid output is retried with a different seed, and after the last attempt the raw
text comes back with `finish_reason="error"` rather than an unvalidated tool call. Each caller's
prompt prefix is kept and restored (`local_prefix`), and a call's deadline is checked before every
decode. docs/local-model.md says what each part is worth.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import ctypes
import importlib.util
import json
import os
import threading
import time
from typing import Any

from masfuzz.errors import ModelCallFailed, ModelError
from masfuzz.llm import toolprompt
from masfuzz.llm.ids import deterministic_call_id
from masfuzz.llm.local_prefix import PrefixStates, Saved, common_prefix
from masfuzz.llm.local_weights import INSTALL_HINT, MODELS, LocalModel, weights_path
from masfuzz.llm.modelstring import ModelSpec
from masfuzz.llm.types import ChatReply, ChatRequest, TokenUsage

ATTEMPTS = 3
TOOL_MAX_TOKENS = 160
TEXT_MAX_TOKENS = 256
# Tokens evaluated by one decode: the deadline is checked between decodes, so a stopped call's
# prompt evaluation ends within one chunk (llama-cpp-python's default, 512, took 10-20 s on
# loaded cores).
N_BATCH = 64

_engines_lock = threading.Lock()
_engines: dict[str, "Engine"] = {}


def _close(llama: Any) -> None:
    try:
        llama.close()
    except Exception:  # a model half torn down already: nothing left to free
        pass


class Engine:
    """One loaded model and the lock that serialises every use of it."""

    def __init__(self, model: LocalModel) -> None:
        try:
            import llama_cpp
        except ImportError:
            raise ModelError(f"local/{model.name}: llama-cpp-python is missing; {INSTALL_HINT}") from None
        self.llama_cpp = llama_cpp
        self.model = model
        self.lock = threading.Lock()
        path = weights_path(model.name)
        start = time.perf_counter()
        self.threads = threads_now()
        with _quiet():
            self.llama = llama_cpp.Llama(
                model_path=str(path),
                n_ctx=model.n_ctx,
                n_batch=N_BATCH,
                n_threads=self.threads,
                n_threads_batch=self.threads,
                chat_format=model.chat_format,
                verbose=False,
            )
        self.load_time = time.perf_counter() - start
        # every generation's sampler: the grammar checks the token the model chose, not the
        # whole vocabulary first (`GrammarLast`)
        self.llama._init_sampler = self._init_sampler
        # Every decode (a chunk of the prompt, or one generated token) first checks the running
        # call's deadline: a stopped call frees the model within one chunk, prompt evaluation
        # included. (A stopping criterion is only checked after a token is sampled, and an
        # exception raised in a logits processor is printed by ctypes and swallowed.)
        self._deadline: Deadline | None = None
        decode = self.llama._ctx.decode

        def checked_decode(batch: Any) -> Any:
            if self._deadline is not None and self._deadline.passed():
                raise Stopped
            return decode(batch)

        self.llama._ctx.decode = checked_decode
        # Before a prompt is evaluated, the kept state that shares most of it comes back
        # (`masfuzz.llm.local_prefix`): `generate` gets the prompt's final tokens, whichever
        # way (chat template or plain prompt) they were made.
        self.prefixes = PrefixStates()
        generate = self.llama.generate

        def restoring_generate(tokens: Any, *args: Any, **kwargs: Any) -> Any:
            self._restore(list(tokens))
            return generate(tokens, *args, **kwargs)

        self.llama.generate = restoring_generate
        # closed while the interpreter still has its modules: llama-cpp-python's own __del__,
        # left to interpreter shutdown, finds its C bindings gone and prints a traceback at exit
        atexit.register(_close, self.llama)

    def _init_sampler(self, *, grammar: Any = None, **options: Any) -> Any:
        chain = type(self.llama)._init_sampler(self.llama, grammar=None, **options)
        return chain if grammar is None else GrammarLast(self.llama_cpp, self.llama, chain, grammar)

    def chat(self, messages: list[dict[str, str]], **options: Any) -> tuple[str, dict[str, int]]:
        out = self._run(self.llama.create_chat_completion, messages=messages, **options)
        return out["choices"][0]["message"]["content"] or "", out.get("usage") or {}

    def count(self, text: str) -> int:
        """Tokens of `text` for this model."""
        return len(self.llama.tokenize(text.encode("utf-8", "replace"), add_bos=True, special=True))

    def complete(self, prompt: str, **options: Any) -> tuple[str, dict[str, int]]:
        out = self._run(None, prompt=prompt, **options)  # None: create_completion
        return out["choices"][0]["text"] or "", out.get("usage") or {}

    def _run(self, method: Any | None, *, schema: dict | None, max_tokens: int, temperature: float,
             seed: int, deadline: "Deadline", slot: str = "", **rest: Any) -> Any:
        grammar = None
        if schema is not None:
            grammar = self.llama_cpp.LlamaGrammar.from_json_schema(json.dumps(schema), verbose=False)
        if not self.lock.acquire(timeout=deadline.remaining()):
            raise Stopped  # another call held the model for the whole time this one had
        self._deadline = deadline
        try:
            threads = threads_now()
            if threads != self.threads:
                self.llama_cpp.llama_set_n_threads(self.llama.ctx, threads, threads)
                self.threads = threads
            with _quiet():
                out = (method or self.llama.create_completion)(
                    grammar=grammar, max_tokens=max_tokens, temperature=temperature, seed=seed, **rest)
            self._save(slot)
        finally:
            self._deadline = None
            self.lock.release()
        if deadline.passed():
            raise Stopped  # what it wrote so far is cut short: no answer to parse
        return out

    def _restore(self, tokens: list[int]) -> None:
        """Bring back the kept state sharing the longest prefix with `tokens`, when it shares
        more than the context holds now; `generate` then evaluates only the rest."""
        llama, c = self.llama, self.llama_cpp
        live = common_prefix(llama.input_ids[:llama.n_tokens].tolist(), tokens)
        found = self.prefixes.best(tokens, live)
        if found is None:
            return
        saved, shared = found
        c.llama_memory_clear(c.llama_get_memory(llama.ctx), True)
        if c.llama_state_seq_set_data(llama.ctx, saved.data, saved.size, 0) != saved.size:
            c.llama_memory_clear(c.llama_get_memory(llama.ctx), True)
            llama.n_tokens = 0  # nothing usable left in the context: the prompt is evaluated whole
            return
        llama.input_ids[:len(saved.tokens)] = saved.tokens
        llama.n_tokens = len(saved.tokens)
        llama._requires_eval = True  # the logits are not restored: decode before sampling
        self.prefixes.restored(saved, shared, live)

    def _save(self, slot: str) -> None:
        """Keep the context's state as `slot`'s, for a later call that starts as this one."""
        llama, c = self.llama, self.llama_cpp
        size = c.llama_state_seq_get_size(llama.ctx, 0)
        if not size or not llama.n_tokens:
            return
        data = (ctypes.c_uint8 * size)()
        written = c.llama_state_seq_get_data(llama.ctx, data, size, 0)
        if written:
            self.prefixes.keep(slot, Saved(tuple(llama.input_ids[:llama.n_tokens].tolist()), data, written))


class GrammarLast:
    """A sampler that checks the grammar last, as llama.cpp's own common sampler does.

    llama-cpp-python puts the grammar first in its sampler chain, so at every token the grammar
    judges each of the vocabulary's tokens (262,144 for Gemma 3): 0.05-0.19 tokens/s on two
    busy cores. Here the chain without the grammar picks a token and the grammar judges that
    one; only when it rejects it does the grammar judge more: the `SHORTLIST` likeliest tokens,
    and the whole vocabulary if none of those fits. The token picked is the same as with the
    grammar first whenever the shortlist holds the chain's choice among the tokens that fit
    (always, for greedy decoding with a fitting token in the shortlist)."""

    SHORTLIST = 512

    def __init__(self, llama_cpp: Any, llama: Any, chain: Any, grammar: Any) -> None:
        import numpy as np

        self.c, self.np, self.chain = llama_cpp, np, chain
        self.grammar = llama_cpp.llama_sampler_init_grammar(
            llama._model.vocab, grammar._grammar.encode("utf-8"), grammar._root.encode("utf-8"))
        if not self.grammar:
            chain.close()
            raise ValueError("llama.cpp could not parse the grammar")
        self.n_vocab = llama.n_vocab()
        self.data = (llama_cpp.llama_token_data * self.n_vocab)()
        self.view = np.ctypeslib.as_array(self.data)  # the same memory, as numpy fields
        self.one = llama_cpp.llama_token_data()

    def sample(self, ctx: Any, idx: int = -1) -> int:
        c = self.c
        token = c.llama_sampler_sample(self.chain.sampler, ctx.ctx, idx)
        self.one.id, self.one.logit, self.one.p = token, 0.0, 0.0
        if self._fits(ctypes.pointer(self.one), 1) is None:
            logits = self.np.ctypeslib.as_array(c.llama_get_logits_ith(ctx.ctx, idx), shape=(self.n_vocab,))
            likeliest = self.np.argpartition(logits, -self.SHORTLIST)[-self.SHORTLIST:]
            for ids in (likeliest, None):
                n = self.n_vocab if ids is None else len(ids)
                self.view["id"][:n] = self.np.arange(n) if ids is None else ids
                self.view["logit"][:n] = logits if ids is None else logits[ids]
                self.view["p"][:n] = 0.0
                token = self._fits(self.data, n, choose=True)
                if token is not None:
                    break
            else:
                raise RuntimeError("no token of the vocabulary fits the grammar")
        c.llama_sampler_accept(self.grammar, token)
        return token

    def _fits(self, data: Any, n: int, choose: bool = False) -> int | None:
        """The grammar's verdict on the `n` tokens at `data`: the token the chain picks among
        those that fit (`choose`), or the only token if it fits; None if none fits."""
        array = self.c.llama_token_data_array(
            ctypes.cast(data, ctypes.POINTER(self.c.llama_token_data)), n, -1, False)
        self.c.llama_sampler_apply(self.grammar, ctypes.byref(array))
        fitting = self.np.ctypeslib.as_array(array.data, shape=(array.size,))
        if not (fitting["logit"] > -self.np.inf).any():
            return None
        if not choose:
            return int(fitting["id"][0])
        self.c.llama_sampler_apply(self.chain.sampler, ctypes.byref(array))
        return int(array.data[array.selected].id)

    def close(self) -> None:
        if self.grammar:
            self.c.llama_sampler_free(self.grammar)
            self.grammar = None
        self.chain.close()

    def __del__(self) -> None:
        self.close()


LOADAVG = "/proc/loadavg"


def threads_now() -> int:
    """Threads for the next generation: this process's cores less those other programs are
    running on right now (`MASFUZZ_LOCAL_THREADS` fixes the number).

    llama.cpp's threads meet at a barrier after every layer, so one thread the scheduler
    left waiting for a core stalls all the others. On two cores that other test suites kept
    busy (load 16-18), a token of Gemma 3 270M took 7.5-8.5 s with two threads and 2.2 s with
    one; on an idle machine both cores are the faster choice. The least of a few readings of
    the runnable tasks in /proc/loadavg, not the load average, which counts this process's own
    threads of the last minute."""
    fixed = os.environ.get("MASFUZZ_LOCAL_THREADS")
    if fixed:
        return max(int(fixed), 1)
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    readings = []
    for i in range(3):
        if i:
            time.sleep(0.01)
        try:
            with open(LOADAVG) as f:
                readings.append(int(f.read().split()[3].split("/")[0]))
        except (OSError, ValueError, IndexError):
            return cores  # not Linux: as llama.cpp would
    others = max(min(readings) - 1, 0)  # the thread reading is running too
    return max(1, cores - others)


class Stopped(Exception):
    """A generation stopped at its deadline or because its caller went away."""


class Deadline:
    """When a local call must stop generating: at its timeout, or as soon as the caller stops
    waiting (cancelled). Checked after every token, so a stopped call frees the CPU and the
    model's lock within one token, not after its `max_tokens`."""

    def __init__(self, timeout: float | None) -> None:
        self.timeout = timeout
        self.at = time.monotonic() + timeout if timeout else None
        self.cancelled = threading.Event()

    def passed(self) -> bool:
        return self.cancelled.is_set() or (self.at is not None and time.monotonic() >= self.at)

    def remaining(self) -> float:
        """Seconds left (-1: no deadline, as `Lock.acquire` takes it)."""
        return -1 if self.at is None else max(self.at - time.monotonic(), 0.0)


def engine(name: str) -> Engine:
    with _engines_lock:
        if name not in _engines:
            _engines[name] = Engine(MODELS[name])
        return _engines[name]


@contextlib.contextmanager
def _quiet():
    """llama.cpp prints load and grammar chatter on fd 2; keep the user's terminal clean."""
    try:
        saved = os.dup(2)
    except OSError:
        yield
        return
    try:
        with open(os.devnull, "wb") as null:
            os.dup2(null.fileno(), 2)
            yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)


TEMPLATE_TOKENS = 32  # what a chat template adds around a prompt, at most (measured: 10-20)


def fit_context(request: ChatRequest, count: Any, room: int) -> ChatRequest:
    """`request` cut to `room` tokens as `count(request)` counts them, for a context of 4096
    tokens that must hold the answer too: each message first cut to what could fit at all,
    then the oldest turns after the first user message left out, one at a time (the task and
    the latest turns are what the next step needs), then the longest message halved."""
    room -= TEMPLATE_TOKENS
    cap = max(room, 1) * 4  # characters: a token is at least one, about four in English
    messages = [m if len(m.content or "") <= cap else
                m.model_copy(update={"content": (m.content or "")[:cap] + " [cut]"})
                for m in request.messages]
    request = request.model_copy(update={"messages": tuple(messages)})
    while count(request) > room:
        messages = list(request.messages)
        turns = [i for i, m in enumerate(messages) if m.role != "system"]
        if len(turns) > 2:
            del messages[turns[1]]
        else:
            i = max(range(len(messages)), key=lambda k: len(messages[k].content or ""))
            text = messages[i].content or ""
            if len(text) < 64:
                break  # nothing left worth cutting: let the model say the prompt is too long
            messages[i] = messages[i].model_copy(update={"content": text[: len(text) // 2] + " [cut]"})
        request = request.model_copy(update={"messages": tuple(messages)})
    return request


class LocalClient:
    uses_network = False
    times_each_attempt = True  # the timeout is the generation's deadline (`Deadline`)

    def __init__(self, spec: ModelSpec, **_: Any) -> None:
        if importlib.util.find_spec("llama_cpp") is None:
            raise ModelError(f"{spec.display}: llama-cpp-python is missing; {INSTALL_HINT}")
        self.spec = spec
        self.model_string = spec.display
        self.model = MODELS[spec.model]

    async def complete(self, request: ChatRequest, *, timeout: float | None = None) -> ChatReply:
        # The timeout bounds the whole call, its retries for invalid output included: they are
        # this model's way to answer, not a failure to recover from. The thread cannot be
        # cancelled, so the deadline stops its generation instead.
        deadline = Deadline(timeout)
        try:
            # Loading takes a second; do it off the event loop too.
            eng = await asyncio.to_thread(engine, self.model.name)
            return await asyncio.to_thread(self._complete, eng, request, deadline)
        except Stopped:
            raise ModelCallFailed(f"{self.model_string}: no reply within {timeout:g} s "
                                  "(generation stopped)") from None
        except BaseException:
            deadline.cancelled.set()  # the caller went away: stop generating for nobody
            raise

    def _complete(self, eng: Engine, request: ChatRequest, deadline: Deadline) -> ChatReply:
        start = time.perf_counter()
        tools_wanted = bool(request.tools) and request.tool_choice != "none"
        request = fit_context(request, lambda r: eng.count(self._prompt_text(r, tools_wanted)),
                              self.model.n_ctx - (request.max_tokens or (TOOL_MAX_TOKENS if tools_wanted
                                                                         else TEXT_MAX_TOKENS)))
        used = TokenUsage()
        text, error = "", ""
        for attempt in range(ATTEMPTS):
            # First try greedy (or the caller's temperature); retries sample with other seeds.
            temperature = request.temperature if request.temperature is not None else 0.0
            if attempt:
                temperature = max(temperature, 0.7)
            # slot: whose prompts these are, for the prefix states (`Engine._save`)
            options = dict(temperature=temperature, seed=(request.seed or 0) + attempt, deadline=deadline,
                           slot=f"{request.role}:{request.agent or ''}")
            if tools_wanted:
                reply = self._tool_attempt(eng, request, **options)
            else:
                reply = self._text_attempt(eng, request, **options)
            text, usage, result = reply
            used = TokenUsage(
                tokens_in=used.tokens_in + int(usage.get("prompt_tokens", 0)),
                tokens_out=used.tokens_out + int(usage.get("completion_tokens", 0)),
            )
            if isinstance(result, ChatReply):
                return result.model_copy(update={"usage": used, "latency": time.perf_counter() - start})
            error = result
        # Not a tool call masfuzz can vouch for: hand back the raw text, marked as an error.
        return ChatReply(
            text=f"{text}\n[masfuzz: invalid model output after {ATTEMPTS} attempts: {error}]",
            finish_reason="error",
            usage=used,
            latency=time.perf_counter() - start,
        )

    def _prompt_text(self, request: ChatRequest, tools_wanted: bool) -> str:
        """The text the model reads for `request` (near enough to count its tokens)."""
        if tools_wanted:
            reply = toolprompt.reply_name(request.tools) if toolprompt.may_reply(request) else None
            return toolprompt.tool_prompt(request, toolprompt.allowed_tools(request), reply)
        if self.model.base_model:
            return toolprompt.transcript_prompt(request)
        # a chat template adds a few tokens around each turn
        return "\n\n\n\n".join(m["content"] for m in toolprompt.text_messages(request, self.model.folds_system))

    def _tool_attempt(self, eng: Engine, request: ChatRequest, **sampling: Any):
        tools = toolprompt.allowed_tools(request)
        reply = toolprompt.reply_name(request.tools) if toolprompt.may_reply(request) else None
        prompt = toolprompt.tool_prompt(request, tools, reply)
        try:
            schema = toolprompt.choice_schema(tools, reply)
            text, usage = eng.chat([{"role": "user", "content": prompt}], schema=schema,
                                   max_tokens=request.max_tokens or TOOL_MAX_TOKENS, **sampling)
        except ValueError:
            # A tool schema the grammar converter cannot express: constrain the shape only.
            loose = toolprompt.choice_schema(
                tuple(t.model_copy(update={"parameters": {"type": "object"}}) for t in tools), reply
            )
            text, usage = eng.chat([{"role": "user", "content": prompt}], schema=loose,
                                   max_tokens=request.max_tokens or TOOL_MAX_TOKENS, **sampling)
        try:
            said, call = toolprompt.parse_choice(text, tools, reply)
        except toolprompt.InvalidOutput as exc:
            return text, usage, str(exc)
        if call is None:
            return text, usage, ChatReply(text=said, finish_reason="stop")
        call = call.model_copy(update={"id": deterministic_call_id(request, 0, call)})
        return text, usage, ChatReply(tool_calls=(call,), finish_reason="tool_calls")

    def _text_attempt(self, eng: Engine, request: ChatRequest, **sampling: Any):
        schema = toolprompt.bounded_integers(request.response_schema) if request.response_schema else None
        options = dict(schema=schema, max_tokens=request.max_tokens or TEXT_MAX_TOKENS, **sampling)
        if self.model.base_model:
            stop = None if request.response_schema else ["\nUser:", "\n\n"]
            text, usage = eng.complete(toolprompt.transcript_prompt(request), stop=stop, **options)
        else:
            text, usage = eng.chat(toolprompt.text_messages(request, self.model.folds_system), **options)
        if request.response_schema is not None:
            try:
                toolprompt.validate(toolprompt.parse_json(text), request.response_schema, "the reply")
            except toolprompt.InvalidOutput as exc:
                return text, usage, str(exc)
        finish = "length" if int(usage.get("completion_tokens", 0)) >= (request.max_tokens or TEXT_MAX_TOKENS) else "stop"
        return text, usage, ChatReply(text=text.strip(), finish_reason=finish)

