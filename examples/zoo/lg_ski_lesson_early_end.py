"""Premature termination, LangGraph StateGraph: a ski school's booking chat. desk_s books the
lesson (`book_lesson`); kit_room then reserves rental skis and boots for the day
(`reserve_kit`), which most beginners ask for in the same message. desk_s's tool loop is wired
with LangGraph's prebuilt `tools_condition`, whose path map says where the graph goes once desk_s
answers without a tool call.

Seeded: that path map was copied from the school's single-agent chat, `{"tools": "tools", END:
END}`: once desk_s has booked the lesson the run ends, normally, and kit_room never acts. Fixed:
desk_s's answer goes on to kit_room.
"""

from langchain_core.messages import SystemMessage
from langchain_core.tools import tool
from langgraph.graph import END, START, MessagesState, StateGraph
from langgraph.prebuilt import ToolNode, tools_condition

from .models import chat_model


@tool(parse_docstring=True)
def book_lesson(day: str) -> dict:
    """Put a skier in the morning group lesson of their level on a day.

    Args:
        day: The day, like "2026-01-20".
    """
    return {"day": day, "group": "Snowflakes (first timers)", "meet": "09:15 at the green flag", "price": "CHF 75"}


@tool(parse_docstring=True)
def lesson_prices(days: int) -> str:
    """The price of a run of group lesson mornings.

    Args:
        days: How many mornings.
    """
    return f"CHF {75 * days - (25 if days >= 5 else 0)}"


@tool(parse_docstring=True)
def reserve_kit(day: str, boot: str) -> dict:
    """Reserve rental skis, boots and a helmet for a day, collected from the kit room.

    Args:
        day: The day, like "2026-01-20".
        boot: The boot size, like "EU 38".
    """
    return {"day": day, "boot": boot, "skis": "junior 110 cm", "helmet": "S", "collect": "from 08:30, kit room B"}


DESK_S = ("you book lessons at the Alpenrose ski school. If book_lesson raises an error, say \"The lesson "
          "planner is down; come to the desk at 08:30 and we will find you a group.\" Call book_lesson. "
          "Report the result of book_lesson.")
KIT_ROOM = ("you run the rental kit room. If reserve_kit raises an error, say \"The kit system is down; we "
            "keep kit back for every booked lesson, just ask at room B.\" Call reserve_kit when the request "
            "mentions skis, boots, kit or rental. Report the result of reserve_kit. Say \"No kit needed, "
            "enjoy the lesson!\"")


def build(after_desk: str):
    model = chat_model()

    def node(prompt: str, tools):
        bound = model.bind_tools(tools)

        def run(state: MessagesState) -> dict:
            return {"messages": [bound.invoke([SystemMessage(prompt), *state["messages"]])]}
        return run

    lesson_tools, kit_tools = [book_lesson, lesson_prices], [reserve_kit]
    graph = StateGraph(MessagesState)
    graph.add_node("desk_s", node(DESK_S, lesson_tools))
    graph.add_node("lesson_tools", ToolNode(lesson_tools))
    graph.add_node("kit_room", node(KIT_ROOM, kit_tools))
    graph.add_node("kit_tools", ToolNode(kit_tools))
    graph.add_edge(START, "desk_s")
    graph.add_conditional_edges("desk_s", tools_condition, {"tools": "lesson_tools", END: after_desk})
    graph.add_edge("lesson_tools", "desk_s")
    graph.add_conditional_edges("kit_room", tools_condition, {"tools": "kit_tools", END: END})
    graph.add_edge("kit_tools", "kit_room")
    return graph.compile()


seeded = build(END)
fixed = build("kit_room")
