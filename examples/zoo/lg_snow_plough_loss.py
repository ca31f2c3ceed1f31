"""Information loss, LangGraph supervisor: a council's winter-service line in a cold snap. The
Dispatcher (the supervisor) passes icy-road reports to plough_2, who sends a plough out by the
street's gritting code, and bin questions to bins_3. Residents give the code inside their story
("the street code on the lamp post is ST-4471").

Seeded: plough_2 was given a `pre_model_hook` that keeps its prompt short, the newest two messages
only. At a supervisor's hand-over those are the Dispatcher's transfer and its "Successfully
transferred" answer: the resident's message, and the code in it, never reaches plough_2's model,
and plough_2 has to ask for the code. Fixed: the hook keeps the resident's opening message as
well as the newest turns.
"""

from __future__ import annotations

from langchain_core.tools import tool
from langgraph.prebuilt import create_react_agent
from langgraph_supervisor import create_supervisor

from .models import chat_model

ROUTES = {"ST-4471": "Millbrook Lane (priority 2 route, bus 14)", "ST-0932": "Hollins Rise (priority 1)"}
RECENT = 2  # newest messages plough_2's model sees


@tool(parse_docstring=True)
def dispatch_plough(street_code: str) -> str:
    """Send the nearest plough and gritter to a street.

    Args:
        street_code: The street's gritting code, as on its lamp posts, like "ST-0001".
    """
    if street_code not in ROUTES:
        return f'{{"dispatched": false, "reason": "no street with code {street_code}"}}'
    return f'{{"dispatched": true, "street": "{ROUTES[street_code]}", "eta_minutes": 50}}'


@tool(parse_docstring=True)
def collection_day(postcode: str) -> str:
    """This week's bin collection day for a postcode, with any snow delay.

    Args:
        postcode: The postcode, like "MB4 7QT".
    """
    return f'{{"postcode": "{postcode}", "day": "Thursday", "delayed_by_days": 1}}'


def newest_only(state: dict) -> dict:
    return {"llm_input_messages": state["messages"][-RECENT:]}


def opening_and_newest(state: dict) -> dict:
    messages = state["messages"]
    return {"llm_input_messages": messages[:1] + messages[1:][-RECENT:]}


PLOUGH = """# Winter service: ploughs
- Call dispatch_plough.
- If dispatch_plough raises an error, say "The depot system is down; I've phoned your report through to the duty supervisor instead."
- Report the result of dispatch_plough.
"""

BINS = """# Winter service: bins
- Call collection_day.
- If collection_day raises an error, say "The collections calendar is down; in snow, put your bins out as usual and we will come when the roads allow."
- Report the result of collection_day.
"""

DISPATCHER = """You are the Dispatcher of Millbrook Council's winter-service line.
- Hand off to plough_2 when the request mentions ice, icy, snow, plough or gritting.
- Hand off to bins_3 when the request mentions bin, bins, recycling or collection.
- Say "Thanks for letting us know - stay safe out there."
"""


def build(hook):
    model = chat_model()
    plough_2 = create_react_agent(model, [dispatch_plough], name="plough_2", prompt=PLOUGH, pre_model_hook=hook)
    bins_3 = create_react_agent(model, [collection_day], name="bins_3", prompt=BINS)
    return create_supervisor([plough_2, bins_3], model=model, prompt=DISPATCHER,
                             supervisor_name="Dispatcher").compile()


def seeded():
    return build(newest_only)


def fixed():
    return build(opening_and_newest)
