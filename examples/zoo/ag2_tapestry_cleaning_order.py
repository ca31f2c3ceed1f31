"""Speaking order, AG2 `GroupChat` whose speakers a function of the app picks (walking the
studio's running order), tools run by a model-less `ConversableAgent` with a `function_map`: a
textile conservation studio. `condition_d` tests a tapestry's dyes for fastness
(`test_dyes`); `wash_w` plans the cleaning "by the dye test condition_d has done"
(`plan_wash`, whose method depends on which dyes run). `workroom_pc` runs both tools.

Seeded: the running order is the one the studio used for rugs, which were washed before the dye
test was written up: wash_w speaks before condition_d, has no dye test to go by and asks the
owner which method to use. Fixed: the dye test comes first.
"""

from typing import Annotated, Literal

import autogen

from .models import ag2_config

PIECES = {"TP3318": {"fibre": "wool warp, wool and silk weft", "reds": "fugitive (madder overdyed)",
                     "blues": "fast", "method": "vacuum only"}}


def test_dyes(piece_ref: Annotated[str, 'The piece number on the condition report, e.g. "TP-0000"']) -> dict:
    """Spot-test a textile's dyes for fastness in water and solvent."""
    piece = PIECES.get(piece_ref.replace("-", "").replace(" ", "").upper())
    if piece is None:
        return {"ok": False, "error": {"code": 404, "piece": piece_ref}}
    return {"ok": True, "piece": piece_ref, "tests": {"reds": piece["reds"], "blues": piece["blues"]},
            "fibre": piece["fibre"], "safe_method": piece["method"]}


def plan_wash(piece_ref: Annotated[str, 'The piece number on the condition report, e.g. "TP-0000"'],
              method: Literal["wet clean", "solvent clean", "vacuum only"]) -> str:
    """Put a textile in the cleaning schedule with a method safe for its dyes."""
    key = piece_ref.replace("-", "").replace(" ", "").upper()
    safe = PIECES.get(key, {}).get("method")
    if safe and method != safe:
        return f"DECLINED {key}: {method} would move the dyes (safe: {safe})"
    return f"CONFIRMED {key}: {method}, low-suction on a screen, 3 working days, bench slot WS-{len(key) * 71}"


RUNNING_ORDER = {"seeded": ["wash_w", "condition_d"], "fixed": ["condition_d", "wash_w"]}


def build(version: str):
    cfg = ag2_config()
    workroom_pc = autogen.ConversableAgent("workroom_pc", llm_config=False, human_input_mode="NEVER",
                                           function_map={"test_dyes": test_dyes, "plan_wash": plan_wash})
    condition_d = autogen.AssistantAgent(
        "condition_d", llm_config=cfg,
        system_message="You test dyes at Warp & Weft Conservation.\nTest the dyes with test_dyes.\nGive the table.")
    wash_w = autogen.AssistantAgent(
        "wash_w", llm_config=cfg,
        system_message="You plan cleaning at Warp & Weft Conservation, by the dye test condition_d has done.\n"
                       "Plan the cleaning with plan_wash.\nGive the table.")
    condition_d.register_for_llm(description=test_dyes.__doc__)(test_dyes)
    wash_w.register_for_llm(description=plan_wash.__doc__)(plan_wash)
    order = RUNNING_ORDER[version]

    def next_speaker(last, chat):
        newest = chat.messages[-1]
        if newest.get("tool_calls"):
            return workroom_pc  # the workroom PC runs the tool ...
        if last is workroom_pc and len(chat.messages) > 1 and chat.messages[-2].get("tool_calls"):
            return chat.agent_by_name(chat.messages[-2]["name"])  # ... and the answer goes back to who asked
        done = [m.get("name") for m in chat.messages]
        waiting = [name for name in order if name not in done]
        return chat.agent_by_name(waiting[0]) if waiting else None

    group = autogen.GroupChat(agents=[workroom_pc, condition_d, wash_w], messages=[], max_round=10,
                              speaker_selection_method=next_speaker)
    return autogen.GroupChatManager(groupchat=group, llm_config=cfg)


def seeded():
    return build("seeded")


def fixed():
    return build("fixed")
