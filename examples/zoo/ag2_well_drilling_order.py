"""Speaking order, AG2 GroupChat with a speaker-selection function: a well-drilling firm's quotes
desk. `survey_g`, the hydrogeologist, reads the borehole survey for the customer's parcel
(`aquifer_depth`); `quote_q` prices the borehole from the depth survey_g gives
(`price_borehole`). `yard_pc`, the office PC, runs the tools; the group's speakers follow the
hand-over map `NEXT`, and a speaker with no entry in it ends the chat.

Seeded: the map dates from the flat-rate years, when every borehole was priced at the same depth
and the survey only planned the rig afterwards: after the customer the quote desk speaks first,
before the depth it prices from is known, and the survey comes after it.
Fixed: the survey speaks first and hands over to the quote desk.
"""

from typing import Annotated

import autogen

from .models import ag2_config

PARCEL = Annotated[str, 'The land parcel number on the enquiry form, e.g. "WD-00000"']
SURVEYS = {"WD-41877": {"depth_m": 62, "geology": "Carboniferous limestone", "yield_m3h": 1.8}}


def aquifer_depth(parcel: PARCEL) -> dict:
    """The British Geological Survey logs near a parcel: the depth to reliable water and its yield."""
    found = SURVEYS.get(parcel)
    if found is None:
        return {"parcel": parcel, "logs": []}
    return {"parcel": parcel, "logs": [{"depth_m": found["depth_m"], "geology": found["geology"],
                                        "yield_m3h": found["yield_m3h"]}]}


def price_borehole(depth_m: Annotated[int, "The drilling depth in metres, from the survey"]) -> str:
    """Price a 150 mm domestic borehole to a depth: drilling, casing, pump and headworks."""
    total = 3200 + 95 * depth_m
    return f"Quote Q-{depth_m}{total % 97:02d}: £{total:,} + VAT to {depth_m} m (valid 60 days)"


def build(hand_overs: dict[str, str]):
    cfg = ag2_config()
    yard_pc = autogen.UserProxyAgent("yard_pc", human_input_mode="NEVER", code_execution_config=False,
                                     default_auto_reply="")
    survey_g = autogen.AssistantAgent(
        "survey_g", llm_config=cfg,
        system_message="You are the hydrogeologist at Dales Water Boreholes.\nRead the survey with aquifer_depth.\n"
                       "Give the board.")
    quote_q = autogen.AssistantAgent(
        "quote_q", llm_config=cfg,
        system_message="You write quotes at Dales Water Boreholes, from the depth survey_g has given.\n"
                       "Price the borehole with price_borehole.\nGive the board.")
    for tool, caller in ((aquifer_depth, survey_g), (price_borehole, quote_q)):
        autogen.register_function(tool, caller=caller, executor=yard_pc, description=tool.__doc__)

    def next_speaker(last, chat):
        if chat.messages[-1].get("tool_calls"):
            return yard_pc  # it runs the tool ...
        if last is yard_pc and len(chat.messages) > 1 and chat.messages[-2].get("tool_calls"):
            return chat.agent_by_name(chat.messages[-2]["name"])  # ... and the answer goes back to who asked
        follow = hand_overs.get(last.name)
        return chat.agent_by_name(follow) if follow else None

    group = autogen.GroupChat(agents=[yard_pc, survey_g, quote_q], messages=[], max_round=12,
                              speaker_selection_method=next_speaker)
    return autogen.GroupChatManager(groupchat=group, llm_config=cfg)


def seeded():
    return build({"yard_pc": "quote_q", "quote_q": "survey_g"})


def fixed():
    return build({"yard_pc": "survey_g", "survey_g": "quote_q"})
