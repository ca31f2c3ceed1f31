"""What an AG2 / AutoGen 0.2-style app does while it runs, seen from inside the framework.

0.2-style apps are programs, not one team object: a script starts a two-agent chat, a sequence
of chats with carry-over (`initiate_chats`), a group chat; agents start nested chats to compose
their replies. masfuzz sees all of it through a few methods every app goes through, wrapped once
per process (`install`) and inert unless a `Session` is active in the calling context:

- `ConversableAgent.__init__`: agents the program builds have their termination check watched
  and, in a recorded run, are pointed at masfuzz's model endpoint as they are built (so agents made inside `main()` or at
  module level are covered, not only the ones masfuzz was handed);
- `initiate_chat`: a chat starts and ends (`ChatStart`/`ChatEnd`; nesting from the chats under
  way). While reading an app (`mode="read"`) a chat is noted and not run, so a script's whole
  plan is known without a model;
- `send`: one message from one agent to another: a model agent's turn (with its tool calls), a
  proxy's tool results, the user's words. A group chat manager's re-broadcasts are not messages;
- `execute_function`: whether a tool call succeeded, as the framework judged it;
- `GroupChat.select_speaker`: the manager's own bookkeeping chat (AG2 runs speaker selection as
  an inner two-agent chat) is not the app's conversation.

The framework's console output goes through the session's `IOStream`: nothing reaches stdout,
the stop reasons AG2 announces become the chats' end reasons, and human-input prompts are
answered by the session (the user never types; a stand-in answers as documented in `answer`).
"""

from __future__ import annotations

import contextlib
import contextvars
import functools
import inspect
import itertools
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator

import autogen
from autogen.agentchat.chat import ChatResult
from autogen.io.base import IOStream

from masfuzz.adapters import faults
from masfuzz.adapters.transcript import split_carryover
from masfuzz.llm.openai_format import parse_arguments
from masfuzz.trace import (
    ChatEnd, ChatStart, DelegationEvent, Message, RestrictedAttempt, ToolCall, ToolResult, TraceRecorder,
    run_ended,
)

_SESSION: contextvars.ContextVar["Session | None"] = contextvars.ContextVar("masfuzz_ag2", default=None)
_INIT_SIG = inspect.signature(autogen.ConversableAgent.initiate_chat)
READ_LIMIT = 50  # chats a program may start while it is read; a loop that goes on is cut there
TASK_ANSWERS = 10  # input() calls answered with the task before any chat (then exit, then EOF)


class StopReading(BaseException):
    """Ends a program being read once it has started `READ_LIMIT` chats (an endless loop)."""


def has_model(agent: Any) -> bool:
    return bool(getattr(agent, "llm_config", None)) and not isinstance(agent, autogen.GroupChatManager)


def llm_config(agent: Any) -> dict[str, Any]:
    """A copy of `agent`'s llm_config as a dict (AG2 may hold an `LLMConfig`); {} without one."""
    cfg = getattr(agent, "llm_config", None)
    if not cfg:
        return {}
    return dict(cfg) if isinstance(cfg, dict) else cfg.model_dump()


def tool_parameters(function: dict[str, Any]) -> dict[str, Any]:
    """A tool's parameter schema as AG2 offers it, with the `$defs` AG2 leaves inside each
    parameter (pydantic's schema of that parameter alone, whose `$ref`s still say
    `#/$defs/...` from the root) moved to the root, where those references resolve."""
    defs: dict[str, Any] = {}

    def lift(node: Any, root: bool) -> Any:
        if isinstance(node, list):
            return [lift(v, False) for v in node]
        if not isinstance(node, dict):
            return node
        out = {k: lift(v, False) for k, v in node.items() if root or k not in ("$defs", "definitions")}
        if not root:
            for key in ("$defs", "definitions"):
                for name, sub in (node.get(key) or {}).items():
                    defs.setdefault(name, lift(sub, False))
        return out

    schema = lift(function.get("parameters") or {}, True)
    if defs:
        schema["$defs"] = {**defs, **(schema.get("$defs") or {})}
    return schema


@dataclass
class ChatCall:
    """One chat a program starts, as read (not run)."""

    sender: Any
    recipient: Any
    message: str
    max_turns: int | None


@dataclass
class _Frame:
    chat: str
    sender: Any
    recipient: Any
    trigger: str
    speaker: str | None = None  # the model agent that spoke last in this chat
    first: bool = True  # the opening message is not yet sent
    reason: str = ""
    summary_method: Any = "last_msg"
    max_turns: int | None = None
    carryover: bool = False  # the opening carries earlier chats' summaries (`split_carryover`)
    task: bool = False  # the opening is the user's task (the scenario's input)


@dataclass
class Session:
    """One read or one recorded run of an AG2 program in the current context."""

    mode: str  # "read" | "record"
    rec: TraceRecorder | None = None
    redirect: Callable[[Any], None] | None = None  # points a new agent at the endpoint
    arrange: Callable[[Any], None] | None = None  # puts a new group chat in the speaking order
    summary_prompt: Callable[[str], None] | None = None  # tells the endpoint a chat's summary prompt
    task: str | None = None  # replaces the first top-level chat's opening message
    task_answer: str | None = None  # what the program's input() gets before its first chat (the task)
    chats: list[ChatCall] = field(default_factory=list)
    direct: list[Any] = field(default_factory=list)  # agents the app asks for a reply outside chats
    frames: list[_Frame] = field(default_factory=list)
    top_chats: int = 0
    last_top_speaker: str | None = None
    calls: dict[str, ToolCall] = field(default_factory=dict)
    handing: dict[str, str] = field(default_factory=dict)  # agent -> the agent its hand-over tool call names
    outcomes: dict[str, bool] = field(default_factory=dict)
    selecting: int = 0
    last_reason: str = ""  # why the last top-level chat stopped, in the framework's words
    human_prompts: int = 0
    lines_read: int = 0  # the program's own input() calls
    said_exit: bool = False
    injections: dict[str, faults.Injection] = field(default_factory=dict)  # tool -> fault or stub
    probes: dict[str, set[str]] = field(default_factory=dict)  # agent -> restricted tools offered (--restricted probe)
    probing: set[str] = field(default_factory=set)  # call keys of probe calls not yet answered
    run_code: bool = False  # let the app's code executors run what its agents write
    code_not_run: list[dict[str, str]] = field(default_factory=list)  # what the stand-in kept
    _ids: Any = field(default_factory=lambda: itertools.count(1))

    # --- the program's own input() ----------------------------------------------------------

    def read_line(self, prompt: str = "") -> str:
        """A module-level `input()`. Until the program starts its first chat, the task (an app
        may ask for it in parts: a brand, an objective), at most `TASK_ANSWERS` times; then
        `exit` once, which ends the usual `while True: input()` loops; then end of file, as a
        closed stdin gives."""
        self.lines_read += 1
        started = bool(self.chats) or self.top_chats > 0
        if self.task_answer is not None and not started and self.lines_read <= TASK_ANSWERS:
            return self.task_answer
        if not self.said_exit:
            self.said_exit = True
            return "exit"
        raise EOFError("masfuzz: no more scripted input")

    # --- the framework's IOStream -------------------------------------------------------------

    def answer(self, prompt: str) -> str:
        """A human-input prompt inside a chat. The stand-in user says nothing: AG2 then auto-
        replies (ALWAYS mode) or ends the chat (TERMINATE mode, its reply to a termination
        message), as a user who only watches would."""
        self.human_prompts += 1
        return ""

    def announced(self, event: Any) -> None:
        content = getattr(event, "content", event)
        reason = getattr(content, "termination_reason", None)
        if reason and self.frames:
            self.frames[-1].reason = str(reason)

    # --- chats ------------------------------------------------------------------------------

    def read_chat(self, sender: Any, recipient: Any, args: dict[str, Any]) -> ChatResult:
        text = opening_text(args.get("message"))
        self.chats.append(ChatCall(sender, recipient, text, args.get("max_turns")))
        if len(self.chats) >= READ_LIMIT:
            raise StopReading()
        return ChatResult(chat_history=[{"content": text, "role": "assistant", "name": sender.name}],
                          summary=text)

    def chat_begins(self, sender: Any, recipient: Any, args: dict[str, Any]) -> _Frame:
        assert self.rec is not None
        parent = self.frames[-1] if self.frames else None
        if parent is None and self.top_chats == 0 and self.task:
            args["message"] = self.task  # the scenario's input is the program's first task
        prompt = (args.get("summary_args") or {}).get("summary_prompt") or \
            args.get("kwargs", {}).get("summary_prompt")
        if isinstance(prompt, str) and prompt.strip() and self.summary_prompt is not None:
            self.summary_prompt(prompt.strip())
        kind = "nested" if parent else ("sequence" if self.top_chats else "chat")
        if parent is None:
            self.top_chats += 1
        elif has_model(sender):
            self._speaks(parent, sender.name)  # composing its reply, the holder delegates
        carryover = bool(args.get("kwargs", {}).get("carryover"))
        frame = _Frame(f"chat-{next(self._ids)}", sender, recipient,
                       _trigger(recipient, nested=parent is not None),
                       summary_method=args.get("summary_method"), max_turns=args.get("max_turns"),
                       carryover=carryover, task=parent is None and self.top_chats == 1)
        if parent is not None:
            # the holder speaks into its nested chat; a proxy's passes on its chat's speaker
            frame.speaker = sender.name if has_model(sender) else parent.speaker
        elif self.last_top_speaker:
            frame.speaker = self.last_top_speaker  # the sequence hands the work on
        self.frames.append(frame)
        self.rec.add(ChatStart(chat=frame.chat, parent=parent.chat if parent else None, kind=kind,
                               sender=sender.name, recipient=recipient.name, carryover=carryover))
        return frame

    def chat_ends(self, frame: _Frame, result: Any) -> None:
        assert self.rec is not None
        self.frames.remove(frame)
        summary = getattr(result, "summary", "") if result is not None else ""
        summary = summary if isinstance(summary, str) else str(summary)
        if frame.summary_method == "reflection_with_llm" and summary:
            # AG2 has the recipient's model (else the sender's) sum the chat up: that agent's
            # work, carried over to the next chat
            who = next((a for a in (frame.recipient, frame.sender) if has_model(a)), None)
            if who is not None:
                self._speaks(frame, who.name)
                self.rec.turn(who.name)
                self.rec.add(Message(agent=who.name, content=summary))
        frame.reason = frame.reason or _inferred_reason(frame, result)
        self.rec.add(ChatEnd(chat=frame.chat, reason=frame.reason, summary=summary))
        if not self.frames:
            self.last_reason = frame.reason
            if frame.speaker:
                self.last_top_speaker = frame.speaker

    # --- messages -----------------------------------------------------------------------------

    def sent(self, sender: Any, recipient: Any, message: Any) -> None:
        if self.rec is None or self.selecting or isinstance(sender, autogen.GroupChatManager):
            return
        msg = {"content": message} if isinstance(message, str) else dict(message or {})
        frame = self.frames[-1] if self.frames else None
        opening = frame is not None and frame.first
        if frame is not None:
            frame.first = False
        if msg.get("tool_responses") or msg.get("role") in ("tool", "function"):
            self._results(msg)
            return
        text = _text(msg.get("content"))
        calls = list(msg.get("tool_calls") or ())
        legacy = msg.get("function_call")
        if not has_model(sender) or (opening and frame is not None and len(self.frames) == 1):
            self._in_users_place(frame if opening else None, text)
            return
        if frame is not None:
            self._speaks(frame, sender.name)
        self.rec.turn(sender.name)
        if text:
            self.rec.add(Message(agent=sender.name, content=text))
        for tc in calls:
            fn = tc.get("function") or {}
            self._call(sender.name, fn.get("name", ""), fn.get("arguments"), tc.get("id", ""))
            if target := _handover_target(sender, fn.get("name", "")):
                self.handing[sender.name] = target
        if legacy:
            self._call(sender.name, legacy.get("name", ""), legacy.get("arguments"), "")

    def _in_users_place(self, opening: _Frame | None, text: str) -> None:
        """A message its reader gets in the user's role, by its writer: the opening of the
        program's first chat is the user's task; a later chat's opening (a sequence's next step,
        a nested chat's prepared message) and a proxy's other words (its automatic reply, the
        output of the code it ran; masfuzz's stand-in human says nothing) are the app's; the
        carry-over AG2 appends to an opening (`split_carryover`: the earlier chats' summaries)
        is those chats' agents' words passed on, recorded apart so that no oracle takes a fact
        in it for one the user gave (what the next chat's agent received keeps it:
        `handover_inputs`)."""
        assert self.rec is not None
        own, carried = split_carryover(text) if opening is not None and opening.carryover else (text, "")
        if own.strip():
            users = opening is not None and opening.task
            self.rec.add(Message(role="user", content=own, source=None if users else "app"))
        if carried.strip():
            self.rec.add(Message(role="user", content=carried, source="carryover"))

    def replied(self, agent: Any, reply: Any) -> None:
        """The app asked `agent` for a reply directly, outside any chat."""
        if self.rec is None or not has_model(agent):
            return
        self.rec.turn(agent.name)
        text = _text(reply.get("content") if isinstance(reply, dict) else reply)
        if text:
            self.rec.add(Message(agent=agent.name, content=text))

    def _speaks(self, frame: _Frame, name: str) -> None:
        assert self.rec is not None
        if frame.speaker and frame.speaker != name:
            # the speaker's own hand-over tool (an `OnCondition`'s `transfer_to_crew_c_1`) chose
            # this agent: a hand-off, whatever picks the group's speakers otherwise
            handed = self.handing.pop(frame.speaker, None) == name
            self.rec.add(DelegationEvent(**{"from": frame.speaker, "to": name,
                                            "trigger": "handoff" if handed else frame.trigger}))
        frame.speaker = name

    def _call(self, agent: str, tool: str, raw: Any, call_id: str) -> None:
        assert self.rec is not None
        call = ToolCall(agent=agent, tool=tool, arguments=parse_arguments(raw), call_id=call_id)
        self.calls[call_id or f"legacy:{tool}"] = call
        if tool in self.probes.get(agent, ()):  # a tool masfuzz offered it and it may not use
            self.probing.add(call_id or f"legacy:{tool}")
            self.rec.add(RestrictedAttempt(agent=agent, tool=tool, arguments=call.arguments,
                                           call_id=call_id, mode="probe"))
            return
        self.rec.add(call)

    def _results(self, msg: dict[str, Any]) -> None:
        assert self.rec is not None
        responses = msg.get("tool_responses") or [
            {"tool_call_id": msg.get("tool_call_id") or f"legacy:{msg.get('name', '')}",
             "content": msg.get("content")}]
        for r in responses:
            key = r.get("tool_call_id", "")
            call = self.calls.get(key)
            if call is None:
                continue
            # releases without call ids (0.2.x) note the outcome under the tool's name
            ok = self.outcomes.pop(key, None)
            if ok is None:
                ok = self.outcomes.pop(f"legacy:{call.tool}", True)
            if key in self.probing:  # the framework refused it: the executor had no such function
                self.probing.discard(key)
                self.rec.add(ToolResult(agent=call.agent, tool=call.tool, call_id=call.call_id,
                                        status="blocked", payload=_text(r.get("content"))))
                continue
            injection = self.injections.get(call.tool)
            self.rec.add(ToolResult(agent=call.agent, tool=call.tool, call_id=call.call_id,
                                    status="ok" if ok else "error", payload=_text(r.get("content")),
                                    fault=injection.mode if injection else None))

    def kept_code(self, agent: str, language: str, code: str) -> None:
        """A code block an agent's executor was given and the stand-in did not run."""
        self.code_not_run.append(faults.kept_code(agent, language, code))

    def executed(self, func_call: dict[str, Any], call_id: str | None, ok: bool) -> None:
        self.outcomes[call_id or f"legacy:{func_call.get('name', '')}"] = ok


class Stream:
    """The framework's IOStream during a session: its console output goes nowhere (never to
    masfuzz's stdout; the trace holds the conversation), stop reasons go to the session, human
    input comes from the session's stand-in."""

    def __init__(self, session: Session) -> None:
        self.session = session

    def print(self, *objects: Any, sep: str = " ", end: str = "\n", flush: bool = False) -> None:
        pass

    def send(self, message: Any) -> None:
        self.session.announced(message)

    def input(self, prompt: str = "", *, password: bool = False) -> str:
        return self.session.answer(prompt)


def _inferred_reason(frame: _Frame, result: Any) -> str:
    """Why a chat stopped, in AG2's words, for releases that do not announce it (0.2.x): its
    bound, counted from its history. (A termination message is seen as the app's own check
    says so, `watch_termination`: the check is never called again, it may have side effects.)"""
    history = list(getattr(result, "chat_history", None) or ())
    group = getattr(frame.recipient, "groupchat", None)
    if group is not None:
        if len(group.messages) >= group.max_round:
            return f"Maximum rounds ({group.max_round}) reached"
        return ""
    if not history:
        return ""
    if frame.max_turns is not None and len(history) >= 2 * frame.max_turns:
        return f"Maximum turns ({frame.max_turns}) reached"
    return ""


def _handover_target(agent: Any, tool: str) -> str | None:
    """The agent an AG2 hand-over tool of `agent` names: the `transfer_to_<target>_<n>` function
    AG2 makes of each of its `OnCondition`s (`handoffs.llm_conditions`), whose target is an
    agent by name (`AgentTarget`, `AgentNameTarget`); None for any other tool."""
    for c in getattr(getattr(agent, "handoffs", None), "llm_conditions", None) or ():
        if getattr(c, "llm_function_name", None) == tool:
            return getattr(c.target, "agent_name", None)
    return None


def _trigger(recipient: Any, *, nested: bool) -> str:
    group = getattr(recipient, "groupchat", None)
    if group is not None:
        return "sequence" if group.speaker_selection_method == "round_robin" or coded_selection(group) \
            else "selector"
    return "delegate" if nested else "sequence"


def coded_selection(group: Any) -> bool:
    """Does a function of the app's pick the group's speakers (`speaker_selection_method=
    next_speaker`, a hand-over map)? Then its code routes, as a graph's edges do, not a model
    choosing from the members' descriptions. AG2's own group transition (a pattern's hand-offs,
    `handoffs.pattern_transition`) is not one."""
    fn = getattr(group, "speaker_selection_method", None)
    return callable(fn) and not getattr(fn, "__qualname__", "").startswith("create_group_transition.")


def opening_text(message: Any) -> str:
    """The text of a chat's opening message in each form AG2 takes: a string, a message dict
    (`{"role": "user", "content": ...}`) whose content may be a list of parts, or the parts
    alone; a callable (the message computed at run time) has none to read beforehand."""
    if isinstance(message, dict):
        return _text(message.get("content"))
    return _text(message) if isinstance(message, (str, list)) else ""


def _text(content: Any) -> str:
    if content is None:
        return ""
    if isinstance(content, list):  # multimodal parts
        return " ".join(str(p.get("text", "")) for p in content if isinstance(p, dict))
    text = str(content)
    return "" if text == "None" else text  # AG2 keeps a missing content as the text "None"


# --- the wrappers ----------------------------------------------------------------------------

def current() -> Session | None:
    return _SESSION.get()


def activate(session: Session) -> contextvars.Token:
    return _SESSION.set(session)


def deactivate(token: contextvars.Token) -> None:
    _SESSION.reset(token)


def install() -> None:
    """Wrap the framework's methods once per process (inert without a session)."""
    agent, group = autogen.ConversableAgent, autogen.GroupChat
    if getattr(agent.send, "_masfuzz", False):
        return
    _wrap(agent, "__init__", _init)
    _wrap(autogen.GroupChatManager, "__init__", _manager_init)
    _wrap(agent, "initiate_chat", _initiate_chat)
    _wrap(agent, "a_initiate_chat", _a_initiate_chat)
    _wrap(agent, "send", _send)
    _wrap(agent, "a_send", _a_send)
    _wrap(agent, "generate_reply", _generate_reply)
    _wrap(agent, "execute_function", _execute)
    _wrap(agent, "a_execute_function", _a_execute)
    _wrap(agent, "run_code", _run_code)
    _wrap(agent, "_generate_code_execution_reply_using_executor", _code_reply)
    _wrap(group, "select_speaker", _select)
    _wrap(group, "a_select_speaker", _a_select)


class _CodeStandIn:
    """In place of an agent's code executor: records the code blocks it is given and runs none
    of them; anything else (its `code_extractor`, its work folder) is the executor's own."""

    def __init__(self, session: Session, agent: str, own: Any) -> None:
        self.session, self.agent, self.own = session, agent, own

    def __getattr__(self, name: str) -> Any:
        return getattr(self.own, name)

    def execute_code_blocks(self, code_blocks: Any) -> Any:
        from autogen.coding.base import CodeResult

        for block in code_blocks:
            self.session.kept_code(self.agent, getattr(block, "language", ""), getattr(block, "code", ""))
        return CodeResult(exit_code=0, output=faults.CODE_NOT_RUN)


def _stands_in(s: "Session | None") -> bool:
    return s is not None and s.mode == "record" and not s.run_code and not s.selecting


def _code_reply(original: Any) -> Any:
    """An agent with a code executor (`code_execution_config={"executor": ...}`): the stand-in
    takes the executor's place while the agent makes its reply."""
    def reply(self: Any, *args: Any, **kwargs: Any) -> Any:
        s = _SESSION.get()
        own = getattr(self, "_code_executor", None)
        if not _stands_in(s) or own is None:
            return original(self, *args, **kwargs)
        self._code_executor = _CodeStandIn(s, self.name, own)
        try:
            return original(self, *args, **kwargs)
        finally:
            self._code_executor = own
    return reply


def _run_code(original: Any) -> Any:
    """The legacy path (`code_execution_config={"work_dir": ...}`, Docker or not): every block
    reaches `run_code`, which the stand-in answers."""
    def run_code(self: Any, code: str, **kwargs: Any) -> Any:
        s = _SESSION.get()
        if not _stands_in(s):
            return original(self, code, **kwargs)
        assert s is not None
        s.kept_code(self.name, str(kwargs.get("lang", "")), code)
        return 0, faults.CODE_NOT_RUN, None
    return run_code


def _wrap(cls: type, name: str, make: Callable[[Any], Any]) -> None:
    original = getattr(cls, name)
    hooked = make(original)
    # A run the in-process executor abandoned at its time limit goes on in its thread (a tool
    # that blocked past the limit returns later): the next framework method it calls unwinds it
    # (`RunEnded`, past AG2's `except Exception`), before it sends on, asks a model (through the
    # agents' clients the next run has pointed at its own endpoint) or runs a tool.
    if inspect.iscoroutinefunction(hooked):
        async def wrapper(*args: Any, **kwargs: Any) -> Any:
            _unless_ended(name)
            return await hooked(*args, **kwargs)
    else:
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            _unless_ended(name)
            return hooked(*args, **kwargs)
    wrapper = functools.wraps(original)(wrapper)
    wrapper._masfuzz = True  # type: ignore[attr-defined]
    setattr(cls, name, wrapper)


def _unless_ended(name: str) -> None:
    if run_ended():
        raise faults.RunEnded(f"the run ended (its time limit) before this {name}")


def watch_termination(agent: Any) -> None:
    """Wrap `agent`'s termination check (an instance attribute) so that when it says yes, the
    chat under way notes it in AG2's words. The app's check runs exactly as often as before."""
    check = getattr(agent, "_is_termination_msg", None)
    if check is None or getattr(check, "_masfuzz", False):
        return
    whose = ("the GroupChatManager" if isinstance(agent, autogen.GroupChatManager) else "agent")

    def is_termination_msg(message: Any) -> Any:
        said = check(message)
        s = _SESSION.get()
        if said and s is not None and s.frames and not s.selecting and not s.frames[-1].reason:
            s.frames[-1].reason = f"Termination message condition on {whose} '{agent.name}' met"
        return said
    is_termination_msg._masfuzz = True  # type: ignore[attr-defined]
    is_termination_msg._masfuzz_original = check  # type: ignore[attr-defined]
    agent._is_termination_msg = is_termination_msg


def _init(original: Any) -> Any:
    def init(self: Any, *args: Any, **kwargs: Any) -> None:
        original(self, *args, **kwargs)
        s = _SESSION.get()
        if s is None or s.selecting:
            return
        watch_termination(self)
        if s.redirect is not None and getattr(self, "llm_config", None):
            s.redirect(self)
    return init


def _manager_init(original: Any) -> Any:
    """A group chat manager's own constructor: its group chat is known only once it is done
    (0.2.x releases set it after `ConversableAgent.__init__`)."""
    def init(self: Any, *args: Any, **kwargs: Any) -> None:
        original(self, *args, **kwargs)
        s = _SESSION.get()
        if s is not None and not s.selecting and s.arrange is not None:
            s.arrange(self.groupchat)
    return init


def _bind(self: Any, recipient: Any, args: tuple, kwargs: dict) -> dict[str, Any]:
    bound = _INIT_SIG.bind(self, recipient, *args, **kwargs)
    return dict(bound.arguments)


def _call_with(original: Any, arguments: dict[str, Any]) -> Any:
    extra = arguments.pop("kwargs", {})
    return original(**arguments, **extra)


def _initiate_chat(original: Any) -> Any:
    def initiate_chat(self: Any, recipient: Any, *args: Any, **kwargs: Any) -> Any:
        s = _SESSION.get()
        if s is None or s.selecting:
            return original(self, recipient, *args, **kwargs)
        arguments = _bind(self, recipient, args, kwargs)
        if s.mode == "read":
            return s.read_chat(self, recipient, arguments)
        frame = s.chat_begins(self, recipient, arguments)
        result = None
        try:
            result = _call_with(original, arguments)
            return result
        finally:
            s.chat_ends(frame, result)
    return initiate_chat


def _a_initiate_chat(original: Any) -> Any:
    async def a_initiate_chat(self: Any, recipient: Any, *args: Any, **kwargs: Any) -> Any:
        s = _SESSION.get()
        if s is None or s.selecting:
            return await original(self, recipient, *args, **kwargs)
        arguments = _bind(self, recipient, args, kwargs)
        if s.mode == "read":
            return s.read_chat(self, recipient, arguments)
        frame = s.chat_begins(self, recipient, arguments)
        result = None
        try:
            result = await _call_with(original, arguments)
            return result
        finally:
            s.chat_ends(frame, result)
    return a_initiate_chat


def _send(original: Any) -> Any:
    def send(self: Any, message: Any, recipient: Any, *args: Any, **kwargs: Any) -> Any:
        s = _SESSION.get()
        if s is not None:
            s.sent(self, recipient, message)
        return original(self, message, recipient, *args, **kwargs)
    return send


def _a_send(original: Any) -> Any:
    async def a_send(self: Any, message: Any, recipient: Any, *args: Any, **kwargs: Any) -> Any:
        s = _SESSION.get()
        if s is not None:
            s.sent(self, recipient, message)
        return await original(self, message, recipient, *args, **kwargs)
    return a_send


NOT_RUN = "(not run: masfuzz is reading the app)"


def _generate_reply(original: Any) -> Any:
    """A reply the app asks an agent for outside any chat (`agent.generate_reply(messages)`):
    no model while the app is read; in a run, that agent's turn."""
    def generate_reply(self: Any, *args: Any, **kwargs: Any) -> Any:
        s = _SESSION.get()
        if s is None or s.selecting or s.frames:
            return original(self, *args, **kwargs)
        if s.mode == "read":
            s.direct.append(self)
            return NOT_RUN
        reply = original(self, *args, **kwargs)
        s.replied(self, reply)
        return reply
    return generate_reply


def _executed(sig: inspect.Signature, call: tuple, kwargs: dict, ok: bool) -> None:
    """Note how an `execute_function(self, func_call, ...)` call went (its `call_id`: older
    0.2 releases have none)."""
    s = _SESSION.get()
    if s is None:
        return
    call_id = sig.bind(*call, **kwargs).arguments.get("call_id") if "call_id" in sig.parameters else None
    s.executed(call[1], call_id, ok)


@contextlib.contextmanager
def _injected(agent: Any, func_call: Any) -> Iterator[None]:
    """While `agent` executes `func_call`: a tool with a fault or a stub in this session has the
    stand-in in its place in the agent's function map, so the framework calls it and reports
    its result (or its error) exactly as it would the tool's own."""
    s = _SESSION.get()
    name = func_call.get("name", "") if isinstance(func_call, dict) else ""
    table = getattr(agent, "_function_map", None)
    injection = s.injections.get(name) if s is not None else None
    if s is not None and isinstance(table, dict) and name in table and \
            any(k == f"legacy:{name}" or s.calls[k].tool == name for k in s.probing if k in s.calls):
        # a probe call (`--restricted probe`): the executor runs no function its caller may not
        # use, and answers as AG2 does for a function it does not have
        own = table.pop(name)
        try:
            yield
        finally:
            table[name] = own
        return
    if injection is None or not isinstance(table, dict) or name not in table:
        yield
        return
    own = table[name]
    table[name] = lambda *a, **kw: faults.injected(injection, name)
    try:
        yield
    finally:
        table[name] = own


def _execute(original: Any) -> Any:
    sig = inspect.signature(original)

    def execute_function(self: Any, func_call: Any, *args: Any, **kw: Any) -> Any:
        with _injected(self, func_call):
            ok, result = original(self, func_call, *args, **kw)
        _executed(sig, (self, func_call, *args), kw, ok)
        return ok, result
    return execute_function


def _a_execute(original: Any) -> Any:
    sig = inspect.signature(original)

    async def a_execute_function(self: Any, func_call: Any, *args: Any, **kw: Any) -> Any:
        with _injected(self, func_call):
            ok, result = await original(self, func_call, *args, **kw)
        _executed(sig, (self, func_call, *args), kw, ok)
        return ok, result
    return a_execute_function


@contextlib.contextmanager
def _selecting() -> Iterator[None]:
    """Inside speaker selection: the manager's own chat, not the app's."""
    s = _SESSION.get()
    if s is not None:
        s.selecting += 1
    try:
        yield
    finally:
        if s is not None:
            s.selecting -= 1


def _select(original: Any) -> Any:
    def select_speaker(self: Any, *args: Any, **kwargs: Any) -> Any:
        with _selecting():
            return original(self, *args, **kwargs)
    return select_speaker


def _a_select(original: Any) -> Any:
    async def a_select_speaker(self: Any, *args: Any, **kwargs: Any) -> Any:
        with _selecting():
            return await original(self, *args, **kwargs)
    return a_select_speaker
