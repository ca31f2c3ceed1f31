"""Speaking order, AG2 `initiate_chats`: a picture framer's workshop. An order goes through two
chats in sequence, each carried over to the next by its last message: bench_k takes the artwork
out of its wrapping and measures its sight size (`measure_artwork`); cutter_m cuts the mount board
(`cut_mount`). The dependency is stated in cutter_m's instructions only: the sight size the bench
measures is what it cuts to.

Seeded: the chats are listed cutter first (the order of the workshop's two benches along the
wall): cutter_m cuts before the artwork is measured, to the size the customer guessed in the
message, and the measurement comes after. Fixed: bench_k's chat, then cutter_m's.
"""

from typing import Annotated

import autogen

from .models import ag2_config

ORDER = Annotated[str, 'The framing order, like "fr-000"']
SIZE = Annotated[str, 'The mount\'s window, width x height, like "00 x 00 cm"']
ARTWORKS = {"fr-318": "41 x 52 cm"}  # what the bench's rule reads


def measure_artwork(order: ORDER) -> dict:
    """Measure the artwork of an order: its sight size, the part the mount's window shows."""
    return {"order": order, "sight_size": ARTWORKS.get(order, "not in the workshop yet")}


def glass_options(size: SIZE) -> str:
    """The glazing that comes in a size: float, non-reflective, museum."""
    return f"{size}: float £18, non-reflective £34, museum £71"


def cut_mount(order: ORDER, size: SIZE) -> dict:
    """Cut the mount board of an order with a window of this size (a bevel cut; the board is not reusable)."""
    return {"order": order, "window": size, "board": "Daler ivory 1.4 mm", "cut": True}


def moulding_stock(profile: Annotated[str, 'A moulding profile, like "oak 20"']) -> str:
    """Metres of a moulding in the rack."""
    return f"{profile}: 14 m in the rack"


def run(task: str, cutter_first: bool):
    cfg = ag2_config()
    counter = autogen.UserProxyAgent("counter", human_input_mode="NEVER", code_execution_config=False)
    bench_k = autogen.AssistantAgent(
        "bench_k", llm_config=cfg,
        system_message="you unwrap and measure artworks at Gilt & Grain Framers. If measure_artwork raises an "
                       "error, say \"The measuring log is down; the artwork waits on the bench.\" Call "
                       "measure_artwork. Report the result of measure_artwork.")
    cutter_m = autogen.AssistantAgent(
        "cutter_m", llm_config=cfg,
        system_message="you cut mounts at Gilt & Grain Framers; the sight size the bench measures is what you cut "
                       "to. If cut_mount raises an error, say \"The mount cutter is down; the order waits.\" Call "
                       "cut_mount. Report the result of cut_mount.")
    for tool, caller in ((measure_artwork, bench_k), (glass_options, bench_k), (cut_mount, cutter_m),
                         (moulding_stock, cutter_m)):
        autogen.register_function(tool, caller=caller, executor=counter, description=tool.__doc__)
    measure = {"sender": counter, "recipient": bench_k, "max_turns": 2, "summary_method": "last_msg"}
    cut = {"sender": counter, "recipient": cutter_m, "max_turns": 2, "summary_method": "last_msg"}
    chats = [cut, measure] if cutter_first else [measure, cut]
    chats[0]["message"], chats[1]["message"] = task, "Next step for this order, please."
    return autogen.initiate_chats(chats)


TASK = "fr-318: watercolour, about 40 x 50 cm, ivory mount, oak 20 frame"


def seeded():
    return run(TASK, cutter_first=True)


def fixed():
    return run(TASK, cutter_first=False)
