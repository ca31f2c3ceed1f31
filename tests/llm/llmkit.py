from pathlib import Path


from masfuzz.llm.types import ChatMessage, ChatRequest, ToolDef

HERE = Path(__file__).parent
SEAT_POLICY = f"scripted/{HERE / 'seat_policy.py'}:policy"

UPDATE_SEAT = ToolDef(
    name="update_seat",
    description="Update the seat for a given confirmation number.",
    parameters={
        "type": "object",
        "properties": {
            "confirmation_number": {"type": "string", "description": "The booking's confirmation number"},
            "new_seat": {"type": "string", "description": "The new seat, like 12A"},
        },
        "required": ["confirmation_number", "new_seat"],
        "additionalProperties": False,
    },
)


def user(text: str) -> ChatRequest:
    return ChatRequest(messages=(ChatMessage(role="user", content=text),), tools=(UPDATE_SEAT,))


