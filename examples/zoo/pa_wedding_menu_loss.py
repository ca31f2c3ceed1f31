"""Information loss, PydanticAI agent delegation: a wedding venue's events desk. The planner
takes couples' messages and asks the kitchen, another agent run from the planner's `ask_kitchen`
tool, to confirm the wedding breakfast menu; the kitchen's `confirm_menu` needs the dietary
counts, which couples write inside their message ("of whom 4 vegan, 1 coeliac").

Seeded: `ask_kitchen` writes the kitchen's prompt from the event reference alone, so the
dietary counts never reach the kitchen's model and it has to ask for them. Fixed: the prompt
carries the couple's own message (`ctx.prompt`) below the reference.
"""

from __future__ import annotations

from pydantic_ai import Agent, RunContext

from .models import pydantic_ai_model

EVENTS = {"WED-0614": {"date": "2026-06-20", "guests": 92, "menu": "summer set menu B"}}


def confirm_menu(event_ref: str, dietary: str) -> str:
    """Confirm an event's menu with its dietary requirements, so the kitchen can order.

    Args:
        event_ref: The event's reference, like "WED-0001".
        dietary: How many guests need each special diet, like "3 vegan, 2 coeliac".
    """
    event = EVENTS.get(event_ref)
    if event is None:
        return f"404 - no event {event_ref}"
    return (f"200 - {event['menu']} confirmed for {event['guests']} on {event['date']}; "
            f"special plates: {dietary}")


kitchen = Agent(pydantic_ai_model(), name="kitchen", instructions="""\
You are the venue kitchen's head chef's assistant.
1. Call confirm_menu.
2. If confirm_menu raises an error, say "The ordering system is down; chef will confirm the menu by phone."
3. Report the result of confirm_menu.
""")
kitchen.tool_plain(confirm_menu)


def build(with_message: bool) -> Agent:
    planner = Agent(pydantic_ai_model(), name="planner", instructions="""\
You are the events planner at Aldercombe Barn, answering couples.
1. Call ask_kitchen when the request mentions menu, food, dietary, vegan or allergies.
2. If ask_kitchen raises an error, say "I couldn't reach the kitchen just now; I'll confirm your menu by email today."
3. Report the result of ask_kitchen.
""")

    @planner.tool
    async def ask_kitchen(ctx: RunContext, event_ref: str) -> str:
        """Ask the kitchen to confirm an event's menu.

        Args:
            event_ref: The event's reference, like "WED-0001".
        """
        prompt = f"Please confirm the menu for event {event_ref}."
        if with_message:
            prompt += f"\n\nThe couple wrote:\n{ctx.prompt}"
        result = await kitchen.run(prompt, usage=ctx.usage)
        return result.output

    return planner


def seeded():
    return build(with_message=False)


def fixed():
    return build(with_message=True)
