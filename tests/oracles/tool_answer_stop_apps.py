"""An AG2 group chat whose manager's stop test reads every message, the proxy's tool answers
included, for `test_stop_on_a_tool_answer.py`: a pottery studio's kiln bookings. `desk_d`
finds the member with `find_member`; the app's speaker function then gives the floor to
`kiln_k`, who books a firing with `book_firing`.

`seeded`: "stop once the firing has a status" is written as any message holding a status, and
find_member's answer carries the membership's status: the chat ends on the look-up's answer,
before desk_d read it and before kiln_k spoke. `fixed`: the stop test waits for kiln_k's own
reply. Every agent runs `policy` below, a scripted model that reads its system message for the
tool it is to use, takes each argument from an earlier tool answer's key of the same name or
from the request by the shape of the tool's documented example, and asks for one it lacks.
"""

from __future__ import annotations

import ast
import re

import autogen

from examples.zoo.models import ag2_config
from masfuzz.llm.scripted import call, say, tool_results

MEMBERS = {"07700 900461": {"member_no": "PM-3310", "status": "active", "glaze_credit": 2}}


def find_member(phone: str) -> dict:
    """Find a studio member by the phone number on their card, like "07700 900123"."""
    return MEMBERS.get(phone, {"status": "unknown", "phone": phone})


def book_firing(member_no: str, firing_date: str) -> dict:
    """Book a member's pots into a glaze firing of the kiln on a date, like "2026-03-14"."""
    return {"status": "booked", "member_no": member_no, "firing_date": firing_date, "shelf": "K2-04"}


DESK = "You are desk_d at the Clayhouse studio.\nLook the member up with find_member.\nSay what find_member answered."
KILN = "You are kiln_k at the Clayhouse studio.\nBook the glaze firing with book_firing.\nSay what book_firing answered."


def _team(stop):
    cfg = ag2_config()
    studio_pc = autogen.UserProxyAgent("studio_pc", human_input_mode="NEVER", code_execution_config=False,
                                       default_auto_reply="")
    desk_d = autogen.AssistantAgent("desk_d", llm_config=cfg, system_message=DESK)
    kiln_k = autogen.AssistantAgent("kiln_k", llm_config=cfg, system_message=KILN)
    autogen.register_function(find_member, caller=desk_d, executor=studio_pc, description=find_member.__doc__)
    autogen.register_function(book_firing, caller=kiln_k, executor=studio_pc, description=book_firing.__doc__)
    shifts = [desk_d, kiln_k]

    def pick(last, chat):
        if chat.messages[-1].get("tool_calls"):
            return studio_pc  # the proxy runs every tool
        if last is studio_pc:  # the request, or a tool's answer, which goes back to its caller
            asked = chat.messages[-2] if len(chat.messages) > 1 else {}
            return chat.agent_by_name(asked["name"]) if asked.get("tool_calls") else desk_d
        return shifts[shifts.index(last) + 1] if last in shifts[:-1] else None

    group = autogen.GroupChat(agents=[studio_pc, desk_d, kiln_k], messages=[], max_round=10,
                              speaker_selection_method=pick)
    return autogen.GroupChatManager(groupchat=group, llm_config=cfg, is_termination_msg=stop)


def seeded():
    return _team(lambda m: "status" in str(m.get("content") or ""))


def fixed():
    return _team(lambda m: m.get("name") == "kiln_k" and bool(m.get("content")) and not m.get("tool_calls"))


# -- the scripted model --------------------------------------------------------------------------

def _example_shape(description: str) -> re.Pattern | None:
    """The shape of a documented example (`like "2026-03-14"`): digits for digits, letters for
    letters, the rest as written."""
    m = re.search(r'like "([^"]+)"', description)
    if not m:
        return None
    shape = "".join(r"\d" if c.isdigit() else "[A-Za-z]" if c.isalpha() else re.escape(c) for c in m.group(1))
    return re.compile(rf"(?<![\w-]){shape}(?![\w-])")


def _known(request) -> dict:
    """Every key and value the tools answered so far in the conversation."""
    out: dict = {}
    for r in tool_results(request):
        try:
            value = ast.literal_eval(r.content)
        except (ValueError, SyntaxError):
            continue
        if isinstance(value, dict):
            out.update(value)
    return out


def policy(request):
    lines = next((m.content or "" for m in request.messages if m.role == "system"), "")
    mine = [t for t in request.tools if re.search(rf"\bwith {re.escape(t.name)}\b", lines)]
    if not mine:
        return say("Noted.")
    tool = mine[0]
    done = tool_results(request, tool.name)
    if done:
        return say(f"{tool.name} answered: {done[-1].content}")
    asked = " ".join(m.content or "" for m in request.messages if m.role == "user")
    known, args = _known(request), {}
    for name, schema in (tool.parameters.get("properties") or {}).items():
        if name in known:
            args[name] = known[name]
            continue
        shape = _example_shape(f"{tool.description} {schema.get('description', '')}")
        found = shape.search(asked) if shape else None
        if found is None:
            return say(f"Could you give me the {name.replace('_', ' ')}?")
        args[name] = found.group(0)
    return call(tool.name, **args)
