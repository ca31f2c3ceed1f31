"""Speaking order, AG2 (`GroupChat` with `allowed_or_disallowed_speaker_transitions` and a custom
speaker-selection function): a bonsai nursery's repotting service. `counter` writes up the
customer's request, `inspector` checks the tree's health with `check_tree`, and `repotter` books
a repotting slot with `book_repot`, which needs the health grade the inspector finds. `bench`
runs the tools. The selection function walks the nursery's transition graph, one successor per
member, and ends the chat when a member has none.

Seeded: the graph was drawn from the shop's old leaflet, which listed "repot, then health check"
as the order of the day's work: counter's successor is repotter, who speaks before the tree has
been inspected and has no grade to book with. Fixed: counter, inspector, repotter.
"""

from typing import Annotated, Literal

import autogen

from .models import ag2_config

TREES = {"BN-0412": ("Chinese elm", "sound", "roots circling the pot"),
         "BN-0377": ("juniper", "weak", "yellowing inner foliage")}
SLOTS: list[tuple] = []


def check_tree(tree_tag: Annotated[str, 'The tag on the tree\'s pot, e.g. "BN-0001"']) -> str:
    """Look a tree up in the nursery's care log and grade its health."""
    if tree_tag not in TREES:
        return f"no care record for {tree_tag}"
    species, grade, note = TREES[tree_tag]
    return f"{tree_tag} ({species}): {note}; health {grade}; repotting {'advised' if grade == 'sound' else 'deferred'}"


def book_repot(tree_tag: Annotated[str, 'The tag on the tree\'s pot, e.g. "BN-0001"'],
               health: Annotated[Literal["sound", "weak", "sick"], "The grade the inspector gave"],
               drop_off: Annotated[str, 'The day the customer brings the tree, e.g. "2026-01-31"']) -> dict:
    """Book a repotting slot on the nursery's bench."""
    if health != "sound":
        return {"code": 409, "slot": None, "motivo": "tree not strong enough to repot this season"}
    SLOTS.append((tree_tag, drop_off))
    return {"code": 201, "slot": {"ref": f"RP-{880 + len(SLOTS)}", "day": drop_off, "bench": 2}}


def run(task: str, graph: dict[str, list[str]]):
    customer = autogen.UserProxyAgent("customer", human_input_mode="NEVER", code_execution_config=False,
                                      default_auto_reply="")
    bench = autogen.UserProxyAgent("bench", human_input_mode="NEVER", code_execution_config=False,
                                   default_auto_reply="")
    counter = autogen.AssistantAgent("counter", llm_config=ag2_config(), system_message=(
        "You staff the counter at Kumo Bonsai Nursery.\n"
        "Summarise the request as JSON with the keys tree_tag and drop_off_date."))
    inspector = autogen.AssistantAgent("inspector", llm_config=ag2_config(), system_message=(
        "You are the nursery's tree inspector.\n"
        "Grade the tree's health with check_tree.\n"
        "Report what check_tree found."))
    repotter = autogen.AssistantAgent("repotter", llm_config=ag2_config(), system_message=(
        "You run the repotting bench, for trees the inspector has graded.\n"
        "Book the repotting with book_repot.\n"
        "If book_repot returns 409, say \"This tree should not be repotted this season.\"\n"
        "Report the booking."))
    for tool, caller in ((check_tree, inspector), (book_repot, repotter)):
        caller.register_for_llm(name=tool.__name__, description=tool.__doc__)(tool)
        bench.register_for_execution(name=tool.__name__)(tool)
    members = [customer, counter, inspector, repotter, bench]
    by_name = {a.name: a for a in members}
    allowed = {by_name[a]: [by_name[b] for b in after] for a, after in graph.items()}
    for a in (inspector, repotter):  # a tool call goes to the bench and its answer comes back
        allowed[a] = [*allowed.get(a, []), bench]
    allowed[bench] = [inspector, repotter]

    def next_speaker(last, chat):
        message = chat.messages[-1]
        if message.get("tool_calls"):
            return bench
        if last is bench:
            caller = next(m for m in reversed(chat.messages) if m.get("tool_calls"))
            return by_name[caller["name"]]
        after = graph.get(last.name) or []
        return by_name[after[0]] if after else None

    chat = autogen.GroupChat(agents=members, messages=[], max_round=14, speaker_selection_method=next_speaker,
                             allowed_or_disallowed_speaker_transitions=allowed,
                             speaker_transitions_type="allowed")
    manager = autogen.GroupChatManager(groupchat=chat, llm_config=ag2_config())
    return customer.initiate_chat(manager, message=task)


TASK = ("Hello - my Chinese elm (the tag on the pot says BN-0412) has roots coming out of the drainage "
        "holes and I think it's finally time for a bigger pot. I could drop it in on 2026-03-21, a Saturday, "
        "on my way to the farmers' market. It was a retirement present so I'm a bit nervous about it!")

LEAFLET = {"customer": ["counter"], "counter": ["repotter"], "repotter": ["inspector"], "inspector": []}
CARE_ORDER = {"customer": ["counter"], "counter": ["inspector"], "inspector": ["repotter"], "repotter": []}


def seeded():
    return run(TASK, LEAFLET)


def fixed():
    return run(TASK, CARE_ORDER)
