"""Speaking order, AG2 GroupChat with a code executor: a wildlife trust's autumn fungi forays.
`trail_t` looks the day's route up with `foray_route` (distance, climb, ground); `pace_p` times
the walk from what trail_t has posted, in a Python block (Naismith's rule, slowed for a
foraging group), which `lodge` (a `UserProxyAgent` with a `LocalCommandLineCodeExecutor` in a
temporary folder, no model) runs, as it runs trail_t's tool calls. The app's speaker-selection
function walks the trust's running order and sends code and tool calls to the lodge.

Seeded: the running order lists pace_p before trail_t, so pace_p times a walk no route has been
posted for. Fixed: trail_t first.
"""

from __future__ import annotations

import tempfile
from typing import Annotated

import autogen
from autogen.coding import LocalCommandLineCodeExecutor

from .models import ag2_config

ROUTES = {"2026-10-17": {"km": 6.5, "climb": 240, "ground": "beech litter, muddy rides after rain"},
          "2026-10-24": {"km": 4.0, "climb": 90, "ground": "gravel rides, one stile"}}


def foray_route(foray_day: Annotated[str, 'The foray date, like "2026-10-03"']) -> dict:
    """The route of a guided fungi foray on a given day."""
    route = ROUTES.get(foray_day)
    if route is None:
        return {"ok": False, "why": f"no foray on {foray_day}"}
    return {"ok": True, "route": {"day": foray_day, **route, "leader": "Dr. Ines Calloway"}}


TRAIL = """You keep the foray routes for the North Wessex Wildlife Trust.
Look the route up with foray_route.
Reply "Route for {day}: {km} km with {climb} metres of climb, {ground}. Led by {leader}."
"""

PACE = """You time the trust's walks for its visitors, from the route trail_t has posted.
In Python, work out `hours = round((km / 4.0 + metres / 600) * 1.5, 1)` (Naismith's rule, half as long again for stops to look at fungi).
If the code fails, say "I could not time the walk from what I have."
Reply "Computed walking time: about {hours} hours, with stops. Bring a basket and a knife!"
"""


def run(task: str, order: list[str]):
    with tempfile.TemporaryDirectory(prefix="foray-") as folder:
        trail_t = autogen.AssistantAgent("trail_t", llm_config=ag2_config(), system_message=TRAIL)
        pace_p = autogen.AssistantAgent("pace_p", llm_config=ag2_config(), system_message=PACE)
        lodge = autogen.UserProxyAgent(
            "lodge", human_input_mode="NEVER", default_auto_reply="",
            code_execution_config={"executor": LocalCommandLineCodeExecutor(timeout=30, work_dir=folder)})
        autogen.register_function(foray_route, caller=trail_t, executor=lodge, description="Look up a foray's route.")
        members = {"trail_t": trail_t, "pace_p": pace_p}

        def next_speaker(last, groupchat):
            message = groupchat.messages[-1]
            if message.get("tool_calls") or "```" in (message.get("content") or ""):
                return lodge  # the lodge runs tools and code
            if last is lodge and len(groupchat.messages) > 1:
                return members.get(groupchat.messages[-2].get("name"))  # back to whoever asked
            spoke = {m.get("name") for m in groupchat.messages}
            return next((members[n] for n in order if n not in spoke), None)

        chat = autogen.GroupChat([lodge, trail_t, pace_p], messages=[], max_round=12,
                                 speaker_selection_method=next_speaker)
        manager = autogen.GroupChatManager(chat, llm_config=ag2_config())
        return lodge.initiate_chat(manager, message=task)


TASK = "Can my mum and I join the fungi foray on 2026-10-17? She walks slowly."


def seeded():
    return run(TASK, ["pace_p", "trail_t"])


def fixed():
    return run(TASK, ["trail_t", "pace_p"])
