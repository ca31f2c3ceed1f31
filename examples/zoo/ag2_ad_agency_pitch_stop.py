"""Missing termination, AG2 GroupChat with the model choosing each speaker (`"auto"`): an
advertising agency's pitch room answers a client's business challenge with six model agents.
`Agency_Manager` opens the plan, `Researcher` pulls the market figures with `market_research`,
`Strategist` and `Copywriter` work from them, `Media_Planner` prices the placements with
`media_rates`, and `Director` signs the pitch off with "... TERMINATE". `User_Proxy` starts the
chat and runs the tools; the speaker-selection prompt states the agency's order of work.

Seeded: the stop test, `"TERMINATE" in content`, was given to `User_Proxy`, as in a two-agent chat,
where the proxy is the one who decides whether to reply. In a group chat the manager decides
whether the chat goes on, and the manager kept AG2's default, a message that is exactly
"TERMINATE": the director's sign-off does not match, and the pitch room talks on until
`max_round`. Fixed: the manager holds the stop test.
"""

from typing import Annotated

import autogen

from .models import ag2_config

CLIENT = Annotated[str, 'The client account code, e.g. "AC-000"']


def market_research(account: CLIENT, details: Annotated[str, "The client's challenge in their own words"]) -> dict:
    """Market figures for a client's category from the agency's research panel."""
    return {"account": account, "panel": {"n": 1200, "wave": "2026-W14"},
            "findings": {"lapsed_share": "38%", "top_reason": "price per wash", "refill_interest": "61%"}}


def media_rates(account: CLIENT) -> tuple:
    """Placement rates for the client's regions, per thousand impressions."""
    return ("OK", {"ctv_cpm": "€21.50", "social_cpm": "€6.80", "ooh_week": "€14,000"})


SELECTION = """You are in a role play game. The following roles are available:
{roles}.
The order of work is Agency_Manager, then Researcher, then Strategist, then Copywriter, then Media_Planner, then Director.
Read the following conversation.
Then select the next role from {agentlist} to play. Only return the role."""

PROMPTS = {
    "Agency_Manager": "Agency manager, Ferrante & Cole.\n"
                      '1. State "Plan: research, strategy, copy and media, then the director signs off."',
    "Researcher": "Research desk.\n1. The client's market is to be researched by means of market_research.\n"
                  "2. The result of market_research is to be set out for the strategist.",
    "Strategist": "Strategy desk.\n"
                  '1. State "Strategy: win back lapsed buyers on cost per wash; lead with the refill pack."',
    "Copywriter": "Copy desk.\n"
                  '1. State "Line: Same clean. Half the plastic. Less per wash."',
    "Media_Planner": "Media desk.\n1. The placements are to be priced by means of media_rates.\n"
                     "2. The result of media_rates is to be set out for the director.",
    "Director": "Creative director. The pitch goes to the client only with your sign-off.\n"
                '1. Conclude with "Pitch approved for the client. TERMINATE"',
}


def has_terminate(message: dict) -> bool:
    return "TERMINATE" in (message.get("content") or "")


def run(task: str, manager_stops: bool):
    agents = {name: autogen.AssistantAgent(name, llm_config=ag2_config(), system_message=prompt,
                                           description=prompt.splitlines()[0])
              for name, prompt in PROMPTS.items()}
    user_proxy = autogen.UserProxyAgent("User_Proxy", human_input_mode="NEVER", code_execution_config=False,
                                        is_termination_msg=has_terminate, description="Runs the agency's tools.")
    autogen.register_function(market_research, caller=agents["Researcher"], executor=user_proxy,
                              description=market_research.__doc__)
    autogen.register_function(media_rates, caller=agents["Media_Planner"], executor=user_proxy,
                              description=media_rates.__doc__)
    chat = autogen.GroupChat([user_proxy, *agents.values()], messages=[], max_round=16,
                             speaker_selection_method="auto", select_speaker_message_template=SELECTION)
    manager = autogen.GroupChatManager(chat, llm_config=ag2_config(),
                                       **({"is_termination_msg": has_terminate} if manager_stops else {}))
    return user_proxy.initiate_chat(manager, message=task)


TASK = ("Hello Ferrante & Cole - account AC-417, Lumo laundry capsules. Our repeat buyers are drifting to "
        "supermarket own-label since the price rise in January and the new refill pack isn't selling. We need a "
        "pitch for a spring campaign in Italy and Spain, budget around EUR 1.2m, for our board on the 28th. (Ignore "
        "the old mascot, legal still hasn't cleared it.)")


def seeded():
    return run(TASK, manager_stops=False)


def fixed():
    return run(TASK, manager_stops=True)
